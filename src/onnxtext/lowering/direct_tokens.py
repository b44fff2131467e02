"""The token scans of the parse fast path (``lowering/direct.py``): one ``findall`` each.

:data:`TOKENS` splits a text as the lexer (``syntax/lexer.py``) does; :data:`FAST_TOKENS`
does the same, but takes a node statement written on one line in its common form
(``[label] a, b = domain.Op <attrs> (x, y)``, names plain or quoted without escapes, no
subgraph, reference, comment or property block inside) as one token, which
:func:`statement_parts` then splits in one match. A whole statement costs one match
instead of one per token (a 30,000-node text: about 20 ms instead of 80).

It also takes the typed values of a signature (``(float[N, 4] x, float[4] w, ...)``, its
parentheses included) as one token, which :func:`typed_values` splits in one findall, and a
graph's initializers with number lists (``<float[4] w = {...}, ...``, up to the first
other one), which :func:`initializer_values` splits.

A statement token starts with ``[`` or a letter and always holds ``(``: it is not an
identifier, so the reader refuses it wherever a name is expected (``ident``,
``value_name``: ``str.isidentifier``); a typed values token starts with ``(`` and an
initializers token with ``<``, each longer than that one character.
"""

from __future__ import annotations

import re

from onnxtext.syntax.lexer import COMMENT, NUMBER_LIST_BODY, STRING_PLAIN, TERMINALS, WHITESPACE, WORD, punctuation

__all__ = [
    "FAST_TOKENS",
    "TOKENS",
    "SINGLE",
    "Parts",
    "initializer_values",
    "is_compound",
    "is_statement",
    "number_body_ok",
    "split_names",
    "statement_parts",
    "typed_values",
]

# One token per match, whitespace and comments skipped before it. The tokens are the lexer's,
# built from its terminal table (syntax/lexer.py: TERMINALS and the pieces it is made of), the
# one definition of the language's tokens; tests/test_fast_tokens.py fails when they drift.
# Where two alternatives can match at one offset they keep the lexer's order (a number list
# before `{`, hex before decimal, `=>` before `=`); the others come most frequent first (words
# and punctuation). Narrower than the lexer, deliberately, and declined by the reader:
# - a word is the lexer's WORD without its guard `(?!\w)`: in a text that is not ASCII a word
#   ends where [A-Za-z0-9_] does, and a token holding other characters is refused unless it is
#   a string (direct_model);
# - the lexer's slips (an unclosed string, an unquoted non-ASCII name, single quotes, `->`) are
#   not read: anything else is one character the reader never accepts.
# The end of the text (after any whitespace or comment) is the empty token.
_SPACE = WHITESPACE + "*(?:" + COMMENT + WHITESPACE + "*)*"
SINGLE = (
    TERMINALS["RAWOP"],  # before the word it starts with, as in the lexer (the reader refuses it)
    WORD,
    punctuation(exclude=("{",)),  # `{` after the number list, as the lexer orders them
    TERMINALS["NUMBER"],
    TERMINALS["NUMLIST"],
    r"\{",
    TERMINALS["STRING"],
    r"\Z",
    ".",
)
"""The alternatives of one token of :data:`TOKENS`, in the order tried."""
_SINGLE = "|".join(SINGLE)

TOKENS = re.compile(_SPACE + "(" + _SINGLE + ")", re.DOTALL)

# The fast scan takes a number list up to its `}` whatever it holds (a few times cheaper per
# character than the lexer's class), once it starts as one (a digit, '-', nan, inf): anything
# that is not the lexer's number list then (a comment, a string, a word inside) reads as one
# token too, which the reader refuses (number_body_ok: the lexer's NUMBER_LIST_BODY) unless a
# parse that takes only numbers has read it (orjson, for a batch of initializers).
_LOOSE_NUMBERS = r"\{[ \t\r\n]*+(?:[-0-9]|(?i:nan|inf(?:inity)?)(?![A-Za-z0-9_]))[^}]*+\}"
_NUMBER_BODY = re.compile(NUMBER_LIST_BODY)
_FAST_SINGLE = _LOOSE_NUMBERS + "|" + _SINGLE


def _possessive(pattern: str) -> str:
    """``pattern`` (ending in a repetition ``*``) with that repetition possessive."""
    assert pattern.endswith("*") and not pattern.endswith("\\*"), pattern
    return pattern + "+"


def _narrowed(char_class: str, more: str) -> str:
    """A negated character class (``[^...]``) that also excludes ``more``."""
    assert char_class.startswith("[^") and char_class.endswith("]"), char_class
    return char_class[:-1] + more + "]"


