"""Outline (document symbols) and folding ranges, on texts with subgraphs, functions, comments."""

from __future__ import annotations

from onnxtext.analysis.outline import Fold, folding_ranges, outline
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
    folds = folding_ranges(result.tree, result.source)
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
    assert folding_ranges(None, _tree().source) == []
