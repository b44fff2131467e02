"""What a request reads: one immutable view of a document, and how fresh each feature wants it.

On a big document a re-analysis takes a second; a hover or a go-to-definition right after a
keystroke must not wait for it (nor parse the new text itself). A :class:`Snapshot` is the
current text (``source``, ``version``) with an analysis (``outcome``): the current version's, or
the last one, its positions carried through the :class:`~onnxtext.host.change.Change` between
its text and the current one. A position inside the change, or an answer the change touched,
has no place in an older snapshot: :meth:`Snapshot.answer` raises :class:`Unanswerable` and the
server asks a fresher one (the feature table says which, :class:`Freshness`).

A snapshot never changes, and never shows a half-updated document: an analysed document is
consumed when the next version is made from it in place (``incremental.reparse``); a snapshot of
it read after that raises :class:`SnapshotGone` (its lease says so), never an answer of a
mutated tree.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from onnxtext.diagnostics import Diagnostic
from onnxtext.document import Document
from onnxtext.host.analyse import Outcome
from onnxtext.host.change import Change, moved_fixes
from onnxtext.host.lease import Lease
from onnxtext.span import SourceFile, Span

__all__ = ["Freshness", "Snapshot", "SnapshotGone", "Unanswerable"]

R = TypeVar("R")


class Freshness(enum.Enum):
    """How fresh an analysis a feature answers from (declared per feature in ``lsp/requests.FEATURES``)."""

    LAST = "last"
    """The last analysis (or parse), at once, its positions carried through the change since;
    where it has no say (:class:`Unanswerable`), the current version's parse."""
    SETTLED = "settled"
    """As ``LAST``, once the running check of a document made from the last one in place is done
    (types: the worker infers them from the last version's); where it has no say, ``CURRENT``."""
    PARSED = "parsed"
    """The current version's document, parsed by the worker (its check may still run)."""
    TOKENS = "tokens"
    """``PARSED`` once token rows of an earlier version are kept; before, ``CURRENT`` (a first whole
    encoding beside the first check would slow it)."""
    CURRENT = "current"
    """The current version's complete analysis, awaited."""

    @property
    def fallback(self) -> Freshness:
        """What answers where this one has no say."""
        return {Freshness.LAST: Freshness.PARSED, Freshness.SETTLED: Freshness.CURRENT}.get(self, self)


class Unanswerable(Exception):
    """The snapshot has no say there: the change since its analysis touched the position or the answer
    (or it has no analysis yet)."""


class SnapshotGone(Exception):
    """The snapshot's document was handed over to a newer version (made from it in place)."""


@dataclass(frozen=True)
class Snapshot:
    """The current text of one document and one analysis of it, or of an earlier version."""

    version: int | None
    """The client's version of the current text."""
    source: SourceFile
    """The current text."""
    found: Outcome | None
    """The analysis (None: none yet); read it through :attr:`outcome`."""
    lease: Lease | None
    """The lease of the analysis's document (consumed: handed over to a newer version)."""
    change: Change | None = None
    """The edit from the analysis's text to the current one; None when the analysis is the current version's."""
    checked: bool = False
    """The analysis is complete (the checker ran), not a parse alone."""

    @property
    def outcome(self) -> Outcome:
        """The analysis; raises :class:`SnapshotGone` if its document was handed over since (an answer
        from it would read a tree another version owns), :class:`Unanswerable` if there is none."""
        if self.found is None:
            raise Unanswerable
        if self.lease is not None and self.lease.consumed:
            raise SnapshotGone
        return self.found

    @property
    def document(self) -> Document:
        return self.outcome.document

    @property
    def current(self) -> bool:
        """The analysis is of the current version."""
        return self.change is None and self.found is not None

    def old_offset(self, offset: int) -> int:
        """Where an offset of the current text is in the analysed one (:class:`Unanswerable` inside the change)."""
        if self.change is None:
            return offset
        old = self.change.old_offset(offset)
        if old is None:
            raise Unanswerable
        return old

    def current_span(self, span: Span) -> Span | None:
        """An answer's span of the analysed text in the current one; None when the change touched it."""
        return span if self.change is None else self.change.span(span)

    def current_spans(self, spans: Iterable[Span]) -> list[Span]:
        """Every span carried into the current text (:class:`Unanswerable` if the change touched one of
        them: a partial answer would be a wrong one)."""
        out = []
        for span in spans:
            moved = self.current_span(span)
            if moved is None:
                raise Unanswerable
            out.append(moved)
        return out

    def answer(self, offset: int, query: Callable[[Outcome, int], tuple[R, list[Span]]]) -> tuple[R, list[Span]]:
        """``query`` over the analysis at ``offset`` of the current text: its result and the spans it gives,
        in the current text."""
        result, spans = query(self.outcome, self.old_offset(offset))
        return result, self.current_spans(spans)

    def fixes(self) -> list[Diagnostic]:
        """The analysis's diagnostics with their fixes, both located in the current text together
        (a fix the change touched is left out with its diagnostic)."""
        outcome = self.outcome
        if self.change is None:
            return outcome.diagnostics
        return list(moved_fixes(outcome.diagnostics, self.change, self.source))
