"""Reading a binary model with its large raw_data left in the file (onnxtext.weights.wire)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_external import _raw, big_model

from onnxtext.cli import app as cli
from onnxtext.io import model_bytes
from onnxtext.proto import AttributeProto, GraphProto, ModelProto, SparseTensorProto, TensorProto, TrainingInfoProto
from onnxtext.weights.external import iter_tensors
from onnxtext.weights.wire import WireError, encode_varint, load_lazy, strip_raw_data

TOKEN = b"\x00test-token\x00"


def restored(data: bytes, threshold: int) -> tuple[ModelProto, int]:
    """Strip, parse, put every stripped raw_data back from its extent; also how many were stripped."""
    stripped, extents = strip_raw_data(data, threshold, TOKEN)
    model = ModelProto.FromString(data if stripped is None else stripped)
    seen = 0
    for ref in iter_tensors(model):
        t = ref.tensor
        raw = t.raw_data if t.HasField("raw_data") else b""
        if raw.startswith(TOKEN) and len(raw) == len(TOKEN) + 8:
            e = extents[int.from_bytes(raw[len(TOKEN) :], "big")]
            t.raw_data = data[e.offset : e.offset + e.length]
            seen += 1
    assert seen == len(extents), "a stripped tensor is not walked by iter_tensors"
    return model, len(extents)


def _big(name: str, n: int = 300, seed: int = 0) -> TensorProto:
    return _raw(name, np.random.default_rng(seed).standard_normal(n).astype(np.float32), TensorProto.FLOAT)


def everywhere_model(*, unknown_field: bool = False) -> ModelProto:
    """Large raw_data in every place a tensor can be: initializers, sparse initializers,
    attribute t / tensors / sparse_tensor(s), subgraphs (g, graphs), function bodies,
    function attribute defaults, training graphs; with ``unknown_field``, a field from a
    future IR in a large tensor (which the text cannot show)."""
    m = big_model()
    g = m.graph
    sp = SparseTensorProto(
        values=_big("sv", 200, 1), indices=_raw("", np.arange(200, dtype=np.int64), TensorProto.INT64), dims=[1000]
    )
    g.sparse_initializer.append(sp)
    node = g.node.add(op_type="Foo", domain="x", output=["foo"])
    node.attribute.add(name="ts", type=AttributeProto.TENSORS, tensors=[_big("", 100, 2), _big("", 400, 3)])
    node.attribute.add(name="sp", type=AttributeProto.SPARSE_TENSOR, sparse_tensor=sp)
    node.attribute.add(name="sps", type=AttributeProto.SPARSE_TENSORS, sparse_tensors=[sp, sp])
    sub = (
        g.node.add(op_type="If", input=["c"], output=["z"])
        .attribute.add(name="then_branch", type=AttributeProto.GRAPH)
        .g
    )
    sub.name = "then"
    sub.initializer.append(_big("sub_w", 500, 4))
    sub.node.add(op_type="Constant", output=["k2"]).attribute.add(
        name="value", type=AttributeProto.TENSOR, t=_big("", 300, 5)
    )
    loop = g.node.add(op_type="Bar", domain="x", output=["bar"]).attribute.add(
        name="bodies", type=AttributeProto.GRAPHS
    )
    loop.graphs.add(name="b0").initializer.append(_big("b0_w", 300, 6))
    loop.graphs.add(name="b1")
    f = m.functions.add(name="F", domain="x")
    f.node.add(op_type="Constant", output=["fk"]).attribute.add(
        name="value", type=AttributeProto.TENSOR, t=_big("", 300, 7)
    )
    f.attribute_proto.add(name="default_t", type=AttributeProto.TENSOR, t=_big("", 300, 8))
    info = TrainingInfoProto()
    info.initialization.name = "init"
    info.initialization.initializer.append(_big("init_w", 300, 9))
    info.algorithm.name = "algo"
    info.algorithm.node.add(op_type="Constant", output=["ak"]).attribute.add(
        name="value", type=AttributeProto.TENSOR, t=_big("", 300, 10)
    )
    m.training_info.append(info)
    g.initializer.append(_raw("bf16", np.arange(1000, dtype=np.uint16), TensorProto.BFLOAT16))  # no numpy view
    if unknown_field:  # number 99, length-delimited
        next(t for t in g.initializer if t.name == "W").MergeFromString(b"\x9a\x06\x03abc")
    return m


def test_strip_and_restore_everywhere() -> None:
    data = model_bytes(everywhere_model(unknown_field=True))
    model, n = restored(data, 100)
    assert n >= 17
    assert model_bytes(model) == data
    assert len(strip_raw_data(data, 100, TOKEN)[0] or b"") < len(data) // 50


@pytest.mark.parametrize("threshold", [0, 1200, 4000, 10**9])
def test_threshold(threshold: int) -> None:
    data = model_bytes(everywhere_model())
    model, n = restored(data, threshold)
    assert model_bytes(model) == data
    expected = sum(
        1
        for r in iter_tensors(ModelProto.FromString(data))
        if r.tensor.HasField("raw_data") and len(r.tensor.raw_data) > max(threshold, len(TOKEN) + 8)
    )
    assert n == expected
    if threshold == 10**9:
        assert strip_raw_data(data, threshold, TOKEN) == (None, [])


def test_backend_and_adversarial_models() -> None:
    """Strip and restore is the identity on the adversarial model and every backend model."""
    from corpus.backend import all_model_paths
    from test_lossless import adversarial_model

    datas = [adversarial_model().SerializeToString()] + [p.read_bytes() for p in all_model_paths()]
    stripped_any = 0
    for data in datas:
        model, n = restored(data, 16)
        assert model_bytes(model) == model_bytes(ModelProto.FromString(data))
        stripped_any += n > 0
    assert stripped_any > 20  # models with initializers or Constant tensors over 16 bytes


_GROUP_IN_GRAPH = b"\x3a\xd3\x0f" + b"\x0b" + b"\x00" * 2002  # a 2003-byte graph (descended) holding a group


@pytest.mark.parametrize(
    "data",
    [
        b"\x3a\x05ab",  # graph: length past the end
        b"\x3a\xff",  # truncated varint
        _GROUP_IN_GRAPH,
        b"\x08" + b"\xff" * 11,  # overlong varint
    ],
    ids=["past-end", "truncated-varint", "group", "overlong-varint"],
)
def test_malformed_is_wire_error(data: bytes) -> None:
    with pytest.raises(WireError):
        strip_raw_data(data, 100, TOKEN)


def test_deep_nesting_is_wire_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Graphs nested past protobuf's limit are refused, not a RecursionError."""
    g = GraphProto(name="leaf", initializer=[_big("w", 300)]).SerializeToString()
    for _ in range(60):  # graph → node → attribute → graph …, 180 messages deep (protobuf cannot build it)
        attribute = b"\x32" + encode_varint(len(g)) + g  # AttributeProto.g
        node = b"\x2a" + encode_varint(len(attribute)) + attribute  # NodeProto.attribute
        g = b"\x0a" + encode_varint(len(node)) + node  # GraphProto.node
    data = b"\x3a" + encode_varint(len(g)) + g  # ModelProto.graph
    with pytest.raises(WireError, match="nested"):
        strip_raw_data(data, 100, TOKEN)
    # through the CLI: the ordinary load reports it
    path = tmp_path / "deep.onnx"
    path.write_bytes(data)
    assert cli.main(["print", str(path), "--weights", "external", "-o", str(tmp_path / "o.onnxtxt")]) == 1
    assert "not a valid binary ONNX model" in capsys.readouterr().err and not (tmp_path / "o.onnxtxt").exists()


def test_load_lazy(tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    data = model_bytes(everywhere_model())
    path.write_bytes(data)
    model, lazy = load_lazy(path, 3000)
    ranges = {r.where: lazy.extent(r.tensor) for r in iter_tensors(model)}
    assert ranges["initializer 'W'"] is not None and ranges["initializer 'W'"].length == 4 * 1024 * 1024
    assert ranges["initializer 'b'"] is not None  # 4096 bytes
    assert ranges["initializer 'idx'"] is None  # 2664 bytes
    e = ranges["initializer 'W'"]
    assert (
        data[e.offset : e.offset + e.length] == next(t for t in big_model().graph.initializer if t.name == "W").raw_data
    )
    for t in model.graph.initializer:  # tokens differ from run to run
        if lazy.extent(t) is not None:
            assert load_lazy(path, 3000)[1].extent(t) is None
