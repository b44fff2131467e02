"""External tensor data: safe locations, loading into raw_data, writing one sidecar."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import onnxtext
from onnxtext.api import load, save
from onnxtext.io import model_bytes
from onnxtext.ir.tensor.arrays import to_numpy
from onnxtext.proto import ModelProto, TensorProto
from onnxtext.weights.external import (
    BAD_CHECKSUM,
    BAD_RANGE,
    UNREADABLE,
    UNSAFE_LOCATION,
    ExternalDataError,
    iter_tensors,
    load_external,
    resolve_location,
)
from onnxtext.weights.sidecar import PAGE, SMALL_ALIGN, plan_external, write_external

BASE = """\
<ir_version: 9, opset_import: ["": 18]>
g (float[N, 1024] x) => (float[N, 1024] y)
<float[4] c = {1.0, 2.0, 3.0, 4.0}>
{
  h = MatMul(x, W)
  h2 = Add(h, b)
  k = Constant<value = float[2] {0.5, 0.25}>()
  y = LeakyRelu<alpha = 0.01>(h2)
}
"""


def _raw(name: str, arr: np.ndarray, code: int) -> TensorProto:
    t = TensorProto(name=name, data_type=code, dims=list(arr.shape))
    t.raw_data = np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<")).tobytes()
    return t


def big_model(seed: int = 0) -> ModelProto:
    """A model with ~4 MB of weights in raw_data, a typed tensor, a large attribute tensor."""
    rng = np.random.default_rng(seed)
    m = onnxtext.parse_model(BASE)
    g = m.graph
    g.initializer.append(_raw("W", rng.standard_normal((1024, 1024)).astype(np.float32), TensorProto.FLOAT))
    g.initializer.append(_raw("b", rng.standard_normal(1024).astype(np.float32), TensorProto.FLOAT))
    g.initializer.append(_raw("idx", rng.integers(-5, 5, 333).astype(np.int64), TensorProto.INT64))
    typed = TensorProto(name="typed", data_type=TensorProto.FLOAT, dims=[600])
    typed.float_data.extend(rng.standard_normal(600).astype(np.float32).tolist())
    g.initializer.append(typed)
    const = g.node[2].attribute[0].t
    const.CopyFrom(_raw("", rng.standard_normal(2000).astype(np.float32), TensorProto.FLOAT))
    return m


# ---------------------------------------------------------------- resolve_location


@pytest.mark.parametrize(
    "location",
    [
        "../x.bin",
        "/etc/passwd",
        "a/../../x.bin",
        "sub/../../x",
        "..",
        "C:\\x.bin",
        "\\\\server\\share\\x",
        "..\\x.bin",
        "",
    ],
)
def test_unsafe_locations_rejected(tmp_path: Path, location: str) -> None:
    with pytest.raises(ExternalDataError) as info:
        resolve_location(tmp_path, location)
    err = info.value
    assert isinstance(err, onnxtext.OnnxTextError)
    assert [d.code for d in err.diagnostics] == [UNSAFE_LOCATION]
    assert "error[X001]" in str(err)


@pytest.mark.parametrize("location", ["w.bin", "sub/w.bin", "./w.bin", "sub/../w.bin", "missing/yet.bin"])
def test_safe_locations(tmp_path: Path, location: str) -> None:
    path = resolve_location(tmp_path, location)
    assert path == (tmp_path / location).resolve()
    assert tmp_path.resolve() in path.parents


def test_symlink_outside_rejected(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.bin").write_bytes(b"x" * 16)
    model_dir = tmp_path / "model"
    model_dir.mkdir()
    os.symlink(outside / "secret.bin", model_dir / "w.bin")
    os.symlink(outside, model_dir / "linkdir")
    for location in ("w.bin", "linkdir/secret.bin"):
        with pytest.raises(ExternalDataError) as info:
            resolve_location(model_dir, location)
        assert info.value.diagnostics[0].code == UNSAFE_LOCATION
        assert "symlink" in info.value.diagnostics[0].message


def test_symlink_inside_allowed(tmp_path: Path) -> None:
    (tmp_path / "real.bin").write_bytes(b"\0" * 8)
    os.symlink(tmp_path / "real.bin", tmp_path / "alias.bin")
    assert resolve_location(tmp_path, "alias.bin") == (tmp_path / "real.bin").resolve()


def _ref_model(location: str, *, offset: str = "0", length: str = "16", checksum: str | None = None) -> ModelProto:
    m = onnxtext.parse_model(BASE)
    t = m.graph.initializer.add(name="W", data_type=TensorProto.FLOAT, dims=[4])
    t.data_location = TensorProto.EXTERNAL
    entries = [("location", location), ("offset", offset), ("length", length)] + (
        [("checksum", checksum)] if checksum else []
    )
    for k, v in entries:
        e = t.external_data.add()
        e.key, e.value = k, v
    return m


def test_load_external_rejects_escape_with_tensor_named(tmp_path: Path) -> None:
    (tmp_path / "x.bin").write_bytes(b"\0" * 16)
    model_dir = tmp_path / "m"
    model_dir.mkdir()
    with pytest.raises(ExternalDataError) as info:
        load_external(_ref_model("../x.bin"), model_dir, source="m/model.onnx")
    diag = info.value.diagnostics[0]
    assert diag.code == UNSAFE_LOCATION
    assert str(diag).startswith("m/model.onnx: error[X001]: initializer 'W': external data location '../x.bin' leaves")


def test_load_external_problems(tmp_path: Path) -> None:
    (tmp_path / "w.bin").write_bytes(np.arange(4, dtype=np.float32).tobytes())
    with pytest.raises(ExternalDataError) as info:
        load_external(_ref_model("nope.bin"), tmp_path)
    assert info.value.diagnostics[0].code == UNREADABLE
    with pytest.raises(ExternalDataError) as info:
        load_external(_ref_model("w.bin", offset="8"), tmp_path)
    assert info.value.diagnostics[0].code == BAD_RANGE
    with pytest.raises(ExternalDataError) as info:
        load_external(_ref_model("w.bin", offset="x"), tmp_path)
    assert info.value.diagnostics[0].code == BAD_RANGE
    with pytest.raises(ExternalDataError) as info:
        load_external(_ref_model("w.bin", checksum="0" * 40), tmp_path)
    assert info.value.diagnostics[0].code == BAD_CHECKSUM
    # not strict: the reference stays, nothing raised
    kept = load_external(_ref_model("nope.bin"), tmp_path, strict=False)
    assert kept.graph.initializer[1].data_location == TensorProto.EXTERNAL


def test_load_external_reads_and_clears(tmp_path: Path) -> None:
    data = np.arange(4, dtype=np.float32)
    (tmp_path / "w.bin").write_bytes(b"pad!" + data.tobytes())
    m = _ref_model("w.bin", offset="4")
    loaded = load_external(m, tmp_path)
    t = loaded.graph.initializer[1]
    assert not t.HasField("data_location") and len(t.external_data) == 0
    assert np.array_equal(to_numpy(t), data)
    assert m.graph.initializer[1].data_location == TensorProto.EXTERNAL  # the input is not changed
    no_length = _ref_model("w.bin", offset="4", length="")
    assert np.array_equal(to_numpy(load_external(no_length, tmp_path).graph.initializer[1]), data)


# ---------------------------------------------------------------- write_external


def test_write_external_round_trip_exact(tmp_path: Path) -> None:
    model = big_model()
    before = model_bytes(model)
    out = write_external(model, tmp_path, "model.data", 1024)
    assert model_bytes(model) == before  # not modified
    sidecar = tmp_path / "model.data"
    assert sidecar.stat().st_size >= 4 * 1024 * 1024
    moved = {r.where: r.tensor for r in iter_tensors(out) if r.tensor.data_location == TensorProto.EXTERNAL}
    assert set(moved) == {"initializer 'W'", "initializer 'b'", "initializer 'idx'", "node 'k' attribute 'value'"}
    for t in moved.values():
        entries = {e.key: e.value for e in t.external_data}
        assert entries["location"] == "model.data"
        offset, length = int(entries["offset"]), int(entries["length"])
        assert offset % (PAGE if length >= 1 << 20 else SMALL_ALIGN) == 0
        assert not t.HasField("raw_data")
    # the typed tensor and the small one stay in the model
    inline = {t.name for t in out.graph.initializer if t.data_location != TensorProto.EXTERNAL}
    assert inline == {"c", "typed"}
    assert model_bytes(load_external(out, tmp_path)) == before
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_write_external_without_attributes(tmp_path: Path) -> None:
    out = write_external(big_model(), tmp_path, "w.data", 1024, attributes=False)
    assert out.graph.node[2].attribute[0].t.HasField("raw_data")


def test_write_external_checksum(tmp_path: Path) -> None:
    model = big_model()
    out = write_external(model, tmp_path, "w.data", 1024, checksum=True)
    assert model_bytes(load_external(out, tmp_path)) == model_bytes(model)
    data = bytearray((tmp_path / "w.data").read_bytes())
    data[10] ^= 0xFF
    (tmp_path / "w.data").write_bytes(bytes(data))
    with pytest.raises(ExternalDataError) as info:
        load_external(out, tmp_path)
    assert [d.code for d in info.value.diagnostics] == [BAD_CHECKSUM]


def test_plan_rejects_paths_as_sidecar_name() -> None:
    for bad in ("../w.data", "sub/w.data", "/tmp/w.data", ""):
        with pytest.raises(ValueError):
            plan_external(big_model(), bad)


def test_io_load_keeps_references(tmp_path: Path) -> None:
    """Reading a binary model never touches external data (lossless); onnx reads our files."""
    out = write_external(big_model(), tmp_path, "model.onnx.data", 1024)
    save(out, tmp_path / "model.onnx")
    again = load(tmp_path / "model.onnx")
    assert model_bytes(again) == model_bytes(out)
    onnx = pytest.importorskip("onnx")
    from onnx import numpy_helper

    ref = onnx.load(str(tmp_path / "model.onnx"))  # onnx loads external data itself
    w = next(t for t in ref.graph.initializer if t.name == "W")
    ours = next(t for t in big_model().graph.initializer if t.name == "W")
    assert np.array_equal(numpy_helper.to_array(w), to_numpy(ours))


def test_reads_data_written_by_onnx(tmp_path: Path) -> None:
    onnx = pytest.importorskip("onnx")
    from onnxtext.proto import to_onnx

    model = big_model()
    onnx.save_model(
        to_onnx(model),
        str(tmp_path / "o.onnx"),
        save_as_external_data=True,
        all_tensors_to_one_file=True,
        location="o.bin",
        size_threshold=1024,
    )
    loaded = load_external(load(tmp_path / "o.onnx"), tmp_path)
    for a, b in zip(iter_tensors(loaded), iter_tensors(model), strict=True):
        assert np.array_equal(to_numpy(a.tensor), to_numpy(b.tensor)), a.where


# ---------------------------------------------------------------- the parser


@pytest.mark.parametrize(
    "location, col", [("../w.bin", 59), ("/etc/passwd", 59), ("a/../../w.bin", 59), ("C:\\\\w.bin", 59), ("", 59)]
)
def test_parser_rejects_escaping_locations(location: str, col: int) -> None:
    """A text whose external data would leave its folder does not parse: X001 at the location."""
    text = (
        '<ir_version: 10, opset_import: ["" : 21]>\n'
        f'g (float[2] x) => (float[2] y) <float[2] w = ["location": "{location}", "length": "8"]> {{ y = Add(x, w) }}\n'
    )
    doc = onnxtext.parse_document(text, "model", "m.onnxtxt")
    errors = [d for d in doc.diagnostics if d.is_error]
    assert [d.code for d in errors] == [UNSAFE_LOCATION]
    assert errors[0].span is not None and (errors[0].span.start.line, errors[0].span.start.column) == (2, col)
    assert "folder" in errors[0].message or "location" in errors[0].message


def test_parse_cli_rejects_escaping_location(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from onnxtext.cli import app as cli

    src = tmp_path / "m.onnxtxt"
    src.write_text(
        '<ir_version: 10, opset_import: ["" : 21]>\n'
        'g (float[2] x) => (float[2] y) <float[2] w = ["location": "../w.bin", "length": "8"]> { y = Add(x, w) }\n'
    )
    assert cli.main(["parse", str(src), "-o", str(tmp_path / "m.onnx")]) == 1
    err = capsys.readouterr().err
    assert "m.onnxtxt:2:59: error[X001]" in err and "leaves the model's folder" in err
    assert not (tmp_path / "m.onnx").exists()