# A node statement on one line. Quoted names hold no escape, space, or character the split
# below relies on; the attributes hold no subgraph, reference, property block or comment
# (strings without escapes and number lists are fine). It ends at the end of its line, a
# comment, a `}` or its property block (not a line that `=>` begins: that is a subgraph
# attribute `body = g (x)` whose signature goes on). Possessive quantifiers: a word that is not a
# statement's start costs no backtracking; at most 16 outputs: a word in a long list of
# names is not the start of a statement scanned to the list's end (which would be quadratic).
_IDENT = _possessive(WORD)
_QNAME = '"' + _narrowed(STRING_PLAIN, r"\s,#=()<>\[\]{}@") + '*+"'
_NAME = "(?:" + _IDENT + "|" + _QNAME + ")"
_NAMES = _NAME + r"(?:[ \t]*+,[ \t]*+" + _NAME + ")*+"
_ATTRS = r'(?=[^>])[^<>(){}"@#\n\\]*+(?:(?:"[^"\\\n]*+"|\{[^{}"#\n\\]*+\})[^<>(){}"@#\n\\]*+)*+'
_OP = _IDENT + r"(?:\." + _IDENT + ")*+"
_END = r"(?=[ \t\r]*(?:[\n#}]|\Z|@\{))(?![ \t\r]*\n[ \t\r\n]*=>)"
_STATEMENT = (
    r"(?:\[[ \t]*+" + _NAME + r"?[ \t]*+\][ \t]*+" + _NAME + "|" + _IDENT + ")"
    r"(?:[ \t]*+,[ \t]*+" + _NAME + "){0,15}+"
    r"[ \t]*+=(?!>)[ \t]*+" + _OP + r"(?:[ \t]*+:[ \t]*+" + _IDENT + ")?"
    r"[ \t]*+(?:<" + _ATTRS + r">[ \t]*+)?"
    r"\([ \t]*+(?:" + _NAMES + r"[ \t]*+)?\)"
    r"(?:[ \t]*+<" + _ATTRS + ">)?" + _END
)
# A signature's typed values with their parentheses, ``(float[N, 4] x, int64 y)`` (names plain
# or quoted without escapes; no property block, comment or other type): one token.
_DIMS = r"\[[A-Za-z0-9_?, \t]*+\]"
_TYPED = _IDENT + "(?:" + _DIMS + r")?[ \t]++" + _NAME
_VALUES = r"\([ \t\r\n]*+" + _TYPED + r"(?:[ \t\r\n]*+,[ \t\r\n]*+" + _TYPED + r")*+[ \t\r\n]*+\)"
_TYPED_PARTS = re.compile("(" + _IDENT + ")(" + _DIMS + r")?[ \t]++(" + _NAME + ")")

# A graph's initializers with number lists, ``<float[4] w = {...}, int64 s = {3}``, from the `<`
# up to a `,` or `>` (an initializer with notes, external data or no value ends it): one token.
_INITIALIZER = _TYPED + r"[ \t]*+=[ \t]*+" + _LOOSE_NUMBERS
_INITIALIZERS = (
    r"<[ \t\r\n]*+" + _INITIALIZER + r"(?:[ \t\r\n]*+,[ \t\r\n]*+" + _INITIALIZER + r")*+(?=[ \t\r\n]*+[,>])"
)
_INITIALIZER_PARTS = re.compile("(" + _IDENT + ")(" + _DIMS + r")?[ \t]++(" + _NAME + r")[ \t]*+=[ \t]*+\{([^}]*+)\}")

FAST_TOKENS = re.compile(
    _SPACE + "(" + _STATEMENT + "|" + _VALUES + "|" + _INITIALIZERS + "|" + _FAST_SINGLE + ")", re.DOTALL
)

# The parts of a statement token: the label's brackets, the label, the outputs, the
# operator (domain included), the overload, the attributes before and after the inputs
# (an absent part is ""). Statement tokens are read a run at a time: one findall over
# the run's lines.
_PARTS = re.compile(
    r"^(\[[ \t]*(" + _NAME + r")?[ \t]*\])?[ \t]*"
    r"(" + _NAME + r"(?:[ \t]*,[ \t]*" + _NAME + r")*)[ \t]*=[ \t]*"
    r"(" + _OP + r")(?:[ \t]*:[ \t]*(" + _IDENT + r"))?[ \t]*"
    r"(?:<(" + _ATTRS + r")>[ \t]*)?"
    r"\([ \t]*(" + _NAMES + r")?[ \t]*\)"
    r"(?:[ \t]*<(" + _ATTRS + r")>)?$",
    re.MULTILINE,
)

Parts = tuple[str, str, str, str, str, str, str, str]


def number_body_ok(body: str) -> bool:
    """Whether a number list's body (between its braces) is the lexer's: one token of numbers."""
    return _NUMBER_BODY.fullmatch(body) is not None


def is_compound(tok: str) -> bool:
    """Whether a token of :data:`FAST_TOKENS` stands for several of the lexer's (a statement, typed
    values or initializers)."""
    return len(tok) > 1 and tok[0] in _COMPOUND_START and not tok.isidentifier()


_COMPOUND_START = frozenset("[<(ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")


def is_statement(tok: str) -> bool:
    """Whether a token of :data:`FAST_TOKENS` is a whole node statement."""
    return len(tok) > 1 and "(" in tok and tok[0] != '"' and tok[0] != "("


def statement_parts(tokens: list[str]) -> list[Parts] | None:
    """The parts of each statement token, or None if one is not all a statement (cannot be: a safeguard)."""
    parts: list[Parts] = _PARTS.findall("\n".join(tokens))
    return parts if len(parts) == len(tokens) else None


def typed_values(tok: str) -> list[tuple[str, str, str]]:
    """The (element type, dims with their brackets or "", name) of a typed values token."""
    found: list[tuple[str, str, str]] = _TYPED_PARTS.findall(tok)
    if '"' in tok:
        return [(elem, dims, name[1:-1] if name[0] == '"' else name) for elem, dims, name in found]
    return found


def initializer_values(tok: str) -> list[tuple[str, str, str, str]]:
    """The (element type, dims with their brackets or "", name, numbers) of an initializers token."""
    found: list[tuple[str, str, str, str]] = _INITIALIZER_PARTS.findall(tok)
    if '"' in tok:
        return [(elem, dims, name[1:-1] if name[0] == '"' else name, body) for elem, dims, name, body in found]
    return found


def split_names(names: str) -> list[str]:
    """The names of a statement's ``a, "b", c`` (quotes taken off; a quoted name holds no space or comma)."""
    if '"' not in names:
        return names.replace(" ", "").replace("\t", "").split(",")
    return [n[1:-1] if n[:1] == '"' else n for n in names.replace(" ", "").replace("\t", "").split(",")]
