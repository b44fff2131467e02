"""A text's inputs file (``m.onnxtxt.inputs.json``), read by the server's worker: never a blocking read (#29)."""

from __future__ import annotations

import concurrent.futures
import os
from pathlib import Path

import pytest

from onnxtext.host.analyse import INPUTS_SUFFIX, InputFileError, Settings, document_inputs
from onnxtext.io import read_regular_text


def _within(seconds: float, call, *args):  # type: ignore[no-untyped-def]
    """``call(*args)`` in a thread, failing the test (not hanging it) when it blocks."""
    pool = concurrent.futures.ThreadPoolExecutor(1)
    try:
        return pool.submit(call, *args).result(timeout=seconds)
    finally:
        pool.shutdown(wait=False)


def test_the_inputs_file_overrides_the_settings(tmp_path: Path) -> None:
    text = tmp_path / "m.onnxtxt"
    Path(str(text) + INPUTS_SUFFIX).write_text('{"x": [1, 2], "k": "k.npy"}', encoding="utf-8")
    settings = Settings(inputs={"x": "[0]", "y": "[3]"})
    assert document_inputs(str(text), settings) == {"x": "[1, 2]", "y": "[3]", "k": "k.npy"}
    assert document_inputs(str(tmp_path / "none.onnxtxt"), settings) == settings.inputs


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_as_inputs_file_is_refused_at_once(tmp_path: Path) -> None:
    text = tmp_path / "m.onnxtxt"
    os.mkfifo(str(text) + INPUTS_SUFFIX)  # nobody ever writes it: a plain open() waits forever
    with pytest.raises(InputFileError, match="not a regular file"):
        _within(10, document_inputs, str(text), Settings())
    with pytest.raises(OSError, match="not a regular file"):
        _within(10, read_regular_text, str(text) + INPUTS_SUFFIX)


def test_an_inputs_file_that_is_not_json_or_utf8_says_so(tmp_path: Path) -> None:
    text = tmp_path / "m.onnxtxt"
    inputs = Path(str(text) + INPUTS_SUFFIX)
    inputs.write_text("{x: 1", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"m\.onnxtxt\.inputs\.json: "):
        document_inputs(str(text), Settings())
    inputs.write_bytes(b'{"x": "\xff"}')
    with pytest.raises(InputFileError, match="utf-8"):
        document_inputs(str(text), Settings())
