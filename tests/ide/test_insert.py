"""Insert a node on an edge (#32): the targets, the palette, and the edit applied and re-parsed."""

from __future__ import annotations

import pytest

from onnxtext import parse_model
from onnxtext.diagnostics import Edit
from onnxtext.document import Document, parse_document
from onnxtext.ide.insert import insert_node, insert_targets, insertable, palette, snippet_plain

TEXT = """<ir_version: 10, opset_import: ["" : 21]>
g (float[N, 4] x) => (float[N, 4] y, float[N, 4] a)
<float[4] w = {1, 2, 3, 4}, float[N, 4] a>
{
   a = Add (x, w)  # the sum
   b = Identity (a)
   c = Mul (a, a)
   y = Relu (c)
}
"""


def _doc(text: str = TEXT) -> Document:
    return parse_document(text, "model", "t.onnxtxt")


def _apply(text: str, edits: tuple[Edit, ...]) -> str:
    for e in sorted(edits, key=lambda e: e.span.start, reverse=True):
        text = text[: e.span.start] + e.new_text + text[e.span.end :]
    return text


def test_targets_are_the_name_under_the_cursor_else_the_statements_values() -> None:
    doc = _doc()
    assert insert_targets(doc, TEXT.index("(a)") + 1) == ["a"]  # Identity's input
    assert insert_targets(doc, TEXT.index("Identity")) == ["b"]  # the statement: its output
    assert insert_targets(doc, TEXT.index("b = "), TEXT.index("(a)")) == ["b"]  # a statement's range
    assert insert_targets(doc, TEXT.index("x) =>")) == ["x"]  # a graph input
    assert insert_targets(doc, TEXT.index("w =")) == ["w"]  # an initializer
    assert insert_targets(doc, TEXT.index("float[N, 4] a>")) == []  # a declaration: no producer there
    assert insert_targets(doc, TEXT.index("ir_version")) == []
    assert not insertable(doc, "nowhere") and insertable(doc, "a")
    assert insert_targets(_doc("not a model"), 0) == []


def test_the_inserted_node_reads_the_value_and_its_readers_read_the_new_one() -> None:
    made = insert_node(_doc(), "a", "", "Relu")
    assert made is not None and made.title == "Insert Relu on 'a'" and made.name == "a_relu"
    edited = _apply(TEXT, made.edits)
    assert "   a = Add (x, w)  # the sum\n   a_relu = Relu (a)\n   b = Identity (a_relu)\n" in edited
    assert "   c = Mul (a_relu, a_relu)\n" in edited
    assert (
        "=> (float[N, 4] y, float[N, 4] a)" in edited and "float[N, 4] a>" in edited
    )  # interface and declaration kept
    model = parse_model(edited)
    nodes = {n.output[0]: n for n in model.graph.node}
    assert [n.op_type for n in model.graph.node] == ["Add", "Relu", "Identity", "Mul", "Relu"]
    assert list(nodes["a_relu"].input) == ["a"] and list(nodes["b"].input) == ["a_relu"]
    assert list(nodes["c"].input) == ["a_relu", "a_relu"]
    assert not [d for d in _doc(edited).diagnostics if d.severity == "error"]


def test_required_attributes_and_inputs_are_placeholders() -> None:
    made = insert_node(_doc(), "c", "", "Concat")
    assert made is not None and made.snippet == "   c_concat = Concat <axis = ${1:0}> (c)\n"
    gathered = insert_node(_doc(), "c", "", "Gather")
    assert gathered is not None and gathered.snippet == "   c_gather = Gather (c, ${1:indices})\n"
    pooled = insert_node(_doc(), "c", "", "AveragePool")
    assert pooled is not None and "<kernel_shape = ${1:[]}>" in pooled.snippet
    assert snippet_plain('x = Op <s = ${1:"a\\}b"}, n = ${2:0}> (x, $3)$0 \\$') == 'x = Op <s = "a}b", n = 0> (x, ) $'
    edited = _apply(TEXT, made.edits)
    assert "   c = Mul (a, a)\n   c_concat = Concat <axis = 0> (c)\n   y = Relu (c_concat)\n" in edited
    assert list(parse_model(edited).graph.node[3].attribute)[0].name == "axis"


