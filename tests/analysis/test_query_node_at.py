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
        for outer, inner in zip(chain, chain[1:], strict=False):
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


def _scan(tree: A.AstNode, offset: int) -> list[A.AstNode]:
    """node_at's rule by a plain scan of every child: the reference for the bisecting version."""
    if not tree.span.start <= offset <= tree.span.end:
        return []
    chain = [tree]
    while True:
        children = list(chain[-1].children())
        inside = [c for c in children if c.span.start <= offset < c.span.end]
        touching = [c for c in children if c.span.end == offset and c.span.start < offset]
        if not inside and not touching:
            return chain
        chain.append(inside[0] if inside else touching[0])


def test_long_lists_are_searched_like_short_ones() -> None:
    """Graphs with many nodes and initializers, tensors with many values, comments between nodes."""
    lines = ['<ir_version: 10, opset_import: ["" : 21]>', "g (float[2] x0) => (float[2] y)", "<"]
    lines.append(",\n".join(f"  float[12] w{i} = {{{', '.join(str(k) for k in range(12))}}}" for i in range(12)))
    lines += [">", "{"]
    for i in range(20):
        lines.append(f"  # layer {i}")
        lines.append(f"  x{i + 1} = Add(x{i}, w{i % 12})  # trailing {i}")
    lines += ["  y = Identity <t = int64[10] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}> (x20)", "}"]
    text = "\n".join(lines) + "\n"
    d = doc(text)
    assert d.ok, d.diagnostics
    for at in range(len(text) + 1):
        assert node_at(d.tree, at) == _scan(d.tree, at), at


def test_a_node_list() -> None:
    d = doc("{\n  a = Relu(x)\n  b = Add(a, a)\n}\n", "node_list")
    assert isinstance(d.tree, list)
    chain = node_at(d.tree, offset(d, 3, 11))
    assert kinds(chain) == ["Node", "Ident"] and where(d, chain[-1].span) == (3, 11)
    assert [type(n).__name__ for n in d.nodes_at(offset(d, 2, 13))] == ["Node", "Ident"]  # right after x
    assert node_at(d.tree, 0) == []
