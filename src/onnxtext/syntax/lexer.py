"""Tokens: one compiled regular expression turns a text into the grammar's terminals.

Keywords are contextual: the lexer reports every word as ``IDENT`` and the parser
driver (``parser.py``) turns a word into a keyword terminal only where the grammar
accepts that keyword, so ``seq`` or ``map`` remain usable as value names.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass

__all__ = [
    "Tok",
    "Comment",
    "LexError",
    "tokenize",
    "KEYWORDS",
    "unescape_string",
    "STRING_ESCAPES",
    "TERMINALS",
    "WHITESPACE",
    "COMMENT",
    "WORD",
    "RAW_OP",
    "NUMBER_LIST_BODY",
    "STRING_PLAIN",
    "punctuation",
]


class Tok:
    """A token: terminal ``type``, source ``value`` and its ``[start, end)`` offsets."""

    __slots__ = ("type", "value", "start", "end")

    def __init__(self, type: str, value: str, start: int, end: int) -> None:
        self.type = type
        self.value = value
        self.start = start
        self.end = end

    def __repr__(self) -> str:
        return f"Tok({self.type}, {self.value!r}, {self.start})"


@dataclass(frozen=True, slots=True)
class Comment:
    """A ``#`` comment: its text (without the ``#``) and offsets."""

    text: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class LexError:
    """A character sequence that is no token, or a slip read as the token that was meant.

    ``replacement`` (when not None) is the text that fixes the slip; ``help`` says so.
    ``kind`` says which (one of ``LEX_ERROR_KINDS``): the parser chooses the code by it.
    """

    message: str
    start: int
    end: int
    replacement: str | None = None
    help: str = ""
    kind: str = "character"


LEX_ERROR_KINDS = ("character", "unclosed-string", "single-quotes", "unquoted-name", "arrow")
"""What a :class:`LexError` is: no token at all, a string not closed on its line, a string in
single quotes, a name that must be quoted, ``->`` for ``=>``."""


KEYWORDS = {
    "seq": "SEQ",
    "map": "MAP",
    "optional": "OPTIONAL",
    "sparse_tensor": "SPARSE_TENSOR",
    "opaque": "OPAQUE",
}

_PUNCT = {
    "<": "LT",
    ">": "GT",
    "(": "LPAR",
    ")": "RPAR",
    "[": "LSQB",
    "]": "RSQB",
    "{": "LBRACE",
    "}": "RBRACE",
    ",": "COMMA",
    ":": "COLON",
    "=": "EQUAL",
    ".": "DOT",
    "?": "QMARK",
    "@": "AT",
    "=>": "ARROW",
    "@{": "PROPS",
}

# The terminals' patterns: the one definition of the language's tokens (the grammar,
# grammar/onnxtext.lark, declares their names). The lexer joins TERMINALS in order, the
# first that matches at an offset wins; the parse fast path's scans (lowering/direct_tokens.py)
# are built from the same pieces, and tests/test_fast_tokens.py fails when they drift.
WHITESPACE = r"[ \t\r\n\f\v]"
"""One character of whitespace."""
COMMENT = r"\#[^\n]*"
WORD = r"[A-Za-z_][A-Za-z0-9_]*"
"""An ASCII word: an ``IDENT`` where no other word character follows it."""
NUMBER_LIST_BODY = r"[ \t\r\n]*[-0-9nNiI][-+0-9.,a-fA-FnNiItTyYxX \t\r\n]*"
"""What a number list holds between its braces (``{1, 2.5, -inf}``): read as one token."""
STRING_PLAIN = r'[^"\\]'
"""A string's character that is not part of an escape."""
RAW_SEGMENT = r"[A-Za-z0-9_+\-|]"
"""A character of a dotted operator name as onnx.printer writes a node's domain (``pkg.torch.2.2.0a0+git``)."""
RAW_OP = (
    r"(?=[A-Za-z_][A-Za-z0-9_]*+[.+\-|])(?=[A-Za-z_][A-Za-z0-9_.+\-|]*(?:\.[0-9]|[+\-|]))[A-Za-z_]"
    + RAW_SEGMENT
    + r"*(?:\."
    + RAW_SEGMENT
    + "+)+"
)
"""A dotted operator name one of whose parts is no word (a part after a dot starts with a digit, or one
holds ``+``, ``-`` or ``|``): onnx.printer writes a node's domain as it is (exporters put versions in them,
``pkg.torch.2.2.0a0+git63d65dd.Op``), which onnx.parser cannot read back; read as one token. Its first
lookahead is implied by the rest: a word followed by none of ``.+-|`` fails at once, without backtracking."""
_UNROLLED = STRING_PLAIN + r"*(?:\\." + STRING_PLAIN + "*)*"  # (?:[^"\\]|\\.)*, at half the cost


def punctuation(exclude: Collection[str] = ()) -> str:
    """The pattern of the punctuation tokens (``_PUNCT``), the longer first, but those in ``exclude``."""
    marks = [p for p in _PUNCT if p not in exclude]
    longer = [re.escape(p) for p in sorted((p for p in marks if len(p) > 1), key=len, reverse=True)]
    single = "".join("\\" + p if p in "\\]^-[" else p for p in marks if len(p) == 1)
    return "|".join([*longer, "[" + single + "]"])


