"""Semantic tokens once per analysed document, a statement at a time, and ``semanticTokens/full/delta``.

A 30,000-statement document has some 90,000 tokens: walking its whole tree and encoding every
token took 0.15 to 0.5 s per version. The encoding is relative (each token's line and column
from the token before), so a statement's rows depend only on its own text and what it reads
from outside: the initializers of its graph (read-only inputs) and, for an operator some opset
deprecates, its resolution. :class:`StatementRows` keeps each statement's rows by its text
(from its line's start, so columns are its own) and body; an edit re-encodes the statements
whose text changed, the rest are copied with the first row's line and column fixed. A
statement near a parse error (whose tree the recovery may make of more than its text), one
calling a name some opset deprecates and everything outside the bodies' statements (header,
signatures, initializers, comments between statements) are encoded every time. The result is
:func:`encoded_tokens`'s, which stays the definition (``tests/lsp/test_token_rows.py``).

A document made from the last one by re-reading a window of it (``incremental.reread``) is
encoded from the last one's data by position (:func:`splice_rows`): its tree outside the window
is the last one's, moved, so the rows before the window are kept as they are, those after it
too (relative rows: only the first one after the window is written again), and only the
window's statements and comments are encoded: a 30,000-statement text in 3 to 6 ms instead of
45 (the first such version after a whole encoding pays some 15 ms more, finding where each row
starts). A text that is not ASCII (UTF-16 columns) is encoded by rows.

The encoded tokens are made once per document (right after its diagnostics are published, or
by the first request, whichever comes first; the other waits for that one) and kept for the
latest document only, with the rows of its statements, so the cache does not grow with the
number of edits. A delta is the one replaced run of integers between the data a client holds
and the new data.
"""

from __future__ import annotations

import threading
import weakref
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from onnxtext.document import Document
from onnxtext.host.change import common  # the halving common prefix/suffix, on lists as on texts
from onnxtext.ide.semantic import (
    TOKEN_MODIFIERS,
    TOKEN_TYPES,
    Body,
    Deprecation,
    Token,
    deprecated_operators,
    deprecation,
    document_tokens,
    frame_tokens,
    ordered,
    semantic_tokens,
    statement_tokens,
)
from onnxtext.span import SourceFile, Span
from onnxtext.syntax import ast as A
from onnxtext.syntax.lexer import Comment

__all__ = [
    "StatementRows",
    "TokenCache",
    "TokenEdit",
    "encode_tokens",
    "encoded_tokens",
    "row_offsets",
    "splice_rows",
    "token_delta",
]


_TYPE_INDEX = {name: i for i, name in enumerate(TOKEN_TYPES)}
_MODIFIER_BIT = {name: 1 << i for i, name in enumerate(TOKEN_MODIFIERS)}


def encode_tokens(
    tokens: Sequence[Token],
    source: SourceFile,
    *,
    after: tuple[int, int] = (0, 0),
    line_at: tuple[int, int] = (0, 0),
    offsets: list[int] | None = None,
) -> list[int]:
    """The protocol's relative encoding (UTF-16 columns); a token over several lines is cut per line.

    One pass over the lines, the tokens in text order (as :func:`semantic_tokens` gives them): a
    30,000-statement text in 0.15 s (0.7 s with a line lookup per token). A run of tokens inside the
    text: ``after``, the line and column of the row before the first; ``line_at``, the number and start
    offset of a line at or before the first token. ``offsets`` is given where each row starts."""
    text = source.text
    column = _characters if text.isascii() else _units_of(source)
    data: list[int] = []
    prev_line, prev_col = after
    line, line_start = line_at
    newline = text.find("\n", line_start)
    next_start = newline + 1 if newline >= 0 else len(text) + 1
    for token in tokens:
        kind = _TYPE_INDEX[token.type]
        bits = 0
        for m in token.modifiers:
            bits |= _MODIFIER_BIT[m]
        start, end = token.span.start, min(token.span.end, len(text))
        while start < end:
            while start >= next_start:
                line, line_start = line + 1, next_start
                newline = text.find("\n", line_start)
                next_start = newline + 1 if newline >= 0 else len(text) + 1
            stop = text.find("\n", start, end)
            piece_end = end if stop < 0 else stop
            col = column(text, line_start, start)
            if piece_end > start:
                data += [
                    line - prev_line,
                    col - prev_col if line == prev_line else col,
                    column(text, start, piece_end),
                    kind,
                    bits,
                ]
                prev_line, prev_col = line, col
                if offsets is not None:
                    offsets.append(start)
            if stop < 0:
                break
            start = stop + 1
    return data


def _characters(text: str, start: int, end: int) -> int:
    return end - start


