"""Text → text (``format_text``, ``format_range``), keeping comments, without going through protobuf."""

from __future__ import annotations

import itertools
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from onnxtext._gc import collector_paused
from onnxtext.diagnostics import Diagnostic, Edit, ParseError, Severity
from onnxtext.span import SourceFile, Span
from onnxtext.syntax import ast as A
from onnxtext.syntax.comments import attach_comments
from onnxtext.syntax.layout import BLANK_LINE, DEFAULT_WIDTH, HARDLINE, INDENT, Doc, render
from onnxtext.syntax.nesting import MAX_GRAPH_NESTING, MAX_TYPE_NESTING, TOO_DEEP, first_too_deep
from onnxtext.syntax.printer import Printer, graphs_of, print_ast

if TYPE_CHECKING:
    from onnxtext.syntax.parser import ParseResult

__all__ = ["format_text", "format_range", "format_range_edit", "range_edit"]


def format_text(text: str, kind: str = "model", path: str = "<text>", width: int = DEFAULT_WIDTH) -> str:
    """Reformat a text in the canonical style for ``width`` columns without going through protobuf.

    Every comment stays where it was written (see ``syntax.comments``), blank lines between
    statements are kept (runs of them collapse to one). Raises :class:`ParseError` for a text
    with syntax errors.
    """
    with collector_paused():
        from onnxtext.syntax.parser import parse_text  # imported on use: printing a binary model needs no parser

        result = parse_text(text, kind, path)
        if not result.ok or result.tree is None:
            raise ParseError(result.diagnostics)
        _refuse_too_deep(result.tree, result.source)
        comments = attach_comments(result.tree, result.comments, text)
        return print_ast(result.tree, comments, width)


def format_range(text: str, start: int, end: int, path: str = "<text>", width: int = DEFAULT_WIDTH) -> str | None:
    """The text with only the statements meeting ``[start, end)`` formatted; the rest is left as it is.

    The statements are those of the innermost graph or function body the range falls in (a
    range inside one node's subgraph formats the subgraph's statements), with their comments,
    at their canonical indentation. A range meeting no statement formats the
    function, model header or main graph it is in. The rest of the text may have syntax
    errors; None when what the range meets is damaged or shares a line with something else.
    """
    edit = format_range_edit(text, start, end, path, width)
    return None if edit is None else text[: edit.span.start] + edit.new_text + text[edit.span.end :]


def format_range_edit(text: str, start: int, end: int, path: str = "<text>", width: int = DEFAULT_WIDTH) -> Edit | None:
    """:func:`format_range` as the one edit it makes (the whole lines it prints anew)."""
    with collector_paused():
        from onnxtext.syntax.parser import parse_text  # imported on use: printing a binary model needs no parser

        result = parse_text(text, "model", path)
        if first_too_deep(result.tree) is not None:
            return None
        return range_edit(result, start, end, width)


def range_edit(parsed: ParseResult, start: int, end: int, width: int = DEFAULT_WIDTH) -> Edit | None:
    """:func:`format_range` of a text already parsed as a model, as the one edit it makes: the whole
    lines of the statements meeting ``[start, end)`` printed anew (None as ``format_range`` says).

    Only those statements are looked at (found by bisection, laid out alone), so its cost does not
    grow with the text. ``parsed`` must hold no graph nested too deep for protobuf
    (:func:`~onnxtext.syntax.nesting.first_too_deep`: ``format_range`` looks first).
    """
    tree, text = parsed.tree, parsed.source.text
    if not isinstance(tree, A.Model):
        return None
    with collector_paused():
        comments = attach_comments(tree, parsed.comments, text)
        bodies = [(tree.graph.nodes, 1)] if isinstance(tree.graph, A.Graph) else []
        bodies += [(f.nodes, 1) for f in tree.functions if isinstance(f, A.Function)]
        found = _statements_at(bodies, start, end)
        if found is not None:
            picked, depth = found
        else:
            # The header or signature of a function, the model header, or the main graph's.
            tops: list[Any] = [f for f in tree.functions if isinstance(f, A.Function)]
            tops += [tree.header, tree.graph]
            owner = next((t for t in tops if t is not None and _meets(t.span, start, end)), None)
            if owner is None:
                return None
            picked, depth = [owner], 0
        errors = [d.span.offsets for d in parsed.diagnostics if d.is_error and d.span is not None]
        return _reprint(text, picked, depth, comments, width, errors)


