"""Function rules: E401-E404 (and SSA rules inside function bodies)."""

from __future__ import annotations

from checkutil import diagnostics, located

HEAD = '<ir_version: 10, opset_import: ["" : 21, "local" : 1]>\ng (float[2] x) => (float[2] y) { y = local.F(x) }\n'
FH = '<domain: "local", opset_import: ["" : 21]>\n'


def test_valid_function() -> None:
    text = HEAD + FH + "F <alpha: float = 0.5> (a) => (b) {\n  b = LeakyRelu <alpha: float = @alpha> (a)\n}\n"
    assert located(text) == []


def test_e401_duplicate_function() -> None:
    text = HEAD + FH + "F (a) => (b) { b = Relu(a) }\n" + FH + "F (a) => (b) { b = Neg(a) }\n"
    assert located(text, "E401") == [("E401", 6, 1)]


def test_e402_duplicate_function_attribute() -> None:
    text = HEAD + FH + "F <alpha, alpha> (a) => (b) { b = Relu(a) }\n"
    assert located(text, "E402") == [("E402", 4, 4)]


def test_e402_duplicate_function_output() -> None:
    text = HEAD + FH + "F (a) => (b, b) { b = Relu(a) }\n"
    assert located(text, "E402") == [("E402", 4, 14)]


def test_e203_duplicate_function_input() -> None:
    text = HEAD + FH + "F (a, a) => (b) { b = Relu(a) }\n"
    assert located(text, "E203") == [("E203", 4, 7)]


def test_e204_function_body_uses_undefined() -> None:
    text = HEAD + FH + "F (a) => (b) { b = Relu(c) }\n"
    assert located(text, "E204") == [("E204", 4, 25)]


def test_e205_function_output_not_produced() -> None:
    text = HEAD + FH + "F (a) => (b) { c = Relu(a) }\n"
    assert located(text, "E205") == [("E205", 4, 11)]


def test_e302_function_domain_not_imported_by_function() -> None:
    text = HEAD + '<domain: "local", opset_import: ["" : 21]>\nF (a) => (b) { b = com.x.Op(a) }\n'
    assert located(text, "E302") == [("E302", 4, 20)]


def test_e404_function_and_model_opsets_disagree() -> None:
    # Softmax changed at opset 13: model imports 21, function 11.
    text = HEAD + '<domain: "local", opset_import: ["" : 11]>\nF (a) => (b) { b = Softmax(a) }\n'
    assert located(text, "E404") == [("E404", 4, 20)]
    same_schema = HEAD + '<domain: "local", opset_import: ["" : 14]>\nF (a) => (b) { b = Relu(a) }\n'
    assert located(same_schema, "E404") == []


def test_e403_function_attribute_default_is_a_reference() -> None:
    text = HEAD + FH + "F <alpha: float = @beta> (a) => (b) { b = Relu(a) }\n"
    assert located(text, "E403") == [("E403", 4, 4)]


def test_e403_function_attribute_default_without_type() -> None:
    from onnxtext.api import check, parse_model

    m = parse_model(HEAD + FH + "F <alpha: float = 0.5> (a) => (b) { b = Relu(a) }\n")
    m.functions[0].attribute_proto[0].type = 0  # type: ignore[assignment]
    assert [d.code for d in check(m, select=["E403"])] == ["E403"]


def test_e405_a_function_calling_itself() -> None:
    text = HEAD + '<domain: "local", opset_import: ["" : 21, "local" : 1]>\nF (a) => (b) { b = local.F(a) }\n'
    (found,) = diagnostics(text, "E405")
    assert (found.span.start.line, found.span.start.column) == (4, 1)
    assert "'local.F' calls itself ('local.F' -> 'local.F')" in found.message
    assert [(r.message, r.span.start.line, r.span.start.column) for r in found.related] == [
        ("calls 'local.F' here", 4, 26)
    ]


def test_e405_functions_calling_each_other_through_a_subgraph_are_one_cycle_reported_once() -> None:
    fh = '<domain: "local", opset_import: ["" : 21, "local" : 1]>\n'
    text = (
        HEAD
        + fh
        + "F (a) => (b) { t = Relu(a)\n  b = local.G(t) }\n"
        + fh
        + "G (a) => (b) { c = Constant <value_int = 1> ()\n"
        + "  b = If (c) <then_branch = t () => (u) { u = local.F(a) }, else_branch = e () => (v) { v = Neg(a) }> }\n"
    )
    (found,) = diagnostics(text, "E405")
    assert found.span.start.line == 4
    assert "('local.F' -> 'local.G' -> 'local.F')" in found.message
    assert [(r.message, r.span.start.line) for r in found.related] == [
        ("calls 'local.G' here", 5),
        ("calls 'local.F' here", 8),
    ]


def test_e405_calls_that_do_not_come_back_are_no_recursion() -> None:
    fh = '<domain: "local", opset_import: ["" : 21, "local" : 1]>\n'
    text = (
        HEAD
        + fh
        + "F (a) => (b) { t = local.G(a)\n  b = local.G(t) }\n"
        + fh
        + "G (a) => (b) { b = local.H(a) }\n"
        + fh
        + "H (a) => (b) { b = Neg(a) }\n"
    )
    assert located(text, "E405") == []
    assert located(text) == []


def test_w302_an_attribute_passed_and_referred_to_but_not_declared_is_a_warning_not_an_error() -> None:
    """As some exporters write functions: onnx.checker and onnxruntime accept it (the reference takes
    the call's attribute by name), so it is no error, but the signature is incomplete."""
    text = (
        '<ir_version: 10, opset_import: ["" : 21, "local" : 1]>\n'
        "g (float[2, 3] x) => (float[2, 3] y) { y = local.F <dim = 1> (x) }\n"
        + FH
        + "F (a) => (b) { b = Softmax <axis: int = @dim> (a) }\n"
    )
    assert located(text) == [("W302", 2, 53), ("W302", 4, 29)]
    assert all(d.severity.name == "WARNING" for d in diagnostics(text))
