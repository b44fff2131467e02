"""``onnxtext print --weights {inline,external,digest} [--threshold BYTES]``."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from test_external import big_model

import onnxtext
from onnxtext.api import load, save
from onnxtext.cli import app as cli
from onnxtext.document import parse_document
from onnxtext.io import model_bytes
from onnxtext.ir.tensor.arrays import to_numpy
from onnxtext.proto import ModelProto, TensorProto
from onnxtext.weights.digest import DIGEST_HEADER, ProgressBar, digest_view, tensor_digest
from onnxtext.weights.external import iter_tensors, load_external
from onnxtext.weights.sidecar import write_external

SRC = Path(onnxtext.__file__).resolve().parents[1]


def run(*argv: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture()
def model_file(tmp_path: Path) -> Path:
    path = tmp_path / "in" / "model.onnx"
    path.parent.mkdir()
    save(big_model(), path)
    return path


# ---------------------------------------------------------------- external


def test_external_round_trip_exact(tmp_path: Path, model_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out" / "model.onnxtxt"
    out.parent.mkdir()
    status, stdout, err = run("print", str(model_file), "--weights", "external", "-o", str(out), capsys=capsys)
    assert (status, stdout, err) == (0, "", "")
    sidecar = out.parent / "model.onnxtxt.data"
    assert sidecar.stat().st_size >= 4 * 1024 * 1024
    text = out.read_text()
    assert 'float[1024, 1024] W = ["location": "model.onnxtxt.data", "offset": "0", "length": "4194304"]' in text
    assert len(text) < 20000  # only the small and the typed (600 floats) tensors are in the text
    # parse gives the same references; loading the weights gives the original model exactly
    parsed = onnxtext.parse_model(text)
    planned = write_external(big_model(), tmp_path, "model.onnxtxt.data", 1024)
    assert model_bytes(parsed) == model_bytes(planned)
    assert model_bytes(load_external(parsed, out.parent)) == model_bytes(load(model_file))
    # through the CLI too: parse next to the sidecar, run needs nothing else
    binary = out.parent / "model.onnx"
    assert run("parse", str(out), "-o", str(binary), capsys=capsys)[0] == 0
    assert model_bytes(load_external(load(binary), out.parent)) == model_bytes(load(model_file))
    assert not [p for p in out.parent.iterdir() if p.name.endswith(".tmp")]


def test_external_threshold(tmp_path: Path, model_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.onnxtxt"
    assert (
        run("print", str(model_file), "--weights", "external", "--threshold", "5000", "-o", str(out), capsys=capsys)[0]
        == 0
    )
    m = onnxtext.parse_model(out.read_text())
    external = sorted(r.where for r in iter_tensors(m) if r.tensor.data_location == TensorProto.EXTERNAL)
    assert external == ["initializer 'W'", "node 'k' attribute 'value'"]  # b: 4096 bytes, idx: 2664


def test_external_from_external_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An input that has its own sidecar: the weights are read and written to the new one."""
    src = tmp_path / "src"
    src.mkdir()
    save(write_external(big_model(), src, "weights.bin", 1024), src / "m.onnx")
    out = tmp_path / "t.onnxtxt"
    assert run("print", str(src / "m.onnx"), "--weights", "external", "-o", str(out), capsys=capsys)[0] == 0
    parsed = onnxtext.parse_model(out.read_text())
    assert model_bytes(load_external(parsed, tmp_path)) == model_bytes(big_model())
    # a text with references printed again, into the same file: read fully before rewriting
    assert run("print", str(out), "--weights", "external", "-o", str(out), capsys=capsys)[0] == 0
    assert model_bytes(load_external(onnxtext.parse_model(out.read_text()), tmp_path)) == model_bytes(big_model())


