"""``fmt``'s entry point: a text already in the printed form (no comments, no blank lines
inside bodies) is formatted from its protobuf (the parse and print fast paths); any other
text through the tree (``syntax.format.format_text``, the definition of ``fmt``)."""

from __future__ import annotations

import re

from onnxtext._gc import collector_paused
from onnxtext.lowering.direct import model_of_tokens, scan
from onnxtext.printing.text import NotRepresentable, to_text
from onnxtext.syntax.format import format_text as tree_format
from onnxtext.syntax.layout import DEFAULT_WIDTH

__all__ = ["format_text", "printed_alike", "tree_format"]


def format_text(text: str, kind: str = "model", path: str = "<text>", width: int = DEFAULT_WIDTH) -> str:
    """Reformat a text in the canonical style for ``width`` columns, keeping comments (see
    ``syntax.format.format_text``); a model text that prints back to its own tokens takes the
    fast way. Raises :class:`ParseError` for a text with syntax errors."""
    with collector_paused():
        if kind == "model":
            canonical = printed_alike(text, width)
            if canonical is not None:
                return canonical
        return tree_format(text, kind, path, width)


# A blank line, but the one a printed text has after a graph's or function's closing brace.
_BLANK_LINE = re.compile(r"(?<!\n\})(?<!\n\}\r)\n[ \t\r\f\v]*\n")
_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\]|\\.)*"|(#)', re.DOTALL)


def _unspaced(numbers: str) -> str:
    """A number list token without the spaces and line breaks it may hold (the lexer's: `` \t\r\n``)."""
    return numbers.replace(" ", "").replace("\n", "").replace("\t", "").replace("\r", "")


def printed_alike(text: str, width: int) -> str | None:
    """``format_text`` of a model text the parse fast path reads, without comments or blank lines, when
    printing its protobuf gives the very tokens of the text (or None: the tree's way then).

    Both texts then make one tree (spans apart: the parser sees the same tokens), whose layout
    without comments and kept blank lines is the formatted text; and a printed text formats to
    itself (``test_golden.test_print_canonical``). So no tree is built for an already formatted
    or merely re-indented text, the commonest input of ``fmt``.
    """
    if text[:1].isspace() or _BLANK_LINE.search(text) or "#" in text and any(_STRING_OR_COMMENT.findall(text)):
        return None
    tokens = scan(text)
    model = model_of_tokens(tokens) if tokens is not None else None
    if tokens is None or model is None:
        return None
    try:
        printed = to_text(model, width)
    except NotRepresentable:
        return None
    again = scan(printed)
    if again == tokens:
        return printed
    if again is None or len(again) != len(tokens):
        return None
    for a, b in zip(tokens, again, strict=True):
        # A number list is one token, spaces and line breaks included: the formatter lays its
        # numbers out again (each number is read without spaces in it, or the fast path declines).
        if a != b and not (a[:1] == "{" and b[:1] == "{" and _unspaced(a) == _unspaced(b)):
            return None
    return printed
