"""Position queries over the syntax tree: what is at this offset.

The rule at span boundaries, for every query here: a node *contains* an offset when
``start <= offset < end``; when no child contains the offset but one ends exactly at it,
that child is taken, so a cursor right after a name (``Relu(x|)``) still finds the name.
"""

from __future__ import annotations

from onnxtext.syntax.ast import AstNode

__all__ = ["node_at", "innermost_at"]


def _child_at(node: AstNode, offset: int) -> AstNode | None:
    """The child of ``node`` containing ``offset``, else the one ending at it, else None."""
    touching: AstNode | None = None
    for child in node.children():
        span = child.span
        if span.start <= offset < span.end:
            return child
        if span.end == offset and span.start < offset and touching is None:
            touching = child
    return touching


def node_at(tree: AstNode, offset: int) -> list[AstNode]:
    """The nodes around ``offset``: ``tree`` first, the innermost last; ``[]`` if ``tree`` does not touch it.

    Only children whose span holds the offset are entered, so the cost is the depth times
    the width of the levels on the way down, not the size of the tree.
    """
    span = tree.span
    if not span.start <= offset <= span.end:
        return []
    chain = [tree]
    child = _child_at(tree, offset)
    while child is not None:
        chain.append(child)
        child = _child_at(child, offset)
    return chain


def innermost_at(tree: AstNode, offset: int) -> AstNode | None:
    """The innermost node at ``offset`` (see :func:`node_at`)."""
    chain = node_at(tree, offset)
    return chain[-1] if chain else None
