"""Type and shape rules from inference: E701-E704."""

from __future__ import annotations

import pytest
from checkutil import VALID, diagnostics, located

H = '<ir_version: 10, opset_import: ["" : 21]>\n'


def g(body: str, inputs: str, outputs: str = "float[] y") -> str:
    return H + f"g ({inputs}) => ({outputs}) {{\n{body}\n}}\n"


def test_valid_model_has_no_type_errors() -> None:
    assert located(VALID, "E7") == []


def test_e701_matmul_with_string_inputs() -> None:
    text = g("  y = MatMul(a, b)", "string[2, 3] a, string[3, 2] b", "string y")
    assert located(text, "E7") == [("E701", 3, 14), ("E701", 3, 17)]
    assert "tensor(string)" in diagnostics(text, "E701")[0].message


def test_e702_add_float_int64() -> None:
    text = g("  y = Add(a, b)", "float[2] a, int64[2] b")
    assert located(text, "E7") == [("E702", 3, 14)]
    message = diagnostics(text, "E702")[0].message
    assert "tensor(int64)" in message and "tensor(float)" in message


def test_e702_through_intermediate_values() -> None:
    text = g("  c = Cast <to = 7> (a)\n  y = Mul(a, c)", "float[2] a")
    assert located(text, "E7") == [("E702", 4, 14)]


def test_e703_matmul_inner_dims() -> None:
    text = g("  y = MatMul(a, b)", "float[2, 3] a, float[4, 5] b")
    assert located(text, "E7") == [("E703", 3, 17)]
    assert "3" in diagnostics(text, "E703")[0].message and "4" in diagnostics(text, "E703")[0].message


def test_e703_matmul_symbolic_dims_are_not_errors() -> None:
    text = g("  y = MatMul(a, b)", "float[N, K] a, float[M, 5] b")
    assert located(text, "E7") == []


def test_e703_concat_ranks() -> None:
    text = g("  y = Concat <axis = 0> (a, b)", "float[2, 3] a, float[3] b")
    assert located(text, "E7") == [("E703", 3, 29)]


def test_e703_concat_other_axis_sizes() -> None:
    text = g("  y = Concat <axis = 0> (a, b)", "float[2, 3] a, float[2, 4] b")
    assert located(text, "E7") == [("E703", 3, 29)]


def test_e703_reshape_incompatible_constant_shape() -> None:
    text = g("  s = Constant <value = int64[2] {4, 4}> ()\n  y = Reshape(a, s)", "float[2, 3] a")
    assert located(text, "E7") == [("E703", 4, 18)]


def test_e703_reshape_with_initializer_shape() -> None:
    text = H + "g (float[2, 3] a) => (float y)\n<int64[2] s = {5, -1}>\n{\n  y = Reshape(a, s)\n}\n"
    assert located(text, "E7") == [("E703", 5, 18)]


def test_reshape_compatible_shape_is_fine() -> None:
    text = g("  s = Constant <value = int64[2] {3, -1}> ()\n  y = Reshape(a, s)", "float[2, 3] a")
    assert located(text, "E7") == []


def test_e703_broadcast() -> None:
    text = g("  y = Add(a, b)", "float[2, 3] a, float[4] b")
    assert located(text, "E7") == [("E703", 3, 14)]


def test_unknown_types_are_not_errors() -> None:
    text = H + "g (float[2] a) => (float y) {\n  t = Custom(a)\n  y = MatMul(t, a)\n}\n"
    text = text.replace('["" : 21]', '["" : 21, "custom": 1]').replace("Custom", "custom.Custom")
    assert located(text, "E7") == []


def test_type_errors_inside_subgraphs() -> None:
    text = g(
        "  y = If(c) <then_branch = t () => (float[2] z) { z = Add(a, b) },"
        " else_branch = e () => (float[2] z) { z = Identity(a) }>",
        "bool c, float[2] a, int64[2] b",
    )
    assert [d.code for d in diagnostics(text, "E7")] == ["E702"]


def test_binary_model_paths() -> None:
    from onnxtext.document import parse_document

    doc = parse_document(g("  y = Add(a, b)", "float[2] a, int64[2] b"), "model", "<t>")
    from onnxtext.analysis.check import check_proto

    diags = check_proto(doc.proto, select=["E702"])
    assert [d.code for d in diags] == ["E702"]
    assert "graph/node[0] (Add) input 1" in str(diags[0])


