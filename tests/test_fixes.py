"""Fixes as data: applying a fix's edits to the text makes its diagnostic go away.

One case per place that offers a fix (checker rules and lowering): the text must give
the diagnostic with a fix that has edits, and the text with the edits applied must
no longer give that diagnostic (and must still parse).
"""

from __future__ import annotations

import pytest

from onnxtext import parse_model
from onnxtext.analysis.check import check_proto
from onnxtext.api import check
from onnxtext.diagnostics import Diagnostic, Edit, Fix
from onnxtext.span import Span

H = '<ir_version: 10, opset_import: ["" : 21]>\n'


def g(body: str, inputs: str = "float[2] x", outputs: str = "float[2] y") -> str:
    return H + f"g ({inputs}) => ({outputs}) {{\n{body}\n}}\n"


def with_function(call: str, signature: str, body: str, imports: str = "") -> str:
    """A model whose graph calls ``call`` (a node of domain ``local``) and one function of that domain."""
    return (
        f'<ir_version: 10, opset_import: ["" : 21, "local" : 1{imports}]>\n'
        f"g (float[2] x) => (float[2] y) {{\n  y = {call}\n}}\n\n"
        f'<domain: "local", opset_import: ["" : 21]>\n{signature} {{\n  {body}\n}}\n'
    )


LOCAL = with_function("local.Scale(x)", "Scal (a) => (b)", "b = Identity(a)")
FUNCTION_REF = with_function("local.F <alpha = 1.0> (x)", "F <alpha> (a) => (b)", "b = Elu <alpha = @alhpa> (a)")
FUNCTION_DOMAIN = with_function(
    "local.F(x)", "F (a) => (b)", 'b = ai.onnx.ml.Normalizer <norm = "MAX"> (a)', imports=', "ai.onnx.ml" : 5'
)
FUNCTION_OUTPUT = with_function("local.F(x)", "F (a) => (result)", "results = Identity(a)")

# (code, text): each text gives ``code`` with a fix that has edits.
CASES: list[tuple[str, str]] = [
    ("E101", '<opset_import: ["" : 21]>\ng (float[2] x) => (float[2] y) {\n  y = Relu(x)\n}\n'),
    ("E101", '<ir_version: 0, opset_import: ["" : 21]>\ng (float[2] x) => (float[2] y) {\n  y = Relu(x)\n}\n'),
    ("E103", "<ir_version: 10>\ng (float[2] x) => (float[2] y) {\n  y = Relu(x)\n}\n"),
    ("E103", "<ir_version: 10, opset_import: []>\ng (float[2] x) => (float[2] y) {\n  y = Relu(x)\n}\n"),
    ("W101", '<ir_version: 7, opset_import: ["" : 21]>\ng (float[2] x) => (float[2] y) {\n  y = Relu(x)\n}\n'),
    ("E202", g("  y = Relu(x)", outputs="y")),  # the output's inferred type is written before it
    ("E204", g("  y = Relu(xx)")),
    ("E205", g("  results = Relu(x)", outputs="float[2] result")),
    ("E205", FUNCTION_OUTPUT),
    ("E301", g("  y = Rleu(x)")),
    ("E301", '<ir_version: 8, opset_import: ["" : 11]>\ng (float[2] x) => (float[2] y) {\n  y = Gelu(x)\n}\n'),
    # the opset import in each spelling: legacy torch exports print '{version: 17}' (issue #29, item 13)
    *[
        ("E301", f"<ir_version: 8, opset_import: [{imports}]>\ng (float[2] x) => (float[2] y) {{\n  y = Gelu(x)\n}}\n")
        for imports in (
            "{version: 11}",
            '{domain: "", version: 11}',
            '{version: 0xb, domain: "ai.onnx"}',
            '"ai.onnx.ml" : 3, {version: 11}',
        )
    ],
    (
        "E301",
        '<ir_version: 8, opset_import: [{version: 21}, {domain: "local", version: 1}]>\n'
        "g (float[2] x) => (float[2] y) {\n  y = local.F(x)\n}\n\n"
        '<domain: "local", opset_import: [{version: 11}]>\nF (a) => (b) {\n  b = Gelu(a)\n}\n',
    ),
    ("E302", g('  y = ai.onnx.ml.Normalizer <norm = "MAX"> (x)')),
    ("E302", FUNCTION_DOMAIN),
    ("W301", LOCAL),
    ("E305", g("  y = Softmax <axsi = 0> (x)")),
    ("E306", g("  y = Elu <alpha = 2> (x)")),
    ("E306", g("  y = Constant <value_floats = [1, -2]> ()")),
    ("E306", g("  y = Elu <alpha: int = 2> (x)")),
    ("W302", FUNCTION_REF),
    ("W302", with_function("local.F <alpah = 1.0> (x)", "F <alpha> (a) => (b)", "b = Elu <alpha = @alpha> (a)")),
    ("L001", g("  y = Relu(x)", inputs="flaot[2] x")),
    ("L003", g("  y = Elu <alpha: flaot = 2.0> (x)")),
    ("L011", g("  y = Elu <alpha = 2.0 @{type: FLAOT}> (x)")),
    (
        "L010",
        '<ir_version: 10, opset_import: ["" : 21], producer_nme: "me">\ng (float[2] x) => (float[2] y) {\n'
        "  y = Relu(x)\n}\n",
    ),
    ("L002", g("  c = Constant <value = float[3] {1.0, 2.0 3.0}> ()\n  y = Identity(x)")),
]


