"""The parser never fails: error nodes, single-token repairs, closers at the end, slips with fixes.

Each case gives the broken text, the one expected diagnostic (code, line, column, a
fragment of its message) and, where the fix is mechanical, the text its edits give.
"""

from __future__ import annotations

import pytest

import onnxtext
from onnxtext.diagnostics import Diagnostic
from onnxtext.document import parse_document
from onnxtext.syntax import ast as A
from onnxtext.syntax.parser import ENTRY_POINTS, MAX_ERRORS, parse_text

HEAD = '<ir_version: 8, opset_import: ["": 18]>\n'
GOOD = HEAD + "main (float[2] x) => (float[2] y) {\n  a = Relu(x)\n  y = Neg(a)\n}\n"


def only(text: str, kind: str = "model") -> Diagnostic:
    diags = [d for d in parse_document(text, kind).diagnostics if d.is_error]
    assert len(diags) == 1, [(d.code, d.message) for d in diags]
    return diags[0]


def where(d: Diagnostic) -> tuple[str, int, int]:
    assert d.span is not None
    return (d.code, d.span.start.line, d.span.start.column)


def fixed(text: str, d: Diagnostic) -> str:
    assert d.fix is not None and d.fix.edits
    return d.fix.apply(text)


def ops(tree: A.Model) -> list[str]:
    return [n.op_type.value if isinstance(n, A.Node) else f"<{n.kind}>" for n in tree.graph.nodes]


# ---------------------------------------------------------------- repairs


def test_missing_paren_keeps_both_nodes() -> None:
    text = GOOD.replace("Relu(x)", "Relu(x")
    d = only(text)
    assert where(d) == ("P001", 3, 13)  # at the end of 'x', where ')' is missing
    assert "expected ')' to close the '(' at line 3" in d.message
    assert d.related and d.related[0].span.start.column == 11
    assert fixed(text, d) == GOOD
    doc = parse_document(text)
    assert ops(doc.tree) == ["Relu", "Neg"]
    assert [n.op_type for n in doc.proto.graph.node] == ["Relu", "Neg"]


def test_unclosed_brace_at_the_end_keeps_the_graph() -> None:
    text = GOOD[: GOOD.rindex("}")]
    d = only(text)
    assert where(d) == ("P001", 5, 1)
    assert d.message.startswith("expected '}' to close the '{' at line 2")
    assert d.related[0].span.start.line == 2
    assert parse_document(fixed(text, d)).ok
    assert ops(parse_document(text).tree) == ["Relu", "Neg"]


def test_missing_comma_in_a_signature() -> None:
    text = HEAD + "main (float[2] x float[2] z) => (float[2] y) {\n  y = Add(x, z)\n}\n"
    d = only(text)
    assert where(d) == ("P001", 2, 18)
    assert fixed(text, d) == text.replace("x float", "x, float")


def test_missing_comma_between_node_inputs() -> None:
    text = GOOD.replace("Relu(x)", "Add(x x)")
    d = only(text)
    assert where(d) == ("P001", 3, 13)
    assert fixed(text, d) == GOOD.replace("Relu(x)", "Add(x, x)")


def test_missing_comma_between_attributes() -> None:
    text = GOOD.replace("Relu(x)", "Foo <a = 1 b = 2> (x)")
    d = only(text)
    assert fixed(text, d) == GOOD.replace("Relu(x)", "Foo <a = 1, b = 2> (x)")


def test_stray_token_is_deleted() -> None:
    text = GOOD.replace("Relu(x)", "Relu(x))")
    d = only(text)
    assert where(d) == ("P001", 3, 14)
    assert fixed(text, d) == GOOD


def test_missing_equal_sign() -> None:
    text = GOOD.replace("a = Relu", "a Relu")
    d = only(text)
    assert parse_document(fixed(text, d)).ok
    assert ops(parse_document(text).tree) == ["Relu", "Neg"]


