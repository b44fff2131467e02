"""Graph rules: E201-E210."""

from __future__ import annotations

from checkutil import VALID, diagnostics, located

H = '<ir_version: 10, opset_import: ["" : 21]>\n'


def test_valid_graph() -> None:
    assert located(VALID, "E2") == []


def test_e201_graph_name_missing() -> None:
    text = H + '"" (float[2] x) => (float[2] y) { y = Relu(x) }\n'
    assert located(text, "E201") == [("E201", 2, 1)]


def test_e202_untyped_main_input() -> None:
    text = H + "g (x) => (float[2] y) { y = Relu(x) }\n"
    assert located(text, "E202") == [("E202", 2, 4)]


def test_e202_untyped_main_output() -> None:
    text = H + "g (float[2] x) => (y) { y = Relu(x) }\n"
    assert located(text, "E202") == [("E202", 2, 20)]


def test_e202_subgraph_io_may_be_untyped() -> None:
    text = H + (
        "g (bool c, float[2] x) => (float[2] y) {\n"
        "  y = If(c) <then_branch = t () => (a) { a = Relu(x) }, else_branch = e () => (b) { b = Neg(x) }>\n"
        "}\n"
    )
    assert located(text, "E2") == []


def test_e208_unknown_rank_main_input() -> None:
    text = H + "g (float[] x) => (float[2] y) { y = Relu(x) }\n"
    assert located(text, "E208") == [("E208", 2, 4)]
    assert located(H + "g (float x) => (float y) { y = Relu(x) }\n", "E208") == []


def test_e203_node_output_redefined() -> None:
    text = H + "g (float[2] x) => (float[2] y) {\n  t = Relu(x)\n  t = Neg(x)\n  y = Relu(t)\n}\n"
    diags = diagnostics(text, "E203")
    assert located(text, "E203") == [("E203", 4, 3)]
    assert diags[0].related[0].span.start.line == 3  # type: ignore[union-attr]


def test_e203_output_shadows_graph_input() -> None:
    text = H + "g (float[2] x) => (float[2] y) {\n  x = Relu(x)\n  y = Relu(x)\n}\n"
    assert located(text, "E203") == [("E203", 3, 3)]


def test_e203_duplicate_graph_input() -> None:
    text = H + "g (float[2] x, float[2] x) => (float[2] y) { y = Relu(x) }\n"
    assert located(text, "E203") == [("E203", 2, 25)]


def test_e203_same_output_twice_in_one_node() -> None:
    text = H + "g (float[2] x) => (float[2] y) {\n  y, y = Split <num_outputs = 2> (x)\n}\n"
    assert located(text, "E203") == [("E203", 3, 6)]


def test_e203_subgraph_output_reuses_outer_name() -> None:
    text = H + (
        "g (bool c, float[2] x) => (float[2] y) {\n"
        "  t = Relu(x)\n"
        "  y = If(c) <then_branch = th () => (t) { t = Neg(x) }, else_branch = el () => (b) { b = Neg(x) }>\n"
        "}\n"
    )
    assert located(text, "E203") == [("E203", 4, 43)]


def test_e204_undefined_value_with_suggestion() -> None:
    text = H + "g (float[2] input) => (float[2] y) { y = Relu(inptu) }\n"
    diags = diagnostics(text, "E204")
    assert located(text, "E204") == [("E204", 2, 47)]
    assert "did you mean 'input'" in diags[0].message


def test_e204_wrong_order() -> None:
    text = H + "g (float[2] x) => (float[2] y) {\n  y = Relu(t)\n  t = Neg(x)\n}\n"
    diags = diagnostics(text, "E204")
    assert located(text, "E204") == [("E204", 3, 12)]
    assert "topological order" in diags[0].message
    assert diags[0].related[0].span.start.line == 4  # type: ignore[union-attr]


def test_e204_subgraph_uses_outer_value() -> None:
    text = H + (
        "g (bool c, float[2] x) => (float[2] y) {\n"
        "  t = Relu(x)\n"
        "  y = If(c) <then_branch = th () => (a) { a = Neg(t) }, else_branch = el () => (b) { b = Neg(q) }>\n"
        "}\n"
    )
    assert located(text, "E204") == [("E204", 4, 94)]


def test_e204_empty_optional_input_is_fine() -> None:
    text = H + 'g (float[2] x) => (float[2] y) { y = Clip(x, "", "") }\n'
    assert located(text, "E204") == []


