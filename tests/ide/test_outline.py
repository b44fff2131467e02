"""Outline (document symbols) and folding ranges, on texts with subgraphs, functions, comments."""

from __future__ import annotations

from onnxtext.ide.outline import Fold, folding_ranges, outline
from onnxtext.syntax.parser import parse_text

TEXT = """<
  ir_version: 8,
  opset_import: ["" : 18, "local" : 1]
>
# a model
# with two comment lines
main (float[N] x, bool c) => (float[N] y)
<float[2] w = {1,
               2}>
{
   a = Relu (x)
   y = If (c) <
      then_branch = then_g () => (float[N] t) {
         t = Neg (a)
      },
      else_branch = else_g () => (float[N] e) { e = Identity (a) }
   >
}

<domain: "local", opset_import: ["" : 18]>
twice (p) => (q) {
   q = Add (p, p)
}
"""


def _tree():  # type: ignore[no-untyped-def]
    result = parse_text(TEXT)
    assert result.ok, result.diagnostics
    return result


def test_outline_shows_graphs_nodes_subgraphs_and_functions() -> None:
    items = outline(_tree().tree)
    assert [(i.name, i.kind) for i in items] == [("main", "graph"), ("twice", "function")]
    main = items[0]
    assert [(c.name, c.kind, c.detail) for c in main.children] == [
        ("x", "input", "float[N]"),
        ("c", "input", "bool"),
        ("y", "output", "float[N]"),
        ("w", "initializer", "float[2]"),
        ("a", "node", "Relu"),
        ("y", "node", "If"),
    ]
    branches = main.children[-1].children
    assert [(b.name, b.kind, b.detail) for b in branches] == [
        ("then_g", "graph", "then_branch of If"),
        ("else_g", "graph", "else_branch of If"),
    ]
    assert [c.name for c in branches[0].children] == ["t", "t"]  # output, then the node defining it
    twice = items[1]
    assert twice.detail == "local"
    assert [(c.name, c.kind) for c in twice.children] == [("p", "input"), ("q", "output"), ("q", "node")]


def test_outline_selection_is_the_name() -> None:
    result = _tree()
    item = outline(result.tree)[0].children[4]
    assert TEXT[item.selection.start : item.selection.end] == "a"
    assert TEXT[item.span.start : item.span.end] == "a = Relu (x)"


def test_folding_ranges() -> None:
    result = _tree()
    folds = folding_ranges(result.tree, result.source, result.comments)
    assert Fold(0, 3) in folds  # header
    assert Fold(4, 5, "comment") in folds  # two comment lines
    assert Fold(7, 8) in folds  # multi-line tensor / initializer list
    assert Fold(11, 16) in folds  # the If node with its branches
    assert Fold(12, 14) in folds  # a multi-line subgraph
    assert Fold(6, 17) in folds  # the main graph
    assert Fold(19, 22) in folds  # the function, its header included
    assert all(f.end > f.start for f in folds)


def test_outline_of_nothing() -> None:
    assert outline(None) == []
    assert folding_ranges(None, _tree().source, []) == []


WEIGHTS = """<ir_version: 8, opset_import: ["" : 18]>
main (float[2] x) => (float[2] y)
<
   float[2] w = {
      1, 2
   },
   # a comment with < and > and {
   float[2] b = {3, 4}
>
{
   a = Add (x, w)
   y = Add (a, b)
}

<domain: "local", opset_import: ["" : 18]>
twice (p) => (q)
<float r>
{
   r = Add (p, p)
   q = Identity (r)
}
"""


def test_initializer_list_and_body_fold() -> None:
    """The ``<…>`` of the initializers and the ``{…}`` of the nodes fold on their own (the weights
    fold away to reach the nodes); a function's body too."""
    result = parse_text(WEIGHTS)
    assert result.ok, result.diagnostics
    folds = folding_ranges(result.tree, result.source, result.comments)
    assert Fold(2, 8) in folds  # the initializer list, < to >
    assert Fold(9, 12) in folds  # the node body, { to }
    assert Fold(1, 12) in folds  # the whole graph
    assert Fold(17, 20) in folds  # the function's body
    assert Fold(3, 5) in folds  # one tensor


def test_same_line_lists_do_not_fold() -> None:
    result = parse_text(TEXT.replace("{1,\n               2}", "{1, 2}"))
    folds = folding_ranges(result.tree, result.source, result.comments)
    assert Fold(7, 8) not in folds
    assert Fold(8, 16) in folds  # the body


def test_nodes_read_as_operations_in_the_outline() -> None:
    """A node is an Operator symbol (a Field reads as a piece of data)."""
    from lsprotocol import types as L

    from onnxtext.lsp.convert import document_symbols

    result = _tree()
    symbols = document_symbols(outline(result.tree), result.source)
    kinds = {(c.name, c.kind) for c in symbols[0].children or []}
    assert ("a", L.SymbolKind.Operator) in kinds
    assert ("w", L.SymbolKind.Constant) in kinds
