"""The parse fast path's scans (``lowering/direct_tokens.py``) are built from the lexer's terminal
table (``syntax/lexer.py``: ``TERMINALS`` and its pieces), the one definition of the language's
tokens: a test fails when they drift. The texts of the corpora are tokenised both ways in
``test_direct_parse.py::test_tokens_are_the_lexers``; here the table itself, each terminal's
lexemes, and random texts."""

from __future__ import annotations

import random
import re

import pytest

from onnxtext.lowering import direct_tokens
from onnxtext.lowering.direct_tokens import FAST_TOKENS, SINGLE, TOKENS, is_compound
from onnxtext.syntax.lexer import _PUNCT as PUNCT
from onnxtext.syntax.lexer import (
    COMMENT,
    NUMBER_LIST_BODY,
    TERMINALS,
    WHITESPACE,
    WORD,
    LexError,
    punctuation,
    tokenize,
)


def _lexer(text: str) -> list[str] | None:
    """The lexer's token texts, or None where it reports a lexical error."""
    errors: list[LexError] = []
    values = [t.value for t in tokenize(text, [], errors)]
    return None if errors else values


def test_the_fast_scan_is_the_lexers_table() -> None:
    """Every alternative of a token is the table's, or one of the declared narrowings."""
    table = {TERMINALS[name] for name in ("RAWOP", "NUMBER", "NUMLIST", "STRING")}  # taken as they are
    narrowed = {
        WORD: "the lexer's IDENT without its guard (?!\\w)",
        punctuation(exclude=("{",)): "PUNCT but `{`",
        r"\{": "`{`, after the number list as in the lexer",
        r"\Z": "the end of the text",
        ".": "any other character, which the reader refuses",
    }
    assert table <= set(SINGLE)
    assert all(alt in table or alt in narrowed for alt in SINGLE), SINGLE
    assert SINGLE.index(TERMINALS["NUMLIST"]) < SINGLE.index(r"\{")
    assert SINGLE.index(TERMINALS["RAWOP"]) < SINGLE.index(WORD)
    assert TERMINALS["IDENT"] == WORD + r"(?!\w)"
    assert TERMINALS["WS"] == WHITESPACE + "+" and TERMINALS["COMMENT"] == COMMENT
    assert TOKENS.pattern == WHITESPACE + "*(?:" + COMMENT + WHITESPACE + "*)*(" + "|".join(SINGLE) + ")"
    assert FAST_TOKENS.pattern.endswith("|" + "|".join(SINGLE) + ")")
    assert direct_tokens._NUMBER_BODY.pattern == NUMBER_LIST_BODY
    assert direct_tokens._IDENT == WORD + "+"  # possessive
    # the punctuation: every mark of the lexer, `{` after the number list
    marks = re.compile(punctuation(exclude=("{",)) + r"|\{")
    assert all(marks.fullmatch(p) for p in PUNCT)


# Each terminal the fast path reads, in its forms.
LEXEMES = [
    *PUNCT,
    "x",
    "_a9",
    "seq",
    "a.2",
    "pkg.t.2.2.0a0+g1.Op|f_0",
    "a-b.c",
    "0",
    "12",
    "-3",
    "1.",
    "2.50",
    "1e5",
    "-1.5E-3",
    "0x7FC0",
    "-nan",
    "-inf",
    "-Infinity",
    '""',
    '"a b"',
    '"q\\"uote\\\\"',
    '"line\\nnext"',
    "{1, 2}",
    "{ -1.5e3,nan , inf }",
    "{\n 0x3F80, 1 }",
]


@pytest.mark.parametrize("lexeme", LEXEMES)
def test_each_lexeme_is_one_token_both_ways(lexeme: str) -> None:
    assert _lexer(lexeme) == [lexeme]
    assert TOKENS.findall(f" {lexeme} # note\n")[:2] == [lexeme, ""]  # then the end: one or two empty tokens


def test_random_texts_tokenise_alike() -> None:
    """Random ASCII texts the lexer reads without an error: the same tokens both ways (the fast
    scan's where it takes no compound token or number list the reader refuses)."""
    rng = random.Random(30)
    alphabet = ["a", "b_", "x1", "0", "7", "0x1f", ".", "-", "+", "e", "E", "nan", "inf", "{", "}", "[", "]"]
    alphabet += ["(", ")", "<", ">", "=", ",", ":", "@", "?", '"', '\\"', "\\", "#", " ", "\n", "\t", "=>", "@{"]
    compared = 0
    for _ in range(4000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 24)))
        expected = _lexer(text)
        if expected is None:
            continue
        assert TOKENS.findall(text)[: len(expected) + 1] == [*expected, ""], text
        fast = FAST_TOKENS.findall(text)
        if not any(is_compound(t) or t[:1] == "{" for t in fast):
            assert fast[: len(expected) + 1] == [*expected, ""], text
        compared += 1
    assert compared > 1000