def test_given_inference_is_used_and_not_recomputed() -> None:
    from onnxtext import parse_model
    from onnxtext.analysis.check import check_proto
    from onnxtext.analysis.infer.engine import infer_model
    from onnxtext.analysis.infer.node import Finding, Issue
    from onnxtext.ir.paths import ProtoPath

    model = parse_model(VALID)
    inference = infer_model(model)
    inference.issues.append(Issue(Finding.SHAPE, "made up by the test", ProtoPath.parse("graph/node[1]"), 0))
    found = check_proto(model, select=["E7"], inference=inference)
    assert [(d.code, d.message, d.path) for d in found] == [
        ("E703", "made up by the test", "graph/node[1] (Relu) input 0")
    ]
    assert check_proto(model, select=["E7"]) == []  # without it, inference runs afresh (nothing is cached globally)


def test_inference_runs_once_per_check(monkeypatch: pytest.MonkeyPatch) -> None:
    import onnxtext.analysis.check.context as context
    import onnxtext.analysis.infer as infer
    from onnxtext.analysis.infer.engine import infer_model

    calls: list[object] = []

    def counting(model: object) -> object:
        calls.append(model)
        return infer_model(model)  # type: ignore[arg-type]

    monkeypatch.setattr(context, "infer_model", counting)  # a binary model's
    monkeypatch.setattr(infer, "infer_model", counting)  # a text's: its document's, shared with hover and hints
    diagnostics(g("  y = Add(a, b)", "float[2] a, int64[2] b"), "E7")
    assert len(calls) == 1
    diagnostics(VALID, "E301")  # no type rule selected: no inference
    assert len(calls) == 1


def test_e704_declared_output_type_contradicts_the_node() -> None:
    text = H + "g (float[2] x) => (int64[3] y) {\n  y = Relu(x)\n}\n"
    diags = diagnostics(text, "E704")
    assert located(text, "E704") == [("E704", 2, 20)]
    assert diags[0].message == "'y' is declared int64[3] but Relu gives float[2]"
    assert diags[0].related and diags[0].related[0].span.start.line == 3  # type: ignore[union-attr]


def test_e704_a_classifiers_label_declared_float() -> None:
    """skl2onnx's label is int64 (its class labels are): declared float, onnx.checker refuses the model, so do we."""
    head = '<ir_version: 10, opset_import: ["" : 21, "ai.onnx.ml" : 3]>\n'
    body = "  l, s = ai.onnx.ml.LinearClassifier <coefficients = [1.0, 2.0], classlabels_ints = [0, 1]> (x)\n"
    text = head + f"g (float[N, 2] x) => (float[N] l, float[N, 2] s) {{\n{body}}}\n"
    assert located(text, "E704") == [("E704", 2, 23)]
    assert located(text.replace("float[N] l", "int64[N] l"), "E7") == []


def test_e704_value_info_rank_and_scalar() -> None:
    text = H + "g (float[2] x) => (float[2] y)\n<float h>\n{\n  h = Relu(x)\n  y = Neg(h)\n}\n"
    diags = diagnostics(text, "E704")
    assert located(text, "E704") == [("E704", 3, 2)]
    assert diags[0].message == "'h' is declared float (a scalar) but Relu gives float[2]"


def test_e704_symbols_and_unknowns_are_not_contradictions() -> None:
    ok = H + "g (float[N, 3] x) => (float[2, M] y, float[] z) {\n  y = Relu(x)\n  z = Neg(x)\n}\n"
    assert located(ok, "E704") == []


def test_e704_inside_a_subgraph() -> None:
    text = g(
        "  y = If(c) <then_branch = t () => (int64[2] z) { z = Identity(a) },"
        " else_branch = e () => (float[2] z) { z = Identity(a) }>",
        "bool c, float[2] a",
    )
    assert [d.code for d in diagnostics(text, "E7")] == ["E704"]
    assert "'z' is declared int64[2] but Identity gives float[2]" in diagnostics(text, "E704")[0].message


