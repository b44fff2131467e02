"""node_at: the chain of AST nodes at an offset, root first."""

from __future__ import annotations

import pytest
from analysisutil import MODEL, doc, offset, where

from onnxtext.syntax import ast as A
from onnxtext.syntax.query import innermost_at, node_at


def kinds(chain: list[A.AstNode]) -> list[str]:
    return [type(n).__name__ for n in chain]


def test_a_node_input() -> None:
    d = doc()
    chain = node_at(d.tree, offset(d, 5, 11))
    assert kinds(chain) == ["Model", "Graph", "Node", "Ident"]
    assert isinstance(chain[-1], A.Ident) and chain[-1].value == "x"


def test_inside_a_subgraph() -> None:
    d = doc()
    chain = node_at(d.tree, offset(d, 8, 15))
    assert kinds(chain) == ["Model", "Graph", "Node", "Attribute", "GraphValue", "Graph", "Node", "Ident"]
    assert where(d, chain[-1].span) == (8, 15)


@pytest.mark.parametrize(
    ("line", "column", "expected"),
    [
        (5, 11, (5, 11)),  # on the name
        (5, 12, (5, 11)),  # right after it (on the comma): still the name
        (5, 14, (5, 14)),  # the next name
        (5, 15, (5, 14)),  # right after the last input, on ')'
        (15, 2, (15, 1)),  # right after a function's name
    ],
)
def test_boundaries(line: int, column: int, expected: tuple[int, int]) -> None:
    d = doc()
    found = innermost_at(d.tree, offset(d, line, column))
    assert isinstance(found, A.Ident)
    assert where(d, found.span) == expected


def test_between_names_is_the_enclosing_node() -> None:
    d = doc()
    chain = node_at(d.tree, offset(d, 5, 13))  # the space after the comma
    assert kinds(chain) == ["Model", "Graph", "Node"]


def test_outside_the_tree() -> None:
    d = doc("main () => () {}\n", "graph")
    assert node_at(d.tree, len(d.source.text)) == []
    assert node_at(d.tree, -1) == []


def test_every_offset_gives_a_chain_of_nested_nodes() -> None:
    d = doc()
    for at in range(len(MODEL)):
        chain = node_at(d.tree, at)
        for outer, inner in zip(chain, chain[1:]):
            assert outer.span.start <= inner.span.start and inner.span.end <= outer.span.end
            assert inner in list(outer.children())
        if chain:
            last = chain[-1].span
            assert last.start <= at <= last.end


def test_innermost_node_of_each_name_is_the_name() -> None:
    """Every identifier is found from each of its offsets (and from the offset right after it)."""
    d = doc()
    for node in A.walk(d.tree):
        if isinstance(node, A.Ident) and node.span.end > node.span.start:
            for at in range(node.span.start, node.span.end):
                assert innermost_at(d.tree, at) is node