def _with_fix(text: str, code: str) -> list[Diagnostic]:
    return [d for d in check(text) if d.code == code and d.fix is not None and d.fix.edits]


@pytest.mark.parametrize(("code", "text"), CASES, ids=[f"{c}-{i}" for i, (c, _) in enumerate(CASES)])
def test_applying_the_fix_removes_the_diagnostic(code: str, text: str) -> None:
    found = _with_fix(text, code)
    assert len(found) == 1, [str(d) for d in check(text)]
    fix = found[0].fix
    assert fix is not None
    fixed = fix.apply(text)
    after = check(fixed)
    assert [d for d in after if d.code == code] == [], [str(d) for d in after]
    assert not [d for d in after if d.code.startswith(("P", "L"))], [str(d) for d in after]


def test_every_rule_with_a_suggestion_has_a_case() -> None:
    """The sites of this file are the ones the sources offer a fix at (update both together)."""
    assert {code for code, _ in CASES} == {
        "E101", "E103", "W101", "E202", "E204", "E205", "E301", "E302", "W301", "E305", "E306", "W302",
        "L001", "L002", "L003", "L010", "L011",
    }  # fmt: skip


def test_fix_edit_replaces_the_operator_name() -> None:
    text = g("  y = Rleu(x)")
    (diag,) = _with_fix(text, "E301")
    assert diag.fix is not None
    (edit,) = diag.fix.edits
    assert text[edit.span.start : edit.span.end] == "Rleu" and edit.new_text == "Relu"
    assert diag.fix.message == "write 'Relu'"


def test_missing_header_is_written() -> None:
    """A model without a header hears of ir_version and opset_import at once, and one fix writes
    the header as ``fmt`` writes it."""
    from onnxtext.syntax.format import format_text

    text = "g (float[2] x) => (float[2] y)\n{\n   y = Relu (x)\n}\n"
    assert [d.code for d in check(text) if d.is_error] == ["E101"]
    (diag,) = _with_fix(text, "E101")
    assert diag.message == "the model has no ir_version and imports no operator set"
    assert diag.fix is not None and "'ir_version: " in diag.fix.message and "'opset_import: [" in diag.fix.message
    fixed = diag.fix.apply(text)
    assert [d.code for d in check(fixed) if d.is_error] == []
    assert format_text(fixed) == fixed


def test_entries_are_added_as_fmt_writes_them() -> None:
    """In a header written one entry a line, a new entry gets a line of its own."""
    from onnxtext.syntax.format import format_text

    text = '<\n   producer_name: "x"\n>\ng (float[2] x) => (float[2] y)\n{\n   y = Relu (x)\n}\n'
    (diag,) = _with_fix(text, "E101")
    assert diag.fix is not None
    fixed = diag.fix.apply(text)
    assert fixed.startswith("<\n   ir_version: ") and '\n   opset_import: ["": ' in fixed
    assert format_text(fixed) == fixed
    assert [d.code for d in check(fixed) if d.is_error] == []
    one_line = '<producer_name: "x", ir_version: 10>\ng (float[2] x) => (float[2] y)\n{\n   y = Relu (x)\n}\n'
    (e103,) = _with_fix(one_line, "E103")
    assert e103.fix is not None and e103.fix.apply(one_line).startswith('<opset_import: ["": ')


def test_custom_domain_fix_has_no_edit() -> None:
    """The version of a custom domain is the user's choice: the fix says what to add, no edit."""
    text = g("  y = com.example.Thing(x)")
    (diag,) = [d for d in check(text) if d.code == "E302"]
    assert diag.fix is not None and diag.fix.edits == ()
    assert "'\"com.example\" : VERSION'" in diag.fix.message


def test_binary_model_fix_keeps_its_message_without_edits() -> None:
    model = parse_model(g("  y = Relu(x)"))
    model.graph.node[0].op_type = "Rleu"
    (diag,) = [d for d in check_proto(model) if d.code == "E301"]
    assert diag.span is None and diag.fix is not None
    assert diag.fix.message == "write 'Relu'" and diag.fix.edits == ()


def test_fix_apply_applies_edits_from_the_end() -> None:
    fix = Fix("swap", (Edit(Span(0, 1), "xyz"), Edit(Span(2, 3), "")))
    assert fix.apply("a-b-c") == "xyz--c"
    assert Fix("insert", (Edit(Span(1, 1), "+"),)).apply("ab") == "a+b"


def test_a_missing_comma_in_tensor_data_is_one_error_with_a_fix() -> None:
    """Not "has no values" nor "invalid number '2.0 3.0'" with a count mismatch: the comma is
    what is missing, the values are read as meant, and the fix inserts the commas."""
    from onnxtext.document import parse_document

    text = H + "g (float[3] x) => (float[3] y)\n<float[3] w = {1.0 2.0 3.0}>\n{\n   y = Add (x, w)\n}\n"
    found = check(text)
    assert [(d.code, d.span.start.line, d.span.start.column) for d in found] == [("L002", 3, 19)]  # type: ignore[union-attr]
    assert found[0].message == "missing ',' between '1.0' and '2.0'"
    assert found[0].fix is not None and found[0].fix.message == "insert the 2 commas"
    assert "{1.0, 2.0, 3.0}" in found[0].fix.apply(text)
    doc = parse_document(text)
    assert (
        list(doc.proto.graph.initializer[0].float_data or []) or doc.proto.graph.initializer[0].raw_data
    )  # read as meant
    from onnxtext.host.analyse import Settings, diagnose

    assert [d.code for d in diagnose(text, "<t>", Settings()).diagnostics] == ["L002"]  # the editor: no E501 either