def test_e704_fix_declares_what_the_node_gives_and_keeps_what_inference_does_not_know() -> None:
    """An input's shape set by hand leaves an exporter's declarations behind: each E704 has a fix that
    declares the value as inferred (a declared symbol where inference has none stays), and the fixed
    text checks clean."""
    text = H + 'g (float[2, K] x) => (float[1, 4] y)\n<float[1, 4] a, float[1, "my dim"] b>\n{\n'
    text += "  a = Relu (x)\n  b = Relu (x)\n  y = Add (a, b)\n}\n"
    diags = diagnostics(text, "E704")
    assert sorted(d.fix.message for d in diags if d.fix) == [
        'declare it as inferred: float[2, "my dim"]',
        "declare it as inferred: float[2, 4]",
        "declare it as inferred: float[2, 4]",
    ]
    fixed = text
    for d in sorted(diags, key=lambda d: -d.span.start.offset):  # type: ignore[union-attr]
        assert d.fix is not None and len(d.fix.edits) == 1
        fixed = d.fix.apply(fixed)
    assert "(float[2, 4] y)" in fixed and '<float[2, 4] a, float[2, "my dim"] b>' in fixed
    assert located(fixed, "E7") == []


def test_e704_fix_of_another_rank_or_element_type_is_the_inferred_type() -> None:
    text = H + "g (float[2, 3] x) => (int64[6] y, float[2, 3] z) {\n  y = Relu(x)\n  z = Neg(x)\n}\n"
    (diag,) = diagnostics(text, "E704")
    assert diag.fix is not None and diag.fix.message == "declare it as inferred: float[2, 3]"
    assert located(diag.fix.apply(text), "E7") == []


def test_e704_not_after_the_nodes_own_type_error() -> None:
    text = g("  y = Add(a, b)", "float[2] a, int64[2] b", "int64[2] y")
    assert [d.code for d in diagnostics(text, "E7")] == ["E702"]


def test_e703_conv_attribute_lengths_follow_the_input_rank() -> None:
    text = g("  y = ConvTranspose <pads = [1, 1, 1]> (a, w)", "float[1, 2, 5, 5] a, float[2, 3, 3, 3] w", "float[] y")
    diags = diagnostics(text, "E703")
    assert (
        len(diags) == 1
        and "'pads' has 3 values, but input 0 has 2 spatial axes: ConvTranspose needs 4" in diags[0].message
    )
    pool = g("  y = MaxPool <kernel_shape = [2, 2], strides = [1]> (a)", "float[1, 2, 5, 5] a", "float[] y")
    assert "'strides' has 1 values" in diagnostics(pool, "E703")[0].message
    ok = g("  y = ConvTranspose <pads = [1, 1, 1, 1]> (a, w)", "float[1, 2, 5, 5] a, float[2, 3, 3, 3] w", "float[] y")
    assert located(ok, "E7") == []


def test_e705_axis_out_of_range_for_the_input_rank() -> None:
    text = g("  y = Softmax <axis = 5> (a)", "float[2, 3] a", "float[2, 3] y")
    diags = diagnostics(text, "E705")
    assert located(text, "E705") == [("E705", 3, 16)]
    assert diags[0].message == "axis 5 is out of range for input 0 of Softmax, which has rank 2 (an axis from -2 to 1)"
    assert located(g("  y = Concat <axis = -3> (a, a)", "float[2, 3] a", "float[4, 3] y"), "E705") == [("E705", 3, 15)]


def test_e705_in_range_and_flatten_rank() -> None:
    for body in ("  y = Softmax <axis = -2> (a)", "  y = Flatten <axis = 2> (a)", "  y = Gather <axis = 1> (a, i)"):
        assert located(g(body, "float[2, 3] a, int64[1] i", "float[] y"), "E705") == [], body
    assert located(g("  y = Flatten <axis = 3> (a)", "float[2, 3] a", "float[] y"), "E705") == [("E705", 3, 16)]


