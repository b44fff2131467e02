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
from onnxtext.syntax.parser import ENTRY_POINTS, parse_text
from onnxtext.syntax.recovery import MAX_ERRORS

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


@pytest.mark.parametrize("after", ["", '\n<domain: "f", opset_import: ["": 18]>\nf (a) => (b) {\n  b = Relu(a)\n}\n'])
def test_stray_brace_after_a_complete_model(after: str) -> None:
    text = GOOD + "}\n" + after
    d = only(text)
    assert where(d) == ("P001", 6, 1)  # the extra '}', not the body's own on line 5
    assert "found '}'" in d.message
    assert fixed(text, d) == GOOD + "\n" + after
    assert ops(parse_document(text).tree) == ["Relu", "Neg"]


def test_a_function_closed_too_early_is_read_once() -> None:
    """A '}' that closed a function's body too early, read as stray: the function is read once.
    The function list had grown in place (Lark extends a repetition's list) after the brace the
    parse went back to: the function was in the tree twice, the model had 'G' twice (#30)."""
    local = '<domain: "local", opset_import: ["": 18]>\n'
    head = '<ir_version: 8, opset_import: ["": 18, "local": 1]>\nmain (x) => (y) {\n  y = local.G(x)\n}\n'
    f = "F (X) => (Y) {\n  Y = Relu(X)\n}\n"
    text = head + local + f + local + "G (X) => (Y)\n{ t = Relu(X)\n}  Y = Neg(t)\n}\n"
    d = only(text)
    assert where(d) == ("P001", 12, 1)
    assert "closes the body before its end" in d.message
    doc = parse_document(text)
    assert isinstance(doc.tree, A.Model)
    assert [f.name.value for f in A.intact(doc.tree.functions)] == ["F", "G"]
    assert [f.name for f in doc.proto.functions] == ["F", "G"]
    assert [n.op_type for n in doc.proto.functions[1].node] == ["Relu", "Neg"]


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
    text = (
        '<ir_version: 8, opset_import: ["": 18], doc_string: ]>\nmain (float[2] x) => (float[2] y) {\n'
        "  y = Foo <a = 1, b = ], c = 2> (x)\n}\n"
    )
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


# ---------------------------------------------------------------- damage stays in its statement
# One hand case per spill-over the recovery corpus (tests/test_recovery_corpus.py) found: the
# statements around the damaged one keep their protobuf, and the one diagnostic is located in
# the damaged statement (or where it ends), never on a statement that is spared.

BODY = HEAD + "main (float[2] x) => (float[2] y) {{\n{}}}\n"


def node_ops(text: str) -> list[str]:
    return [n.op_type for n in parse_document(text).proto.graph.node]


def test_an_unclosed_quote_after_a_label_spares_the_next_labelled_statement() -> None:
    # The quote pairs with the first quote of the next line; read to its line's end, the
    # next line's label `[second]` is where a statement starts, not a group inside the damage.
    text = BODY.format('  [first]" a = Relu(x)\n  [second] y = Foo <s = "b"> (x)\n')
    d = only(text)
    assert where(d) == ("P003", 3, 10)
    assert ops(parse_document(text).tree) == ["<node>", "Foo"]
    (node,) = parse_document(text).proto.graph.node
    assert node.name == "second" and node.attribute[0].s == b"b"


def test_a_quote_typed_at_a_line_start_spares_the_statements_its_string_held() -> None:
    # The string runs to the quote of `s = "t"`, four lines on: read as unclosed at its line's
    # end, the lines it held up to `c = ...` continue the damaged statement, `c` starts one.
    text = BODY.format('  a = Relu(x)\n"  b = Foo (\n    a\n  )\n  c = Neg(a)\n  y = Bar <s = "t"> (c)\n')
    d = only(text)
    assert where(d) == ("P003", 4, 1)
    assert ops(parse_document(text).tree) == ["Relu", "<node>", "Neg", "Bar"]


def test_a_name_cut_by_a_quote_hides_what_the_statement_defines() -> None:
    text = BODY.format('  a = Relu(x)\n  b"b = Neg(a)\n  y = Neg(bb)\n')
    d = only(text)
    assert where(d) == ("P003", 4, 4)
    assert node_ops(text) == ["Relu", "Neg"]
    # `bb` may be what the damaged statement defines: no "not defined" on the spared statement
    assert [x.code for x in onnxtext.check(text)] == ["P003"]


def test_an_error_at_the_start_of_a_statement_is_reported_where_the_statement_before_ends() -> None:
    # The stray `b` starts a statement that never gets its '='; the error shows only at `y`,
    # which starts a statement that parses: it is reported at the end of line 3, not on `y`.
    text = BODY.format("  a = Relu(x) b\n  y = Neg(a)\n")
    d = only(text)
    assert where(d) == ("P001", 3, 16)
    assert d.message == "expected ',' or '=', found name 'y'"
    assert ops(parse_document(text).tree) == ["Relu", "<node>", "Neg"]


