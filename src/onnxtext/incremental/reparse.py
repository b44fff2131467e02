"""A document after an edit, from the one before it: only the statements the edit touched are read again.

:func:`reparse` finds the statements of one body the edit touched (:mod:`.region`), parses
their new text alone as the statements of a body (``syntax.parser.parse_window``), lowers
them, and splices the results into the previous document: the tree's statement list, the
protobuf's nodes, the source map (the paths of the nodes after them re-keyed when the count
changes), the diagnostics, the comments and the symbol tables. Everything after the edit
keeps its objects, its spans shifted in place (:mod:`.spans`).

A window whose text has syntax errors is widened until recovery cannot have looked past it
(:func:`_read`). It declines (None: the caller parses from scratch) whenever the result could
differ from ``parse_document(text)``: an edit outside a body's statements (header, signature,
braces), a window that does not end where a statement does (a string or comment running on)
or cannot be widened enough, a parse error of the previous text outside the window (recovery
looks ahead and behind), a document that is not a model.

Ownership: ``reparse`` consumes ``previous``. Its tree, protobuf, source map and symbol
tables become the new document's, mutated; nobody may read ``previous`` once it is called
(the server hands it over only when no other thread holds it, ``lsp/session.py``). When it
declines, it has not touched ``previous``, which stays usable.
"""

from __future__ import annotations

import re
from typing import Any

from onnxtext._gc import collector_paused
from onnxtext.analysis.lineup import Splice
from onnxtext.diagnostics import Diagnostic, Edit, Fix, Related
from onnxtext.document import Document
from onnxtext.incremental.region import BLANKS, Body, Window, bodies, window_of
from onnxtext.incremental.spans import Mover
from onnxtext.incremental.symbols import update_symbols
from onnxtext.lowering.lower import Lowering
from onnxtext.proto import ModelProto, NodeProto
from onnxtext.span import Range, SourceFile, Span
from onnxtext.syntax import ast as A
from onnxtext.syntax.lexer import Comment, tokenize
from onnxtext.syntax.messages import SYNTAX
from onnxtext.syntax.parser import ParseResult, parse_window
from onnxtext.syntax.recovery import MAX_ERRORS

__all__ = ["MAX_GRAPH_DEPTH", "Splice", "reparse", "reread"]

MAX_GRAPH_DEPTH = 16
"""Statements holding graphs nested deeper than this are left to the whole parse (its depth checks)."""
BEHIND = 40
"""Tokens before a syntax error that recovery may look back at (``syntax.recovery``: 4 × TRIAL)."""
AHEAD = 140
"""Tokens after a syntax error that recovery may look at (``syntax.recovery``: LOOK_LINES × TRIAL)."""
WIDENINGS = 4
"""How many times a damaged window is widened before the whole text is parsed instead."""
_PAIRS = {"LPAR": "RPAR", "LSQB": "RSQB", "LBRACE": "RBRACE", "PROPS": "RBRACE", "LT": "GT"}


def reparse(previous: Document, text: str, start: int, old_end: int, new_end: int) -> Document | None:
    """The document of ``text``, which is ``previous``'s text with ``[start, old_end)`` replaced by
    ``text[start:new_end]``, equal to ``parse_document(text)``; None when this cannot say it
    (the caller parses from scratch). Consumes ``previous`` (see the module docstring)."""
    found = reread(previous, text, start, old_end, new_end)
    return found[0] if found is not None else None


def reread(previous: Document, text: str, start: int, old_end: int, new_end: int) -> tuple[Document, Splice] | None:
    """:func:`reparse`, and where the nodes it read again are in the protobuf (what an analysis of the
    previous version holds of the others stays theirs, by position: ``AnalysisCache.spliced``)."""
    old = previous.source.text
    if len(text) - len(old) != new_end - old_end or not 0 <= start <= old_end <= len(old):
        raise ValueError("the edit does not turn the previous text into this one")
    tree, model = previous.tree, previous.proto
    if previous.kind != "model" or not isinstance(tree, A.Model) or not isinstance(model, ModelProto):
        return None
    header_functions = len(model.functions) - len(A.intact(tree.functions))
    window = window_of(bodies(tree, header_functions), old, start, old_end)
    if window is None:
        return None
    with collector_paused():
        return _reparse(previous, tree, model, window, text, start, old_end, new_end)