def test_brace_typed_too_early() -> None:
    text = GOOD.replace("Relu(x)", "Relu(x) }")
    d = only(text)
    assert where(d) == ("P001", 3, 15)
    assert fixed(text, d) == GOOD.replace("Relu(x)", "Relu(x) ")
    assert ops(parse_document(text).tree) == ["Relu", "Neg"]


# ---------------------------------------------------------------- error nodes


def test_damaged_statement_becomes_an_error_node() -> None:
    text = GOOD.replace("a = Relu(x)", "a = ) ) Foo ( ] x")
    doc = parse_document(text)
    (d,) = doc.diagnostics
    assert where(d) == ("P001", 3, 7)
    nodes = doc.tree.graph.nodes
    assert ops(doc.tree) == ["<node>", "Neg"]
    err = nodes[0]
    assert isinstance(err, A.ErrorNode)
    assert text[err.span.start : err.span.end] == "a = ) ) Foo ( ] x"
    assert [i.value for i in err.defines] == ["a"] and err.defines_known
    assert [n.op_type for n in doc.proto.graph.node] == ["Neg"]


def test_damaged_attribute_and_header_entry_are_error_nodes() -> None:
    text = '<ir_version: 8, opset_import: ["": 18], doc_string: ]>\nmain (float[2] x) => (float[2] y) {\n  y = Foo <a = 1, b = ], c = 2> (x)\n}\n'
    doc = parse_document(text)
    assert not doc.ok
    assert isinstance(doc.tree.header.entries[2], A.ErrorNode) and doc.tree.header.entries[2].kind == "entry"
    node = doc.tree.graph.nodes[0]
    assert isinstance(node, A.Node)
    assert [a.kind if isinstance(a, A.ErrorNode) else a.name.value for a in node.attributes] == ["a", "attribute", "c"]
    assert [a.name for a in doc.proto.graph.node[0].attribute] == ["a", "c"]
    assert doc.proto.ir_version == 8


def test_no_false_checker_diagnostics_for_names_of_damaged_statements() -> None:
    text = GOOD.replace("a = Relu(x)", "a = Relu(x] ]")
    diags = onnxtext.check(text)
    assert [d.code for d in diags] == ["P001"], [(d.code, d.message) for d in diags]


def test_checker_runs_on_a_broken_text() -> None:
    text = GOOD.replace("y = Neg(a)", "y = Neg(b)").replace("a = Relu(x)", "a = Relu(x] ]")
    codes = [d.code for d in onnxtext.check(text)]
    assert codes == ["P001", "E204"]  # 'b' is undefined whatever the damaged statement is


def test_incomplete_scope_reports_no_undefined_names() -> None:
    text = GOOD.replace("a = Relu(x)", "] ] ]")
    assert [d.code for d in onnxtext.check(text)] == ["P001"]


def test_parse_model_still_raises() -> None:
    with pytest.raises(onnxtext.ParseError):
        onnxtext.parse_model(GOOD.replace("Relu(x)", "Relu(x"))


# ---------------------------------------------------------------- slips


def test_arrow_slip() -> None:
    text = GOOD.replace("=>", "->")
    d = only(text)
    assert where(d) == ("P002", 2, 19) and "'=>'" in d.message
    assert fixed(text, d) == GOOD
    assert ops(parse_document(text).tree) == ["Relu", "Neg"]


def test_single_quoted_string() -> None:
    text = GOOD.replace("<ir_version: 8,", "<ir_version: 8, doc_string: 'it''s',").replace("'it''s'", "'it'")
    d = only(text)
    assert d.message == "strings use double quotes"
    assert fixed(text, d) == GOOD.replace("<ir_version: 8,", '<ir_version: 8, doc_string: "it",')
    assert parse_document(text).proto.doc_string == "it"


