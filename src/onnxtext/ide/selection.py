"""Selection ranges ("expand selection"): the spans of the syntax around a position, each once."""

from __future__ import annotations

from onnxtext.document import Document
from onnxtext.span import Span

__all__ = ["selection_spans"]


def selection_spans(document: Document, offset: int) -> list[Span]:
    """The non-empty spans of the AST nodes around ``offset``, outermost first, a span shared by
    nested nodes given once; ``[]`` outside every node."""
    out: list[Span] = []
    seen: set[tuple[int, int]] = set()
    for node in document.nodes_at(offset):  # outermost first
        key = (node.span.start, node.span.end)
        if key in seen or key[1] <= key[0]:
            continue
        seen.add(key)
        out.append(node.span)
    return out
