"""Inference on hand-written models: the type model, shape functions by family, functions, subgraphs."""

from __future__ import annotations

import pytest

from onnxtext.analysis.infer import ValueType, from_type_proto, infer_model, infer_types, parse_type_str, to_type_proto
from onnxtext.document import parse_document

H = '<ir_version: 10, opset_import: ["" : 21]>\n'


def types(body: str, inputs: str, outputs: str = "float y", header: str = H, extra: str = "") -> dict[str, str]:
    doc = parse_document(header + f"g ({inputs}) => ({outputs}) {{\n{body}\n}}\n{extra}", "model", "<t>")
    assert doc.ok, doc.diagnostics
    return {k: str(v) for k, v in infer_types(doc.proto, use_declared=False).items()}


@pytest.mark.parametrize(
    "vt",
    [
        ValueType.tensor(1, (2, "N", None)),
        ValueType.tensor(7),
        ValueType.sequence(ValueType.tensor(1, (3,))),
        ValueType.optional(ValueType.tensor(9, ())),
    ],
)
def test_type_proto_round_trip(vt: ValueType) -> None:
    assert from_type_proto(to_type_proto(vt)) == vt


def test_parse_type_str() -> None:
    assert parse_type_str("seq(tensor(int64))") == ValueType.sequence(ValueType.tensor(7))
    assert parse_type_str("tensor(float)").type_str() == "tensor(float)"
    assert parse_type_str("map(int64, float)").type_str() == "map(int64, float)"


def test_elementwise_and_matmul() -> None:
    t = types("  a = Add(x, b)\n  y = MatMul(a, w)", "float[N, 1, 4] x, float[3, 4] b, float[4, 5] w")
    assert t["a"] == "float[N, 3, 4]"
    assert t["y"] == "float[N, 3, 5]"


def test_gemm_conv_pool() -> None:
    t = types(
        "  c = Conv <pads = [1, 1, 1, 1], strides = [2, 2]> (x, w)\n  p = MaxPool <kernel_shape = [2, 2]> (c)"
        "\n  f = Flatten(p)\n  y = Gemm <transB = 1> (f, m)",
        "float[1, 3, 8, 8] x, float[16, 3, 3, 3] w, float[10, 144] m",
    )
    assert t["c"] == "float[1, 16, 4, 4]"
    assert t["p"] == "float[1, 16, 3, 3]"
    assert t["f"] == "float[1, 144]"
    assert t["y"] == "float[1, 10]"


@pytest.mark.parametrize("op", ["Conv", "ConvTranspose"])
@pytest.mark.parametrize("weight", ["float", "float[2]"])
def test_conv_with_a_weight_of_too_low_rank_is_inferred_not_a_crash(op: str, weight: str) -> None:
    """A scalar or vector weight (a lowering error can leave one) used to raise IndexError."""
    t = types(f"  y = {op}(x, w)", f"float[1, 1, 4, 4] x, {weight} w")
    assert t["y"].startswith("float[1, ")  # the batch dimension at least


def test_reshape_transpose_with_constants() -> None:
    t = types(
        "  s = Constant <value = int64[3] {0, -1, 2}> ()\n  r = Reshape(x, s)\n  y = Transpose <perm = [2, 0, 1]> (r)",
        "float[B, 4, 6] x",
    )
    assert t["s"] == "int64[3]"
    assert t["r"] == "float[B, 12, 2]"
    assert t["y"] == "float[2, B, 12]"


def test_slice_unsqueeze_concat_gather_reduce() -> None:
    body = (
        "  st = Constant <value = int64[1] {1}> ()\n  en = Constant <value = int64[1] {3}> ()\n"
        "  ax = Constant <value = int64[1] {0}> ()\n"
        "  s = Slice(x, st, en)\n  u = Unsqueeze(s, ax)\n  c = Concat <axis = 1> (u, u)\n"
        "  i = Constant <value = int64[2] {0, 1}> ()\n  g = Gather <axis = 2> (c, i)\n"
        "  y = ReduceSum <keepdims = 0> (g, ax)"
    )
    t = types(body, "float[5, 7] x")
    assert t["s"] == "float[2, 7]"
    assert t["u"] == "float[1, 2, 7]"
    assert t["c"] == "float[1, 4, 7]"
    assert t["g"] == "float[1, 4, 2]"
    assert t["y"] == "float[4, 2]"


def test_cast_shape_size() -> None:
    t = types("  c = Cast <to = 7> (x)\n  s = Shape(x)\n  n = Size(x)\n  y = Identity(x)", "float[2, 3] x")
    assert (t["c"], t["s"], t["n"]) == ("int64[2, 3]", "int64[2]", "int64[]")