def _reparse(
    previous: Document,
    tree: A.Model,
    model: ModelProto,
    window: Window,
    text: str,
    start: int,
    old_end: int,
    new_end: int,
) -> tuple[Document, Splice] | None:
    delta = new_end - old_end
    source = previous.source.edited(text, start, old_end, new_end)
    read = _read(previous, window, source, delta)
    if read is None:
        return None
    window, parsed = read
    begin, end = window.start, window.end
    new_stop = end + delta
    statements = parsed.tree
    body = window.body
    nodes = body.owner.nodes
    assert isinstance(nodes, list)
    old_statements = nodes[window.first : window.stop]
    lines = text.count("\n", begin, new_stop) - previous.source.text.count("\n", begin, end)
    diagnostics = _moved_diagnostics(previous, begin, end, delta, source, lines)
    if diagnostics is None:
        return None

    # From here on ``previous`` is consumed.
    first = sum(1 for n in nodes[: window.first] if type(n) is A.Node)  # the proto index of the window's first node
    removed = sum(1 for n in old_statements if type(n) is A.Node)
    lowering = Lowering(source)
    lowering.inside_model(tree.header)
    protos = []
    for i, n in enumerate(A.intact(statements)):
        proto = NodeProto()
        lowering.node(n, proto, body.path.child("node", first + i))
        protos.append(proto)
    diagnostics += parsed.diagnostics + lowering.diagnostics
    diagnostics.sort(key=lambda d: d.offset)

    symbols = previous.__dict__.get("symbols")
    mover = Mover(end, delta)
    _move_tree(mover, tree, body, window.stop)
    nodes[window.first : window.stop] = statements
    _splice_protos(_container(model, body), first, removed, protos)
    source_map = previous.source_map
    plain = all(type(n) is not A.Node or not n.attributes and n.props is None for n in old_statements)
    source_map.splice_nodes(body.path, first, removed, lowering.source_map, plain)
    comments = _moved_comments(previous.comments, begin, end, delta, parsed.comments)
    doc = Document(previous.kind, source, tree, model, diagnostics, source_map, comments)
    if symbols is not None:
        updated = update_symbols(symbols, body.owner, window.first, old_statements, statements, begin, end, delta)
        if updated is not None:
            doc.__dict__["symbols"] = updated
    return doc, Splice(body.path, first, removed, len(protos), begin, end, delta)


