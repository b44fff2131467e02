"""A small document algebra and its renderer (after Wadler's "A prettier printer" and prettier).

The printer builds a :data:`Doc` for a tree; :func:`render` lays it out for a width. A
``Doc`` is a string (text without line breaks), a list (concatenation), or one of:

- :class:`Group`: its contents on one line when they fit in the rest of the line, else
  every :data:`LINE`/:data:`SOFTLINE` directly in it breaks (one item per line);
- :class:`Bracketed`: the group of every list of the language, ``open item, item close``
  (one line, or one item per line one unit in); a list of plain texts is laid out in one step;
- :class:`Known`: a document with its one-line text known beforehand (the print fast path's);
- :class:`Deferred`: an item of a list whose one-line text is known and whose document is made
  only where that text does not fit its line (the print fast path's value infos and initializers).

A *run*, a document made of texts and lists whose one-line texts are known (a statement
written by the print fast path), is laid out in one pass, as the general renderer lays it out.
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

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Union

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "Doc",
    "Group",
    "Bracketed",
    "Known",
    "Deferred",
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
    "render_into",
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


class Known:
    """A document ``doc`` whose one-line text ``text`` is known beforehand (an attribute the print
    fast path has written). Laid out as ``doc``; in a list, written as ``text`` wherever that fits
    with what follows it up to the next place a line may break, which is what ``doc`` gives there
    when it can break only inside its groups (``fits``: it has no line break outside a group and
    none forced; checked here)."""

    __slots__ = ("text", "doc", "fits", "hard", "entry")

    def __init__(self, text: str, doc: Doc) -> None:
        self.text, self.doc = text, doc
        self.hard = _has_hard(doc)
        self.fits = not self.hard and _grouped(doc)
        self.entry = _entry(doc) if type(doc) is list else None
        """``doc`` as a list lays out an entry (see :func:`_entry`), when it is one."""

    def lay_out(self, out: list[str], ind: int, comma: str, width: int, unit: int) -> None:
        """The item where its text does not fit its line in a broken list: ``doc`` laid out alone."""
        _alone(self.doc, out, ind, comma, width, unit)


class Deferred:
    """An item of a list whose one-line text ``text`` is known (None: it has none, it breaks or is
    longer than any line) and whose document ``make()`` gives only when it is needed: where the
    text does not fit its line. Laid out as that document: in a list of them (see
    :meth:`Bracketed.of_items`), its text wherever that fits with its comma, else :meth:`lay_out`;
    anywhere else, its document. A subclass may write a big item's lines straight (the lines its
    document gives, without the document)."""

    __slots__ = ("text", "make")
    hard = False

    def __init__(self, text: str | None, make: Callable[[], Doc]) -> None:
        self.text, self.make = text, make

    def lay_out(self, out: list[str], ind: int, comma: str, width: int, unit: int) -> None:
        """The item in a broken list (its lines ``ind`` columns in, ``comma`` after it) where its text
        does not fit its line: its document laid out alone after a line break."""
        _alone(self.make(), out, ind, comma, width, unit)


def _alone(doc: Doc, out: list[str], ind: int, comma: str, width: int, unit: int) -> None:
    """An item of a broken list laid out alone after its line break, ``ind`` columns in (a multiple
    of ``unit``), its comma after it: what the list's own layout gives it (a line break follows)."""
    item: Doc = [HARDLINE, doc, comma]
    for _ in range(ind // unit):
        item = Indent(item)
    out.append(_render(item, width, " " * unit, 0))


def _grouped(doc: Doc) -> bool:
    """Whether ``doc`` holds nothing but texts and groups outside its groups."""
    stack = [doc]
    while stack:
        d = stack.pop()
        if type(d) is list:
            stack.extend(d)
        elif not isinstance(d, (str, Group)):
            return False
    return True


# An item of a list laid out in one pass: a plain text, an entry (texts, a list of plain texts, texts:
# ``key: [...]``), a document whose one-line text is known, or an item whose document is made when needed.
_Laid = str | tuple[str, "Bracketed", str] | Known | Deferred


class Bracketed(Group):
    """``open item, item close``: on one line when it fits (up to the next place a line may
    break after it), else ``open``, each item on a line of its own one unit in with its comma,
    ``close`` on a line of its own. The one shape of every list the printer writes.

    ``texts``: the items when they and ``open`` are plain texts (non-empty strings without a
    space at either end): the renderer lays such a list out in one step (as it would lay out
    the contents). ``flat``: the list's one-line text when every item is a plain text, an entry
    (texts around one list of plain texts: a property block's ``key: [...]``, an attribute
    ``axes = [0, 1]``) or :class:`Known`; else "". Such a list in a run is laid out in one pass
    (:func:`render`). ``later``: for a list of :meth:`of_items`, item k's document where its
    text does not fit its line (None: a text is written as it is).
    """

    __slots__ = ("open", "items", "close", "texts", "flat", "laid", "later", "_contents")

    def __init__(self, open_: Doc, items: Sequence[Doc], close: str) -> None:
        self.open, self.items, self.close = open_, items, close
        self.tight = self.hard = False
        self.later: Callable[[int], Doc] | None = None
        self._contents: Doc | None = None
        self.texts: Sequence[str] | None = None
        self.flat = ""
        self.laid: list[_Laid] = []
        if type(open_) is str and open_[:1] not in ("", " ") and items:
            laid = self.laid
            flats: list[str] = []
            for item in items:
                if type(item) is str and item[:1] not in ("", " ") and item[-1] != " ":
                    laid.append(item)
                    flats.append(item)
                    continue
                if type(item) is Known:
                    entry = item.entry
                    if entry is not None:
                        laid.append(entry)
                        flats.append(item.text)
                        continue
                    if item.fits and item.text[:1] not in ("", " ") and item.text[-1] != " ":
                        laid.append(item)
                        flats.append(item.text)
                        continue
                elif type(item) is list:
                    entry = _entry(item)
                    if entry is not None:
                        laid.append(entry)
                        flats.append(entry if isinstance(entry, str) else entry[0] + entry[1].flat + entry[2])
                        continue
                break
            else:
                if all(map(_plain, items)):
                    self.texts = items  # type: ignore[assignment]
                self.flat = self.flat_of(open_, flats, close)
                return
            self.laid = []
        self.hard = _has_hard([open_, *items])

    @property
    def contents(self) -> Doc:  # type: ignore[override]
        """The group's contents, made when the general renderer needs them."""
        if self._contents is None:
            items, later = self.items, self.later
            if later is not None:
                items = [Deferred(d, partial(later, k)) if type(d) is str else d for k, d in enumerate(items)]
            self._contents = [self.open, Indent([SOFTLINE, join([",", LINE], items)]), SOFTLINE, self.close]
        return self._contents

    @classmethod
    def of_texts(cls, open_: str, texts: list[str], close: str, later: Callable[[int], Doc] | None = None) -> Bracketed:
        """The list of ``texts``, which the caller knows to be plain (non-empty, no space at either
        end; ``open_`` too, and at least one text): made without looking at each. ``later``: as
        :meth:`of_items` takes it."""
        b = cls.__new__(cls)
        b.open, b.items, b.close, b.texts, b.laid = open_, texts, close, texts, texts  # type: ignore[assignment]
        b.tight = b.hard = False
        b.later, b._contents = later, None
        b.flat = open_ + ", ".join(texts) + close
        return b

    @classmethod
    def of_items(
        cls, open_: str, items: Sequence[str | Deferred], close: str, later: Callable[[int], Doc] | None = None
    ) -> Bracketed:
        """The list of ``items``, plain texts (as :meth:`of_texts` takes them) and :class:`Deferred`
        items (their texts plain too): laid out in one step. ``later(k)``: the document of text k,
        made where the text does not fit its line (a text that may break: a value's type, a
        tensor's numbers); None: each text is written as it is. An item without a one-line text
        forces the list to break (it has a line break, or is longer than any line: the list
        breaks either way): the list has none ("") and is ``hard``."""
        if all(type(item) is str for item in items):
            return cls.of_texts(open_, items, close, later)  # type: ignore[arg-type]
        b = cls.__new__(cls)
        b.open, b.items, b.close, b.texts, b.laid = open_, items, close, None, items  # type: ignore[assignment]
        b.tight = False
        b.later, b._contents = later, None
        texts = [item if type(item) is str else item.text for item in items]  # type: ignore[union-attr]
        b.hard = None in texts
        b.flat = "" if b.hard else cls.flat_of(open_, texts, close)  # type: ignore[arg-type]
        return b

    @staticmethod
    def flat_of(open_: str, texts: Sequence[str], close: str) -> str:
        """The one-line text of a list whose opening and items' one-line texts are these."""
        return open_ + ", ".join(texts) + close


def _entry(item: list[Doc]) -> str | tuple[str, Bracketed, str] | None:
    """``item`` as (texts before, list, texts after) when it is texts around one list of plain texts,
    as its text when it is texts alone; either starting no line with a space and ending none with
    one. Else None."""
    before: list[str] = []
    after: list[str] = []
    inner = None
    for d in item:
        if type(d) is str:
            (before if inner is None else after).append(d)  # type: ignore[arg-type]
        elif type(d) is Bracketed and d.texts is not None and inner is None:
            inner = d
        elif type(d) is list:
            return _entry(_flattened(item))
        else:
            return None
    if inner is None:
        text = "".join(before)
        return text if _plain(text) else None
    head, tail = "".join(before), "".join(after)
    if head[:1] in ("", " ") or tail[-1:] == " ":
        return None
    return head, inner, tail


def _plain(doc: Doc) -> bool:
    """Whether ``doc`` is a text the renderer writes as it is: neither empty nor with a space at either end."""
    return type(doc) is str and doc[:1] not in ("", " ") and doc[-1] != " "


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
    | Known
    | Deferred
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
        elif isinstance(d, (Group, Indent, Fill, IfBroken, Known)):
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
        elif isinstance(d, Known):
            stack.append((mode, d.doc))
        elif isinstance(d, Deferred):
            if d.text is None:
                stack.append((mode, d.make()))
            else:
                width -= len(d.text)
    return False


def render(doc: Doc, width: int = DEFAULT_WIDTH, indent: str = INDENT, level: int = 0) -> str:
    """Lay ``doc`` out in ``width`` columns (text ends where the document does; no final newline added),
    starting a line ``level`` indentation units in (the text starts with that indentation)."""
    start = level * len(indent)
    if type(doc) is list:
        text = _lay_out_run(doc, width, len(indent), start)
        if text is not None:
            return text
    return _render(doc, width, indent, start)


def render_into(parts: list[str], doc: Doc, width: int = DEFAULT_WIDTH) -> None:
    """:func:`render`'s text added to ``parts`` in pieces (a big tensor's numbers, laid out once, are
    copied once more only: into the caller's whole text)."""
    if type(doc) is list:
        text = _lay_out_run(doc, width, len(INDENT), 0)
        if text is not None:
            parts.append(text)
            return
    parts += _render_parts(doc, width, INDENT, 0)


def _lay_out_run(doc: list[Doc], width: int, unit: int, start: int) -> str | None:
    """What :func:`_render` writes for a *run*: texts and lists (nested) of texts and of lists whose
    ``flat`` is known (plain texts, or entries ``[text, list of plain texts]``), a statement's
    document; in one pass. None for any other document.

    A run is laid out at column 0 with every list's group decided as the renderer decides it:
    flat when its one-line text and what follows it up to the next place a line may break (the
    next list's opening) fit the width, else broken (items one unit in, each entry's list
    decided the same way with its comma following it)."""
    # The run as texts between its lists: texts[k] before lists[k], texts[-1] after the last.
    texts: list[str] = []
    lists: list[Bracketed] = []
    text: list[str] = []
    for d in doc:
        kind = type(d)
        if kind is str:
            text.append(d)  # type: ignore[arg-type]
        elif kind is Bracketed and d.flat:  # type: ignore[union-attr]
            texts.append("".join(text))
            text = []
            lists.append(d)  # type: ignore[arg-type]
        elif kind is list:
            return _lay_out_run(_flattened(doc), width, unit, start)
        else:
            return None
    texts.append("".join(text))
    if texts[0][:1] == " ":
        return None  # a line's first text loses its spaces: the renderer's
    out: list[str] = [" " * start, texts[0]]
    col = start + len(texts[0])
    last = len(lists) - 1
    for k, b in enumerate(lists):
        after = texts[k + 1]
        # What follows the list up to the next place to break: the texts, and the next list's opening.
        follow = len(after) + len(lists[k + 1].open) if k < last else len(after)  # type: ignore[arg-type]
        col = _lay_out_list(b, out, col, start, follow, width, unit) + len(after)
        out.append(after)
    return "".join(out)


def _flattened(doc: list[Doc]) -> list[Doc]:
    """The documents in ``doc`` and the lists in it, in order, lists left out."""
    out: list[Doc] = []
    stack: list[Doc] = doc[::-1]
    while stack:
        d = stack.pop()
        if type(d) is list:
            stack.extend(d[::-1])  # type: ignore[index]
        else:
            out.append(d)
    return out


def _lay_out_list(b: Bracketed, out: list[str], col: int, ind: int, follow: int, width: int, unit: int) -> int:
    """A list of a run at column ``col`` (its lines ``ind`` in; ``follow`` columns after it up to the
    next place to break) added to ``out``; the column after it."""
    flat = b.flat
    if flat and col + len(flat) + follow <= width:
        out.append(flat)
        return col + len(flat)
    return _lay_out_broken(b, out, ind, width, unit)


def _lay_out_broken(b: Bracketed, out: list[str], ind: int, width: int, unit: int) -> int:
    """A list laid out broken (``open``, an item per line ``ind + unit`` columns in with its comma,
    ``close`` on a line ``ind`` in), added to ``out``; the column after it. Each item by its one-line
    text where that fits its line, else laid out alone (an entry's list decided as in a run)."""
    inner = ind + unit
    pad = "\n" + " " * inner
    texts, later = b.texts, b.later
    if texts is not None and (later is None or inner + max(map(len, texts)) + 1 <= width):  # an item per line
        out += [b.open, pad, ("," + pad).join(texts), "\n", " " * ind, b.close]  # type: ignore[list-item]
        return ind + len(b.close)
    out.append(b.open)  # type: ignore[arg-type]
    last = len(b.laid) - 1
    for k, item in enumerate(b.laid):
        comma = "," if k < last else ""
        if type(item) is str:
            if later is None or inner + len(item) + len(comma) <= width:
                out += [pad, item, comma]
            else:  # laid out alone, as in the list (a line break follows it)
                _alone(later(k), out, inner, comma, width, unit)
        elif type(item) is tuple:
            head, inner_list, tail = item
            out += [pad, head]
            _lay_out_list(inner_list, out, inner + len(head), inner, len(tail) + len(comma), width, unit)
            out += [tail, comma]
        else:
            text = item.text  # type: ignore[union-attr]
            if text is not None and inner + len(text) + len(comma) <= width:
                out += [pad, text, comma]
            else:  # laid out alone, as in the list (a line break follows it)
                item.lay_out(out, inner, comma, width, unit)  # type: ignore[union-attr]
    out += ["\n", " " * ind, b.close]
    return ind + len(b.close)


def _render(doc: Doc, width: int, indent: str, start: int) -> str:
    """:func:`render` by the general renderer."""
    return "".join(_render_parts(doc, width, indent, start))


def _render_parts(doc: Doc, width: int, indent: str, start: int) -> list[str]:
    """:func:`render`'s text by the general renderer, in pieces."""
    out: list[str] = [" " * start] if start else []
    col = start
    line_start = True  # nothing but indentation written on the current line
    pending: list[str] = []  # held-back trailing comments
    fresh = False  # the current (empty) line was started by a comment: the next line break reuses it
    unit = len(indent)
    prev_empty = True  # the line before the current one is empty (or there is none)
    stack: list[tuple[int, bool, _Cmd]] = [(start, _BREAK, doc)]
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
            if isinstance(d, Bracketed) and d.laid and not pending and (d.flat or mode == _BREAK):
                # A list laid out in one step (plain texts, entries, items whose texts are known):
                # what the group's contents would write.
                if d.flat and (mode == _FLAT or _fits(d.flat, stack, width - col, False)):
                    out.append(d.flat)
                    col += len(d.flat)
                else:
                    broke.add(id(d))
                    col = _lay_out_broken(d, out, ind, width, unit)
                    prev_empty = False
                line_start = fresh = False
            elif mode == _FLAT and not d.hard:
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
        elif isinstance(d, Known):
            stack.append((ind, mode, d.doc))
        elif isinstance(d, Deferred):
            stack.append((ind, mode, d.make()))
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
    return out


class _FillRest:
    """The rest of a fill from part ``index`` (a separator), laid out when the renderer reaches it."""

    __slots__ = ("parts", "index")

    def __init__(self, parts: list[Doc], index: int) -> None:
        self.parts = parts
        self.index = index