TERMINALS: dict[str, str] = {
    "WS": WHITESPACE + "+",
    "COMMENT": COMMENT,
    "NUMLIST": r"\{" + NUMBER_LIST_BODY + r"\}",
    "NUMBER": r"0[xX][0-9a-fA-F]+|-?\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|-(?i:nan|infinity|inf)\b",
    "RAWOP": RAW_OP,
    "IDENT": WORD + r"(?!\w)",
    "STRING": '"' + _UNROLLED + '"',
    "PUNCT": punctuation(),
    # Slips, each read as the token that was meant, with a LexError that says so.
    "BADSTRING": '"' + _UNROLLED + r"\\?\Z",
    "UNAME": r"[^\W\d]\w*",
    "SQSTRING": r"'(?:[^'\\\n]|\\.)*'",
    "SLIPARROW": r"->",
    "ERROR": r".",
}
"""Each terminal's pattern (and the lexer's groups that are not terminals: whitespace, comments,
slips, any other character), in the lexer's order."""

_TOKEN_RE = re.compile("|".join(f"(?P<{name}>{pattern})" for name, pattern in TERMINALS.items()), re.DOTALL)


def tokenize(
    text: str, comments: list[Comment] | None = None, errors: list[LexError] | None = None, pos: int = 0
) -> Iterator[Tok]:
    """Yield the tokens of ``text`` from offset ``pos``; comments and lexical errors go to the given lists.

    Common slips are read as the token that was meant, with a lexical error that says
    how to write it: ``->`` for ``=>``, ``'single'`` quotes, unquoted non-ASCII names,
    and a string left open at the end of the text (closed at the end of its line).
    """
    punct = _PUNCT
    at: int | None = pos
    while at is not None:
        restart = None
        for m in _TOKEN_RE.finditer(text, at):
            kind = m.lastgroup
            if kind == "WS":
                continue
            start, end = m.span()
            if kind == "IDENT" or kind == "NUMBER" or kind == "STRING" or kind == "NUMLIST":
                yield Tok(kind, m.group(), start, end)
            elif kind == "PUNCT":
                value = m.group()
                yield Tok(punct[value], value, start, end)
            elif kind == "RAWOP":
                yield Tok(kind, m.group(), start, end)
            elif kind == "COMMENT":
                if comments is not None:
                    comments.append(Comment(m.group()[1:], start, end))
            elif kind == "BADSTRING":
                # Close it at the end of its line so that the rest of the text is still read.
                eol = text.find("\n", start)
                stop = len(text) if eol < 0 else eol
                if errors is not None:
                    where = "line" if eol >= 0 else "text"
                    errors.append(
                        LexError(
                            f"string literal is not closed: expected '\"' before the end of the {where}",
                            start,
                            stop,
                            text[start:stop] + '"',
                            "close the string",
                            "unclosed-string",
                        )
                    )
                yield Tok("STRING", text[start:stop] + '"', start, stop)
                restart = eol if eol >= 0 else None
                break
            elif kind == "UNAME":
                value = m.group()
                if errors is not None:
                    errors.append(
                        LexError(
                            "names outside [A-Za-z0-9_] must be quoted",
                            start,
                            end,
                            f'"{value}"',
                            "quote the name",
                            "unquoted-name",
                        )
                    )
                yield Tok("IDENT", value, start, end)
            elif kind == "SQSTRING":
                value = m.group()
                if errors is not None:
                    double = '"' + value[1:-1].replace('"', '\\"') + '"'
                    errors.append(
                        LexError(
                            "strings use double quotes",
                            start,
                            end,
                            double,
                            "write the string in double quotes",
                            "single-quotes",
                        )
                    )
                yield Tok("STRING", value, start, end)
            elif kind == "SLIPARROW":
                if errors is not None:
                    errors.append(
                        LexError("write '=>' for the arrow of a signature", start, end, "=>", "write '=>'", "arrow")
                    )
                yield Tok("ARROW", "->", start, end)
            elif errors is not None:
                errors.append(LexError(f"unexpected character {m.group()!r}", start, end))
        at = restart


STRING_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    '"': '"',
    "\\": "\\",
    "'": "'",
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "\n": "",
}

_ESCAPE_RE = re.compile(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)", re.DOTALL)


def unescape_string(token_text: str) -> tuple[bytes, list[tuple[int, str]]]:
    """The bytes a string literal denotes (quotes included in ``token_text``).

    ``\\xNN`` is one byte (so a string may hold bytes that are not UTF-8); ``\\uNNNN`` and
    ``\\UNNNNNNNN`` are code points written as UTF-8. Returns the bytes and a list of
    (offset in token, message) for unknown escapes.
    """
    body = token_text[1:-1]
    if "\\" not in body:
        return body.encode("utf-8", "surrogatepass"), []
    out = bytearray()
    problems: list[tuple[int, str]] = []
    pos = 0
    for m in _ESCAPE_RE.finditer(body):
        out += body[pos : m.start()].encode("utf-8", "surrogatepass")
        esc = m.group(1)
        head = esc[0]
        if head == "x" and len(esc) == 3:
            out.append(int(esc[1:], 16))
        elif head in "uU" and len(esc) > 1:
            code = int(esc[1:], 16)
            if code > 0x10FFFF:
                problems.append((m.start() + 1, f"\\{esc} is not a unicode code point"))
            else:
                out += chr(code).encode("utf-8", "surrogatepass")
        elif esc in STRING_ESCAPES:
            out += STRING_ESCAPES[esc].encode("utf-8")
        else:
            problems.append((m.start() + 1, f"unknown escape sequence '\\{esc}' (write '\\\\' for a backslash)"))
            out += esc.encode("utf-8", "surrogatepass")
        pos = m.end()
    out += body[pos:].encode("utf-8", "surrogatepass")
    return bytes(out), problems
