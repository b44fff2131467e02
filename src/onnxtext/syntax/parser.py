"""Text → AST: ``parse_text``, the one way in; always a tree, with every diagnostic and the comments.

The parse is cut along its seams: the grammar's LALR table (``syntax.tables``), the
reduce callbacks that build the AST (``syntax.build``), the driver loop and its error
recovery (``syntax.recovery``) and the sentences of its errors (``syntax.messages``).
Comments are kept as the lexer found them; ``syntax.comments`` attaches them for layout.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Any

from onnxtext.diagnostics import Diagnostic, Severity
from onnxtext.span import SourceFile, Span
from onnxtext.syntax.lexer import COMMENT, WHITESPACE, Comment, tokenize
from onnxtext.syntax.messages import SECOND_MODEL, TRAILING_TEXT, lex_diagnostics
from onnxtext.syntax.recovery import Run
from onnxtext.syntax.tables import ENTRY_POINTS, Tables

__all__ = ["ParseResult", "parse_text", "parse_window", "ENTRY_POINTS"]


@dataclass
class ParseResult:
    """The AST (always built; damaged statements are :class:`ast.ErrorNode`), every diagnostic, the comments."""

    tree: Any
    diagnostics: list[Diagnostic]
    source: SourceFile
    comments: list[Comment] = field(default_factory=list)
    """Every comment of the text, in order, as the lexer read it (``syntax.comments`` attaches them for layout)."""

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)


_PARSER: Tables | None = None
_PARSER_LOCK = threading.Lock()


def _parser() -> Tables:
    global _PARSER
    if _PARSER is None:
        with _PARSER_LOCK:
            if _PARSER is None:
                _PARSER = Tables()
    return _PARSER


def parse_text(text: str, start: str = "model", path: str = "<text>") -> ParseResult:
    """Parse ``text`` from entry point ``start``: always a tree, damaged statements as error nodes."""
    if start not in ENTRY_POINTS:
        raise ValueError(f"unknown entry point {start!r}; use one of {', '.join(ENTRY_POINTS)}")
    source = SourceFile(text, path)
    parser = _parser()
    with parser.lock:
        tree, diags, comments = _run(parser, text, start, source)
        if start in _ITEM_OPENER and any(d.is_error for d in diags):
            # onnx.parser's parse_graph, parse_function and parse_node stop where their item ends and
            # never read what follows: a text it accepts so is read the same, with a warning there
            end = item_end(text, start)
            if end is not None:
                prefix = _run(parser, text[:end], start, source)
                if not any(d.is_error for d in prefix[1]):
                    tree, diags, comments = prefix
                    at = _BLANK.match(text, end).end()  # type: ignore[union-attr]  # matches always
                    eol = text.find("\n", at)
                    diags.append(
                        Diagnostic.at(
                            TRAILING_TEXT,
                            Severity.WARNING,
                            f"text after the {start} is not read (onnx.parser ignores it too)",
                            Span(at, len(text) if eol < 0 else eol),
                            source,
                        )
                    )
    diags.sort(key=lambda d: d.offset)
    return ParseResult(tree, diags, source, comments)


def parse_window(source: SourceFile, begin: int, stop: int) -> ParseResult:
    """Parse ``source.text[begin:stop]`` as the statements of a body (a ``node_list`` whose braces
    are virtual, at ``begin`` and ``stop``), spans in offsets of the whole text: what an edit inside
    a body re-reads (``onnxtext.incremental``). The tree is the list of statements."""
    parser = _parser()
    with parser.lock:
        tree, diags, comments = _run(parser, source.text, "node_list", source, (begin, stop))
    diags.sort(key=lambda d: d.offset)
    return ParseResult(tree[0] if isinstance(tree, tuple) else tree, diags, source, comments)


# Where an item of each entry point ends as onnx.parser reads it: the bracket its last part opens
# after the token that precedes it (a graph's or function's body after '=>', a node's inputs after '=').
_ITEM_OPENER = {"graph": ("ARROW", "LBRACE"), "function": ("ARROW", "LBRACE"), "node": ("EQUAL", "LPAR")}
_OPEN = {"LPAR": "RPAR", "LSQB": "RSQB", "LBRACE": "RBRACE", "PROPS": "RBRACE", "LT": "GT"}
_CLOSE = frozenset(_OPEN.values())
_BLANK = re.compile(WHITESPACE + "*(?:" + COMMENT + WHITESPACE + "*)*")


def item_end(text: str, start: str) -> int | None:
    """The offset where onnx.parser stops reading ``text`` as a ``start`` (graph, function or node):
    after the body's closing '}' (a node: after its inputs' ')', then an attribute list '<...>' and
    a property block '@{...}' right after), when text follows; None when nothing does or the
    brackets do not close."""
    after, body = _ITEM_OPENER[start]
    closers: list[str] = []  # the closing brackets expected, innermost last
    seen = False  # the token before the body, at the top level
    group = False  # inside the body (or a node's trailing group) at the top level
    end: int | None = None
    tail = ["LT", "PROPS"] if start == "node" else []
    for tok in tokenize(text):
        if end is not None and not closers:
            if tok.type not in tail:
                return end
            tail = tail[tail.index(tok.type) + 1 :]
            closers.append(_OPEN[tok.type])
            group = True
            continue
        if tok.type in _OPEN:
            if not closers and seen and tok.type == body:
                group = True
            elif not closers and seen and tok.type == "LT" and end is None:
                tail = ["PROPS"]  # a node's attributes before its inputs: none are read after them
            closers.append(_OPEN[tok.type])
        elif tok.type in _CLOSE:
            if not closers or tok.type != closers[-1]:
                return None
            closers.pop()
            if not closers and group:
                end, group = tok.end, False
        elif not closers and tok.type == after:
            seen = True
    return None


def _run(
    tables: Tables, text: str, start: str, source: SourceFile, window: tuple[int, int] | None = None
) -> tuple[Any, list[Diagnostic], list[Comment]]:
    """Parse ``text`` from ``start`` (or only ``window``'s statements): always a tree, with every
    diagnostic and the comments."""
    run = Run(tables, text, start, source, window)
    builder = tables.builder
    builder.diags = run.diags
    builder.source = source
    builder.models = []
    tree = run.parse()
    diags = lex_diagnostics(run.lex_errors, source) + run.diags
    if builder.models:
        # A second model in the file: its one diagnostic says so, nothing inside it is reported.
        slips = builder.models
        diags = [d for d in diags if d.code == SECOND_MODEL or not any(s.start <= d.offset < s.end for s in slips)]
    return tree, diags, run.comments