def test_e705_default_axis_out_of_range() -> None:
    """A default axis onnx's inference holds to the rank ('Unexpected axis value (-1) rank of first
    input is 0'); ArgMin's default 0 on a scalar it accepts, and so do we."""
    text = g("  y, m, v = LayerNormalization (s, s, s)", "float s", "float y, float m, float v")
    assert located(text, "E705") == [("E705", 3, 33)]
    assert diagnostics(text, "E705")[0].message == (
        "the default axis -1 of LayerNormalization is out of range for input 0, which has rank 0 (it has no axis)"
    )
    h11 = '<ir_version: 10, opset_import: ["" : 11]>\n'
    softmax = h11 + "g (float[3] v) => (float[3] y) {\n  y = Softmax (v)\n}\n"  # default axis 1 before opset 13
    assert located(softmax, "E705") == [("E705", 3, 16)]
    assert located(softmax.replace("11]", "13]"), "E705") == []
    for body in ("  y = Split (s)", "  y = Gather (s, i)", "  y, k = TopK (s, i)"):
        assert located(g(body, "float s, int64[1] i", "float y"), "E705") == [("E705", 3, body.index("(s") + 2)], body
    assert located(g("  y = ArgMin (s)", "float s", "int64 y"), "E705") == []


def test_e705_unknown_rank_is_not_an_error() -> None:
    assert located(g("  y = Softmax <axis = 5> (a)", "float[] a", "float[] y"), "E705") == []


def test_e706_if_branches_of_different_types() -> None:
    text = g(
        "  y = If(c) <then_branch = t () => (float[2] z) { z = Identity(a) },"
        " else_branch = e () => (int64[2] z) { z = Identity(b) }>",
        "bool c, float[2] a, int64[2] b",
        "float[2] y",
    )
    diags = diagnostics(text, "E706")
    assert located(text, "E706") == [("E706", 3, 7)]
    assert diags[0].message == "output 0 of If is float[2] in then_branch but int64[2] in else_branch"


def test_e706_if_branches_of_different_sizes_are_fine() -> None:
    text = g(
        "  y = If(c) <then_branch = t () => (float[2] z) { z = Identity(a) },"
        " else_branch = e () => (float[3] z) { z = Identity(b) }>",
        "bool c, float[2] a, float[3] b",
        "float[] y",
    )
    assert located(text, "E7") == []


def test_e706_loop_carried_type_changes() -> None:
    text = g(
        "  y = Loop(n, c, v) <body = b (int64 i, bool cond, float[2] acc) => (bool c2, int64[2] out) {\n"
        "    c2 = Identity(cond)\n    out = Cast <to = 7> (acc)\n  }>",
        "int64 n, bool c, float[2] v",
        "float[] y",
    )
    diags = diagnostics(text, "E706")
    assert (
        len(diags) == 1
        and "loop-carried value 0 enters Loop as float[2] but the body gives back int64[2]" in diags[0].message
    )


def test_e706_body_outputs_and_node_outputs() -> None:
    """onnx: 'Graph attribute inferencing returned type information for 3 outputs. Expected 2'
    (Loop's body gives the condition, then one value per output; Scan's one per output)."""
    loop = g(
        "  y = Loop(n, c, v) <body = b (int64 i, bool cond, float[2] acc) => (bool c2, float[2] out, float[2] z) {\n"
        "    c2 = Identity(cond)\n    out = Neg (acc)\n    z = Neg (acc)\n  }>",
        "int64 n, bool c, float[2] v",
        "float[] y",
    )
    assert located(loop, "E706") == [("E706", 3, 7)]
    assert diagnostics(loop, "E706")[0].message == (
        "the body of Loop has 3 outputs and the node 1: the body gives the condition, "
        "then one value for each output of the node (2 in all)"
    )
    assert located(loop.replace("  y = Loop", "  y, ys = Loop"), "E706") == []
    scan = g(
        "  y, ys = Scan <num_scan_inputs = 1, body = b (float[2] s, float[2] e) => (float[2] s2) {\n"
        "    s2 = Add (s, e)\n  }> (v, m)",
        "float[2] v, float[3, 2] m",
        "float[] y",
    )
    assert located(scan, "E706") == [("E706", 3, 11)]
    assert located(scan.replace("  y, ys = Scan", "  y = Scan"), "E706") == []