def test_e202_opaque_main_input_without_a_type_name() -> None:
    """onnx.checker: "Field 'name' of 'type' is required to be non-empty" (main graph only)."""
    text = H + "g (opaque() x, float[2] z) => (float[2] y) { y = Relu(z) }\n"
    assert located(text, "E202") == [("E202", 2, 13)]
    (diag,) = diagnostics(text, "E202")
    assert (
        diag.message
        == "main-graph input 'x' is opaque without a type name: an opaque type of the main graph names its type"
    )
    assert located(text.replace("opaque()", "opaque(my.domain, T)"), "E202") == []
    inner = (
        "g (float[2] z, bool c) => (float[2] y) {\n"
        "  y = If (c) <then_branch = t () => (opaque() o) {}, else_branch = e () => (opaque() p) {}>\n}\n"
    )
    assert located(H + inner, "E202") == []


def test_e205_graph_output_not_produced() -> None:
    text = H + "g (float[2] x) => (float[2] y, float[2] z) { y = Relu(x) }\n"
    assert located(text, "E205") == [("E205", 2, 41)]


def test_e205_output_may_be_an_input_or_initializer() -> None:
    text = H + "g (float[2] x) => (float[2] x, float[1] w) <float[1] w = {1}> { }\n"
    assert located(text, "E205") == []


def test_e210_subgraph_output_from_the_enclosing_graph() -> None:
    """A branch that returns an outer value directly: onnx.checker and onnxruntime refuse it."""
    text = H + (
        "g (float[N] x, bool c) => (float[N] y) {\n"
        "  s = Add (x, x)\n"
        "  y = If (c) <then_branch = t () => (float[N] s) {},\n"
        "              else_branch = e () => (float[N] r) { r = Identity (s) }>\n"
        "}\n"
    )
    assert located(text, "E210", "E205") == [("E210", 4, 47)]
    (diag,) = diagnostics(text, "E210")
    assert "'s' is a value of an enclosing graph" in diag.message
    assert [(r.span.start.line, r.span.start.column) for r in diag.related] == [(3, 3)]


def test_e210_subgraph_outputs_of_its_own() -> None:
    text = H + (
        "g (float[N] x, int64 m, bool c) => (float[N] y) {\n"
        "  y = Loop (m, c, x) <body: graph = b (int64 i, bool ci, float[N] xi) => (bool ci, float[N] xo)\n"
        "      <float[1] w = {2}> { xo = Mul (xi, w) }>\n"
        "}\n"
    )
    assert located(text, "E210", "E205") == []
    unproduced = text.replace("xo = Mul", "xx = Mul")
    assert located(unproduced, "E210", "E205") == [("E205", 3, 93)]


def test_e206_duplicate_initializer() -> None:
    text = H + ("g (float[2] x) => (float[2] y) <float[2] w = {1, 2}, float[2] w = {3, 4}> { y = Add(x, w) }\n")
    assert located(text, "E206") == [("E206", 2, 63)]


def test_e207_initializer_must_be_input_before_ir4() -> None:
    graph = "g (float[2] x) => (float[2] y) <float[2] w = {1, 2}> { y = Add(x, w) }\n"
    text = '<ir_version: 3, opset_import: ["" : 8]>\n' + graph
    assert located(text, "E207") == [("E207", 2, 42)]
    assert located(H + graph, "E207") == []
    as_input = (
        '<ir_version: 3, opset_import: ["" : 8]>\ng (float[2] x, float[2] w = {1, 2}) => (float[2] y) { y = '
        "Add(x, w) }\n"
    )
    assert located(as_input, "E207") == []


def test_e209_negative_dims_in_inputs_outputs_and_value_info() -> None:
    text = (
        '<ir_version: 10, opset_import: ["" : 21]>\n'
        "g (float[-2] x) => (seq(float[3, -1]) y)\n"
        "<float[-5] h>\n"
        "{\n  h = Relu(x)\n  y = SequenceConstruct(h)\n}\n"
    )
    assert located(text, "E209") == [("E209", 2, 4), ("E209", 2, 21), ("E209", 3, 2)]
    assert "dimension -2" in diagnostics(text, "E209")[0].message


def test_e209_zero_and_symbolic_dims_are_fine() -> None:
    text = '<ir_version: 10, opset_import: ["" : 21]>\ng (float[0, N] x) => (float[0, N] y) { y = Relu(x) }\n'
    assert located(text, "E209") == []


def test_e209_in_a_subgraph() -> None:
    text = (
        '<ir_version: 10, opset_import: ["" : 21]>\n'
        "g (bool c, float[2] x) => (float[2] y) {\n"
        "  y = If(c) <then_branch = t () => (float[-3] a) { a = Relu(x) },\n"
        "             else_branch = e () => (float[2] b) { b = Neg(x) }>\n"
        "}\n"
    )
    assert [(c, line) for c, line, _ in located(text, "E209")] == [("E209", 3)]
