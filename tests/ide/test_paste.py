"""Paste from another model (#32): the nodes bring their initializers, functions and opset imports,
what would clash renamed."""

from __future__ import annotations

from onnxtext import parse_model
from onnxtext.diagnostics import Edit
from onnxtext.document import Document, parse_document
from onnxtext.ide.paste import paste_nodes

SOURCE = """<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
g (float[N, 4] x) => (float[N, 4] y)
<float[4] w = {1, 2, 3, 4}, float[4] v = {5, 6, 7, 8}>
{
   h = Add (x, w)  # shifted
   k = local.Twice (h)
   y = Mul (k, v)
}

<domain: "local", opset_import: ["" : 21]>
Twice (a) => (b)
{
   b = Add (a, a)
}
"""

TARGET = """<ir_version: 10, opset_import: ["" : 21]>
m (float[N, 4] x) => (float[N, 4] out)
<float[4] w = {9, 9, 9, 9}>
{
   h = Relu (x)
   out = Neg (h)
}
"""


def _doc(text: str) -> Document:
    return parse_document(text, "model", "t.onnxtxt")


def _apply(text: str, edits: tuple[Edit, ...]) -> str:
    for e in sorted(edits, key=lambda e: e.span.start, reverse=True):
        text = text[: e.span.start] + e.new_text + text[e.span.end :]
    return text


def test_pasted_nodes_bring_initializers_functions_and_imports_renaming_clashes() -> None:
    start, end = SOURCE.index("h = Add"), SOURCE.index("y = Mul")
    pasted = paste_nodes(_doc(SOURCE), start, end, _doc(TARGET), TARGET.index("   out"))
    assert pasted is not None
    assert pasted.renamed == {"h": "h_2", "w": "w_2"} and pasted.initializers == ("w_2",)
    assert pasted.functions == ("local.Twice",) and pasted.imports == ("local",)
    assert pasted.title == "Pasted 2 nodes, 1 initializer, 1 function, opset local; renamed h → h_2, w → w_2"
    out = _apply(TARGET, pasted.edits)
    assert '<ir_version: 10, opset_import: ["" : 21, "local": 1]>' in out
    assert "<float[4] w = {9, 9, 9, 9}, float[4] w_2 = {1, 2, 3, 4}>" in out
    assert "   h = Relu (x)\n   h_2 = Add (x, w_2)  # shifted\n   k = local.Twice (h_2)\n   out = Neg (h)\n" in out
    assert out.endswith('\n<domain: "local", opset_import: ["" : 21]>\nTwice (a) => (b)\n{\n   b = Add (a, a)\n}\n')
    assert not [d for d in _doc(out).diagnostics if d.severity == "error"]
    model = parse_model(out)
    assert [n.op_type for n in model.graph.node] == ["Relu", "Add", "Twice", "Neg"]
    assert list(model.graph.node[1].input) == ["x", "w_2"] and [f.name for f in model.functions] == ["Twice"]
    assert [t.name for t in model.graph.initializer] == ["w", "w_2"]


def test_a_function_of_the_same_name_and_another_body_is_renamed_the_same_one_reused() -> None:
    other = (
        TARGET.replace('opset_import: ["" : 21]>', 'opset_import: ["" : 21, "local" : 1]>')
        + '\n<domain: "local", opset_import: ["" : 21]>\nTwice (a) => (b)\n{\n   b = Mul (a, a)\n}\n'
    )
    k = SOURCE.index("k = local")
    pasted = paste_nodes(_doc(SOURCE), k, k, _doc(other), other.index("   out"))
    assert pasted is not None and pasted.functions == ("local.Twice_2",) and pasted.imports == ()
    out = _apply(other, pasted.edits)
    assert "   k = local.Twice_2 (h)\n" in out and "Twice_2 (a) => (b)\n{\n   b = Add (a, a)\n}" in out
    assert [f.name for f in parse_model(out).functions] == ["Twice", "Twice_2"]
    same = other.replace("b = Mul (a, a)", "b = Add (a, a)")
    reused = paste_nodes(_doc(SOURCE), k, k, _doc(same), same.index("   out"))
    assert reused is not None and reused.functions == () and reused.renamed == {}
    assert "   k = local.Twice (h)\n" in _apply(same, reused.edits)


def test_into_a_graph_without_initializers_and_after_text_on_the_cursor_line() -> None:
    bare = TARGET.replace("<float[4] w = {9, 9, 9, 9}>\n", "")
    y = SOURCE.index("y = Mul")
    at = bare.index("(h)\n}") + 3
    pasted = paste_nodes(_doc(SOURCE), y, y + 3, _doc(bare), at)
    assert pasted is not None and pasted.initializers == ("v",) and pasted.renamed == {}
    out = _apply(bare, pasted.edits)
    assert "=> (float[N, 4] out)\n<float[4] v = {5, 6, 7, 8}>\n{" in out
    assert "   out = Neg (h)\n   y = Mul (k, v)\n}" in out


def test_nothing_to_paste_or_nowhere_to_paste_it() -> None:
    source, target = _doc(SOURCE), _doc(TARGET)
    assert paste_nodes(source, 0, 10, target, TARGET.index("   out")) is None  # the header: no node
    assert paste_nodes(source, SOURCE.index("h = Add"), SOURCE.index("k ="), target, 5) is None  # not in the body
    assert paste_nodes(_doc("garbage"), 0, 3, target, TARGET.index("   out")) is None
    assert paste_nodes(source, SOURCE.index("h = Add"), SOURCE.index("k ="), _doc("garbage"), 2) is None
