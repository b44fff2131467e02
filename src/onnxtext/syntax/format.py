"""Protobuf → text (``to_text``) and text → text (``format_text``, keeping comments)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from onnxtext.syntax import ast as A
from onnxtext._gc import collector_paused
from onnxtext.diagnostics import Diagnostic, ParseError, Severity
from onnxtext.lowering.lift import Lifter, NotRepresentable
from onnxtext.lowering.printable import check_printable
from onnxtext.syntax.comments import attach_comments
from onnxtext.syntax.emit import fast_text
from onnxtext.syntax.layout import BLANK_LINE, DEFAULT_WIDTH, HARDLINE, INDENT, Doc, render
from onnxtext.syntax.printer import Printer, graphs_of, print_ast
from onnxtext.syntax.nesting import MAX_GRAPH_NESTING, first_too_deep_graph
from onnxtext.syntax.span import SourceFile, Span
from onnxtext.proto import FunctionProto, GraphProto, ModelProto, NodeProto, as_own

__all__ = ["to_text", "format_text", "format_range", "NotRepresentable", "check_printable"]


def to_text(message: Any, width: int = DEFAULT_WIDTH) -> str:
    """The onnxtext text of a model, graph, function or node (ours or the ``onnx`` package's), in ``width`` columns.

    Raises :class:`NotRepresentable` if the message holds something no text can express yet.
    """
    msg = as_own(message)
    with collector_paused():
        return _to_text(msg, message, width)


def _to_text(msg: Any, message: Any, width: int) -> str:
    if isinstance(msg, (ModelProto, GraphProto, FunctionProto)):
        text = fast_text(msg, width)
        if text is not None:
            return text
    return reference_text(msg, message, width)


def reference_text(msg: Any, message: Any = None, width: int = DEFAULT_WIDTH) -> str:
    """``to_text`` through the whole AST (lift, then the layout printer): what the fast path
    (``syntax.emit``) must equal byte for byte, and what prints what it declines."""
    with collector_paused():
        return _reference_text(msg, message, width)


def _reference_text(msg: Any, message: Any, width: int) -> str:
    check_printable(msg)
    lifter = Lifter()
    tree: A.AstNode
    if isinstance(msg, ModelProto):
        tree = lifter.model(msg)
    elif isinstance(msg, GraphProto):
        tree = lifter.graph(msg, "graph")
    elif isinstance(msg, FunctionProto):
        tree = lifter.function(msg, "function")
    elif isinstance(msg, NodeProto):
        tree = lifter.node(msg, "node")
    else:
        raise TypeError("to_text takes a model, graph, function or node, not " f"{type(message if message is not None else msg).__name__}")
    return print_ast(tree, width=width)


def format_text(text: str, kind: str = "model", path: str = "<text>", width: int = DEFAULT_WIDTH) -> str:
    """Reformat a text in the canonical style for ``width`` columns without going through protobuf.

    Every comment stays where it was written (see ``syntax.comments``), blank lines between
    statements are kept (runs of them collapse to one). Raises :class:`ParseError` for a text
    with syntax errors.
    """
    with collector_paused():
        if kind == "model":
            canonical = _printed_alike(text, width)
            if canonical is not None:
                return canonical
        return tree_format(text, kind, path, width)


def tree_format(text: str, kind: str = "model", path: str = "<text>", width: int = DEFAULT_WIDTH) -> str:
    """``format_text`` through the tree (parse with comments, then the layout): the definition of
    ``fmt``, and what formats every text the fast way declines."""
    with collector_paused():
        from onnxtext.syntax.parser import parse_text  # imported on use: printing a binary model needs no parser

        result = parse_text(text, kind, path)
        if not result.ok or result.tree is None:
            raise ParseError(result.diagnostics)
        _refuse_too_deep(result.tree, result.source)
        comments = attach_comments(result.tree, result.comments, text)
        return print_ast(result.tree, comments, width)


# A blank line, but the one a printed text has after a graph's or function's closing brace.
_BLANK_LINE = re.compile(r"(?<!\n\})(?<!\n\}\r)\n[ \t\r\f\v]*\n")
_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\]|\\.)*"|(#)', re.DOTALL)


def _unspaced(numbers: str) -> str:
    """A number list token without the spaces and line breaks it may hold (the lexer's: `` \t\r\n``)."""
    return numbers.replace(" ", "").replace("\n", "").replace("\t", "").replace("\r", "")


def _printed_alike(text: str, width: int) -> str | None:
    """``format_text`` of a model text the parse fast path reads, without comments or blank lines, when
    printing its protobuf gives the very tokens of the text (or None: the tree's way then).

    Both texts then make one tree (spans apart: the parser sees the same tokens), whose layout
    without comments and kept blank lines is the formatted text; and a printed text formats to
    itself (``test_golden.test_print_canonical``). So no tree is built for an already formatted
    or merely re-indented text, the commonest input of ``fmt``.
    """
    from onnxtext.lowering.direct import model_of_tokens, scan

    if text[:1].isspace() or _BLANK_LINE.search(text) or "#" in text and any(_STRING_OR_COMMENT.findall(text)):
        return None
    tokens = scan(text)
    model = model_of_tokens(tokens) if tokens is not None else None
    if tokens is None or model is None:
        return None
    try:
        printed = _to_text(model, model, width)
    except NotRepresentable:
        return None
    again = scan(printed)
    if again == tokens:
        return printed
    if again is None or len(again) != len(tokens):
        return None
    for a, b in zip(tokens, again):
        # A number list is one token, spaces and line breaks included: the formatter lays its
        # numbers out again (each number is read without spaces in it, or the fast path declines).
        if a != b and not (a[:1] == "{" and b[:1] == "{" and _unspaced(a) == _unspaced(b)):
            return None
    return printed


def format_range(text: str, start: int, end: int, path: str = "<text>", width: int = DEFAULT_WIDTH) -> str | None:
    """The text with only the statements meeting ``[start, end)`` formatted; the rest is left as it is.

    The statements are those of the innermost graph or function body the range falls in (a
    range inside one node's subgraph formats the subgraph's statements), with their comments,
    at their canonical indentation. A range meeting no statement formats the
    function, model header or main graph it is in. The rest of the text may have syntax
    errors; None when what the range meets is damaged or shares a line with something else.
    """
    with collector_paused():
        from onnxtext.syntax.parser import parse_text  # imported on use: printing a binary model needs no parser

        result = parse_text(text, "model", path)
        tree = result.tree
        if not isinstance(tree, A.Model):
            return None
        if first_too_deep_graph(tree) is not None:
            return None
        comments = attach_comments(tree, result.comments, text)
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
        errors = [d.span.offsets for d in result.diagnostics if d.is_error and d.span is not None]
        return _reprint(text, picked, depth, comments, width, errors)


def _refuse_too_deep(tree: object, source: SourceFile) -> None:
    """ParseError (L009) for a graph nested deeper than protobuf could read: no text is made of it."""
    graph = first_too_deep_graph(tree)
    if graph is None:
        return
    from onnxtext.lowering.lower import TOO_DEEP

    message = f"nested too deeply: graphs more than {MAX_GRAPH_NESTING} deep cannot be read back by protobuf"
    raise ParseError([Diagnostic.at(TOO_DEEP, Severity.ERROR, message, graph.span, source)])


def _meets(span: Span, start: int, end: int) -> bool:
    return span.start <= end and start <= span.end if start == end else span.start < end and start < span.end


def _statements_at(bodies: list[tuple[Sequence[A.Node | A.ErrorNode], int]], start: int, end: int) -> tuple[list[Any], int] | None:
    """The statements meeting the range in the innermost body that holds it, and their depth."""
    for nodes, depth in bodies:
        hits = [n for n in nodes if _meets(n.span, start, end)]
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


def _reprint(text: str, picked: list[Any], depth: int, comments: Any, width: int, errors: list[Span]) -> str | None:
    """``text`` with the lines of ``picked`` (statements of one body, or a function) printed
    anew, ``depth`` units in."""
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
    return text[:line_start] + new + text[line_end:]