def _units_of(source: SourceFile) -> Callable[[str, int, int], int]:
    """The UTF-16 width of ``text[start:end]``, from ``source``'s characters outside the BMP (an
    encode of the line before each token was quadratic in a long line)."""

    def units(text: str, start: int, end: int) -> int:
        return source.units(start, end)

    return units


def encoded_tokens(doc: Document) -> list[int]:
    """The semantic tokens of a document, encoded for the protocol (the definition: the whole tree walked)."""
    return encode_tokens(document_tokens(doc), doc.source)


LONG_LINE = 10_000
"""A line longer than this (a minified text, many statements on one line) has the document's tokens
encoded in one pass, no statement's rows kept: a statement's rows are keyed by its text from its
line's start, which there would copy the line for every statement (20 GB for a 2 MB line)."""


class _LongLine(Exception):
    """A statement starts more than :data:`LONG_LINE` characters into its line."""


def _line_begin(text: str, at: int) -> int:
    """The start of the line of offset ``at``, looked for at most :data:`LONG_LINE` back (_LongLine)."""
    floor = max(0, at - LONG_LINE)
    begin = text.rfind("\n", floor, at) + 1
    if begin == 0 and floor > 0:
        raise _LongLine
    return begin


@dataclass(frozen=True, slots=True)
class _Rows:
    """A statement's encoded tokens: the first row's line and column counted from the start of the
    statement's first line, the others relative as the protocol has them; where the last row is."""

    line: int
    col: int
    rest: tuple[int, ...]
    """The first row's other three integers and the rows after it."""
    last_line: int
    last_col: int


class StatementRows:
    """The encoded rows of the statements of one document, by body (its initializers) and text."""

    def __init__(self) -> None:
        self.rows: dict[frozenset[str], dict[str, _Rows]] = {}
        self.reused = 0
        """How many statements took the rows of the table before (the encoding that made this one)."""

    def __len__(self) -> int:
        return sum(len(table) for table in self.rows.values())

    def encode(self, doc: Document) -> tuple[list[int], StatementRows]:
        """``doc``'s encoded tokens (:func:`encoded_tokens`) and the rows of its statements, those
        this table holds reused."""
        tree = doc.tree
        if not isinstance(tree, A.Model):
            return encoded_tokens(doc), StatementRows()
        encoder = _Encoder(doc, self)
        try:
            return encoder.run(tree) if len(self) else encoder.cold(tree)
        except _LongLine:
            return encoded_tokens(doc), StatementRows()


