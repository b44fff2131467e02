"""Position queries over the syntax tree: what is at this offset.

The rule at span boundaries, for every query here: a node *contains* an offset when
``start <= offset < end``; when no child contains the offset but one ends exactly at it,
that child is taken, so a cursor right after a name (``Relu(x|)``) still finds the name.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable

from onnxtext.span import Span
from onnxtext.syntax.ast import AstNode, child_groups

__all__ = ["node_at", "innermost_at"]

_SCAN = 8
"""Lists up to this long are scanned; longer ones (statements, initializers, values) bisected."""


def _start(node: AstNode) -> int:
    return node.span.start


def _holds(span: Span, offset: int) -> bool:
    return span.start <= offset < span.end


def _touches(span: Span, offset: int) -> bool:
    """Ends right at ``offset`` (a non-empty node)."""
    return span.end == offset and span.start < offset


def _candidates(items: list[AstNode], offset: int) -> list[AstNode]:
    """The items of a list that may hold or touch ``offset``: items are in text order and disjoint."""
    if len(items) <= _SCAN:
        return items
    i = bisect.bisect_right(items, offset, key=_start) - 1
    return items[max(i - 1, 0) : i + 1]


def _pick(groups: Iterable[AstNode | list[AstNode]], offset: int) -> AstNode | None:
    """Among nodes and lists of nodes: the node containing ``offset``, else the one ending at it, else None."""
    touching: AstNode | None = None
    for group in groups:
        for child in _candidates(group, offset) if isinstance(group, list) else (group,):
            if not isinstance(child, AstNode):
                continue
            if _holds(child.span, offset):
                return child
            if touching is None and _touches(child.span, offset):
                touching = child
    return touching


def node_at(tree: AstNode | list[AstNode], offset: int) -> list[AstNode]:
    """The nodes around ``offset``: ``tree`` first, the innermost last; ``[]`` if ``tree`` does not touch it.

    ``tree`` may be a list of nodes (a node-list document): the chain then starts at the
    item holding the offset. Only children whose span holds the offset are entered, so
    the cost is the depth times the width of the levels on the way down (long lists are
    bisected), not the size of the tree.
    """
    if isinstance(tree, list):
        first = _pick([tree], offset)
        return node_at(first, offset) if first is not None else []
    span = tree.span
    if not span.start <= offset <= span.end:
        return []
    chain = [tree]
    child = _pick(child_groups(tree), offset)
    while child is not None:
        chain.append(child)
        child = _pick(child_groups(child), offset)
    return chain


def innermost_at(tree: AstNode | list[AstNode], offset: int) -> AstNode | None:
    """The innermost node at ``offset`` (see :func:`node_at`)."""
    chain = node_at(tree, offset)
    return chain[-1] if chain else None
