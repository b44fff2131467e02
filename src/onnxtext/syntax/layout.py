"""A small document algebra and its renderer (after Wadler's "A prettier printer" and prettier).

The printer builds a :data:`Doc` for a tree; :func:`render` lays it out for a width. A
``Doc`` is a string (text without line breaks), a list (concatenation), or one of:

- :class:`Group`: its contents on one line when they fit in the rest of the line, else
  every :data:`LINE`/:data:`SOFTLINE` directly in it breaks (one item per line);
- :class:`Indent`: lines broken inside start one indentation unit further in;
- :data:`LINE` (a space, or a line break), :data:`SOFTLINE` (nothing, or a line break),
  :data:`HARDLINE` (always a line break; every group around it breaks);
- :class:`Fill`: ``[item, separator, item, ...]`` packed as many per line as fit
  (tensor literals);
- :class:`LineSuffix`: text held back to the end of the line (a trailing comment); it is
  written before the next line break, or before the next token that is not a closing
  bracket or comma, after which the line breaks (the comment never swallows a token);
- :class:`OwnLine`: a comment on a line of its own: a line break before it unless the line
  is empty, and one after it before anything else is written. Groups around it break;
- :class:`IfBroken`: one document if a group laid out before it broke, another if it did not
  (``) => (`` after a broken input list).

Comments never count toward the width. Trailing spaces are never written.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Union

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "Doc",
    "Group",
    "Indent",
    "Line",
    "Fill",
    "Packed",
    "Numbers",
    "lay_out_numbers",
    "LineSuffix",
    "OwnLine",
    "IfBroken",
    "LINE",
    "SOFTLINE",
    "HARDLINE",
    "BREAK_PARENT",
    "BreakParent",
    "BlankLine",
    "BLANK_LINE",
    "join",
    "render",
    "DEFAULT_WIDTH",
    "INDENT",
]

DEFAULT_WIDTH = 100
INDENT = "   "


class Line:
    """A possible line break: ``flat`` is what it prints when its group fits on one line."""

    __slots__ = ("flat", "hard")

    def __init__(self, flat: str, hard: bool = False) -> None:
        self.flat = flat
        self.hard = hard


class BreakParent:
    """Breaks every group around it (and prints nothing)."""

    __slots__ = ()


class Group:
    """Contents on one line if they fit, else broken; ``hard`` when something inside must break.

    A ``tight`` group breaks only when its own contents do not fit the rest of the line (what
    follows it is not measured): a type's dims stay together even before a long literal.
    """

    __slots__ = ("contents", "hard", "tight")

    def __init__(self, contents: Doc, tight: bool = False) -> None:
        self.contents = contents
        self.hard = _has_hard(contents)
        self.tight = tight


class IfBroken:
    """``broken`` where ``group`` (laid out earlier in the document) broke, else ``flat``."""

    __slots__ = ("group", "broken", "flat", "hard")

    def __init__(self, group: Group, broken: Doc, flat: Doc) -> None:
        self.group = group
        self.broken = broken
        self.flat = flat
        self.hard = _has_hard(broken) or _has_hard(flat)


class Indent:
    __slots__ = ("contents", "hard")

    def __init__(self, contents: Doc) -> None:
        self.contents = contents
        self.hard = _has_hard(contents)


class Fill:
    """``[item, separator, item, ...]``: each separator breaks only when the next item does not fit."""

    __slots__ = ("parts", "hard")

    def __init__(self, parts: Sequence[Doc]) -> None:
        self.parts = list(parts)
        self.hard = any(not isinstance(p, str) and _has_hard(p) for p in self.parts)


class Packed:
    """Plain texts joined by ``", "``, packed as many per line as fit: what :class:`Fill` does
    with ``[item, [",", LINE], item, ...]`` of strings, laid out in one loop (a tensor of a
    million numbers would cost a million fill steps otherwise)."""

    __slots__ = ("items", "flat_width")
    hard = False

    def __init__(self, items: Sequence[str]) -> None:
        self.items = list(items)
        self.flat_width = sum(map(len, self.items)) + 2 * max(len(self.items) - 1, 0)

    def as_fill(self) -> Fill:
        parts: list[Doc] = []
        for i, item in enumerate(self.items):
            if i:
                parts.append([",", LINE])
            parts.append(item)
        return Fill(parts)


class Numbers:
    """The numbers of a tensor literal as one text, ``"1.0, -2.5, 3e-07"`` (joined by ``", "``, no
    other spaces): laid out as ``join([",", LINE], [Packed(row) for each row])`` would be (every
    ``row`` numbers start a line: a matrix's rows; ``row`` 0: one run), computed with numpy on
    the whole text: a million numbers are not a million Python strings.
    """

    __slots__ = ("text", "row", "flat_width")
    hard = False

    def __init__(self, text: str, row: int = 0) -> None:
        self.text = text
        self.row = row
        self.flat_width = len(text)

    def as_doc(self) -> Doc:
        items = self.text.split(", ")
        if not self.row:
            return Packed(items)
        rows = [Packed(items[i : i + self.row]) for i in range(0, len(items), self.row)]
        return join([",", LINE], rows)

    def lay_out(self, col: int, ind: int, width: int) -> tuple[str, int]:
        """The text broken for ``width`` columns, starting at column ``col``, continuation lines
        ``ind`` columns in; and the column where it ends."""
        import numpy as np

        out = bytearray(self.text, "ascii")  # the line breaks are written over the spaces before the numbers
        commas = np.flatnonzero(np.frombuffer(out, dtype=np.uint8) == 44)
        starts = _line_starts(commas, len(out), self.row, col, ind, width)
        if not len(starts):
            return self.text, col + len(out)
        at = commas[starts - 1] + 1  # the space before each line's first number
        np.frombuffer(out, dtype=np.uint8)[at] = 10
        if ind:
            out = out.replace(b"\n", b"\n" + b" " * ind)
        return out.decode("ascii"), ind + len(self.text) - int(at[-1]) - 1


def lay_out_numbers(
    data: bytes | memoryview, row: int, col: int, ind: int, width: int, commas: npt.NDArray[np.intp] | None = None
) -> tuple[str, int]:
    """``Numbers(text, row).lay_out(col, ind, width)`` of the numbers ``data`` joined by ``,``
    alone (ASCII, as orjson writes them): the print fast path's, without the text it would not use.
    ``commas``: where the commas are, when the caller knows."""
    import numpy as np

    out = bytearray(data)
    if commas is None:
        commas = np.flatnonzero(np.frombuffer(out, dtype=np.uint8) == 44)
    starts = _line_starts(commas, len(out) + len(commas), row, col, ind, width, compact=True)
    if not len(starts):
        return out.replace(b",", b", ").decode("ascii"), col + len(out) + len(commas)
    np.frombuffer(out, dtype=np.uint8)[commas[starts - 1]] = 59  # ``;``: the commas a line break follows
    out = out.replace(b",", b", ").replace(b";", b",\n" + b" " * ind)
    return out.decode("ascii"), len(out) - out.rfind(b"\n") - 1


def _line_starts(
    commas: npt.NDArray[np.intp], size: int, row: int, col: int, ind: int, width: int, compact: bool = False
) -> npt.NDArray[np.intp]:
    """Which numbers start a line (all but the first line's) of numbers joined by ``", "`` (``size``
    characters, the commas at ``commas``; ``compact``: their places in the text without the spaces,
    comma k then being at ``commas[k] + k`` in the text) laid out as :class:`Numbers` says."""
    import numpy as np

    count = len(commas) + 1
    index = np.arange(count, dtype=np.int64)
    if compact:
        commas = commas + index[:-1]
    # How far a line reaches with number k on it: its end, and its comma unless it ends its run
    # (the comma after a run's last number is written, but not counted, when the line breaks after it).
    # Then what a line starting with number s (``ind`` columns in) may reach: number s's start
    # (its comma's place + 2) + the room. The two lists, each sorted, are merged by one stable
    # sort (timsort merges the two runs in linear time: a search per line start costs 3× more).
    both = np.empty(2 * count, dtype=np.int64)
    reach, limit = both[:count], both[count:]
    np.add(commas, 1, out=reach[:-1])
    reach[-1] = size
    if row:
        reach[row - 1 : -1 : row] -= 1
        # Every run on a line of its own (a matrix of short rows: a kernel's taps): each starts one.
        ends = reach[row - 1 :: row]
        if ends[0] <= width - col and bool(np.all(ends[1:] - commas[row - 1 :: row] - 2 <= width - ind)):
            return np.arange(row, count, row, dtype=np.int64)
    limit[0] = width - ind
    np.add(commas, 2 + width - ind, out=limit[1:])
    # A line starting with number s holds the numbers k of its run with reach[k] <= limit[s]: the
    # first of the next line, ``following[s]``, is how many reaches sort before limit[s] (ties
    # included: a stable sort keeps the reaches first).
    following = np.flatnonzero(np.argsort(both, kind="stable") >= count)
    following -= index
    following -= 1
    np.maximum(following, index, out=following)  # a number wider than the line has it alone
    following += 1
    if row:
        np.minimum(following, (index // row + 1) * row, out=following)  # a run's end starts a line
    first = int(np.searchsorted(reach, width - col, side="right"))  # the first line starts at ``col``
    s = min(max(first, 1), row or count)
    step = following.data  # Python ints, item by item, for the one sequential walk
    starts = []
    while s < count:
        starts.append(s)
        s = step[s]
    return np.array(starts, dtype=np.int64)


class LineSuffix:
    """Text written at the end of the current line (a trailing comment, with its leading spaces)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class BlankLine:
    """An empty line here (after a line break if the line has text); never two in a row."""

    __slots__ = ()


class OwnLine:
    """A comment on a line of its own (``text`` has no line break)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


Doc = (
    str
    | list["Doc"]
    | Group
    | Indent
    | Line
    | Fill
    | Packed
    | Numbers
    | LineSuffix
    | OwnLine
    | BreakParent
    | BlankLine
    | IfBroken
)

LINE = Line(" ")
SOFTLINE = Line("")
HARDLINE = Line("", hard=True)
BREAK_PARENT = BreakParent()
BLANK_LINE = BlankLine()


def _has_hard(doc: Doc) -> bool:
    """Whether ``doc`` forces a line break (groups and indents cache the answer)."""
    stack: list[Doc] = [doc]
    while stack:
        d = stack.pop()
        if isinstance(d, str):
            continue
        if isinstance(d, list):
            stack.extend(d)
        elif isinstance(d, (Group, Indent, Fill, IfBroken)):
            if d.hard:
                return True
        elif isinstance(d, Line):
            if d.hard:
                return True
        elif isinstance(d, (OwnLine, BreakParent, BlankLine)):
            return True
    return False


def join(separator: Doc, items: Sequence[Doc]) -> list[Doc]:
    out: list[Doc] = []
    for i, item in enumerate(items):
        if i:
            out.append(separator)
        out.append(item)
    return out


_BREAK, _FLAT = True, False
_Cmd = Union[Doc, "_FillRest"]
# Text that may follow a held-back comment on its line: what closes or separates.
_CLOSERS = frozenset(",)]>")


def _fits(doc: Doc, rest: list[tuple[int, bool, _Cmd]], width: int, suffix_pending: bool) -> bool:
    """Whether ``doc`` in flat mode, then ``rest`` up to its next line break, fits in ``width``."""
    stack: list[tuple[bool, _Cmd]] = [(_FLAT, doc)]
    r = len(rest)
    while width >= 0:
        if not stack:
            if r == 0:
                return True
            r -= 1
            _, mode, d = rest[r]
            stack.append((mode, d))
            continue
        mode, d = stack.pop()
        if isinstance(d, str):
            if suffix_pending and d.lstrip()[:1] not in _CLOSERS and d.strip():
                return True
            width -= len(d)
        elif isinstance(d, list):
            for item in reversed(d):
                stack.append((mode, item))
        elif isinstance(d, Group):
            stack.append((_BREAK if d.hard and mode == _BREAK else mode, d.contents))
        elif isinstance(d, Indent):
            stack.append((mode, d.contents))
        elif isinstance(d, Line):
            if mode == _BREAK or d.hard:
                return True
            width -= len(d.flat)
        elif isinstance(d, Fill):
            for item in reversed(d.parts):
                stack.append((mode, item))
        elif isinstance(d, Packed):
            if suffix_pending:
                stack.append((mode, d.as_fill()))
            else:
                width -= d.flat_width
        elif isinstance(d, Numbers):
            if suffix_pending:
                stack.append((mode, d.as_doc()))
            else:
                width -= d.flat_width
        elif isinstance(d, LineSuffix):
            suffix_pending = True
        elif isinstance(d, (OwnLine, BlankLine)):
            return True
        elif isinstance(d, _FillRest):
            stack.append((mode, d.parts[d.index :]))
        elif isinstance(d, IfBroken):
            stack.append((mode, d.broken if d.group.hard else d.flat))
    return False


def render(doc: Doc, width: int = DEFAULT_WIDTH, indent: str = INDENT) -> str:
    """Lay ``doc`` out in ``width`` columns (text ends where the document does; no final newline added)."""
    out: list[str] = []
    col = 0
    line_start = True  # nothing but indentation written on the current line
    pending: list[str] = []  # held-back trailing comments
    fresh = False  # the current (empty) line was started by a comment: the next line break reuses it
    unit = len(indent)
    prev_empty = True  # the line before the current one is empty (or there is none)
    stack: list[tuple[int, bool, _Cmd]] = [(0, _BREAK, doc)]
    broke: set[int] = set()  # the groups laid out broken (for IfBroken)

    def newline(ind: int) -> None:
        nonlocal col, line_start, fresh, prev_empty
        prev_empty = line_start and not pending
        if pending:
            out.append("".join(pending))
            pending.clear()
        # No trailing spaces: an empty line loses its indentation, a text its final spaces.
        while out and out[-1].endswith(" "):
            last = out.pop().rstrip(" ")
            if last:
                out.append(last)
                break
        out.append("\n" + " " * ind)
        col = ind
        line_start = True
        fresh = False

    while stack:
        ind, mode, d = stack.pop()
        if isinstance(d, str):
            if not d:
                continue
            fresh = False
            if pending and d.strip() and d.lstrip()[0] not in _CLOSERS:
                # A held-back comment must not end up after this token: write it, then break.
                newline(ind + unit)
            if line_start:
                d = d.lstrip(" ")
                if not d:
                    continue
            out.append(d)
            col += len(d)
            line_start = False
        elif isinstance(d, list):
            for item in reversed(d):
                stack.append((ind, mode, item))
        elif isinstance(d, Group):
            if mode == _FLAT and not d.hard:
                stack.append((ind, _FLAT, d.contents))
            else:
                flat = not d.hard and _fits(d.contents, [] if d.tight else stack, width - col, bool(pending))
                stack.append((ind, _FLAT if flat else _BREAK, d.contents))
                if not flat:
                    broke.add(id(d))
        elif isinstance(d, Indent):
            stack.append((ind + unit, mode, d.contents))
        elif isinstance(d, Line):
            if mode == _FLAT and not d.hard:
                if d.flat and not line_start:
                    out.append(d.flat)
                    col += len(d.flat)
            elif fresh:
                # The line a comment started: take this break's indentation instead of adding a line.
                out[-1] = "\n" + " " * ind
                col = ind
                fresh = False
            else:
                newline(ind)
        elif isinstance(d, Fill):
            if mode == _FLAT and not d.hard:
                stack.append((ind, _FLAT, d.parts))
            elif d.parts:
                stack.append((ind, _BREAK, _FillRest(d.parts, 1)))
                first = d.parts[0]
                stack.append((ind, _FLAT if _fits(first, [], width - col, bool(pending)) else _BREAK, first))
        elif isinstance(d, Packed):
            if pending or not d.items:
                stack.append((ind, mode, d.as_fill()))
                continue
            if mode == _FLAT:
                text = ", ".join(d.items)
                out.append(text)
                col += len(text)
                line_start = False
                continue
            # as Fill: an item stays on the line if it, its separator and a following comma fit
            items, last = d.items, len(d.items) - 1
            first = items[0].lstrip(" ") if line_start else items[0]
            out.append(first)
            col += len(first)
            line_start = False
            for k in range(1, last + 1):
                item = items[k]
                if col + 2 + len(item) + (1 if k < last else 0) <= width:
                    out.append(", ")
                    out.append(item)
                    col += 2 + len(item)
                else:
                    out.append(",\n" + " " * ind)
                    out.append(item)
                    col = ind + len(item)
            prev_empty = False
        elif isinstance(d, Numbers):
            if pending or not d.text or len(d.text) < 2048:
                stack.append((ind, mode, d.as_doc()))
                continue
            if mode == _FLAT:
                out.append(d.text)
                col += len(d.text)
            else:
                laid, col = d.lay_out(col, ind, width)
                out.append(laid)
            line_start = False
            prev_empty = False
        elif isinstance(d, _FillRest):
            parts, i = d.parts, d.index
            if i + 1 < len(parts):
                sep, item = parts[i], parts[i + 1]
                follow = 1 if i + 2 < len(parts) else 0
                stack.append((ind, _BREAK, _FillRest(parts, i + 2)))
                if isinstance(item, str) and isinstance(sep, list):
                    # Fast path (numbers of a tensor literal): ``[",", LINE]`` then a text.
                    flat_width = sum(
                        len(s) if isinstance(s, str) else len(s.flat) if isinstance(s, Line) else 0 for s in sep
                    )
                    fits = not pending and col + flat_width + len(item) + follow <= width
                    stack.append((ind, _FLAT, item))
                else:
                    fits = not pending and _fits([sep, item, "," * follow], [], width - col, False)
                    item_flat = fits or _fits(item, [], width - ind, False)
                    stack.append((ind, _FLAT if item_flat else _BREAK, item))
                stack.append((ind, _FLAT if fits else _BREAK, sep))
        elif isinstance(d, LineSuffix):
            pending.append(d.text)
        elif isinstance(d, IfBroken):
            stack.append((ind, mode, d.broken if id(d.group) in broke else d.flat))
        elif isinstance(d, BlankLine):
            fresh = False
            if not line_start or pending:
                newline(ind)
            if not prev_empty:
                newline(ind)
        elif isinstance(d, OwnLine):
            if not line_start or pending:
                newline(ind)
            out.append(d.text)
            line_start = False
            # Break at once: what follows starts on a line of its own at this indentation.
            newline(ind)
            fresh = True
    if pending:
        out.append("".join(pending))
    elif fresh:
        out.pop()  # the line break after a final comment: the caller ends the text
    return "".join(out)


class _FillRest:
    """The rest of a fill from part ``index`` (a separator), laid out when the renderer reaches it."""

    __slots__ = ("parts", "index")

    def __init__(self, parts: list[Doc], index: int) -> None:
        self.parts = parts
        self.index = index