def test_e704_value_info_contradicts_its_initializer() -> None:
    text = H + "g (float[4] x) => (float[4] y)\n<float[4] b = {1, 2, 3, 4}, int64[4] b>\n{\n  y = Add(x, b)\n}\n"
    assert located(text, "E7") == [("E704", 3, 29)]
    (d,) = diagnostics(text, "E704")
    assert d.message == "'b' is declared int64[4] but its initializer is float[4]"
    assert [(r.message, r.span.start.line, r.span.start.column) for r in d.related] == [  # type: ignore[union-attr]
        ("initialized here", 3, 11)
    ]
    assert located(text.replace("int64[4] b>", "float[4] b>"), "E7") == []
    assert located(text.replace("int64[4] b>", "float[N] b>"), "E7") == []


def test_e704_initializer_in_a_binary_model_by_path() -> None:
    from onnxtext import parse_model
    from onnxtext.analysis.check import check_proto

    text = H + "g (float[4] x) => (float[4] y)\n<float[4] b = {1, 2, 3, 4}, float[2, 2] b>\n{\n  y = Add(x, b)\n}\n"
    (d,) = [d for d in check_proto(parse_model(text)) if d.code == "E704"]
    assert d.message == "'b' is declared float[2, 2] but its initializer is float[4]"
    assert d.path is not None and d.path.startswith("graph/value_info[0]")


def test_type_text_of_types_the_text_cannot_write_is_none() -> None:
    from onnxtext.analysis.infer import ValueType
    from onnxtext.analysis.infer.text import type_text

    assert type_text(ValueType.tensor(1, (2, "N", None))) == "float[2, N, ?]"
    assert type_text(ValueType.sequence(ValueType.tensor(7, (3,)))) is not None
    for bad in (ValueType.tensor(2**40, (2,)), ValueType.tensor(0, (2,)), ValueType("unknown"), None):
        assert type_text(bad) is None


def test_loop_body_sees_carried_values_without_their_shapes() -> None:
    """An iteration may change a loop-carried value's shape, so the body is inferred with its
    element type only (as onnx does): a condition computed from the counter [1] declared a
    scalar is no mismatch; the same declaration of the outer [1] value still is."""
    body = (
        "  z = Loop (m, c, i) <body: graph = b (int64 n, bool ci, int64 ii) => (bool co, int64 io) {\n"
        "     one = Constant <value_int = 1> ()\n"
        "     io = Add (ii, one)\n"
        "     {} = Less (io, m)\n"
        "  }>"
    )
    carried = g(body.replace("{}", "co"), "int64 m, bool c, int64[1] i", "int64[1] z")
    assert located(carried, "E7") == []
    outer = g(body.replace("{} = Less (io, m)", "co = Identity (c)"), "int64 m, bool[1] c, int64[1] i", "int64[1] z")
    assert located(outer, "E704") == [("E704", 3, 72)]


def test_e701_opaque_value_into_an_operator() -> None:
    """No operator of the tables takes an opaque type, bare or in a sequence (onnx's inference:
    'has unsupported type: opaque(test.domain,MyType)'); an opaque value passed along unused is fine."""
    text = g("  y = Identity(o)", "opaque(test.domain, MyType) o", "opaque(test.domain, MyType) y")
    assert located(text, "E7") == [("E701", 3, 16)]
    assert diagnostics(text, "E701")[0].message.startswith("input 0 ('input') of 'Identity' is an opaque type, but")
    seq = g("  n = SequenceLength(s)", "seq(opaque(d, T)) s", "int64 n")
    assert located(seq, "E7") == [("E701", 3, 22)]
    assert "is seq(opaque), but type constraint 'S' allows seq(tensor(" in diagnostics(seq, "E701")[0].message
    unused = g("  y = Identity(x)", "opaque(d, T) o, float[2] x", "float[2] y")
    assert located(unused, "E7") == []


