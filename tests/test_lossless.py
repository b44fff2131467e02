"""A hand-built adversarial model that sets every kind of field and every dtype: print → parse is identity."""

from __future__ import annotations

import pytest

onnx = pytest.importorskip("onnx")
np = pytest.importorskip("numpy")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

import onnxtext  # noqa: E402

# Values that every dtype can hold exactly (and some that stress encodings).
SMALL = {
    TensorProto.FLOAT: [0.0, -0.0, 1.5, float("inf"), float("-inf"), float("nan"), 3.4e38, 1e-45],
    TensorProto.DOUBLE: [0.1, -2.5e-300, float("nan"), 1.7976931348623157e308],
    TensorProto.FLOAT16: [0.5, -65504.0, 6e-8],
    TensorProto.BFLOAT16: [1.0, -3.0],
    TensorProto.INT8: [-128, 127],
    TensorProto.UINT8: [0, 255],
    TensorProto.INT16: [-32768, 32767],
    TensorProto.UINT16: [0, 65535],
    TensorProto.INT32: [-(2**31), 2**31 - 1],
    TensorProto.UINT32: [0, 2**32 - 1],
    TensorProto.INT64: [-(2**63), 2**63 - 1],
    TensorProto.UINT64: [0, 2**64 - 1],
    TensorProto.BOOL: [True, False, True],
    TensorProto.COMPLEX64: [1 + 2j, -0.5j],
    TensorProto.COMPLEX128: [1e300 + 1j],
    TensorProto.STRING: [b"plain", b'with "quotes" and \\ and \n', b"\xff\xfe not utf-8", "ünïcode".encode()],
    TensorProto.INT4: [-8, 7, 0],
    TensorProto.UINT4: [15, 0, 3],
    TensorProto.INT2: [-2, 1, 0, 1, -1],
    TensorProto.UINT2: [3, 0, 1],
    TensorProto.FLOAT4E2M1: [0.5, -6.0, 1.5],
    TensorProto.FLOAT8E4M3FN: [448.0, -0.5],
    TensorProto.FLOAT8E4M3FNUZ: [1.0, -2.0],
    TensorProto.FLOAT8E5M2: [57344.0, 0.25],
    TensorProto.FLOAT8E5M2FNUZ: [3.0],
    TensorProto.FLOAT8E8M0: [1.0, 2.0, 0.5],
    TensorProto.FLOAT6E2M3: [0.5, -7.5],
    TensorProto.FLOAT6E3M2: [0.25, 28.0],
}


def _tensors() -> list[TensorProto]:
    out = []
    for dtype, values in SMALL.items():
        name = f"t_{TensorProto.DataType.Name(dtype).lower()}"
        t = helper.make_tensor(name, dtype, [len(values)], values)
        t.doc_string = f"typed {name}"
        out.append(t)
        if dtype != TensorProto.STRING:
            arr = numpy_helper.to_array(t)
            raw = numpy_helper.from_array(arr, name + "_raw")
            if raw.data_type == dtype:
                out.append(raw)
    return out