def _refuse_too_deep(tree: object, source: SourceFile) -> None:
    """ParseError (L009) for a graph or type nested deeper than protobuf could read: no text is made of it."""
    found = first_too_deep(tree)
    if found is None:
        return
    graph = isinstance(found, A.Graph)
    what = f"graphs more than {MAX_GRAPH_NESTING}" if graph else f"types more than {MAX_TYPE_NESTING}"
    message = f"nested too deeply: {what} deep cannot be read back by protobuf"
    raise ParseError([Diagnostic.at(TOO_DEEP, Severity.ERROR, message, found.span, source)])


def _meets(span: Span, start: int, end: int) -> bool:
    return span.start <= end and start <= span.end if start == end else span.start < end and start < span.end


def _meeting(nodes: Sequence[A.Node | A.ErrorNode], start: int, end: int) -> list[A.Node | A.ErrorNode]:
    """The statements of a body meeting the range (:func:`_meets`): statements follow each other in
    the text, so those are one run, found by bisection."""
    find = bisect_left if start == end else bisect_right  # the first to end at (or after) ``start``
    first = find(nodes, start, key=lambda n: n.span.end)
    hits = []
    for n in itertools.islice(nodes, first, None):
        if not _meets(n.span, start, end):
            break
        hits.append(n)
    return hits


def _statements_at(
    bodies: list[tuple[Sequence[A.Node | A.ErrorNode], int]], start: int, end: int
) -> tuple[list[Any], int] | None:
    """The statements meeting the range in the innermost body that holds it, and their depth."""
    for nodes, depth in bodies:
        hits = _meeting(nodes, start, end)
        if not hits:
            continue
        if len(hits) == 1 and isinstance(hits[0], A.Node):
            inner = []
            for a in A.intact(hits[0].attributes):
                # Canonically the attribute is one unit in, a list of graphs one more.
                step = 3 if isinstance(a.value, A.AttrList) else 2
                inner += [(g.nodes, depth + step) for g in graphs_of(a.value) if g.nodes]
            held = [(b, d) for b, d in inner if b[0].span.start <= start and end <= b[-1].span.end]
            deeper = _statements_at(held, start, end)
            if deeper is not None:
                return deeper
        return hits, depth
    return None


def _reprint(text: str, picked: list[Any], depth: int, comments: Any, width: int, errors: list[Span]) -> Edit | None:
    """The lines of ``picked`` (statements of one body, or a function) in ``text`` printed anew,
    ``depth`` units in."""
    if any(isinstance(x, A.ErrorNode) for n in picked for x in A.walk(n)):
        return None
    first, last = picked[0], picked[-1]
    lead = comments.leading.get(id(first))
    begin = min([first.span.start] + [c.start for c in lead or ()])
    finish = last.span.end
    for note in comments.trailing.get(id(last), ()):
        finish = max(finish, text.find("\n", note.start) if "\n" in text[note.start :] else len(text))
    line_start = text.rfind("\n", 0, begin) + 1
    line_end = text.find("\n", finish)
    line_end = len(text) if line_end < 0 else line_end
    if text[line_start:begin].strip() or text[finish:line_end].strip():
        return None  # shares a line with something else: only a larger range can be formatted
    if any(e.start <= line_end and line_start <= e.end for e in errors):
        return None  # a syntax error the parser repaired: formatting must not hide it
    prefix = INDENT * depth
    printer = Printer(comments, max(width - len(prefix), 20))
    docs: list[Doc] = []
    for i, n in enumerate(picked):
        if i:
            docs.append(HARDLINE)
            if printer.blank_above(n):
                docs.append(BLANK_LINE)
        docs.append(printer.doc(n))
    lines = render(docs, printer.width).split("\n")
    new = "\n".join(prefix + line if line else line for line in lines)
    return Edit(Span(line_start, line_end), new)