def test_model_local_function() -> None:
    extra = '<domain: "local", opset_import: ["" : 21]>\nsquare (a) => (b) {\n  b = Mul(a, a)\n}\n'
    header = '<ir_version: 10, opset_import: ["" : 21, "local" : 1]>\n'
    t = types("  y = local.square(x)", "float[3, N] x", header=header, extra=extra)
    assert t["y"] == "float[3, N]"


def test_if_subgraph_types() -> None:
    doc = parse_document(
        H + "g (bool c, float[2, 3] a) => (float y) {\n"
        "  y = If(c) <then_branch = t () => (float z) { z = Relu(a) },"
        " else_branch = e () => (float z) { z = Neg(a) }>\n}\n",
        "model",
        "<t>",
    )
    result = infer_model(doc.proto, use_declared=False)
    assert str(result.graphs["graph"]["y"]) == "float[2, 3]"
    assert str(result.graphs["graph/node[0]/attribute[0]/g"]["z"]) == "float[2, 3]"


def test_declared_types_complete_inferred_ones() -> None:
    doc = parse_document(H + "g (float[N] x) => (float[4] y) {\n  y = Relu(x)\n}\n", "model", "<t>")
    assert str(infer_types(doc.proto)["y"]) == "float[4]"
    assert str(infer_types(doc.proto, use_declared=False)["y"]) == "float[N]"


def test_onnx_model_accepted() -> None:
    onnx = pytest.importorskip("onnx")
    model = onnx.parser.parse_model(H + "g (float[2] x) => (float[2] y) { y = Relu(x) }")
    assert str(infer_types(model)["y"]) == "float[2]"


@pytest.mark.parametrize(
    ("equation", "inputs", "expected"),
    [
        ("bi,ij->bj", "float[N, 6] a, float[6, 4] b", "float[N, 4]"),
        ("bi,bi->b", "float[N, 6] a, float[N, 6] b", "float[N]"),
        ("ij,jk", "float[2, 3] a, float[3, 5] b", "float[2, 5]"),  # implicit: the labels used once
        ("ba", "float[2, 3] a", "float[3, 2]"),  # implicit output sorts the labels
        ("ii->i", "float[4, 4] a", "float[4]"),
        ("...ij,...jk->...ik", "float[B, 7, 2, 3] a, float[3, 5] b", "float[B, 7, 2, 5]"),
        ("bhqd,bhkd->bhqk", "float[1, 2, S, 8] a, float[1, 2, T, 8] b", "float[1, 2, S, T]"),
        ("i,j", "float[1] a, float[3] b", "float[1, 3]"),
    ],
)
def test_einsum(equation: str, inputs: str, expected: str) -> None:
    """torch.einsum exports: the output shape from the equation (numpy's rules), as onnx infers it."""
    operands = "a, b" if " b" in inputs else "a"
    t = types(f'  y = Einsum <equation = "{equation}"> ({operands})', inputs)
    assert t["y"] == expected


def test_einsum_that_does_not_fit_its_inputs_is_left_unknown() -> None:
    t = types('  y = Einsum <equation = "ijk->i"> (a)', "float[2, 3] a")
    assert t["y"] == "float"


ML_HEADER = '<ir_version: 10, opset_import: ["" : 21, "ai.onnx.ml" : 3]>\n'


@pytest.mark.parametrize(
    ("labels", "label_type", "key"),
    [
        ("classlabels_ints = [0, 1, 2]", "int64[N]", "int64"),
        ('classlabels_strings = ["a", "b"]', "string[N]", "string"),
    ],
)
def test_classifier_label_and_zipmap_types_follow_the_class_labels(labels: str, label_type: str, key: str) -> None:
    """skl2onnx's classifiers: the label is int64 or string as the class labels are, ZipMap's maps keyed alike."""
    zip_labels = labels.replace("classlabels_ints", "classlabels_int64s")
    body = (
        f"  l, s = ai.onnx.ml.LinearClassifier <coefficients = [1.0, 2.0, 3.0, 4.0], {labels}> (x)\n"
        f"  z = ai.onnx.ml.ZipMap <{zip_labels}> (s)\n"
        "  y = ai.onnx.ml.LinearRegressor <coefficients = [1.0, 2.0]> (x)"
    )
    t = types(body, "float[N, 2] x", header=ML_HEADER)
    assert (t["l"], t["s"], t["z"], t["y"]) == (label_type, "float[N, ?]", f"seq(map({key}, float))", "float[N, ?]")