def test_e703_conv_weight_rank_and_input_rank() -> None:
    """Without 'kernel_shape' the weight's axes after the first two are the kernel, one per spatial
    axis (onnx: 'Number of spatial dimensions in the weight tensor (0) does not match...'); X has
    at least 3 axes ('Input tensor must have at least 3 dimensions'), for pooling too."""
    text = g("  y = Conv (x, w)", "float[1, 3, 5, 5] x, float w", "float[] y")
    assert located(text, "E703") == [("E703", 3, 16)]
    assert diagnostics(text, "E703")[0].message == (
        "input 1 (W) of Conv has rank 0, but input 0 (X) has rank 4: the weight has one kernel axis per spatial "
        "axis of X (2), after its two channel axes"
    )
    assert located(text.replace("float w", "float[2, 3, 3, 3] w"), "E703") == []
    given = g("  y = Conv <kernel_shape = [3, 3]> (x, w)", "float[1, 3, 5, 5] x, float[2, 3] w", "float[] y")
    assert located(given, "E703") == []  # onnx reads the kernel from the attribute then
    flat = g("  y = MaxPool <kernel_shape = [2]> (x)", "float[1, 3] x", "float[] y")
    assert located(flat, "E703") == [("E703", 3, 37)]
    assert "input 0 (X) of MaxPool has rank 2, but MaxPool needs at least 3" in diagnostics(flat, "E703")[0].message
    transposed = g("  y = ConvTranspose (x, w)", "float[1, 3, 5, 5] x, float[3, 2] w", "float[] y")
    assert located(transposed, "E703") == [("E703", 3, 25)]


def test_e703_signal_of_rank_one() -> None:
    """STFT's and DFT's signal has a batch axis before its samples (onnx: 'First input should have
    at least 2 dimensions')."""
    h17 = '<ir_version: 10, opset_import: ["" : 17]>\n'
    text = h17 + "g (float[16] s, int64 st) => (float[] y) {\n  y = STFT (s, st)\n}\n"
    assert located(text, "E703") == [("E703", 3, 13)]
    assert diagnostics(text, "E703")[0].message == (
        "input 0 (the signal) of STFT has rank 1, but STFT needs at least 2 (a batch axis, then the samples)"
    )
    assert located(text.replace("float[16] s", "float[1, 16] s"), "E703") == []
    dft = h17 + "g (float s) => (float[] y) {\n  y = DFT (s)\n}\n"
    assert located(dft, "E703") == [("E703", 3, 12)]


def test_e703_kernel_shape_of_another_length() -> None:
    """onnx: 'Attribute kernel_shape has incorrect size' (one value per spatial axis)."""
    pool = g("  y = MaxPool <kernel_shape = [3]> (x)", "float[1, 3, 5, 5] x", "float[] y")
    assert located(pool, "E703") == [("E703", 3, 37)]
    assert diagnostics(pool, "E703")[0].message == (
        "'kernel_shape' has 1 values, but input 0 has 2 spatial axes: MaxPool needs 2"
    )
    conv = g("  y = Conv <kernel_shape = [3, 3, 3]> (x, w)", "float[1, 3, 5, 5] x, float[2, 3, 3, 3] w", "float[] y")
    assert located(conv, "E703") == [("E703", 3, 40)]
    assert located(conv.replace("[3, 3, 3]>", "[3, 3]>"), "E703") == []
    transposed = conv.replace("Conv <", "ConvTranspose <").replace("float[2, 3, 3, 3] w", "float[3, 2, 3, 3] w")
    assert located(transposed, "E703") == [("E703", 3, 49)]


def test_e701_in_a_function_body_under_the_call_types() -> None:
    """onnx infers a model-local function's body with each call's types and refuses what its
    nodes refuse ('(op_type:F): (op_type:Add): A typestr: T, has unsupported type:
    tensor(string)'): reported at the call, the function and its node named."""
    text = (
        '<ir_version: 10, opset_import: ["" : 21, "local" : 1]>\n'
        "g (string[2] x, float[2] f) => (string[2] y, float[2] z) {\n"
        "  y = local.F (x)\n  z = local.F (f)\n}\n"
        '<domain: "local", opset_import: ["" : 21]>\n'
        "F (a) => (b) { b = Add (a, a) }\n"
    )
    assert located(text, "E7") == [("E701", 3, 13)]
    assert diagnostics(text, "E701")[0].message.startswith(
        "in function 'F' as called here, Add: input 0 ('A') of 'Add' is tensor(string), but type constraint 'T'"
    )