class _Encoder:
    def __init__(self, doc: Document, known: StatementRows) -> None:
        self.doc = doc
        self.text = doc.source.text
        self.known = known
        self.kept = StatementRows()
        calls: list[A.Node] = []
        self.calls = calls
        """The nodes of the statement being encoded that name a deprecated operator somewhere."""
        resolved, names = deprecation(doc), deprecated_operators()

        def deprecated(node: A.Node) -> bool:  # no reference to the encoder: no cycle holds the document
            if node.op_type.value in names:
                calls.append(node)  # resolved in this document's opsets: its rows are not kept
            return resolved(node)

        self.deprecated: Deprecation = deprecated

    def run(self, tree: A.Model) -> tuple[list[int], StatementRows]:
        text, source = self.text, self.doc.source
        frame, bodies = frame_tokens(tree, self.deprecated)
        statements = _statements(bodies)
        starts = [n.span.start for n, _ in statements]
        inner, outer = _split_comments(self.doc.comments, statements, starts)
        frame.extend(Token(Span(c.start, c.end), "comment") for c in outer)
        frame_rows = _absolute(encode_tokens(ordered(frame), source))
        near_damage = _near_damage(self.doc, statements, starts)
        wide = len(text) + 1  # line * wide + column orders positions
        frame_rows.append((len(text) + 1, 0, 0, 0, 0))  # a stop past every statement
        next_frame = frame_rows[0][0] * wide + frame_rows[0][1]
        data: list[int] = []
        prev_line = prev_col = 0
        line = line_pos = f = 0
        count = text.count
        known: dict[str, _Rows] = {}
        kept: dict[str, _Rows] = {}
        body_of: frozenset[str] | None = None
        for i, (node, initializers) in enumerate(statements):
            if initializers is not body_of:
                body_of, known = initializers, self.known.rows.get(initializers, {})
                kept = self.kept.rows.setdefault(initializers, {})
            begin = _line_begin(text, node.span.start)
            line += count("\n", line_pos, begin)
            line_pos = begin
            key = text[begin : node.span.end]
            rows = known.get(key)
            if rows is None or near_damage and i in near_damage:
                rows = self._rows(node, initializers, inner.get(i, ()), begin, key)
                if rows is None:
                    continue
                if not self.calls and not (near_damage and i in near_damage):
                    kept[key] = rows
            else:
                kept[key] = rows
                self.kept.reused += 1
            first_line = line + rows.line
            if first_line * wide + rows.col > next_frame:
                while first_line * wide + rows.col > next_frame:
                    prev_line, prev_col = _emit(data, frame_rows[f], prev_line, prev_col)
                    f += 1
                    next_frame = frame_rows[f][0] * wide + frame_rows[f][1]
            data.append(first_line - prev_line)
            data.append(rows.col - prev_col if first_line == prev_line else rows.col)
            data += rows.rest
            prev_line, prev_col = line + rows.last_line, rows.last_col
        for row in frame_rows[f:-1]:
            prev_line, prev_col = _emit(data, row, prev_line, prev_col)
        return data, self.kept

    def cold(self, tree: A.Model) -> tuple[list[int], StatementRows]:
        """With no rows to reuse (a document just opened): the whole walk, one encoding, then each
        statement's rows cut out of it (encoding the statements one by one costs twice as much)."""
        text, doc = self.text, self.doc
        units = doc.source.units  # the protocol's columns: UTF-16 units (a lone surrogate one)
        data = encode_tokens(semantic_tokens(tree, doc.comments, self.deprecated), doc.source)
        _, bodies = frame_tokens(tree)
        statements = _statements(bodies)
        starts = [n.span.start for n, _ in statements]
        skip = _near_damage(doc, statements, starts)
        skip.update(bisect_right(starts, node.span.start) - 1 for node in self.calls)  # resolved in this document
        rows = _absolute(data)
        r = line = line_pos = 0
        for i, (node, initializers) in enumerate(statements):
            begin = _line_begin(text, node.span.start)
            line += text.count("\n", line_pos, begin)
            line_pos = begin
            start = (line, units(begin, node.span.start))
            last_begin = text.rfind("\n", 0, node.span.end) + 1
            end = (line + text.count("\n", begin, last_begin), units(last_begin, node.span.end))
            while r < len(rows) and rows[r][:2] < start:
                r += 1
            first = r
            while r < len(rows) and rows[r][:2] < end:
                r += 1
            if i in skip or first == r or not isinstance(node, A.Node):
                continue
            last = rows[r - 1]
            chunk = _Rows(
                rows[first][0] - line, rows[first][1], tuple(data[first * 5 + 2 : r * 5]), last[0] - line, last[1]
            )
            self.kept.rows.setdefault(initializers, {})[text[begin : node.span.end]] = chunk
        return data, self.kept

    def _rows(
        self,
        node: A.Node | A.ErrorNode,
        initializers: frozenset[str],
        comments: Sequence[Comment],
        begin: int,
        key: str,
    ) -> _Rows | None:
        """A statement's rows encoded from its tree (None for a damaged one: its comments are the frame's)."""
        self.calls.clear()
        if not isinstance(node, A.Node):
            return None
        tokens = statement_tokens(node, initializers, self.deprecated)
        tokens.extend(Token(Span(c.start, c.end), "comment") for c in comments)
        moved = [Token(Span(t.span.start - begin, t.span.end - begin), t.type, t.modifiers) for t in ordered(tokens)]
        data = encode_tokens(moved, SourceFile(key))
        if not data:
            return None
        line, col = _last_row(data)
        return _Rows(data[0], data[1], tuple(data[2:]), line, col)


def _statements(bodies: list[Body]) -> list[tuple[A.Node | A.ErrorNode, frozenset[str]]]:
    """Every statement of the bodies, in text order, with its body's initializers."""
    ordered_bodies = sorted((b for b in bodies if b.nodes), key=lambda b: b.nodes[0].span.start)
    return [(n, b.initializers) for b in ordered_bodies for n in b.nodes]


def _split_comments(
    comments: Sequence[Comment], statements: list[tuple[A.Node | A.ErrorNode, frozenset[str]]], starts: list[int]
) -> tuple[dict[int, list[Comment]], list[Comment]]:
    """The comments inside each intact statement (by its index), and the others."""
    inner: dict[int, list[Comment]] = {}
    outer: list[Comment] = []
    for c in comments:
        i = bisect_right(starts, c.start) - 1
        if i >= 0 and isinstance(statements[i][0], A.Node) and c.start < statements[i][0].span.end:
            inner.setdefault(i, []).append(c)
        else:
            outer.append(c)
    return inner, outer