def test_on_a_graph_input_or_initializer_the_node_goes_first_and_names_are_fresh() -> None:
    text = TEXT.replace("b = Identity (a)", "x_sigmoid = Identity (a)")
    made = insert_node(_doc(text), "x", "", "Sigmoid")
    assert made is not None and made.name == "x_sigmoid2"
    edited = _apply(text, made.edits)
    assert "{\n   x_sigmoid2 = Sigmoid (x)\n   a = Add (x_sigmoid2, w)" in edited
    on_w = insert_node(_doc(), "w", "", "Neg")
    assert on_w is not None
    assert "{\n   w_neg = Neg (w)\n   a = Add (x, w_neg)" in _apply(TEXT, on_w.edits)


def test_an_output_without_readers_gets_the_node_after_it() -> None:
    made = insert_node(_doc(), "y", "", "Softmax")
    assert made is not None and made.rewires == ()
    assert _apply(TEXT, made.edits).endswith("   y = Relu (c)\n   y_softmax = Softmax (y)\n}\n")


@pytest.mark.parametrize(
    ("value", "domain", "op"),
    [("nowhere", "", "Relu"), ("a", "", "NoSuchOp"), ("a", "com.microsoft", "Relu"), ("a", "", "Constant")],
)
def test_what_cannot_be_inserted_is_refused(value: str, domain: str, op: str) -> None:
    assert insert_node(_doc(), value, domain, op) is None


def test_the_palette_holds_the_imported_operators_that_read_a_value() -> None:
    ops = {(o.domain, o.name): o for o in palette(_doc())}
    assert ("", "Relu") in ops and ("", "Constant") not in ops and ("", "RandomNormal") not in ops
    assert ops[("", "Concat")].required == ("axis",) and ops[("", "Relu")].since_version == 14
    ml = TEXT.replace('["" : 21]', '["" : 21, "ai.onnx.ml" : 3]')
    assert ("ai.onnx.ml", "Scaler") in {(o.domain, o.name) for o in palette(_doc(ml))}
    assert palette(_doc("not a model")) == []


def test_a_type_attribute_starts_at_float_and_a_nested_graph_reading_the_value_is_rewired() -> None:
    cast = insert_node(_doc(), "c", "", "Cast")
    assert cast is not None and cast.snippet == "   c_cast = Cast <to = ${1:1}> (c)\n"
    text = TEXT.replace(
        "   y = Relu (c)\n",
        "   t = Constant <value = bool {1}> ()\n"
        "   y = If (t) <then_branch = g1 () => (float[N, 4] o1) { o1 = Relu (c) },"
        " else_branch = g2 () => (float[N, 4] o2) { o2 = Neg (c) }>\n",
    )
    assert not [d for d in _doc(text).diagnostics if d.severity == "error"]
    made = insert_node(_doc(text), "c", "", "Abs")
    assert made is not None and len(made.rewires) == 2
    edited = _apply(text, made.edits)
    assert "o1 = Relu (c_abs)" in edited and "o2 = Neg (c_abs)" in edited and "   c_abs = Abs (c)\n" in edited
    branches = [a.g for a in parse_model(edited).graph.node[-1].attribute]
    assert [list(b.node[0].input) for b in branches] == [["c_abs"], ["c_abs"]]


def test_in_an_empty_body_the_node_goes_after_its_opening_brace() -> None:
    """No statement to stand by: the new one is the body's first line (after the head's initializers' ``{``)."""
    text = (
        '<ir_version: 10, opset_import: ["" : 21]>\ng (float[4] x) => (float[4] w)\n<float[4] w = {1, 2, 3, 4}>\n{\n}\n'
    )
    made = insert_node(_doc(text), "x", "", "Neg")
    assert made is not None
    edited = _apply(text, made.edits)
    assert edited.endswith("<float[4] w = {1, 2, 3, 4}>\n{\n   x_neg = Neg (x)\n}\n")
    assert parse_document(edited, "model", "t.onnxtxt").ok