def test_e706_scan_8_body_outputs() -> None:
    h8 = '<ir_version: 3, opset_import: ["" : 8]>\n'
    text = h8 + (
        "g (float[1, 2] v, float[1, 3, 2] m) => (float[1, 2] y) {\n"
        "  y = Scan <num_scan_inputs = 1, body = b (float[2] s, float[2] e) => (float[2] s2, float[2] t) {\n"
        '    s2 = Add (s, e)\n    t = Neg (e)\n  }> ("", v, m)\n}\n'
    )
    assert located(text, "E706") == [("E706", 3, 7)]
    assert located(text.replace("  y = Scan", "  y, ys = Scan"), "E706") == []


def test_e703_ranks_of_recurrent_loss_and_text_operators() -> None:
    """Ranks onnx's inference holds: RNN's X is [seq, batch, features] ('Input 0 expected to have
    rank 3'), NegativeLogLikelihoodLoss's target one axis fewer than its input and its weight 1-D,
    TfIdfVectorizer's input [C] or [N, C], StringNormalizer's [C] or [1, C]."""
    rnn = g("  y = RNN <hidden_size = 4> (x, w, r)", "float[2, 3, 4, 5] x, float[1, 4, 3] w, float[1, 4, 4] r")
    assert located(rnn, "E703") == [("E703", 3, 30)]
    assert "input 0 (X) of RNN has rank 4, but RNN needs 3" in diagnostics(rnn, "E703")[0].message
    nll = g("  y = NegativeLogLikelihoodLoss (x, t)", "float[2, 3, 4, 5] x, int64[2, 4] t", "float y")
    assert located(nll, "E703") == [("E703", 3, 37)]
    assert located(nll.replace("int64[2, 4] t", "int64[2, 4, 5] t"), "E703") == []
    other = nll.replace("int64[2, 4] t", "int64[2, 4, 6] t")  # onnx: 'Input and target dimension value mismatch'
    assert [d.message for d in diagnostics(other, "E703")] == [
        "input 1 (target) of NegativeLogLikelihoodLoss has 6 on axis 2, but input 0 has 5 on axis 3: "
        "the target is [N, d1, ...] of input 0's [N, C, d1, ...]"
    ]
    tfidf = (
        '  y = TfIdfVectorizer <max_gram_length = 1, max_skip_count = 0, min_gram_length = 1, mode = "TF", '
        "ngram_counts = [0], ngram_indexes = [0, 1, 2], pool_int64s = [2, 3, 5]> (x)"
    )
    assert located(g(tfidf, "int32[2, 6] x", "float[2, 3] y"), "E7") == []
    assert located(g(tfidf, "int32[2, 6] x", "float[2, 4] y"), "E7") == [("E704", 2, 23)]  # D = 3
    assert located(g(tfidf, "int32[1, 2, 6] x", "float[] y"), "E703") == [("E703", 3, 172)]
    norm = g("  y = StringNormalizer (x)", "string[2, 3] x", "string[] y")
    assert located(norm, "E703") == [("E703", 3, 25)]
    assert located(norm.replace("string[2, 3] x", "string[1, 3] x"), "E703") == []


def test_e705_rms_normalization_axis() -> None:
    h23 = '<ir_version: 11, opset_import: ["" : 23]>\n'
    text = h23 + "g (float x, float s) => (float y) {\n  y = RMSNormalization (x, s)\n}\n"
    assert located(text, "E705") == [("E705", 3, 25)]
    shaped = text.replace("float x", "float[2, 3] x").replace("float y", "float[2, 3] y")
    assert located(shaped, "E7") == []
    assert located(shaped.replace("RMSNormalization (", "RMSNormalization <axis = -3> ("), "E705") == [("E705", 3, 25)]


