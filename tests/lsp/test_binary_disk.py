"""A binary model in the editor never loses work (#29), through a real ``onnxtext lsp``: every
``onnxtext/openBinary`` reads the file as it is now and says what it read (``files``, ``stamp``),
a save says what it left on disk, and a save never writes a model that lost weights."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pytest_lsp import LanguageClient

import onnxtext
from onnxtext.io import model_bytes

HEADER = '<ir_version: 8, opset_import: ["" : 18]>\n'
SMALL = (
    HEADER
    + 'g (float[2] x) => (float[2] y) <float[2] w = ["location": "m.data", "length": "8"]> {\n   y = Add (x, w)\n}\n'
)


def _stamp_of(path: Path) -> list[Any]:
    st = os.stat(path)
    return [str(path), st.st_size, str(st.st_mtime_ns), str(st.st_ino)]


async def _open(client: LanguageClient, path: Path) -> Any:
    return await client.protocol.send_request_async("onnxtext/openBinary", {"uri": path.as_uri()})


async def _save(client: LanguageClient, path: Path, text: str) -> Any:
    return await client.protocol.send_request_async("onnxtext/saveBinary", {"uri": path.as_uri(), "text": text})


def _write(path: Path, text: str) -> None:
    path.write_bytes(model_bytes(onnxtext.parse_model(text)))


def _set_producer(path: Path, name: str) -> None:
    """An outside tool's edit of the model file (a new file renamed over it, as most tools write)."""
    model = onnxtext.load(path)
    model.producer_name = name
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(model_bytes(model))
    os.replace(tmp, path)


@pytest.mark.asyncio
async def test_open_says_which_files_it_read_and_their_stamp(client: LanguageClient, tmp_path: Path) -> None:
    path, data = tmp_path / "m.onnx", tmp_path / "m.data"
    data.write_bytes(np.array([1, 2], np.float32).tobytes())
    _write(path, SMALL)
    opened = await _open(client, path)
    assert opened.files == [str(path), str(data)]
    assert opened.stamp == [_stamp_of(path), _stamp_of(data)]
    data.write_bytes(np.array([1, 2, 3], np.float32).tobytes())  # the weights change outside
    again = await _open(client, path)
    assert again.text == opened.text and again.stamp == [_stamp_of(path), _stamp_of(data)]
    assert again.stamp[1] != opened.stamp[1]


@pytest.mark.asyncio
async def test_every_open_reads_the_file_as_it_is_now(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    (tmp_path / "m.data").write_bytes(bytes(8))
    _write(path, SMALL)
    first = await _open(client, path)
    _set_producer(path, "external-edit")
    second = await _open(client, path)
    assert 'producer_name: "external-edit"' in second.text and second.stamp[0] == _stamp_of(path)
    assert second.stamp[0] != first.stamp[0]
    # the save compares against what was read last: the outside change is in the text, and stays
    saved = await _save(client, path, second.text.replace("Add", "Sub"))
    assert saved.written is True and saved.stamp == [_stamp_of(path), _stamp_of(tmp_path / "m.data")]
    model = onnxtext.load(path)
    assert model.producer_name == "external-edit" and model.graph.node[0].op_type == "Sub"


@pytest.mark.asyncio
async def test_a_reopen_after_a_save_shows_the_saved_model(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    (tmp_path / "m.data").write_bytes(bytes(8))
    _write(path, SMALL)
    opened = await _open(client, path)
    edited = opened.text.replace("Add", "Mul")
    saved = await _save(client, path, edited)
    assert saved.written is True and saved.files == [str(path), str(tmp_path / "m.data")]
    assert saved.stamp[0] == _stamp_of(path)
    # saving the saved text again leaves the file alone, and says so with the same stamp
    again = await _save(client, path, edited)
    assert (again.written, again.unchanged) == (False, True) and again.stamp == saved.stamp
    reverted = await _open(client, path)  # File: Revert File
    assert "Mul" in reverted.text and "Add" not in reverted.text
    # an unrelated edit of the reverted text keeps the saved edit
    assert (await _save(client, path, reverted.text.replace("y = Mul", "y  = Mul"))).unchanged is not True
    assert onnxtext.load(path).graph.node[0].op_type == "Mul"
    refused = await _save(client, path, reverted.text.replace("Mul (x, w)", "Mul (x, w"))
    assert refused.written is False and refused.files is None and refused.stamp is None
