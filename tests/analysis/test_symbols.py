"""Symbol tables: definitions, uses, scopes, functions, attribute references; positions as (line, column)."""

from __future__ import annotations

import pytest
from analysisutil import MODEL, doc, offset, places, where
from test_source_map import TRAINING  # a model with training_info graphs

from onnxtext.analysis.symbols import AttributeSymbol, FunctionSymbol, ValueSymbol, build_symbols
from onnxtext.syntax import ast as A


def refs(text: str, line: int, column: int) -> list[tuple[int, int]]:
    """Every occurrence of the symbol at (line, column)."""
    d = doc(text)
    symbol = d.symbols.symbol_at(offset(d, line, column))
    assert symbol is not None, f"nothing at {line}:{column}"
    return places(d, d.symbols.references(symbol))


def definition(text: str, line: int, column: int) -> list[tuple[int, int]]:
    d = doc(text)
    return places(d, d.symbols.definition_at(offset(d, line, column)))


@pytest.mark.parametrize(
    ("at", "defined"),
    [
        ((5, 11), [(2, 16)]),  # x: a graph input
        ((5, 14), [(3, 11)]),  # w: an initializer
        ((7, 16), [(2, 16)]),  # x used in a subgraph: the outer input
        ((8, 18), [(3, 11)]),  # w used in a subgraph
        ((8, 15), [(7, 7)]),  # t in then_branch: the inner t shadows the outer one
        ((10, 31), [(5, 3)]),  # t in else_branch: the outer t (else_branch defines none)
        ((12, 18), [(5, 3)]),
        ((2, 40), [(6, 3)]),  # a graph output names the node output
        ((6, 48), [(8, 7)]),  # a subgraph output
        ((9, 41), [(10, 7)]),
        ((17, 28), [(15, 17)]),  # a function input
        ((15, 24), [(17, 3)]),  # a function output
        ((22, 11), [(20, 4)]),  # the same names in another function are other symbols
        ((5, 3), [(5, 3)]),  # on a definition
        ((5, 13), []),  # between names
    ],
)
def test_definition_at(at: tuple[int, int], defined: list[tuple[int, int]]) -> None:
    assert definition(MODEL, *at) == defined


def test_references_of_values() -> None:
    assert refs(MODEL, 5, 11) == [(2, 16), (5, 11), (7, 16)]
    assert refs(MODEL, 5, 3) == [(5, 3), (10, 31), (12, 18)]  # outer t: not the then_branch uses
    assert refs(MODEL, 7, 7) == [(7, 7), (8, 15)]  # inner t
    assert refs(MODEL, 3, 11) == [(3, 11), (5, 14), (8, 18)]
    assert refs(MODEL, 20, 4) == [(20, 4), (22, 11)]


def test_overloads_resolve_exactly() -> None:
    assert definition(MODEL, 10, 18) == [(15, 1)]  # local.f:a
    assert definition(MODEL, 12, 13) == [(20, 1)]  # local.f:b
    assert refs(MODEL, 15, 1) == [(10, 18), (15, 1)]
    assert refs(MODEL, 20, 1) == [(12, 13), (20, 1)]
    d = doc()
    assert sorted(d.symbols.functions) == [("local", "f", "a"), ("local", "f", "b")]


def test_a_call_to_an_undefined_overload_is_no_call() -> None:
    text = MODEL.replace("local.f:b (t)", "local.f:c (t)")
    d = doc(text)
    assert d.symbols.symbol_at(offset(d, 12, 13)) is None
    assert [len(f.calls) for f in d.symbols.functions.values()] == [1, 0]


def test_attribute_references() -> None:
    d = doc()
    symbol = d.symbols.symbol_at(offset(d, 17, 24))  # @k
    assert isinstance(symbol, AttributeSymbol)
    assert symbol.name == "k" and symbol.function.key == ("local", "f", "a")
    assert where(d, symbol.definition) == (15, 4)
    assert places(d, symbol.references) == [(17, 24)]
    assert places(d, symbol.arguments) == [(10, 23)]  # given by name at the call
    assert refs(MODEL, 15, 4) == [(10, 23), (15, 4), (17, 24)]


def test_attribute_reference_in_a_subgraph_of_a_function() -> None:
    text = """\
<domain: "local", opset_import: ["" : 21]>
g <n, then> (c, a) => (b)
{
  b = If (c) <then_branch = t () => (r) {
      r = Constant <value_int: int = @n> ()
    }, else_branch = e () => (r2) {
      r2 = Identity (a)
    }>
}
"""
    d = doc(text, "function")
    assert d.ok, d.diagnostics
    symbol = d.symbols.symbol_at(offset(d, 5, 39))
    assert isinstance(symbol, AttributeSymbol) and where(d, symbol.definition) == (2, 4)
    assert places(d, d.symbols.definition_at(offset(d, 7, 22))) == [(2, 17)]  # a: the function's input