def test_resize_shapes_from_sizes_and_scales() -> None:
    """onnx: 'Number of elements of input 'sizes' (2) must be same as rank of input 'X' (4)',
    'Axis 3 is referred to more than once'; the output follows sizes or floor(dim * scale)."""
    h19 = '<ir_version: 10, opset_import: ["" : 19]>\n'

    def resize(values: str, call: str, out: str = "float[1, 3, 8, 8] y") -> str:
        return h19 + f"g (float[1, 3, 4, 4] x) => ({out}) {{\n  s = Constant <{values}> ()\n  y = {call}\n}}\n"

    assert located(resize("value_floats = [1.0, 1.0, 2.0, 2.0]", 'Resize (x, "", s)'), "E7") == []
    assert located(resize("value_floats = [2.0, 2.0]", 'Resize <axes = [2, 3]> (x, "", s)'), "E7") == []
    short = resize("value_floats = [2.0, 2.0]", 'Resize (x, "", s)')
    assert located(short, "E7") == [("E703", 4, 22)]
    assert diagnostics(short, "E703")[0].message == (
        "input 2 (scales) has 2 values, but 4 axes are resized: one value per axis"
    )
    twice = resize("value_ints = [8, 8]", 'Resize <axes = [3, 3]> (x, "", "", s)')
    assert [d.message for d in diagnostics(twice, "E703")] == ["'axes' names axis 3 more than once"]
    wrong = resize("value_ints = [1, 3, 8, 8]", 'Resize (x, "", "", s)', "float[1, 3, 8, 9] y")
    assert [d.message for d in diagnostics(wrong, "E704")] == [
        "'y' is declared float[1, 3, 8, 9] but Resize gives float[1, 3, 8, 8]"
    ]


def test_e703_bitcast_of_another_width() -> None:
    """onnx: 'BitCast requires input and output types to have the same bit-width'."""
    h26 = '<ir_version: 11, opset_import: ["" : 26]>\n'
    text = h26 + "g (int8[2] x) => (int32[2] y) {\n  y = BitCast <to = 6> (x)\n}\n"
    assert located(text, "E703") == [("E703", 3, 25)]
    assert diagnostics(text, "E703")[0].message == (
        "BitCast reads input 0 (int8, 8 bits) as int32 (32 bits): it needs types of the same width"
    )
    assert located(text.replace("int8[2] x", "float[2] x"), "E7") == []


def test_resize_with_computed_sizes_keeps_the_other_axes() -> None:
    """sizes as a graph input: the axes not resized keep their sizes (onnx: 'Inferred shape and
    existing shape differ in dimension 0: (1) vs (6)'), and its length is held to the axes."""
    h19 = '<ir_version: 10, opset_import: ["" : 19]>\n'
    text = h19 + (
        "g (float[1, 1, 2, 4] x, int64[2] sizes) => (float[1, 1, 2, 3] y) {\n"
        '  y = Resize <axes = [2, 3], keep_aspect_ratio_policy = "not_smaller"> (x, "", "", sizes)\n}\n'
    )
    assert located(text, "E7") == []
    assert [d.message for d in diagnostics(text.replace("float[1, 1, 2, 3] y", "float[6, 1, 2, 3] y"), "E704")] == [
        "'y' is declared float[6, 1, 2, 3] but Resize gives float[1, 1, ?, ?]"
    ]
    assert [d.message for d in diagnostics(text.replace("int64[2] sizes", "int64[3] sizes"), "E703")] == [
        "input 3 (sizes) has 3 values, but 2 axes are resized: one value per axis"
    ]


def test_dft_output_and_one_sided_signal() -> None:
    """DFT gives [..., 2] with the other axes but the transformed one kept (onnx: 'Inferred shape
    and existing shape differ in rank'); a one-sided DFT takes a real signal ('one-sided DFT
    requires real input (last dimension must be 1)')."""
    h17 = '<ir_version: 10, opset_import: ["" : 17]>\n'

    def dft(inp: str, out: str, attrs: str = "") -> str:
        return h17 + f"g ({inp} x) => ({out} y) {{\n  y = DFT {attrs}(x)\n}}\n"

    assert located(dft("float[1, 10, 1]", "float[1, 10, 2]"), "E7") == []
    assert located(dft("float[1, 10, 1]", "float[1, 6, 2]", "<onesided = 1> "), "E7") == []
    assert [d.message for d in diagnostics(dft("float[1, 10, 1]", "float[3, 10, 2]"), "E704")] == [
        "'y' is declared float[3, 10, 2] but DFT gives float[1, ?, 2]"
    ]
    complex_in = dft("float[1, 10, 2]", "float[1, 6, 2]", "<onesided = 1> ")
    assert [d.message for d in diagnostics(complex_in, "E703")] == [
        "a one-sided DFT takes a real signal (last axis 1), but input 0's last axis is 2"
    ]