def _near_damage(
    doc: Document, statements: list[tuple[A.Node | A.ErrorNode, frozenset[str]]], starts: list[int]
) -> set[int]:
    """The statements within a statement of a parse problem (or of a damaged statement): the
    recovery reads a few tokens past a statement, so its tree may be more than its text says."""
    near: set[int] = set()
    spans = [d.span.offsets for d in doc.diagnostics if d.code.startswith("P") and d.span is not None]
    spans += [n.span for n, _ in statements if isinstance(n, A.ErrorNode)]
    for span in spans:
        lo = bisect_left(starts, span.start) - 1
        hi = bisect_right(starts, span.end)
        near.update(range(max(lo - 1, 0), min(hi + 1, len(statements))))
    return near


def _absolute(data: list[int]) -> list[tuple[int, int, int, int, int]]:
    """Encoded rows as (line, column, length, type, modifiers)."""
    out = []
    line = col = 0
    for r in range(0, len(data), 5):
        line, col = (line + data[r], data[r + 1]) if data[r] else (line, col + data[r + 1])
        out.append((line, col, data[r + 2], data[r + 3], data[r + 4]))
    return out


def _emit(data: list[int], row: tuple[int, int, int, int, int], prev_line: int, prev_col: int) -> tuple[int, int]:
    line, col = row[0], row[1]
    data += [line - prev_line, col - prev_col if line == prev_line else col, row[2], row[3], row[4]]
    return line, col


class TokenCache:
    """The encoded tokens of one document of one text (the latest asked for), its statements' rows,
    and their result id."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._document: weakref.ref[Document] | None = None
        """Weak: the cache never keeps a document the server has let go of alive."""
        self._data: list[int] = []
        self._rows = StatementRows()
        self._offsets: list[int] | None = None
        """Where each row of :attr:`_data` starts in its text (made when first spliced)."""
        self._pending: tuple[weakref.ref[Document], SourceFile, int, int, int] | None = None
        """A document made from the one the data is of by re-reading a window (:meth:`spliced`): that
        document's source, the window ``[start, end)`` of its text, and how far what followed it moved."""
        self._serial = 0
        self.sent: tuple[str, list[int]] | None = None
        """The result id and data last sent to the client (what a delta request starts from)."""

    def data(self, document: Document, encode: Callable[[Document], list[int]] | None = None) -> tuple[str, list[int]]:
        """``document``'s tokens and their result id, computed at most once per document (by
        ``encode``, else a statement at a time from the last document's rows)."""
        with self._lock:  # a request during the precomputation waits for it rather than doing it twice
            if self._document is None or self._document() is not document:
                pending, self._pending = self._pending, None
                spliced = self._splice(document, pending) if encode is None and pending is not None else None
                if spliced is not None:
                    self._data, self._offsets = spliced
                elif encode is not None:
                    self._data, self._offsets = encode(document), None
                else:
                    (self._data, self._rows), self._offsets = self._rows.encode(document), None
                self._document = weakref.ref(document)
                self._serial += 1
            return str(self._serial), self._data

    def spliced(self, previous: Document, document: Document, start: int, end: int, delta: int) -> None:
        """``document`` was made from ``previous`` by re-reading the window ``[start, end)`` of its text
        (``incremental.reread``), what follows it moved by ``delta``: when the data is ``previous``'s,
        ``document``'s is made from it by position, the window's rows alone encoded anew."""
        known = self._document
        same = known is not None and known() is previous
        self._pending = (weakref.ref(document), previous.source, start, end, delta) if same else None

    def _splice(
        self, document: Document, pending: tuple[weakref.ref[Document], SourceFile, int, int, int]
    ) -> tuple[list[int], list[int]] | None:
        made, old, start, end, delta = pending
        if made() is not document:
            return None
        offsets = self._offsets if self._offsets is not None else row_offsets(self._data, old)
        if offsets is None:
            return None
        return splice_rows(self._data, offsets, document, start, end, delta)

    @property
    def warm(self) -> bool:
        """Rows of an earlier version are kept: the next document's tokens cost its changed statements
        (else a whole walk, which should not contend with the first analysis's checker for the GIL)."""
        return len(self._rows) > 0

    def full(self, document: Document, encode: Callable[[Document], list[int]] | None = None) -> tuple[str, list[int]]:
        """``document``'s tokens and their result id, kept as the data last sent."""
        result_id, data = self.data(document, encode)
        self.sent = (result_id, data)
        return result_id, data

    def delta(
        self, document: Document, encode: Callable[[Document], list[int]] | None, previous: str
    ) -> tuple[str, list[int], list[TokenEdit] | None]:
        """``document``'s tokens, their result id, and the edit from the data sent as ``previous``
        to them (None: all of them, when the client's data is not the one kept)."""
        sent = self.sent
        result_id, data = self.data(document, encode)
        self.sent = (result_id, data)
        if sent is None or sent[0] != previous:
            return result_id, data, None
        return result_id, data, token_delta(sent[1], data)