def adversarial_model() -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, None])
    x.doc_string = "input doc"
    x.type.denotation = "TENSOR"
    x.type.tensor_type.shape.dim[0].denotation = "DATA_BATCH"
    helper.set_metadata_props(x, {"vi": "meta"}) if hasattr(helper, "set_metadata_props") else None
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    seq = helper.make_tensor_sequence_value_info("s", TensorProto.INT64, [2])
    opt = helper.make_value_info(
        "o", helper.make_optional_type_proto(helper.make_tensor_type_proto(TensorProto.FLOAT, []))
    )
    mp = helper.make_value_info(
        "mp", helper.make_map_type_proto(TensorProto.INT64, helper.make_tensor_type_proto(TensorProto.FLOAT, []))
    )
    sparse_t = helper.make_value_info("sp_t", helper.make_sparse_tensor_type_proto(TensorProto.FLOAT, [10]))
    sub = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["z"], doc_string="sub node")],
        "body",
        [],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, None)],
    )
    sub.doc_string = "a subgraph"
    vals = numpy_helper.from_array(np.array([1.5, 2], np.float32), "sp")
    sp = helper.make_sparse_tensor(vals, numpy_helper.from_array(np.array([1, 3], np.int64)), [5])
    n1 = helper.make_node(
        "Foo",
        ["x", "", "w"],
        ["y", ""],
        name="node one",
        domain="com.example.ops",
        doc_string="node doc",
        i=-7,
        f=0.1,
        s=b"bytes \x00\xff",
        ints=[1, -2],
        floats=[0.5, float("inf")],
        strings=[b"a", b"b c"],
        t=numpy_helper.from_array(np.arange(4, dtype=np.int32).reshape(2, 2)),
        ts=[helper.make_tensor("k", TensorProto.INT64, [1], [9])],
        g=sub,
        gs=[sub, sub],
        tp=helper.make_tensor_type_proto(TensorProto.FLOAT16, ["B", 4]),
        tps=[helper.make_sequence_type_proto(helper.make_tensor_type_proto(TensorProto.INT8, []))],
        sp=sp,
        sps=[sp],
    )
    n1.overload = "v2"
    n1.attribute[0].doc_string = "attribute doc"
    m_e = n1.metadata_props.add()
    m_e.key, m_e.value = "source", "model.py:12"
    dc = n1.device_configurations.add()
    dc.configuration_id = "cfg"
    spec = dc.sharding_spec.add()
    spec.tensor_name = "x"
    spec.device.extend([0, 1])
    sdim = spec.sharded_dim.add()
    sdim.axis = 0
    simple = sdim.simple_sharding.add()
    simple.dim_value = 2
    simple.num_shards = 2
    ref = helper.make_node("Bar", ["y"], ["q"])
    ref.attribute.append(
        helper.make_attribute_ref("alpha", TensorProto.FLOAT)
        if False
        else onnx.AttributeProto(name="alpha", ref_attr_name="a", type=onnx.AttributeProto.FLOAT)
    )
    plain = helper.make_node("Relu", ["x"], ["r"])  # domain unset
    plain2 = helper.make_node("Relu", ["x"], ["r2"], domain="")  # domain set to ""
    w = numpy_helper.from_array(np.ones((2, 2), np.float32), "w")
    w.doc_string = "weights"
    seg = w.segment
    seg.begin, seg.end = 0, 4
    graph = helper.make_graph(
        [n1, plain, plain2], "main graph", [x], [y, seq, opt, mp, sparse_t], initializer=[w, *_tensors()]
    )
    graph.doc_string = "graph doc"
    graph.sparse_initializer.append(sp)
    qa = graph.quantization_annotation.add()
    qa.tensor_name = "y"
    e = qa.quant_parameter_tensor_names.add()
    e.key, e.value = "SCALE_TENSOR", "scale"
    graph.value_info.append(helper.make_tensor_value_info("r", TensorProto.FLOAT, ["N", 3, None]))
    fn = helper.make_function(
        "com.example.ops",
        "Foo",
        ["a", "b", "c"],
        ["d", "e"],
        [helper.make_node("Add", ["a", "b"], ["d"]), ref],
        [helper.make_opsetid("", 21)],
        attributes=["a"],
        attribute_protos=[helper.make_attribute("beta", 2.5)],
        doc_string="function doc",
    )
    fn.overload = "v2"
    fn.value_info.append(helper.make_tensor_value_info("d", TensorProto.FLOAT, [3]))
    fm = fn.metadata_props.add()
    fm.key, fm.value = "f", "meta"
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid("com.example.ops", 1)],
        functions=[fn],
        producer_name="adversary",
        producer_version="0.0",
        domain="com.example",
        model_version=42,
        doc_string="model doc",
    )
    helper.set_model_props(model, {"k": "v", "empty": ""})
    cfg = model.configuration.add()
    cfg.name, cfg.num_devices = "cfg", 2
    cfg.device.extend(["cpu:0", "cpu:1"])
    ti = model.training_info.add()
    ti.initialization.CopyFrom(
        helper.make_graph(
            [helper.make_node("Constant", [], ["w"], value_float=1.0)],
            "init",
            [],
            [helper.make_tensor_value_info("w", TensorProto.FLOAT, [])],
        )
    )
    b = ti.initialization_binding.add()
    b.key, b.value = "w", "w"
    ti.algorithm.CopyFrom(
        helper.make_graph(
            [helper.make_node("Identity", ["y"], ["w_new"])],
            "algo",
            [],
            [helper.make_tensor_value_info("w_new", TensorProto.FLOAT, [2, 2])],
        )
    )
    u = ti.update_binding.add()
    u.key, u.value = "w", "w_new"
    return model


def test_adversarial_model_round_trips_byte_identically() -> None:
    model = adversarial_model()
    text = onnxtext.to_text(model)
    back = onnxtext.parse_model(text, path="adversarial.onnxtxt")
    assert back.SerializeToString(deterministic=True) == model.SerializeToString(deterministic=True), text
    assert onnxtext.to_text(back) == text


def test_every_dtype_appears() -> None:
    model = adversarial_model()
    dtypes = {t.data_type for t in model.graph.initializer}
    assert dtypes == set(SMALL)


def test_complex_values_are_real_imaginary_pairs() -> None:
    g = onnxtext.parse_graph("g () => () <complex64[2] c = {(1, 2), (0.5, -inf)}, complex128[1] d = {3, 4}> { }")
    assert list(g.initializer[0].float_data) == [1.0, 2.0, 0.5, float("-inf")]
    assert list(g.initializer[1].double_data) == [3.0, 4.0]  # the flat onnx.parser form still works
    text = onnxtext.to_text(g)
    assert "{(1.0, 2.0), (0.5, -inf)}" in text and "{(3.0, 4.0)}" in text
    assert onnxtext.parse_graph(text).SerializeToString() == g.SerializeToString()


def test_pair_in_a_real_tensor_is_an_error() -> None:
    with pytest.raises(onnxtext.ParseError, match="complex value"):
        onnxtext.parse_graph("g () => () <float[1] c = {(1, 2)}> { }")


def test_nan_payload_round_trip_in_a_model() -> None:
    bits = np.array([0x7FC00001, 0xFFC00000], dtype=np.uint32).view(np.float32)
    t = numpy_helper.from_array(bits, "w")
    g = helper.make_graph([], "g", [], [], initializer=[t])
    m = helper.make_model(g)
    text = onnxtext.to_text(m)
    assert "0x7fc00001" in text
    assert onnxtext.parse_model(text).SerializeToString(deterministic=True) == m.SerializeToString(deterministic=True)
