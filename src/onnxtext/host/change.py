"""One edit of a text, made once from the client's own change and handed to everything that follows it.

A :class:`Change` says that ``old[start:old_end]`` became ``new_text``, which stands at
``new[start:new_end]``. The language server makes it once per notification from the client's
content changes (several ranges compose into the one covering change; a whole-text change becomes
one by common prefix and suffix, :meth:`Change.between`, there and only there). The host hands it
to re-reading (``incremental.reparse``), to the snapshots whose answers it carries into the current
text (:meth:`Change.offset`, :meth:`Change.span`), and to the quick fixes of the last analysis
(:func:`moved_fixes`). Nothing derives it again from the two texts.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from onnxtext.diagnostics import Diagnostic, Edit, Fix
from onnxtext.span import SourceFile, Span

__all__ = ["Change", "common", "moved_fixes"]


@dataclass(frozen=True, slots=True)
class Change:
    """``old[start:old_end]`` replaced by ``new_text``, which ends at ``new_end`` in the new text."""

    start: int
    old_end: int
    new_end: int
    new_text: str = ""

    def __post_init__(self) -> None:
        if not 0 <= self.start <= self.old_end or self.new_end - self.start != len(self.new_text):
            raise ValueError(f"not an edit: {self!r}")

    @classmethod
    def replacing(cls, start: int, old_end: int, new_text: str) -> Change:
        """``[start, old_end)`` of the old text replaced by ``new_text``."""
        return cls(start, old_end, start + len(new_text), new_text)

    @classmethod
    def between(cls, old: str, new: str) -> Change:
        """The smallest change that turns ``old`` into ``new`` (common prefix and suffix): for a client
        that sends the whole text; the server's only comparison of two whole texts."""
        limit = min(len(old), len(new))
        prefix = common(old, new, limit, from_end=False)
        suffix = common(old, new, limit - prefix, from_end=True)
        return cls(prefix, len(old) - suffix, len(new) - suffix, new[prefix : len(new) - suffix])

    @staticmethod
    def compose(changes: Sequence[Change], text: str) -> Change | None:
        """The one change covering ``changes`` made one after the other (each on the text the one before
        made), ``text`` the text after the last; None for none."""
        if not changes:
            return None
        first = changes[0]
        start, old_end, new_end = first.start, first.old_end, first.new_end
        for later in changes[1:]:
            # the covering region in the text between them, then carried back to the old text and on to the new
            lo, hi = min(start, later.start), max(new_end, later.old_end)
            start, old_end, new_end = lo, hi - (new_end - old_end), hi + (later.new_end - later.old_end)
        return Change(start, old_end, new_end, text[start:new_end])

    def apply(self, old: str) -> str:
        """The new text (``old`` the text this change was made on)."""
        return old[: self.start] + self.new_text + old[self.old_end :]

    @property
    def delta(self) -> int:
        return self.new_end - self.old_end

    def offset(self, old: int) -> int | None:
        """Where ``old`` (an offset of the old text) is in the new one; None inside the replaced region
        (its end, and a point right at an insertion, stay put: a hint after a name keeps to the name)."""
        if old <= self.start:
            return old
        if old >= self.old_end:
            return old + self.new_end - self.old_end
        return None

    def old_offset(self, new: int) -> int | None:
        """Where ``new`` (an offset of the new text) was in the old one; None inside the change or at
        either end of it (a query there may see the word before or after it: the new text's)."""
        if self.start <= new <= self.new_end:
            return None
        return new if new < self.start else new - self.new_end + self.old_end

    def span(self, old: Span) -> Span | None:
        """``old`` in the new text; None when the change touched it. A span that starts right where text
        was inserted moves with what follows the insertion (the span's own text), one that ends there stays."""
        start, end = self.offset(old.start), self.offset(old.end)
        if old.end > old.start >= self.old_end:
            start = old.start + self.new_end - self.old_end
        if start is None or end is None or (old.start < self.old_end and old.end > self.start):
            return None
        return Span(start, end)


def moved_fixes(diagnostics: Iterable[Diagnostic], change: Change, source: SourceFile) -> Iterator[Diagnostic]:
    """The diagnostics with a fix of one analysis, located in the text ``change`` made of its own
    (``source``): a fix and its diagnostic move together or not at all (one the change touched is
    left out), so a fix never points elsewhere than its diagnostic's snapshot says."""
    for diag in diagnostics:
        if diag.fix is None or not diag.fix.edits or diag.span is None:
            continue
        span = change.span(diag.span.offsets)
        edits = [Edit(moved, e.new_text) for e in diag.fix.edits if (moved := change.span(e.span)) is not None]
        if span is None or len(edits) != len(diag.fix.edits):
            continue
        yield Diagnostic.at(
            diag.code, diag.severity, diag.message, span, source, fix=Fix(diag.fix.message, tuple(edits))
        )


def common(a: Sequence[object], b: Sequence[object], limit: int, *, from_end: bool) -> int:
    """The length (at most ``limit``) of the longest common prefix, or suffix, by halving: slices
    compared in C, a few dozen of them for a text of megabytes (or a list of semantic tokens)."""
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if from_end:
            same = a[len(a) - mid : len(a) - lo] == b[len(b) - mid : len(b) - lo]
        else:
            same = a[lo:mid] == b[lo:mid]
        if same:
            lo = mid
        else:
            hi = mid - 1
    return lo
