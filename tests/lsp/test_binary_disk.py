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
from test_binary_byref import _line_of, _model, _raw

import onnxtext
from onnxtext.io import model_bytes
from onnxtext.proto import TensorProto

HEADER = '<ir_version: 8, opset_import: ["" : 18]>\n'
GOOD = HEADER + "g (float[2] x) => (float[2] y) {\n   y = Add (x, x)\n}\n"
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


# ------------------------------------------------------------ views by reference
N = 400_000  # float32 elements per weight: two make a model whose text would pass 12 MB


def _big(path: Path, extra: int = 0) -> dict[str, bytes]:
    """``y = x + w0 + w1 (+ w2 …) + b``: ``2 + extra`` weights of 1.6 MB (shown by reference) and a
    small bias ``b`` (inline); the weights' bytes by name."""
    return _model(path, [N] * (2 + extra))


def _record(text: str, name: str) -> tuple[int, int]:
    """The offsets of ``name``'s record ``["digest": "sha256:…"]`` in a view's text."""
    start = text.index("[", text.index(f"] {name} = ["))
    return start, text.index("]", start) + 1


def _with_record(text: str, name: str, record: str) -> str:
    start, end = _record(text, name)
    return text[:start] + record + text[end:]


def _edits(text: str) -> dict[str, str]:
    """Edits of w0's reference that would save it without its data (#29, 8)."""
    start, end = _record(text, "w0")
    digest = text[start:end].split('"')[3]
    return {
        "key renamed Digest": _with_record(text, "w0", f'["Digest": "{digest}"]'),
        "key renamed checksum": _with_record(text, "w0", f'["checksum": "{digest}"]'),
        "data_location added": text.replace(f"float[{N}] w0 =", f"float[{N}] w0 @{{data_location: DEFAULT}} ="),
        "record emptied": _with_record(text, "w0", "[]"),
        "digest emptied": _with_record(text, "w0", '["digest": ""]'),
        "shape changed": text.replace(f"float[{N}] w0 =", f"float[2, {N // 2}] w0 ="),
        "values added": text.replace(f"float[{N}] w0 =", f"float[{N}] w0 @{{float_data: [1.0]}} ="),
    }


async def _published(client: LanguageClient, uri: str, version: int) -> list[Any]:
    """The diagnostics published for ``uri`` at ``version``."""
    from lsprotocol import types as L

    while True:
        params = await client.wait_for_notification(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        if params.uri == uri and params.version == version:
            return list(params.diagnostics)


@pytest.mark.asyncio
async def test_an_edited_reference_is_never_saved_without_its_data(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "big.onnx"
    _big(path)
    before = path.read_bytes()
    opened = await _open(client, path)
    assert "by reference" in opened.note
    line = _line_of(opened.text, "] w0 = [")
    for label, edited in _edits(opened.text).items():
        saved = await _save(client, path, edited)
        assert saved.written is False and saved.stamp is None, label
        assert [(d.code, d.range.start.line + 1) for d in saved.diagnostics] == [("X006", line)], label
        assert "initializer 'w0' is shown by reference" in saved.diagnostics[0].message, label
        assert path.read_bytes() == before, label


@pytest.mark.asyncio
async def test_an_edited_reference_is_flagged_while_typing(client: LanguageClient, tmp_path: Path) -> None:
    from lsprotocol import types as L

    path = tmp_path / "big.onnx"
    _big(path)
    opened = await _open(client, path)
    uri = "onnx-model:" + str(path)
    client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "onnxtext", 1, opened.text)))
    assert [d for d in await _published(client, uri, 1) if d.severity == L.DiagnosticSeverity.Error] == []
    line = _line_of(opened.text, "] w0 = [")
    for version, (label, edited) in enumerate(_edits(opened.text).items(), start=2):
        change = L.TextDocumentContentChangeWholeDocument(edited)
        client.text_document_did_change(
            L.DidChangeTextDocumentParams(L.VersionedTextDocumentIdentifier(version, uri), [change])
        )
        errors = [d for d in await _published(client, uri, version) if d.severity == L.DiagnosticSeverity.Error]
        assert [(d.code, d.range.start.line + 1) for d in errors] == [("X006", line)], label