def test_non_ascii_name() -> None:
    text = GOOD.replace("a = Relu(x)", "größe = Relu(x)").replace("Neg(a)", 'Neg("größe")')
    d = only(text)
    assert where(d) == ("P002", 3, 3)
    assert d.message == "names outside [A-Za-z0-9_] must be quoted"
    assert fixed(text, d) == text.replace("größe = Relu", '"größe" = Relu')
    assert parse_document(text).proto.graph.node[0].output[0] == "größe"


def test_colon_for_equal_in_a_node_attribute() -> None:
    text = GOOD.replace("Relu(x)", "Concat <axis: 0> (x, x)")
    d = only(text)
    assert where(d) == ("P001", 3, 19)
    assert fixed(text, d) == GOOD.replace("Relu(x)", "Concat <axis = 0> (x, x)")
    assert parse_document(text).proto.graph.node[0].attribute[0].i == 0


def test_typed_attribute_stays_valid() -> None:
    assert parse_document(GOOD.replace("Relu(x)", "Concat <axis: int = 0> (x, x)")).ok


def test_second_model_in_a_file() -> None:
    text = GOOD + GOOD.replace("main", "other").replace("a = Relu(x)", "a = Relu(x")
    d = only(text)
    assert where(d) == ("P005", 6, 1)
    assert d.message == "a file holds one model; a second model starts here"
    assert d.fix is not None and "split" in d.fix.message
    doc = parse_document(text)
    assert ops(doc.tree) == ["Relu", "Neg"] and not doc.proto.functions


def test_unclosed_multi_line_string_is_read_to_its_line_end() -> None:
    text = GOOD.replace("a = Relu(x)", 'a = Foo <s = "abc> (x)') + '# "\n'
    d = only(text)
    assert where(d) == ("P003", 3, 16)
    assert "not closed" in d.message
    assert fixed(text, d).startswith(GOOD.replace("a = Relu(x)", 'a = Foo <s = "abc> (x)"')[:60])
    assert ops(parse_document(text).tree) == ["<node>", "Neg"]


def test_legal_multi_line_string_is_kept() -> None:
    text = GOOD.replace("<ir_version: 8,", '<ir_version: 8, doc_string: "two\nlines",')
    doc = parse_document(text)
    assert doc.ok and doc.proto.doc_string == "two\nlines"


# ---------------------------------------------------------------- always a tree


@pytest.mark.parametrize("kind", ENTRY_POINTS)
@pytest.mark.parametrize("text", ["", "\x00\x01\xff{{{(((", "(" * 100_000, "{" * 20_000, "} ] ) >" * 1000, '"' * 7])
def test_always_a_tree(kind: str, text: str) -> None:
    result = parse_text(text, kind)
    assert result.tree is not None
    assert not result.ok
    doc = parse_document(text, kind)
    assert doc.proto is not None


def test_error_count_is_capped_but_the_tree_is_complete() -> None:
    body = "".join(f"  v{i} = Relu(x]\n  w{i} = Neg(x)\n" for i in range(MAX_ERRORS + 10))
    text = HEAD + "main (float[2] x) => (float[2] y) {\n" + body + "  y = Neg(x)\n}\n"
    result = parse_text(text)
    assert len(result.diagnostics) == MAX_ERRORS
    assert sum(isinstance(n, A.Node) for n in result.tree.graph.nodes) == 2 * (MAX_ERRORS + 10) + 1  # all repaired


def test_a_deleted_quote_inside_a_damaged_statement_does_not_swallow_the_next_lines() -> None:
    text = (
        '<ir_version: 8, opset_import: ["" : 18]>\n'
        "g (string[2] x) => (string[2] y) {\n"
        '  a = StringNormalizer <case_change_action = "LOWER", locale = C",\n'
        '    stopwords = ["the"]> (x)\n'
        '  y = RegexFullMatch <pattern = "[0-9]+"> (a)\n'
        "}\n"
    )
    doc = parse_document(text)
    assert [n.op_type for n in doc.proto.graph.node][-1] == "RegexFullMatch"
    assert [d.code for d in doc.diagnostics] == ["P001", "P003"]
