"""Text → AST: ``parse_text``, the one way in; always a tree, with every diagnostic and the comments.

The parse is cut along its seams: the grammar's LALR table (``syntax.tables``), the
reduce callbacks that build the AST (``syntax.build``), the driver loop and its error
recovery (``syntax.recovery``) and the sentences of its errors (``syntax.messages``).
Comments are kept as the lexer found them; ``syntax.comments`` attaches them for layout.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from onnxtext.diagnostics import Diagnostic
from onnxtext.span import SourceFile
from onnxtext.syntax.lexer import Comment
from onnxtext.syntax.messages import SECOND_MODEL, lex_diagnostics
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
