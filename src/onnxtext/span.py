"""Source positions: spans are character offsets; lines and columns are computed on demand."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

__all__ = ["Position", "Span", "Range", "SourceFile", "NO_SPAN"]


@dataclass(slots=True)
class Span:
    """A half-open range ``[start, end)`` of character offsets into one source text.

    Not frozen on purpose: the parser makes one per token and frozen dataclasses are
    several times slower to construct. Spans are values to every reader; the one writer is
    :class:`onnxtext.incremental.spans.Mover`, which shifts the spans after an edit in a document
    the editor's host owns and hands over to the next version (``host/lease.py``): a snapshot of
    the version it came from is refused from then on (``SnapshotGone``), never read half-moved.
    """

    start: int
    end: int

    def cover(self, other: Span) -> Span:
        """The smallest span containing both spans."""
        return Span(min(self.start, other.start), max(self.end, other.end))

    def __len__(self) -> int:
        return self.end - self.start


NO_SPAN = Span(0, 0)

_WIDE = re.compile("[\U00010000-\U0010ffff]")
"""A character outside the Basic Multilingual Plane: two code units in UTF-16, as LSP columns count."""


@dataclass(frozen=True, slots=True)
class Position:
    """A human position: ``line`` and ``column`` are 1-based, columns count characters."""

    line: int
    column: int
    offset: int


@dataclass(frozen=True, slots=True)
class Range:
    """A span resolved to human positions (what diagnostics carry)."""

    start: Position
    end: Position

    @property
    def offsets(self) -> Span:
        return Span(self.start.offset, self.end.offset)


@dataclass(slots=True)
class SourceFile:
    """A source text with its path, able to turn offsets into positions."""

    text: str
    path: str = "<text>"
    _line_starts: list[int] = field(default_factory=list, init=False, repr=False)
    _wide: list[int] | None = field(default=None, init=False, repr=False)

    def _wides(self) -> list[int]:
        """The offsets of the characters outside the BMP, two UTF-16 code units each, found once:
        the LSP columns of a line follow from its character columns without reading the line
        (a 10 MB line cost a 20 MB encode for every position asked)."""
        if self._wide is None:  # an ASCII text (most) has none: said at once, without the scan
            self._wide = [] if self.text.isascii() else [m.start() for m in _WIDE.finditer(self.text)]
        return self._wide

    def line_starts(self) -> list[int]:
        """The offset where each line starts (0 first), computed once; not to be changed by the caller."""
        return self._starts()

    def _starts(self) -> list[int]:
        if not self._line_starts:
            starts = [0]
            find = self.text.find
            i = find("\n")
            while i >= 0:
                starts.append(i + 1)
                i = find("\n", i + 1)
            self._line_starts = starts
        return self._line_starts

    def edited(self, text: str, start: int, old_end: int, new_end: int) -> SourceFile:
        """The source of ``text``, this one's text with ``[start, old_end)`` replaced by
        ``text[start:new_end]``: its line table carried over (the lines after the edit moved), not re-scanned."""
        out = SourceFile(text, self.path)
        old = self._line_starts
        if old:
            delta = new_end - old_end
            head = bisect.bisect_right(old, start)
            tail = bisect.bisect_right(old, old_end)
            found = []
            i = text.find("\n", start, new_end)
            while i >= 0:
                found.append(i + 1)
                i = text.find("\n", i + 1, new_end)
            out._line_starts = old[:head] + found + [s + delta for s in old[tail:]]
        return out

    def position(self, offset: int) -> Position:
        """1-based line and column of a character offset."""
        offset = max(0, min(offset, len(self.text)))
        starts = self._starts()
        line = bisect.bisect_right(starts, offset) - 1
        return Position(line + 1, offset - starts[line] + 1, offset)

    def range(self, span: Span) -> Range:
        return Range(self.position(span.start), self.position(span.end))

    def start(self, span: Span) -> Position:
        return self.position(span.start)

    def end(self, span: Span) -> Position:
        return self.position(span.end)

    def line_text(self, line: int) -> str:
        """The text of a 1-based line, without its newline."""
        starts = self._starts()
        if not 1 <= line <= len(starts):
            return ""
        begin = starts[line - 1]
        stop = starts[line] - 1 if line < len(starts) else len(self.text)
        return self.text[begin:stop].rstrip("\r")

    def lsp_position(self, offset: int) -> tuple[int, int]:
        """0-based line and UTF-16 code-unit column, as the Language Server Protocol counts."""
        pos = self.position(offset)
        return pos.line - 1, self.units(self._starts()[pos.line - 1], pos.offset)

    def units(self, start: int, end: int) -> int:
        """How many UTF-16 code units ``text[start:end]`` takes (LSP columns and lengths), read from
        the characters outside the BMP it holds, not from the text."""
        wide = self._wides()
        return end - start + bisect.bisect_left(wide, end) - bisect.bisect_left(wide, start)

    def lsp_range_json(self, span: Span) -> dict[str, dict[str, int]]:
        """A span as the Language Server Protocol's range in JSON, ``{"start": {"line", "character"},
        "end": ...}`` (0-based lines, UTF-16 columns): what the custom requests answer."""
        (sl, sc), (el, ec) = self.lsp_position(span.start), self.lsp_position(span.end)
        return {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}

    def offset_of_lsp(self, line: int, character: int) -> int:
        """Character offset of a 0-based LSP (line, UTF-16 column) position."""
        starts = self._starts()
        if line >= len(starts):
            return len(self.text)
        begin = starts[line]
        stop = starts[line + 1] - 1 if line + 1 < len(starts) else len(self.text)
        # the first offset of the line at or past ``character`` units: each wide character before it
        # takes one unit more than its offset counts; a column inside one lands after it
        wide = self._wides()
        floor, before = begin, 0
        for w in wide[bisect.bisect_left(wide, begin) : bisect.bisect_left(wide, stop)]:
            if character <= w - begin + before:
                break
            floor, before = w + 1, before + 1
        return min(stop, max(floor, begin + character - before))