def row_offsets(data: list[int], source: SourceFile) -> list[int] | None:
    """Where each row of ``data`` (``source``'s encoded tokens) starts in its text; None for a text
    that is not ASCII (a column there counts UTF-16 units)."""
    if not source.text.isascii():
        return None
    starts = source.line_starts()
    offsets = []
    line = col = 0
    for r in range(0, len(data), 5):
        line, col = (line + data[r], data[r + 1]) if data[r] else (line, col + data[r + 1])
        offsets.append(starts[line] + col)
    return offsets


def splice_rows(
    data: list[int], offsets: list[int], doc: Document, start: int, end: int, delta: int
) -> tuple[list[int], list[int]] | None:
    """``doc``'s encoded tokens and their rows' offsets, made from ``data`` and ``offsets``, those of the
    document it was re-read from: the window ``[start, end)`` of the old text (whole statements of one
    body, blanks and comments) holds the only rows encoded anew; the rows before it are the same, those
    after it the same, moved (relative rows: only the first after the window is written again). None
    where this cannot say it (a text that is not ASCII, a window that is no run of whole statements)."""
    source = doc.source
    tree = doc.tree
    stop = end + delta
    if not source.text.isascii() or not isinstance(tree, A.Model):
        return None
    frame, bodies = frame_tokens(tree)
    if any(start <= t.span.start < stop or start < t.span.end <= stop for t in frame):
        return None
    deprecated = deprecation(doc)
    tokens: list[Token] = []
    for body in bodies:
        nodes = body.nodes
        lo = bisect_left(nodes, start, key=_span_start)
        hi = bisect_left(nodes, stop, key=_span_start)
        if lo > 0 and nodes[lo - 1].span.end > start or hi > lo and nodes[hi - 1].span.end > stop:
            return None  # a statement across the window's edge
        for node in nodes[lo:hi]:
            if isinstance(node, A.Node):
                tokens.extend(statement_tokens(node, body.initializers, deprecated))
    comments = doc.comments
    lo = bisect_left(comments, start, key=_comment_start)
    hi = bisect_left(comments, stop, key=_comment_start)
    if lo > 0 and comments[lo - 1].end > start or hi > lo and comments[hi - 1].end > stop:
        return None
    tokens.extend(Token(Span(c.start, c.end), "comment") for c in comments[lo:hi])
    i, j = bisect_left(offsets, start), bisect_left(offsets, end)
    after = source.lsp_position(offsets[i - 1]) if i else (0, 0)
    line, col = source.lsp_position(start)
    made: list[int] = []
    region = encode_tokens(ordered(tokens), source, after=after, line_at=(line, start - col), offsets=made)
    last_line, last_col = _last_row(region, *after)
    out = data[: 5 * i] + region
    if j < len(offsets):
        line, col = source.lsp_position(offsets[j] + delta)
        out += [line - last_line, col - last_col if line == last_line else col]
        out += data[5 * j + 2 :]
    moved = offsets[:i] + made
    moved += [o + delta for o in offsets[j:]] if delta else offsets[j:]
    return out, moved


def _last_row(data: list[int], line: int = 0, col: int = 0) -> tuple[int, int]:
    """The line and column of the last row of ``data``, encoded after a row at ``line`` and ``col``."""
    for r in range(0, len(data), 5):
        line, col = (line + data[r], data[r + 1]) if data[r] else (line, col + data[r + 1])
    return line, col


def _span_start(node: A.AstNode) -> int:
    return node.span.start


def _comment_start(comment: Comment) -> int:
    return comment.start


@dataclass(frozen=True, slots=True)
class TokenEdit:
    """``delete_count`` integers of the encoded tokens from ``start`` replaced by ``data`` (the protocol's
    ``SemanticTokensEdit``)."""

    start: int
    delete_count: int
    data: list[int]


def token_delta(old: list[int], new: list[int]) -> list[TokenEdit]:
    """One edit replacing the integers between the common prefix and suffix (by whole tokens:
    five integers each, as clients apply them); none when equal."""
    if old == new:
        return []
    limit = min(len(old), len(new))
    prefix = common(old, new, limit, from_end=False)
    prefix -= prefix % 5
    suffix = common(old, new, limit - prefix, from_end=True)
    suffix -= suffix % 5
    return [TokenEdit(start=prefix, delete_count=len(old) - prefix - suffix, data=new[prefix : len(new) - suffix])]
