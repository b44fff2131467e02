"""The first graph or type of a tree nested deeper than protobuf could ever read back, found without
recursion: the recursive stages (printing a tree, lowering) stop there, with a located error."""

from __future__ import annotations

from onnxtext.ir.depth import PROTOBUF_DEPTH_LIMIT
from onnxtext.syntax import ast as A

__all__ = ["MAX_GRAPH_NESTING", "MAX_TYPE_NESTING", "TOO_DEEP", "first_too_deep"]

TOO_DEEP = "L009"  # graphs nested deeper than protobuf reads back

MAX_GRAPH_NESTING = (PROTOBUF_DEPTH_LIMIT + 2) // 3
"""The deepest graph protobuf may read: the main graph is 1 message deep, each nested one 3 more
(node, attribute, graph), so the graph at nesting k is 3k - 2 deep."""

MAX_TYPE_NESTING = (PROTOBUF_DEPTH_LIMIT - 3) // 2
"""The most ``seq(``, ``optional(`` and ``map(`` a type may nest: a graph input's type is 3 messages
deep at least, each nesting 2 more (the kind's message, its element type)."""

_NESTING_TYPES = (A.SeqType, A.OptionalType, A.MapType)


def first_too_deep(tree: object) -> A.Graph | A.Type | None:
    """The first graph (in the text) nested more than :data:`MAX_GRAPH_NESTING` graphs deep, or type
    nested more than :data:`MAX_TYPE_NESTING` types deep, if any; ``tree`` is any parse result (a node
    list's is a list of nodes and its span)."""
    roots = tree[0] if isinstance(tree, tuple) else [tree]
    stack: list[tuple[A.AstNode, int, int]] = [(node, 0, 0) for node in reversed(roots) if isinstance(node, A.AstNode)]
    while stack:
        node, graphs, types = stack.pop()
        if isinstance(node, A.Graph):
            graphs += 1
            if graphs > MAX_GRAPH_NESTING:
                return node
        elif isinstance(node, _NESTING_TYPES):
            types += 1
            if types > MAX_TYPE_NESTING:
                return node
        stack.extend((child, graphs, types) for child in reversed(list(node.children())))
    return None