def _read(previous: Document, window: Window, source: SourceFile, delta: int) -> tuple[Window, ParseResult] | None:
    """The window's new text parsed alone, widened until that is what a whole parse would read
    there; None when it cannot be.

    A clean parse of whole statements is. A damaged one is when recovery did not see past the
    window: only syntax errors (no string re-read to its line's end, no bracket left unpaired),
    an intact statement and ``BEHIND`` tokens before the first, ``AHEAD`` tokens and an intact
    statement after the last (or the body's real end, when nothing follows it in the text).
    """
    text = source.text
    nodes = window.body.owner.nodes
    for _ in range(WIDENINGS):
        begin, end = window.start, window.end
        stop = end + delta
        if begin and text[begin - 1] not in BLANKS + "{" or stop < len(text) and text[stop] not in BLANKS + "}":
            return (
                None  # a token of the text around could run into the window's (a statement never starts a number list)
            )
        if any(d.code.startswith("P") and not _inside(d.span, begin, end) for d in previous.diagnostics):
            return None  # recovery elsewhere may have looked into the window
        parsed = parse_window(source, begin, stop)
        statements = parsed.tree
        if any(n.span.end > stop for n in statements) or any(c.end > stop for c in parsed.comments):
            return None
        if _graph_depth(statements) > MAX_GRAPH_DEPTH:
            return None
        damaged = [n for n in statements if type(n) is not A.Node]
        if not parsed.diagnostics and not damaged:
            return window, parsed
        if len(parsed.diagnostics) >= MAX_ERRORS - 5 or any(d.code != SYNTAX for d in parsed.diagnostics):
            return None
        if not _balanced(text, begin, stop):
            return None
        spans = [(d.span.start.offset, d.span.end.offset) for d in parsed.diagnostics if d.span is not None]
        spans += [(n.span.start, n.span.end) for n in damaged]
        lo, hi = min(s for s, _ in spans), max(e for _, e in spans)
        before = any(type(n) is A.Node and n.span.end <= lo for n in statements) and _tokens(text, begin, lo) >= BEHIND
        last = statements[-1] if statements else None
        after = type(last) is A.Node and last.span.start >= hi and _tokens(text, hi, stop) >= AHEAD
        if not after and window.stop == len(nodes):
            after = _ends_text(window.body.owner, previous.source.text) and text[stop : stop + 1] == "}"
        if before and after:
            return window, parsed
        first = window.first if before else max(0, window.first - 8)
        last_index = window.stop if after else min(len(nodes), window.stop + 24)
        if (first, last_index) == (window.first, window.stop):
            if last_index == len(nodes) and not after:
                # the body's last statements: read up to its closing brace
                close = window.body.owner.span.end - 1
                if previous.source.text[close] != "}" or window.end == close:
                    return None
                window = Window(window.body, first, last_index, window.start, close)
                continue
            return None
        window = Window(
            window.body,
            first,
            last_index,
            min(window.start, nodes[first].span.start),
            max(window.end, nodes[last_index - 1].span.end),
        )
    return None


def _balanced(text: str, begin: int, stop: int) -> bool:
    """Whether every kind of bracket opens as often as it closes in ``text[begin:stop]``."""
    depth = dict.fromkeys(_PAIRS.values(), 0)
    for tok in tokenize(text, None, None, begin):
        if tok.start >= stop:
            break
        if tok.type in _PAIRS:
            depth[_PAIRS[tok.type]] += 1
        elif tok.type in depth:
            depth[tok.type] -= 1
    return not any(depth.values())


def _tokens(text: str, begin: int, stop: int) -> int:
    """How many tokens ``text[begin:stop]`` holds (counted up to ``AHEAD``)."""
    count = 0
    for tok in tokenize(text, None, None, begin):
        if tok.start >= stop or count >= AHEAD:
            break
        count += 1
    return count


def _ends_text(owner: A.AstNode, text: str) -> bool:
    """Whether nothing but blanks and comments follows ``owner`` (the last body of the text)."""
    return next(iter(tokenize(text, None, None, owner.span.end)), None) is None


def _inside(span: Range | None, begin: int, end: int) -> bool:
    return span is not None and begin <= span.start.offset and span.end.offset <= end


def _graph_depth(statements: list[Any]) -> int:
    """How deep graphs nest in ``statements`` (0: none holds a graph)."""
    deepest = 0
    stack: list[tuple[A.AstNode, int]] = [(n, 0) for n in statements]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, A.Graph):
            depth += 1
            deepest = max(deepest, depth)
        stack.extend((child, depth) for child in node.children())
    return deepest


def _move_tree(mover: Mover, tree: A.Model, body: Body, stop: int) -> None:
    """Shift what lies after the window: the statements after it in its body, the rest of the
    tree past it (the body's braces, the functions after it), each span once."""
    owner = body.owner
    mover.tree(tree, skip=owner)
    mover.span(owner.span)
    for group in A.child_groups(owner):
        if group is owner.nodes:
            continue
        for child in group if isinstance(group, list) else [group]:
            mover.tree(child)
    mover.statements(owner.nodes[stop:])


def _container(model: ModelProto, body: Body) -> Any:
    return model.graph.node if body.function is None else model.functions[body.function].node


