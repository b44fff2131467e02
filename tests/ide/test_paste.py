"""Paste from another model (#32): the nodes bring their initializers, functions and opset imports,
what would clash renamed."""

from __future__ import annotations

import onnx
import pytest

from onnxtext import parse_model
from onnxtext.diagnostics import Edit
from onnxtext.document import Document, parse_document
from onnxtext.ide.paste import copied_block, paste_nodes

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
    # a call of a local function has no schema: another version of its domain says nothing of it
    newer = same.replace('"local" : 1]>', '"local" : 2]>')
    called = paste_nodes(_doc(SOURCE), k, k, _doc(newer), newer.index("   out"))
    assert called is not None and called.notes == ()
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


def _errors(text: str) -> list[str]:
    return [d.message for d in _doc(text).diagnostics if d.severity == "error"]


def _checked(text: str) -> None:
    """The pasted text checks clean: our diagnostics, and onnx.checker on its model."""
    assert _errors(text) == []
    onnx.checker.check_model(onnx.load_from_string(parse_model(text).SerializeToString()), full_check=True)


BRANCHY = """<ir_version: 10, opset_import: ["" : 21]>
g (float[4] x, bool c) => (float[4] y)
<float[4] w = {1, 2, 3, 4}>
{
   y = If (c) <then_branch = t () => (float[4] h) { h = Add (x, w) }, else_branch = e () => (float[4] out) { out = Neg (x) }>
}
"""  # noqa: E501 (the If on one line, as a subgraph often is)


def test_names_local_to_a_pasted_subgraph_that_the_target_has_are_renamed_its_outer_reads_kept() -> None:
    """The If's branches define ``h`` and ``out``, names of the target's main graph: they would hide
    them inside the branches, so they are renamed there; the branch's read of the initializer ``w``
    brings it (renamed: the target has a ``w``), its read of ``x`` connects to the target's ``x``."""
    target = TARGET.replace("(float[N, 4] x)", "(float[N, 4] x, bool c)").replace("[N, 4]", "[4]")
    y = BRANCHY.index("y = If")
    pasted = paste_nodes(_doc(BRANCHY), y, y, _doc(target), target.index("   out"))
    assert pasted is not None
    assert pasted.renamed == {"w": "w_2", "h": "h_2", "out": "out_2"} and pasted.initializers == ("w_2",)
    out = _apply(target, pasted.edits)
    assert "then_branch = t () => (float[4] h_2) { h_2 = Add (x, w_2) }" in out
    assert "else_branch = e () => (float[4] out_2) { out_2 = Neg (x) }" in out
    _checked(out)


NESTED = """<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
g (float[4] x) => (float[4] y)
{
   y = local.Outer (x)
}

<domain: "local", opset_import: ["" : 21, "local" : 1]>
Outer (a) => (b)
{
   t = local.Inner (a)
   b = Neg (t)
}

<domain: "local", opset_import: ["" : 21]>
Inner (p) => (q)
{
   q = Abs (p)
}
"""


def test_a_pasted_call_brings_the_functions_its_function_calls_callees_first_with_their_imports() -> None:
    plain = TARGET.replace("[N, 4]", "[4]")
    y = NESTED.index("y = local")
    pasted = paste_nodes(_doc(NESTED), y, y, _doc(plain), plain.index("   out"))
    assert pasted is not None
    assert pasted.functions == ("local.Inner", "local.Outer") and pasted.imports == ("local",)
    out = _apply(plain, pasted.edits)
    assert out.index("Inner (p) => (q)") < out.index("Outer (a) => (b)")
    assert [f.name for f in parse_model(out).functions] == ["Inner", "Outer"]
    _checked(out)
    # the target has another Inner: the one brought is renamed, and so is Outer's call of it
    other = plain.replace('opset_import: ["" : 21]>', 'opset_import: ["" : 21, "local" : 1]>')
    other += '\n<domain: "local", opset_import: ["" : 21]>\nInner (p) => (q)\n{\n   q = Relu (p)\n}\n'
    pasted = paste_nodes(_doc(NESTED), y, y, _doc(other), other.index("   out"))
    assert pasted is not None and pasted.functions == ("local.Inner_2", "local.Outer")
    assert pasted.renamed == {"Inner": "Inner_2"} and pasted.imports == ()
    out = _apply(other, pasted.edits)
    assert "   t = local.Inner_2 (a)\n" in out and "Inner_2 (p) => (q)\n{\n   q = Abs (p)\n}" in out
    assert [f.name for f in parse_model(out).functions] == ["Inner", "Inner_2", "Outer"]
    _checked(out)