def test_unresolved_names() -> None:
    text = """\
<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
main (float[N] x) => (float[N] y)
{
  y = Relu(q)
  u = Identity <v = @nope> (x)
}
<domain: "local", opset_import: ["" : 21]>
f (a) => (b)
{
  b = Add(a, x)
}
"""
    d = doc(text)
    assert [(u.name, u.what, where(d, u.span)) for u in d.symbols.unresolved] == [
        ("q", "value", (4, 12)),
        ("nope", "attribute", (5, 22)),  # @ outside a function
        ("x", "value", (10, 14)),  # a function does not see the main graph
    ]
    assert d.symbols.symbol_at(offset(d, 4, 12)) is None


def test_kinds_and_outputs() -> None:
    d = doc()
    main, then_, else_, fa, fb = d.symbols.scopes
    assert [s.kind for s in d.symbols.scopes] == ["graph", "subgraph", "subgraph", "function", "function"]
    assert then_.parent is main and else_.parent is main and main.children == [then_, else_]
    assert {n: v.kind for n, v in main.values.items()} == {
        "x": "graph-input",
        "c": "graph-input",
        "w": "initializer",
        "t": "node-output",
        "y": "node-output",
        "z": "node-output",
    }
    assert [v.name for v in main.outputs if isinstance(v, ValueSymbol)] == ["y", "z"]
    assert main.values["y"].is_output and not main.values["t"].is_output
    assert fa.values["a"].kind == "function-input" and fa.values["b"].is_output
    assert fa.function is d.symbols.functions[("local", "f", "a")]
    assert then_.function is None
    assert d.symbols.scope_at(offset(d, 8, 15)) is then_
    assert d.symbols.scope_at(offset(d, 22, 11)) is fb


def test_redefinitions() -> None:
    text = """\
<ir_version: 10, opset_import: ["" : 21]>
main (float[N] x) => (float[N] y)
{
  y = Relu(x)
  y = Neg(x)
}
"""
    d = doc(text)
    y = d.symbols.scopes[0].values["y"]
    assert places(d, [e.span for e in y.definitions]) == [(4, 3), (5, 3)]
    assert places(d, [e.span for e in y.redefinitions]) == [(5, 3)]
    assert definition(text, 2, 32) == [(4, 3), (5, 3)]


def test_an_initializer_repeating_an_input_is_no_redefinition() -> None:
    text = """\
<ir_version: 3, opset_import: ["" : 8]>
main (float[1] w) => (float[1] y)
<float[1] w = {2.0}>
{
  y = Relu(w)
}
"""
    d = doc(text)
    w = d.symbols.scopes[0].values["w"]
    assert [e.kind for e in w.definitions] == ["graph-input", "initializer"]
    assert w.redefinitions == []


def test_rename_edits() -> None:
    d = doc()
    outer_t = d.symbols.symbol_at(offset(d, 12, 18))
    assert outer_t is not None
    edits = d.symbols.rename_edits(outer_t, "u")
    assert [(where(d, e.span), e.new_text) for e in edits] == [((5, 3), "u"), ((10, 31), "u"), ((12, 18), "u")]
    assert {e.new_text for e in d.symbols.rename_edits(outer_t, "a b")} == {'"a b"'}
    fa = d.symbols.symbol_at(offset(d, 10, 18))
    assert isinstance(fa, FunctionSymbol)
    assert places(d, d.symbols.rename_spans(fa)) == [(10, 18), (15, 1)]


def test_rename_applied_gives_the_same_model_under_the_new_name() -> None:
    d = doc()
    symbol = d.symbols.symbol_at(offset(d, 5, 3))
    assert symbol is not None
    text = d.source.text
    for e in sorted(d.symbols.rename_edits(symbol, "renamed"), key=lambda e: -e.span.start):
        text = text[: e.span.start] + e.new_text + text[e.span.end :]
    after = doc(text)
    assert after.ok
    assert after.source.text.count("renamed") == 3
    assert "t" not in after.symbols.scopes[0].values and "t" in after.symbols.scopes[1].values


def test_damaged_statements_still_define_their_names() -> None:
    """An ErrorNode in a node list (built by hand: the parser does not make them yet)."""
    d = doc()
    graph = d.tree.graph
    broken = graph.nodes[0]  # t = Mul(x, w)
    graph.nodes[0] = A.ErrorNode(broken.span, "node", defines=list(broken.outputs))  # type: ignore[call-overload]
    table = build_symbols(d.tree)
    main = table.scopes[0]
    assert main.values["t"].kind == "unknown"
    assert places(d, table.references(main.values["t"])) == [(5, 3), (10, 31), (12, 18)]
    assert places(d, main.values["x"].uses) == [(7, 16)]  # the damaged statement's uses are gone
    assert main.names_known


def test_damage_hiding_the_names_marks_the_scope() -> None:
    d = doc()
    graph = d.tree.graph
    graph.nodes.insert(0, A.ErrorNode(graph.nodes[0].span, "node", defines_known=False))  # type: ignore[arg-type]
    table = build_symbols(d.tree)
    assert not table.scopes[0].names_known and table.scopes[1].names_known


