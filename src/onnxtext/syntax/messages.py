"""The parser's words: its diagnostic codes and the sentences of its syntax errors
("expected ')' or ',', found name 'x'")."""

from __future__ import annotations

from collections.abc import Sequence

from onnxtext.diagnostics import Diagnostic, Edit, Fix, Severity
from onnxtext.span import SourceFile, Span
from onnxtext.syntax.lexer import KEYWORDS, LexError, Tok

__all__ = [
    "BAD_STRING",
    "LEXICAL",
    "SECOND_MODEL",
    "SYNTAX",
    "TERMINAL_NAMES",
    "UNKNOWN_ESCAPE",
    "describe_syntax_error",
    "found_text",
    "lex_diagnostics",
    "wanted_text",
]

# Diagnostic codes of the parser.
SYNTAX = "P001"
LEXICAL = "P002"
BAD_STRING = "P003"
UNKNOWN_ESCAPE = "P004"
SECOND_MODEL = "P005"
NO_OPERATOR = "P006"
TRAILING_TEXT = "P007"


def lex_diagnostics(errors: list[LexError], source: SourceFile) -> list[Diagnostic]:
    out = []
    for e in errors:
        span = Span(e.start, e.end)
        fix = Fix(e.help, (Edit(span, e.replacement),)) if e.replacement is not None else None
        code = BAD_STRING if e.kind in ("unclosed-string", "single-quotes") else LEXICAL
        out.append(Diagnostic.at(code, Severity.ERROR, e.message, span, source, fix=fix))
    return out


TERMINAL_NAMES = {
    "IDENT": "a name",
    "STRING": "a string",
    "NUMBER": "a number",
    "NUMLIST": "tensor values",
    "RAWOP": "an operator name",
    "SEQ": "'seq'",
    "MAP": "'map'",
    "OPTIONAL": "'optional'",
    "SPARSE_TENSOR": "'sparse_tensor'",
    "OPAQUE": "'opaque'",
    "LT": "'<'",
    "GT": "'>'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "PROPS": "'@{'",
    "COMMA": "','",
    "COLON": "':'",
    "EQUAL": "'='",
    "DOT": "'.'",
    "QMARK": "'?'",
    "AT": "'@'",
    "ARROW": "'=>'",
    "$END": "the end of the text",
}

_ORDER = [
    "COMMA",
    "RPAR",
    "RSQB",
    "RBRACE",
    "GT",
    "EQUAL",
    "ARROW",
    "COLON",
    "LPAR",
    "LSQB",
    "LBRACE",
    "LT",
    "IDENT",
    "STRING",
    "NUMBER",
]


def found_text(tok: Tok) -> str:
    if tok.type == "$END":
        return "the end of the text"
    if tok.type == "IDENT":
        return f"name '{tok.value}'"
    if tok.type == "STRING":
        return f"string {tok.value}" if len(tok.value) < 40 else "a string"
    if tok.type == "NUMBER":
        return f"number {tok.value}"
    if tok.type == "NUMLIST":
        return "tensor values"
    if tok.type in KEYWORDS.values():
        return f"keyword '{tok.value}'"
    return f"'{tok.value}'"


def describe_syntax_error(expected: Sequence[str], tok: Tok) -> str:
    """A human sentence: what was expected at a token and what was found."""
    return f"expected {wanted_text(expected)}, found {found_text(tok)}"


def wanted_text(expected: Sequence[str]) -> str:
    """The terminals a parser state accepts, in words: "a name, ')' or ','"."""
    if "NUMLIST" in expected and "LBRACE" in expected:
        expected = [e for e in expected if e != "NUMLIST"]
    if "RAWOP" in expected and "IDENT" in expected:
        # An operator's place: its name is "a name" too, and leaving the operator out (`y = (x)`,
        # read as onnx.parser reads it, with a warning) is not what is asked for.
        expected = [e for e in expected if e not in ("RAWOP", "COLON", "LPAR", "LT")]
    keys = sorted(expected, key=lambda t: (_ORDER.index(t) if t in _ORDER else len(_ORDER), t))
    names = [TERMINAL_NAMES.get(k, k) for k in keys]
    if not names:
        wanted = "nothing more"
    elif len(names) == 1:
        wanted = names[0]
    elif len(names) <= 6:
        wanted = ", ".join(names[:-1]) + " or " + names[-1]
    else:
        wanted = ", ".join(names[:5]) + " or another token"
    return wanted