def test_external_needs_output_file(model_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run("print", str(model_file), "--weights", "external", capsys=capsys)
    assert status == 2 and out == "" and "-o OUT.onnxtxt" in err


def test_external_missing_sidecar_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save(write_external(big_model(), tmp_path, "w.bin", 1024), tmp_path / "m.onnx")
    (tmp_path / "w.bin").unlink()
    status, _, err = run(
        "print", str(tmp_path / "m.onnx"), "--weights", "external", "-o", str(tmp_path / "o.onnxtxt"), capsys=capsys
    )
    assert status == 1 and "error[X002]" in err and "initializer 'W'" in err
    assert not (tmp_path / "o.onnxtxt").exists() and not (tmp_path / "o.onnxtxt.data").exists()


def test_external_unsafe_reference_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    inner = tmp_path / "inner"
    inner.mkdir()
    write_external(big_model(), tmp_path, "w.bin", 1024)
    m = write_external(big_model(), tmp_path, "w.bin", 1024)
    for r in iter_tensors(m):
        for e in r.tensor.external_data:
            if e.key == "location":
                e.value = "../w.bin"
    save(m, inner / "m.onnx")
    status, _, err = run(
        "print", str(inner / "m.onnx"), "--weights", "external", "-o", str(inner / "o.onnxtxt"), capsys=capsys
    )
    assert status == 1 and "error[X001]" in err and "'../w.bin' leaves the model's folder" in err


def test_inline_keeps_references(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save(write_external(big_model(), tmp_path, "w.bin", 1024), tmp_path / "m.onnx")
    status, out, _ = run("print", str(tmp_path / "m.onnx"), capsys=capsys)
    assert status == 0 and '"location": "w.bin"' in out


def _everywhere(tmp_path: Path, layout: str) -> Path:
    """``everywhere_model`` (large tensors in every place) as a binary file, its weights
    inline or in its own sidecar."""
    from test_wire import everywhere_model

    folder = tmp_path / layout
    folder.mkdir()
    model = everywhere_model()
    if layout == "external":
        model = write_external(model, folder, "own.bin", 1024)
    save(model, folder / "m.onnx")
    return folder / "m.onnx"


@pytest.mark.parametrize("layout", ["inline", "external"])
def test_external_never_loading_weights_equals_in_memory(
    tmp_path: Path, layout: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CLI copies weights file to file; the result is what planning on the fully
    loaded model gives: the same text, the same sidecar bytes."""
    from test_wire import everywhere_model

    path = _everywhere(tmp_path, layout)
    out = tmp_path / "out.onnxtxt"
    assert run("print", str(path), "--weights", "external", "-o", str(out), capsys=capsys) == (0, "", "")
    expected = tmp_path / "expected"
    expected.mkdir()
    plan = write_external(everywhere_model(), expected, "out.onnxtxt.data", 1024)
    assert out.read_text() == onnxtext.to_text(plan)
    assert (tmp_path / "out.onnxtxt.data").read_bytes() == (expected / "out.onnxtxt.data").read_bytes()
    assert model_bytes(load_external(onnxtext.parse_model(out.read_text()), tmp_path)) == model_bytes(
        everywhere_model()
    )


def test_external_copy_without_kernel_copy(
    tmp_path: Path, model_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Where copy_file_range is refused (another file system, old kernel), the copy goes through a buffer."""
    import errno

    from onnxtext.weights import sidecar

    def refuse(*args: object) -> int:
        raise OSError(errno.EXDEV, "cross-device")

    assert (
        run("print", str(model_file), "--weights", "external", "-o", str(tmp_path / "a.onnxtxt"), capsys=capsys)[0] == 0
    )
    monkeypatch.setattr(sidecar.os, "copy_file_range", refuse, raising=False)
    monkeypatch.setattr(sidecar, "_KERNEL_COPY", True)
    assert (
        run("print", str(model_file), "--weights", "external", "-o", str(tmp_path / "b.onnxtxt"), capsys=capsys)[0] == 0
    )
    assert sidecar._KERNEL_COPY is False
    assert (tmp_path / "a.onnxtxt.data").read_bytes() == (tmp_path / "b.onnxtxt.data").read_bytes()


def test_external_bad_checksum_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save(write_external(big_model(), tmp_path, "w.bin", 1024, checksum=True), tmp_path / "m.onnx")
    data = bytearray((tmp_path / "w.bin").read_bytes())
    data[100] ^= 1
    (tmp_path / "w.bin").write_bytes(bytes(data))
    status, _, err = run(
        "print", str(tmp_path / "m.onnx"), "--weights", "external", "-o", str(tmp_path / "o.onnxtxt"), capsys=capsys
    )
    assert status == 1 and "error[X004]" in err and "initializer 'W'" in err
    assert not (tmp_path / "o.onnxtxt").exists() and not (tmp_path / "o.onnxtxt.data").exists()


@pytest.mark.parametrize("weights", ["external", "digest"])
def test_truncated_binary_is_reported(
    tmp_path: Path, model_file: Path, weights: str, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(model_file.read_bytes()[:-1000])
    status, out, err = run("print", str(bad), "--weights", weights, "-o", str(tmp_path / "o.onnxtxt"), capsys=capsys)
    assert status == 1 and "not a valid binary ONNX model" in err and "Traceback" not in err
    assert not (tmp_path / "o.onnxtxt").exists()


# ---------------------------------------------------------------- digest


@pytest.mark.parametrize("layout", ["inline", "external"])
def test_digest_from_files_equals_in_memory(tmp_path: Path, layout: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Digests computed on memory maps of the files are those of the loaded model."""
    from test_wire import everywhere_model

    path = _everywhere(tmp_path, layout)
    status, out, err = run("print", str(path), "--weights", "digest", capsys=capsys)
    assert (status, err) == (0, "")
    # tensors in external data files are shown by their reference, never read (see the next test)
    shown = everywhere_model() if layout == "inline" else onnxtext.load(path)
    assert out == DIGEST_HEADER + onnxtext.to_text(digest_view(shown, 1024, read_external=False))


def test_digest_output(model_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run("print", str(model_file), "--weights", "digest", capsys=capsys)
    assert status == 0 and err == ""
    assert out.startswith(DIGEST_HEADER)
    w = to_numpy(next(t for t in big_model().graph.initializer if t.name == "W"))
    sha = hashlib.sha256(w.astype("<f4").tobytes()).hexdigest()
    line = next(li for li in out.splitlines() if " W = " in li)
    assert line.strip().startswith(
        f'float[1024, 1024] W = ["digest": "sha256:{sha}", "min": "{w.min():.6g}", "max": "{w.max():.6g}"'
    )
    assert f'"mean": "{w.astype(np.float64).mean():.6g}"' in line
    assert "c = {1.0, 2.0, 3.0, 4.0}" in out  # small tensors stay readable
    assert "alpha = 0.01" in out
    assert len(out) < 4000
    # stable: same output every time, and for the same values stored typed instead of raw
    assert run("print", str(model_file), "--weights", "digest", capsys=capsys)[1] == out


def test_digest_independent_of_storage() -> None:
    raw = TensorProto(name="t", data_type=TensorProto.FLOAT, dims=[3])
    raw.raw_data = np.array([1, 2, np.nan], np.float32).tobytes()
    typed = TensorProto(name="t", data_type=TensorProto.FLOAT, dims=[3])
    typed.float_data.extend([1, 2, float("nan")])
    assert tensor_digest(raw) == tensor_digest(typed)
    assert dict(tensor_digest(raw))["nonfinite"] == "1"
    assert dict(tensor_digest(raw))["max"] == "2"


def test_digest_not_parseable(model_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d.onnxtxt"
    assert run("print", str(model_file), "--weights", "digest", "-o", str(out), capsys=capsys)[0] == 0
    doc = parse_document(out.read_text(), "model", str(out))
    assert not doc.ok
    errors = [d for d in doc.diagnostics if d.is_error]
    assert errors and all("digest" in d.message and "cannot be parsed back" in d.message for d in errors)
    status, _, err = run("parse", str(out), "-o", str(tmp_path / "d.onnx"), capsys=capsys)
    assert status == 1 and "reading and diffing only" in err and not (tmp_path / "d.onnx").exists()


def test_digest_of_external_data_does_not_depend_on_the_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tensor in an external data file prints as its reference whether the file can be read
    or not (git's textconv prints the old side from a temporary copy that cannot see it)."""
    save(write_external(big_model(), tmp_path, "w.bin", 1024), tmp_path / "m.onnx")
    with_data = run("print", str(tmp_path / "m.onnx"), "--weights", "digest", capsys=capsys)
    assert with_data[0] == 0 and '"location": "w.bin"' in with_data[1] and with_data[2] == ""
    elsewhere = tmp_path / "copy"
    elsewhere.mkdir()
    shutil.copy(tmp_path / "m.onnx", elsewhere / "m.onnx")
    assert run("print", str(elsewhere / "m.onnx"), "--weights", "digest", capsys=capsys) == with_data


def test_digest_view_leaves_input_alone() -> None:
    m = big_model()
    before = model_bytes(m)
    view = digest_view(m, 1024)
    assert model_bytes(m) == before
    assert sum(1 for r in iter_tensors(view) if r.tensor.data_location == TensorProto.EXTERNAL) == 5  # typed too
    assert all(
        not r.tensor.HasField("raw_data") and not len(r.tensor.float_data)
        for r in iter_tensors(view)
        if r.tensor.data_location == TensorProto.EXTERNAL
    )


def test_bad_threshold(model_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("print", str(model_file), "--weights", "digest", "--threshold", "-1", capsys=capsys)[0] == 2
    assert run("print", str(model_file), "--weights", "sideways", capsys=capsys)[0] == 2


# ---------------------------------------------------------------- progress


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_only_on_terminals() -> None:
    quiet = io.StringIO()
    with ProgressBar("x", 100, quiet) as p:
        p(100)
    assert quiet.getvalue() == ""
    tty = _Tty()
    with ProgressBar("reading", 2 << 20, tty, interval=0) as p:
        p(1 << 20)
        p(1 << 20)
    assert "\rreading: 1.0/2.0 MB" in tty.getvalue() and tty.getvalue().endswith("\r\x1b[K")


def test_cli_subprocess_external(tmp_path: Path, model_file: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    out = tmp_path / "s.onnxtxt"
    proc = subprocess.run(
        [sys.executable, "-m", "onnxtext", "print", str(model_file), "--weights", "external", "-o", str(out)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "s.onnxtxt.data").exists()


def test_model_proto_helper_sanity() -> None:
    assert isinstance(big_model(), ModelProto)
