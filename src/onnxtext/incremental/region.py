"""Where an edit falls: the body it is inside and the whole statements of it that it touches.

An edit is confined to a body when it lies between the body's first statement and its last
(or in the blanks around them, short of the braces). The statements it touches, and the
statement on each side when it ends in the blanks between two, are re-read together: a
*window* of the old text starting and ending at statement boundaries.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from onnxtext.ir.paths import ROOT, ProtoPath
from onnxtext.syntax import ast as A

__all__ = ["Body", "Window", "bodies", "window_of", "BLANKS"]

BLANKS = " \t\r\n"


@dataclass(frozen=True)
class Body:
    """A statement list of the tree and where its nodes are in the protobuf."""

    owner: A.Graph | A.Function
    path: ProtoPath
    """The graph's or function's proto path (its nodes are ``path/node[i]``)."""
    function: int | None = None
    """The function's index in the protobuf (None: the main graph)."""


@dataclass(frozen=True)
class Window:
    """Statements ``[first, stop)`` of a body, re-read as old text ``[start, end)`` (whole statements,
    and the blanks the edit reached beyond them at the ends of the body)."""

    body: Body
    first: int
    stop: int
    start: int
    end: int


def bodies(model: A.Model, header_functions: int) -> Iterator[Body]:
    """The main graph's body and each local function's (``header_functions``: the functions the
    header gave, which come first in the protobuf)."""
    yield Body(model.graph, ROOT / "graph")
    for i, f in enumerate(A.intact(model.functions), header_functions):
        yield Body(f, ROOT.child("functions", i), i)


def window_of(candidates: Iterator[Body], text: str, start: int, old_end: int) -> Window | None:
    """The window of whole statements of one body covering the old text ``[start, old_end)``; None
    when the edit is not inside one body's statements and the blanks around them."""
    for body in candidates:
        nodes = body.owner.nodes
        if not nodes or _damaged(nodes):
            continue
        lo, hi = nodes[0].span.start, nodes[-1].span.end
        while lo > 0 and text[lo - 1] in BLANKS:
            lo -= 1
        while hi < len(text) and text[hi] in BLANKS:
            hi += 1
        if lo <= start and old_end <= hi:
            return _window(body, nodes, start, old_end)
    return None


def _damaged(nodes: Sequence[A.Node | A.ErrorNode]) -> bool:
    """Whether the statement list is no body's: a damaged graph or body (its braces, and what
    stood before them, inside the one error node that stands for it)."""
    first = nodes[0]
    return type(first) is A.ErrorNode and first.kind != "node"


def _window(body: Body, nodes: Sequence[A.Node | A.ErrorNode], start: int, old_end: int) -> Window:
    k = bisect.bisect_right(nodes, start, key=_start) - 1
    # The statement the edit starts in, or the one before the blanks it starts in (none: the blanks before the first).
    first = max(k, 0)
    begin = min(start, nodes[first].span.start)
    m = bisect.bisect_left(nodes, old_end, key=_end)
    # The statement the edit ends in, or the one after the blanks it ends in (none: the blanks after the last).
    stop = min(m + 1, len(nodes))
    end = max(old_end, nodes[stop - 1].span.end)
    return Window(body, first, max(stop, first + 1), begin, end)


def _start(node: A.AstNode) -> int:
    return node.span.start


def _end(node: A.AstNode) -> int:
    return node.span.end
