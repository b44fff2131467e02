"""Requests answered from the last complete analysis while the analysis of a newer text runs.

On a big document a re-analysis takes a second; a hover or a go-to-definition right after a
keystroke must not wait for it (nor parse the new text itself). The last analysis answers,
its positions carried through the one edit between its text and the current one
(``lsp/shift.py``): a position inside the edited region, or an answer the edit touched, has
no place in the snapshot and the caller falls back to the current text's own analysis.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from onnxtext.document import Document
from onnxtext.lsp.diagnose import Outcome
from onnxtext.lsp.shift import Shift
from onnxtext.span import SourceFile, Span

__all__ = ["Snapshot", "answer"]


@dataclass(frozen=True)
class Snapshot:
    """The last complete analysis (``outcome``) seen from the current text (``source``)."""

    outcome: Outcome
    shift: Shift | None
    """The edit from the analysed text to the current one; None when the analysis is current."""
    source: SourceFile

    @property
    def document(self) -> Document:
        return self.outcome.document

    def old_offset(self, offset: int) -> int | None:
        """Where an offset of the current text is in the analysed one; None inside the edit or at
        either end of it (a query there may see the word before or after it: the new text's)."""
        shift = self.shift
        if shift is None:
            return offset
        if shift.start <= offset <= shift.new_end:
            return None
        return offset if offset < shift.start else offset - shift.new_end + shift.old_end

    def current_span(self, span: Span) -> Span | None:
        """An answer's span of the analysed text in the current one; None when the edit touched it."""
        return span if self.shift is None else self.shift.span(span)

    def current_spans(self, spans: Iterable[Span]) -> list[Span] | None:
        """Every span carried into the current text, or None if the edit touched one of them
        (a partial answer would be a wrong one: the caller asks the current text instead)."""
        out = []
        for span in spans:
            moved = self.current_span(span)
            if moved is None:
                return None
            out.append(moved)
        return out


R = TypeVar("R")


def answer(
    snapshot: Snapshot, offset: int, query: Callable[[Outcome, int], tuple[R, list[Span]]]
) -> tuple[R, list[Span]] | None:
    """``query`` over the snapshot at ``offset`` of the current text: its result and the spans it
    gives, carried into the current text; None when the snapshot cannot say (the offset or a span
    is in the edited region)."""
    old = snapshot.old_offset(offset)
    if old is None:
        return None
    result, spans = query(snapshot.outcome, old)
    moved = snapshot.current_spans(spans)
    return (result, moved) if moved is not None else None
