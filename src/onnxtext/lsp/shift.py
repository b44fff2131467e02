"""Offsets of an older version of a text carried into the current one, through the edit between them.

While the analysis of a new version runs, requests are answered from the last analysis
(inlay hints that vanished for a second on every keystroke made every hinted line jump):
what lies before the edit keeps its offset, what lies after it moves by the edit's length,
what the edit replaced has no place in the new text.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from onnxtext.diagnostics import Diagnostic, Edit, Fix
from onnxtext.span import SourceFile, Span

__all__ = ["Shift", "shift_between", "moved_fixes"]


@dataclass(frozen=True)
class Shift:
    """The one region that differs: ``old[start:old_end]`` became ``new[start:new_end]``."""

    start: int
    old_end: int
    new_end: int

    def offset(self, old: int) -> int | None:
        """Where ``old`` (an offset of the old text) is in the new one; None inside the replaced region
        (its end, and a point right at an insertion, stay put: a hint after a name keeps to the name)."""
        if old <= self.start:
            return old
        if old >= self.old_end:
            return old + self.new_end - self.old_end
        return None

    def span(self, old: Span) -> Span | None:
        """``old`` in the new text; None when the edit touched it. A span that starts right where text
        was inserted moves with what follows the insertion (the span's own text), one that ends there stays."""
        start, end = self.offset(old.start), self.offset(old.end)
        if old.end > old.start >= self.old_end:
            start = old.start + self.new_end - self.old_end
        if start is None or end is None or (old.start < self.old_end and old.end > self.start):
            return None
        return Span(start, end)


def moved_fixes(diagnostics: Iterable[Diagnostic], shift: Shift, source: SourceFile) -> Iterator[Diagnostic]:
    """The diagnostics with a fix of the last analysis, located in the current text (``source``):
    quick fixes stay offered while the new analysis runs; one the edit touched is left out."""
    for diag in diagnostics:
        if diag.fix is None or not diag.fix.edits or diag.span is None:
            continue
        span = shift.span(diag.span.offsets)
        edits = [Edit(moved, e.new_text) for e in diag.fix.edits if (moved := shift.span(e.span)) is not None]
        if span is None or len(edits) != len(diag.fix.edits):
            continue
        yield Diagnostic.at(
            diag.code, diag.severity, diag.message, span, source, fix=Fix(diag.fix.message, tuple(edits))
        )


def shift_between(old: str, new: str) -> Shift:
    """The smallest region outside of which ``old`` and ``new`` are equal (common prefix and suffix)."""
    prefix = _common(old, new, min(len(old), len(new)), from_end=False)
    suffix = _common(old, new, min(len(old), len(new)) - prefix, from_end=True)
    return Shift(prefix, len(old) - suffix, len(new) - suffix)


def _common(a: Sequence[object], b: Sequence[object], limit: int, *, from_end: bool) -> int:
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
