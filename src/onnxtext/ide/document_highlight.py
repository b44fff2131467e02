"""Document highlight: every occurrence of the name under the cursor, its definitions marked as writes.

One pass over the symbol's spans (a set of definition spans, then the references in text order),
so a value used 20,000 times is answered in linear time.
"""

from __future__ import annotations

from dataclasses import dataclass

from onnxtext.document import Document
from onnxtext.span import Span

__all__ = ["Highlight", "highlights"]


@dataclass(slots=True)
class Highlight:
    """One occurrence: ``write`` when it defines the name (a span that is also a use reads it).

    Not frozen: a frozen dataclass costs several times more to make, and a value used 20,000
    times makes 20,000 of them."""

    span: Span
    write: bool


def highlights(document: Document, offset: int) -> list[Highlight]:
    """The occurrences of the symbol at ``offset`` in text order; ``[]`` when no name is there."""
    symbol = document.symbol_at(offset)
    if symbol is None:
        return []
    used = {(s.start, s.end) for s in symbol.use_spans()}
    written = {(s.start, s.end) for s in symbol.definition_spans()} - used
    return [Highlight(s, (s.start, s.end) in written) for s in document.references(symbol)]
