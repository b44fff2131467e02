"""Hostile weights (#29, 12): a ``raw_data`` that runs past its tensor and a FIFO named as
external data get a clear message and an exit status from every command, never a traceback
(the ``BufferError`` that hid the wire error) nor a read that blocks forever."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import onnxtext
from onnxtext.io import model_bytes
from onnxtext.ir.varint import encode_varint

SRC = Path(__file__).resolve().parents[1] / "src"
H = '<ir_version: 8, opset_import: ["" : 18]>\n'


def _onnxtext(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m onnxtext ARGS`` in ``cwd``; a command that blocks fails the test after 60 s."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH", "")) if p)}
    return subprocess.run(
        [sys.executable, "-m", "onnxtext", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )


def _overrunning(path: Path) -> None:
    """Two 16 KB weights; the second's ``raw_data`` says 10 bytes more than its tensor holds."""
    model = onnxtext.parse_model(H + "g (float[4000] x) => (float[4000] y) {\n t = Add (x, v)\n y = Add (t, w)\n}")
    for name, fill in (("v", 2.0), ("w", 1.0)):
        t = model.graph.initializer.add()
        t.name, t.data_type = name, 1
        t.dims.append(4000)
        t.raw_data = np.full(4000, fill, np.float32).tobytes()
    data = bytearray(model_bytes(model))
    head = b"\x4a" + encode_varint(16_000)
    at = data.rindex(head)
    data[at : at + len(head)] = b"\x4a" + encode_varint(16_010)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("weights", ["digest", "external"])
def test_raw_data_running_past_its_tensor_is_reported(tmp_path: Path, weights: str) -> None:
    _overrunning(tmp_path / "bad.onnx")
    done = _onnxtext("print", "bad.onnx", "--weights", weights, "-o", "out.onnxtxt", cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr and "BufferError" not in done.stderr
    assert done.stderr.startswith("bad.onnx: error") and "not a valid binary ONNX model" in done.stderr
    assert not (tmp_path / "out.onnxtxt").exists()


def test_the_wire_error_is_what_a_lazy_read_raises(tmp_path: Path) -> None:
    from onnxtext.weights.wire import WireError, load_lazy

    _overrunning(tmp_path / "bad.onnx")
    with pytest.raises(WireError, match="runs past the end of its message"):
        load_lazy(tmp_path / "bad.onnx", 1024)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize(
    "command",
    [
        ["print", "m.onnx", "--weights", "external", "-o", "out.onnxtxt"],
        ["run", "m.onnx", "--input", "x=[1, 2]"],
        ["diff", "m.onnx", "n.onnx"],
        ["check", "m.onnx"],
    ],
)
def test_a_fifo_named_as_external_data_is_never_read(tmp_path: Path, command: list[str]) -> None:
    text = H + 'g (float[2] x) => (float[2] y) <float[2] w = ["location": "w.data", "length": "8"]> { y = Add (x, w) }'
    (tmp_path / "m.onnx").write_bytes(model_bytes(onnxtext.parse_model(text)))
    inline = text.replace('["location": "w.data", "length": "8"]', "{1, 2}")
    (tmp_path / "n.onnx").write_bytes(model_bytes(onnxtext.parse_model(inline)))
    os.mkfifo(tmp_path / "w.data")
    done = _onnxtext(*command, cwd=tmp_path)  # a read of the FIFO would block: the timeout fails the test
    assert "Traceback" not in done.stderr
    if command[0] == "diff":  # the data it cannot read is shown as a reference (exit 1: different)
        assert done.returncode == 1 and "could not be read" in done.stderr
    elif command[0] == "check":
        assert done.returncode == 1 and "error[E505]" in done.stdout + done.stderr
    else:
        assert done.returncode == 1
        assert "m.onnx: error[X002]: initializer 'w': cannot read external data 'w.data': not a regular file" in (
            done.stderr
        )
