"""The first graph of a tree nested deeper than protobuf could ever read back, found without recursion:
the recursive stages (printing a tree, lowering) stop there, with a located error."""

from __future__ import annotations

from onnxtext.ir.depth import PROTOBUF_DEPTH_LIMIT
from onnxtext.syntax import ast as A

__all__ = ["MAX_GRAPH_NESTING", "TOO_DEEP", "first_too_deep_graph"]

TOO_DEEP = "L009"  # graphs nested deeper than protobuf reads back

MAX_GRAPH_NESTING = (PROTOBUF_DEPTH_LIMIT + 2) // 3
"""The deepest graph protobuf may read: the main graph is 1 message deep, each nested one 3 more
(node, attribute, graph), so the graph at nesting k is 3k - 2 deep."""


def first_too_deep_graph(tree: object) -> A.Graph | None:
    """The first graph (in the text) nested more than :data:`MAX_GRAPH_NESTING` graphs deep, if any;
    ``tree`` is any parse result (a node list's is a list of nodes and its span)."""
    roots = tree[0] if isinstance(tree, tuple) else [tree]
    stack: list[tuple[A.AstNode, int]] = [(node, 0) for node in reversed(roots) if isinstance(node, A.AstNode)]
    while stack:
        node, graphs = stack.pop()
        if isinstance(node, A.Graph):
            graphs += 1
            if graphs > MAX_GRAPH_NESTING:
                return node
        stack.extend((child, graphs) for child in reversed(list(node.children())))
    return None