def _splice_protos(container: Any, first: int, removed: int, protos: list[NodeProto]) -> None:
    """Replace ``removed`` nodes at ``first`` by ``protos`` (in place where the count allows)."""
    common = min(removed, len(protos))
    for i in range(common):
        container[first + i].CopyFrom(protos[i])
    if removed > common:
        del container[first + common : first + removed]
    for i in range(common, len(protos)):
        container.insert(first + i, protos[i])


def _moved_comments(comments: list[Comment], begin: int, end: int, delta: int, window: list[Comment]) -> list[Comment]:
    head = [c for c in comments if c.end <= begin]
    tail = [Comment(c.text, c.start + delta, c.end + delta) for c in comments[len(head) :] if c.start >= end]
    return head + window + tail


def _moved_diagnostics(
    previous: Document, begin: int, end: int, delta: int, source: SourceFile, lines: int
) -> list[Diagnostic] | None:
    """The previous diagnostics outside the window, located in the new text; None when one
    straddles the window or names a line the edit moved.

    The one at the text's end about a bracket opened before the window (the closers recovery
    inserted there: a body left without its ``}``) is no statement's: the window's re-read,
    between virtual braces, does not make it again, so it moves with the end even when the
    window reaches it over the blanks. A
    statement's diagnostic that also closed what was open at the end (its fix inserts the
    closers there) is left to a whole parse: mended, the end has a diagnostic of its own; so is
    one a window's statement holds but that names a place before it (recovery reports a
    statement's missing ')' at the first token of the next one)."""
    old = previous.source
    out = []
    for d in previous.diagnostics:
        if d.span is None:
            out.append(d)
            continue
        lo, hi = d.span.start.offset, d.span.end.offset
        if begin <= lo and hi <= end and not (lo == len(old.text) and _opened_before(d, begin)):
            if d.fix is not None and any(e.span.end >= len(old.text) for e in d.fix.edits):
                return None  # it also closed what was open at the text's end: a whole parse says that apart
            if not _within(d, begin, end):
                return None  # a statement before the window's error, reported at the window's first token
            continue  # the window's: read again
        if lo < end and hi > begin:
            return None
        named = _LINE.findall(d.message) if lines else ()
        if named and max(map(int, named)) > old.position(begin).line:
            return None  # a line after the edit's first (those up to it keep their numbers)
        out.append(_moved(d, end, delta, source))
    return out


def _within(d: Diagnostic, begin: int, end: int) -> bool:
    """Whether every place ``d`` names (its notes, its fix's edits) lies in ``[begin, end]``."""
    spans = [r.span.offsets if isinstance(r.span, Range) else r.span for r in d.related]
    spans += [e.span for e in d.fix.edits] if d.fix is not None else []
    return all(begin <= s.start and s.end <= end for s in spans)


def _opened_before(d: Diagnostic, begin: int) -> bool:
    """Whether ``d`` is about brackets opened before ``begin`` only (its notes point at them: the
    closers recovery inserted at the text's end)."""
    return bool(d.related) and all(_end(r.span) <= begin for r in d.related)


def _end(span: Range | Span) -> int:
    return span.end.offset if isinstance(span, Range) else span.end


_LINE = re.compile(r"\bline (\d+)")
"""A line named in a diagnostic's message (``the '{' at line 3``)."""


def _moved(d: Diagnostic, at: int, delta: int, source: SourceFile) -> Diagnostic:
    def move(span: Span) -> Span:
        return Span(
            span.start + delta if span.start >= at else span.start, span.end + delta if span.end >= at else span.end
        )

    assert d.span is not None
    fix = d.fix
    if fix is not None and fix.edits:
        fix = Fix(fix.message, tuple(Edit(move(e.span), e.new_text) for e in fix.edits))
    related = tuple(
        Related(r.message, source.range(move(r.span.offsets if isinstance(r.span, Range) else r.span)))
        for r in d.related
    )
    return Diagnostic(d.code, d.severity, d.message, source.range(move(d.span.offsets)), source, related, d.path, fix)