def test_a_paste_into_another_opset_version_takes_the_targets_and_says_which_schemas_differ() -> None:
    plain = TARGET.replace("[N, 4]", "[4]")
    older = '<ir_version: 10, opset_import: ["" : 18]>\ng (float[4] x) => (float[4] y)\n{\n   r = Relu (x)\n'
    older += "   y = Cast <to = 1> (r)\n}\n"
    relu = older.index("r = Relu")
    same = paste_nodes(_doc(older), relu, relu, _doc(plain), plain.index("   out"))
    assert same is not None and same.notes == ("ai.onnx 18 → 21 (this model's): same schemas",)
    assert same.title.endswith("; ai.onnx 18 → 21 (this model's): same schemas")
    both = paste_nodes(_doc(older), relu, older.index("}\n", relu), _doc(plain), plain.index("   out"))
    assert both is not None
    assert both.notes == ("ai.onnx 18 → 21 (this model's): the schema differs for Cast since 13 → since 21",)
    out = _apply(plain, both.edits)
    assert out.startswith('<ir_version: 10, opset_import: ["" : 21]>')  # the target's version stays
    _checked(out)
    # a function brought whose own import gives its Cast another schema than the model's
    fn = '<ir_version: 10, opset_import: ["" : 21, "local" : 1]>\ng (float[4] x) => (float[4] y)\n{\n'
    fn += '   y = local.F (x)\n}\n\n<domain: "local", opset_import: ["" : 18]>\n'
    fn += "F (a) => (b)\n{\n   b = Cast <to = 1> (a)\n}\n"
    y = fn.index("y = local.F")
    called = paste_nodes(_doc(fn), y, y, _doc(plain), plain.index("   out"))
    assert called is not None
    assert called.notes == ("function local.F imports another version of the schema of Cast",)
    with pytest.raises(onnx.checker.ValidationError, match="not compatible with the version imported by model"):
        _checked(_apply(plain, called.edits))  # what the note warns of
    relu = fn.replace("b = Cast <to = 1> (a)", "b = Relu (a)")  # Relu's schema is the same at 18 and 21
    fine = paste_nodes(_doc(relu), y, y, _doc(plain), plain.index("   out"))
    assert fine is not None and fine.notes == ()
    _checked(_apply(plain, fine.edits))


def test_copy_nodes_takes_the_whole_lines_of_the_node_statements_met() -> None:
    doc = _doc(SOURCE)
    one = copied_block(doc, SOURCE.index("k = local") + 2)
    assert one is not None
    block, title = one
    assert SOURCE[block.start : block.end] == "   k = local.Twice (h)\n"
    assert title == "Copy node 'k' (to paste into another model with what it needs)"
    two = copied_block(doc, SOURCE.index("h = Add"), SOURCE.index("k = local") + 1)
    assert two is not None and two[1] == "Copy 2 nodes (to paste into another model with what they need)"
    assert SOURCE[two[0].start : two[0].end] == "   h = Add (x, w)  # shifted\n   k = local.Twice (h)\n"
    assert copied_block(doc, SOURCE.index("float[4] w")) is None  # an initializer
    assert copied_block(doc, 0, len(SOURCE)) is None  # a selection from the header: not a statement's
    assert copied_block(doc, SOURCE.index("b = Add")) is None  # a function body's node: not the main graph's
    assert copied_block(_doc("garbage"), 0) is None
    # what it takes pastes as the same range does
    pasted = paste_nodes(doc, two[0].start, two[0].end, _doc(TARGET), TARGET.index("   out"))
    assert pasted is not None and pasted.nodes == 2