def test_node_and_node_list_documents() -> None:
    d = doc("{\n  a = Relu(x)\n  b = Add(a, a)\n}\n", "node_list")
    table = d.symbols
    assert [u.name for u in table.unresolved] == ["x"]
    assert places(d, table.references(table.scopes[0].values["a"])) == [(2, 3), (3, 11), (3, 14)]
    one = doc("y = Relu(x)", "node")
    assert list(one.symbols.scopes[0].values) == ["y"]


def test_every_name_of_a_valid_model_is_an_occurrence() -> None:
    """Inputs, outputs and node names of every scope resolve (nothing unresolved in a valid model)."""
    d = doc()
    assert d.symbols.unresolved == []
    named = {o.span.start for o in d.symbols.occurrences}
    for node in A.walk(d.tree):
        if isinstance(node, A.Node):
            assert {i.span.start for i in node.inputs + node.outputs} <= named


def test_visible_names_for_completion() -> None:
    d = doc()
    then_ = d.symbols.scope_at(offset(d, 8, 15))
    assert then_ is not None
    visible = then_.visible()
    assert sorted(visible) == ["c", "r", "t", "w", "x", "y", "z"]
    assert where(d, visible["t"].definitions[0].span) == (7, 7)  # the inner t
    fa = d.symbols.scope_at(offset(d, 17, 3))
    assert fa is not None and sorted(fa.visible()) == ["a", "b"]  # nothing of the main graph


def test_quoted_names_are_renamed_with_their_quotes() -> None:
    text = '<ir_version: 10, opset_import: ["" : 21]>\ng (float[2] "my x") => (float[2] y) {\n  y = Relu("my x")\n}\n'
    d = doc(text)
    symbol = d.symbols.symbol_at(offset(d, 3, 13))
    assert isinstance(symbol, ValueSymbol) and symbol.name == "my x"
    edits = d.symbols.rename_edits(symbol, "z")
    assert [(where(d, e.span), text[e.span.start : e.span.end], e.new_text) for e in edits] == [
        ((2, 13), '"my x"', "z"),
        ((3, 12), '"my x"', "z"),
    ]


def test_training_graphs_see_the_main_graph() -> None:
    d = doc(TRAINING)
    assert d.ok and d.symbols.unresolved == []
    main, init, algorithm = d.symbols.scopes
    assert init.parent is main and algorithm.parent is main
    v_in_algorithm = d.symbols.symbol_at(offset(d, 9, 19))  # v_next = Sub(v, step)
    assert v_in_algorithm is main.values["v"]


def test_damage_in_every_statement_list() -> None:
    """ErrorNodes among inputs, initializers, outputs, attributes and functions: skipped, their names defined."""
    d = doc()
    tree = d.tree
    graph = tree.graph
    assert graph.inputs is not None and graph.initializers is not None
    c = graph.inputs[1].info.name  # bool c
    graph.inputs[1] = A.ErrorNode(graph.inputs[1].span, "value_info", defines=[c])  # type: ignore[call-overload]
    graph.initializers.append(A.ErrorNode(graph.initializers[0].span, "initializer"))  # type: ignore[arg-type]
    graph.outputs.append(A.ErrorNode(graph.outputs[1].span, "value_info"))  # type: ignore[arg-type]
    node = graph.nodes[1]
    node.attributes.append(A.ErrorNode(node.attributes[0].span, "attribute"))  # type: ignore[arg-type]
    tree.functions.insert(0, A.ErrorNode(tree.functions[0].span, "function"))  # type: ignore[arg-type]
    fa = tree.functions[1]
    fa.inputs.append(A.ErrorNode(fa.inputs[0].span, "value_info"))  # type: ignore[arg-type]
    table = build_symbols(tree)
    main = table.scopes[0]
    assert main.values["c"].kind == "unknown" and places(d, main.values["c"].uses) == [(6, 11)]
    assert [v.name for v in main.outputs if isinstance(v, ValueSymbol)] == ["y", "z"]
    assert len(table.scopes) == 5 and sorted(table.functions) == [("local", "f", "a"), ("local", "f", "b")]
    assert table.unresolved == []


@pytest.mark.parametrize("new_name", ["seq", "Optional", "nan", "unset"])
def test_renaming_to_a_reserved_word_quotes_it_and_reads_back(new_name: str) -> None:
    """A reserved word written bare would read as something else: the rename quotes it, as the printer does."""
    d = doc()
    symbol = d.symbols.symbol_at(offset(d, 5, 3))
    assert symbol is not None
    edits = d.symbols.rename_edits(symbol, new_name)
    assert {e.new_text for e in edits} == {f'"{new_name}"'}
    text = d.source.text
    for e in sorted(edits, key=lambda e: -e.span.start):
        text = text[: e.span.start] + e.new_text + text[e.span.end :]
    after = doc(text)
    assert after.ok, [str(x) for x in after.diagnostics]