@pytest.mark.parametrize(
    "lines, line, column",
    [
        # `< b = Neg(a)` would continue `a = Relu(x)` as its attribute list
        ("  a = Relu(x)\n  < b = Neg(a)\n  y = Neg(b)\n", 4, 3),
        # a '<' alone on a line, before a comment and the next statement
        ("  a = Relu(x)\n\n<  # then b\n  b = Neg(a)\n  y = Neg(b)\n", 5, 1),
        # a '[' (a label) alone on a line above the first statement of the body
        ("  [ # first\n  a = Relu(x)\n  b = Neg(a)\n  y = Neg(b)\n", 3, 3),
    ],
)
def test_a_bracket_typed_at_the_start_or_end_of_a_line_is_dropped(lines: str, line: int, column: int) -> None:
    text = BODY.format(lines)
    d = only(text)
    assert where(d) == ("P001", line, column)
    assert d.message.startswith("unexpected '")
    assert d.message.endswith("': the group it opens runs over the statement after it")
    assert node_ops(text) == ["Relu", "Neg", "Neg"]
    assert parse_document(fixed(text, d)).ok


def test_a_brace_typed_before_a_statement_is_no_block() -> None:
    # The '{' pairs with the body's '}' (same column): it is no stray block to skip as a whole.
    text = BODY.format("  a = Relu(x)\n{  b = Neg(a)\n  y = Neg(a)\n")
    d = only(text)
    assert where(d) == ("P001", 4, 1)
    assert "found '{'" in d.message
    assert ops(parse_document(text).tree) == ["Relu", "<node>", "Neg"]


def test_deeper_lines_continue_the_damaged_statement() -> None:
    # A cut line left the attribute lines of a statement, with a subgraph body: the body's
    # lines are deeper than the statements, so they are not read as statements of the graph
    # (its '}' would have closed the graph's body), and `y` is spared.
    text = BODY.format(
        "  a = Relu(x)\n    body = g (float[2] u) => (float[2] v) {\n      v = Neg(u)\n    }\n  >\n  y = Neg(a)\n"
    )
    d = only(text)
    assert where(d) == ("P001", 4, 20)
    tree = parse_document(text).tree
    assert ops(tree) == ["Relu", "<node>", "Neg"]
    err = tree.graph.nodes[1]
    assert text[err.span.start : err.span.end].endswith("}\n  >")


def test_a_bracket_typed_on_a_later_line_does_not_open_a_closed_attribute_list_again() -> None:
    text = BODY.format("  a = Foo <s = 1> (x)\n\n  ># note\n  y = Neg(a)\n")
    d = only(text)
    assert where(d) == ("P001", 5, 3)
    assert ops(parse_document(text).tree) == ["Foo", "<node>", "Neg"]
    assert parse_document(text).proto.graph.node[0].attribute[0].i == 1


def test_a_bracket_typed_in_a_subgraph_body_does_not_close_it() -> None:
    # Inserting '}' before the '>' would close the then-branch here and leave its own '}'
    # stray, which then closes the graph's body: the damage stays one statement of the branch.
    text = (
        HEAD + "main (float[2] x, bool c) => (float[2] y) {\n  y = If (c) <\n    then_branch = g () => (float[2] t) {\n"
        "      t1 = Neg(x)\n  >   t2 = Neg(t1)\n      t = Neg(t2)\n    },\n"
        "    else_branch = h () => (float[2] e) {\n      e = Neg(x)\n    }\n  >\n}\n"
    )
    d = only(text)
    assert where(d) == ("P001", 6, 3)
    tree = parse_document(text).tree
    assert ops(tree) == ["If"]
    then = tree.graph.nodes[0].attributes[0].value.graph
    assert [n.op_type.value if isinstance(n, A.Node) else "<node>" for n in then.nodes] == ["Neg", "<node>", "Neg"]


@pytest.mark.parametrize(
    "statement, line, column, message",
    [
        ("  b = Foo <", 4, 12, "expected '>' to close the '<' at line 4, found name 'y'"),
        ("  b = Foo (a,", 4, 14, "expected ')' to close the '(' at line 4, found name 'y'"),
        ("  b = Foo <s = 1,", 4, 18, "expected '>' to close the '<' at line 4, found name 'y'"),
        ("  b =\n", 4, 6, "expected a name or '.' before the end of the line, found the statement at line 6"),
    ],
)
def test_a_statement_left_unfinished_ends_where_the_next_one_starts(
    statement: str, line: int, column: int, message: str
) -> None:
    # As while typing: the unfinished statement would take the next line's statement (as an
    # attribute, an input, its operator); that line starts at the statements' indentation and
    # parses as a statement, so the damaged one ends before it.
    text = BODY.format(f"  a = Relu(x)\n{statement}\n  y = Neg(a)\n")
    d = only(text)
    assert where(d) == ("P001", line, column)
    assert d.message == message
    assert ops(parse_document(text).tree) == ["Relu", "<node>", "Neg"]
    assert node_ops(text) == ["Relu", "Neg"]