@pytest.mark.asyncio
async def test_equal_bytes_keep_each_tensors_own_fields(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "big.onnx"
    weights = _big(path, extra=2)
    model = onnxtext.load(path)
    same = weights["w0"]
    w1, w2, w3 = (next(t for t in model.graph.initializer if t.name == n) for n in ("w1", "w2", "w3"))
    w1.raw_data = w2.raw_data = w3.raw_data = same  # the bytes of w0, each stored its own way
    w2.data_location = TensorProto.DEFAULT  # explicit
    w3.float_data.extend([1.0, 2.0])  # typed values beside raw_data
    path.write_bytes(model_bytes(model))
    opened = await _open(client, path)
    assert opened.text.count('"digest": "sha256:') == 4
    saved = await _save(client, path, opened.text.replace("y = Add (t3, b)", "y = Sub (t3, b)"))
    assert saved.written is True
    back = {t.name: t for t in onnxtext.load(path).graph.initializer}
    assert [back[n].raw_data == same for n in ("w0", "w1", "w2", "w3")] == [True] * 4
    assert [back[n].HasField("data_location") for n in ("w0", "w1", "w2", "w3")] == [False, False, True, False]
    assert [list(back[n].float_data) for n in ("w0", "w1", "w2", "w3")] == [[], [], [], [1.0, 2.0]]


def _patch(path: Path, offset: int, data: bytes, *, keep_mtime: bool) -> None:
    """Change bytes of ``path`` in place (same size, same inode), its mtime put back if asked."""
    st = os.stat(path)
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(data)
    if keep_mtime:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


@pytest.mark.asyncio
async def test_a_save_over_changed_held_bytes_is_refused(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "big.onnx"
    weights = _big(path)
    opened = await _open(client, path)
    at = path.read_bytes().index(weights["w1"][:64])
    _patch(path, at + 1000, b"\x01\x02\x03\x04", keep_mtime=True)  # size, mtime and inode as they were
    changed = path.read_bytes()
    with pytest.raises(Exception, match="the weights changed on disk since the model was opened") as refused:
        await _save(client, path, opened.text.replace("y = Add", "y = Sub"))
    assert "revert or reopen" in str(refused.value)
    assert path.read_bytes() == changed and os.listdir(tmp_path) == ["big.onnx"]  # no temporary file left


@pytest.mark.asyncio
async def test_a_save_after_a_change_that_left_the_held_bytes_intact_goes_on(
    client: LanguageClient, tmp_path: Path
) -> None:
    path = tmp_path / "big.onnx"
    weights = _big(path)
    opened = await _open(client, path)
    bias = np.array([0.5], np.float32).tobytes()
    data = path.read_bytes()
    assert data.count(bias) == 1
    _patch(path, data.index(bias), np.array([0.25], np.float32).tobytes(), keep_mtime=False)  # the bias, inline
    assert _stamp_of(path) != opened.stamp[0]
    saved = await _save(client, path, opened.text.replace("y = Add", "y = Sub"))  # the editor asked "overwrite?"
    assert saved.written is True and saved.stamp == [_stamp_of(path)]
    assert {k: v for k, v in _raw(path).items() if k != "b"} == weights
    assert list(onnxtext.load(path).graph.initializer[0].float_data) == [0.5]  # the text's, as the user chose
    changed = await _open(client, path)  # and a change on disk shows in the next open's stamp
    assert changed.stamp == [_stamp_of(path)]


@pytest.mark.asyncio
async def test_undoing_a_saved_deletion_saves_the_weights_back(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "big.onnx"
    weights = _big(path)
    opened = await _open(client, path)
    deleted = _without(opened.text, "w0")
    assert (await _save(client, path, deleted)).written is True
    assert set(_raw(path)) == {"w1", "b"}
    undone = await _save(client, path, opened.text)  # Ctrl+Z, Ctrl+S: no digest was edited
    assert undone.written is True and undone.diagnostics == []
    assert {k: v for k, v in _raw(path).items() if k != "b"} == weights
    again = await _save(client, path, opened.text.replace("y = Add", "y = Sub"))  # and it is held as before
    assert again.written is True and {k: v for k, v in _raw(path).items() if k != "b"} == weights


def _without(text: str, name: str) -> str:
    """``text`` without the statement of ``name`` (a reference followed by a comma)."""
    start, end = _record(text, name)
    line_start = text.rindex("\n", 0, start) + 1
    assert text[end : end + 2] == ",\n"
    return text[:line_start] + text[end + 2 :]


@pytest.mark.asyncio
async def test_saving_through_a_symlink_writes_its_target(client: LanguageClient, tmp_path: Path) -> None:
    for name, make in (("small", lambda p: _write(p, GOOD)), ("big", _big)):
        real, link = tmp_path / f"{name}-real.onnx", tmp_path / f"{name}-link.onnx"
        make(real)
        link.symlink_to(real.name)
        opened = await _open(client, link)
        saved = await _save(client, link, opened.text.replace("y = Add", "y = Sub"))
        assert saved.written is True and link.is_symlink() and os.readlink(link) == real.name, name
        assert onnxtext.load(real).graph.node[-1].op_type == "Sub", name


@pytest.mark.asyncio
async def test_a_raw_data_running_past_its_tensor_is_refused_with_a_reason(
    client: LanguageClient, tmp_path: Path
) -> None:
    from onnxtext.ir.varint import encode_varint

    path = tmp_path / "big.onnx"
    weights = _big(path)
    data = bytearray(path.read_bytes())
    head = b"\x4a" + encode_varint(len(weights["w1"]))  # w1's raw_data: tag and length
    at = data.rindex(head)
    data[at : at + len(head)] = b"\x4a" + encode_varint(len(weights["w1"]) + 10)
    path.write_bytes(bytes(data))
    reason = r"not a valid binary ONNX model \(a length-delimited field runs past the end of its message\)"
    with pytest.raises(Exception, match=reason) as refused:
        await _open(client, path)
    assert "BufferError" not in str(refused.value)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.asyncio
async def test_a_fifo_is_never_opened_as_a_model(client: LanguageClient, tmp_path: Path) -> None:
    import asyncio

    path = tmp_path / "pipe.onnx"
    os.mkfifo(path)
    with pytest.raises(Exception, match="cannot read: not a regular file"):
        await asyncio.wait_for(_open(client, path), timeout=30)  # a read would block the server
