"""A Pygments lexer for onnxtext (``.onnxtxt``), registered through the ``pygments.lexers``
entry point: Sphinx, Jupyter, ``rich`` and every tool built on Pygments find it by the
aliases ``onnxtxt``/``onnxtext`` and the file names ``*.onnxtxt``/``*.onnxtext``.

It colours what the editor colours: the text is parsed (the parser never fails, so a
damaged text or a fragment is coloured too) and the language server's semantic tokens
(:mod:`onnxtext.ide.semantic`) say what each word is; the rest is punctuation and
whitespace. ``tests/test_highlight.py`` holds its tokens to the TextMate grammar's
(``editors/vscode/syntaxes``) on the grammar's fixtures.

Pygments is not a dependency of onnxtext: only Pygments loads this module (through the
entry point), so Pygments is there whenever it is imported.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from pygments.lexer import Lexer
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
    _TokenType,
)

from onnxtext.syntax import ast as A

if TYPE_CHECKING:
    from onnxtext.document import Document

__all__ = ["OnnxTextLexer"]

_KINDS = ("model", "graph", "node_list")
_GAP = re.compile(r"\s+|=>|->|[=@]|[A-Za-z_][A-Za-z0-9_]*|[^\s=@]")
_COMPOSITE = frozenset({"seq", "map", "optional", "sparse_tensor", "opaque"})
_HEADER = re.compile(r"(?:\s|#[^\n]*)*<")


def _parse(text: str) -> Document | None:
    """The document of the entry point that reads ``text`` with the fewest errors (a model first;
    only a model when the text starts with its header)."""
    from onnxtext.document import parse_document

    best = None
    for kind in _KINDS[:1] if _HEADER.match(text) else _KINDS:
        doc = parse_document(text, kind)
        errors = sum(d.is_error for d in doc.diagnostics)
        if best is None or errors < best[0]:
            best = (errors, doc)
        if errors == 0:
            break
    return best[1] if best is not None else None


def _attribute_names(tree: A.AstNode) -> set[tuple[int, int]]:
    """Spans of attribute names (``alpha`` in ``<alpha = 0.5>``, ``@alpha``): not keys."""
    out: set[tuple[int, int]] = set()
    for node in A.walk(tree):
        if isinstance(node, (A.Attribute, A.AttrRef)):
            out.add((node.name.span.start, node.name.span.end))
        if isinstance(node, A.AttrRef):
            out.add((node.span.start, node.span.end))
    return out


def _token_type(kind: str, modifiers: tuple[str, ...], text: str, attribute: bool) -> _TokenType:
    if kind == "comment":
        return Comment.Single
    if kind == "number":
        return Number.Integer if re.fullmatch(r"[-+]?(0[xX][0-9a-fA-F]+|\d+)", text) else Number.Float
    if kind == "string":
        return String.Double
    if kind == "keyword":
        return Keyword.Constant
    if kind == "property":
        return Name.Attribute if attribute else Keyword  # attribute names are told apart by the caller
    if kind == "type":
        return Keyword.Type
    if kind in ("variable", "parameter"):
        return Name.Variable
    if kind == "function":
        return Name.Builtin if "defaultLibrary" in modifiers else Name.Function
    if kind == "namespace":
        return Name.Namespace
    if kind == "label":
        return Name.Label
    return Operator


class OnnxTextLexer(Lexer):
    """ONNX models as text (onnxtext): the superset of ``onnx.parser``'s syntax."""

    name = "ONNX Text"
    aliases = ["onnxtxt", "onnxtext"]
    filenames = ["*.onnxtxt", "*.onnxtext"]
    mimetypes = ["text/x-onnxtext"]
    url = "https://github.com/onnx/onnx/blob/main/docs/Syntax.md"

    def get_tokens_unprocessed(self, text: str) -> Iterator[tuple[int, _TokenType, str]]:  # type: ignore[override]
        from onnxtext.ide.semantic import semantic_tokens

        doc = _parse(text)
        if doc is None or doc.tree is None:
            return
        tree = doc.tree
        words = [
            (t.span.start, t.span.end, _token_type(t.type, t.modifiers, text[t.span.start : t.span.end], False))
            for t in semantic_tokens(tree, doc.comments)
        ]
        attributes = _attribute_names(tree)
        words = [(a, b, Name.Attribute if kind is Keyword and (a, b) in attributes else kind) for a, b, kind in words]
        words += _damaged(text, tree)  # what the tree lost to damage, coloured word by word
        at = 0
        for start, end, kind in sorted(words):
            if start < at:
                continue
            yield from _gap(text, at, start)
            if kind in Number and not _NUMBER.fullmatch(text, start, end):
                yield from _numbers(text, start, end)  # a tensor's `{1, nan, -inf}` is one token of the tree
            else:
                yield start, kind, text[start:end]
            at = end
        yield from _gap(text, at, len(text))


_NUMBER = re.compile(r"[-+]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")
_LITERAL = re.compile(
    r"[-+]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|[-+]?(?i:nan|inf|infinity)\b|\s+|[^\s]"
)


def _numbers(text: str, start: int, end: int) -> Iterator[tuple[int, _TokenType, str]]:
    for m in _LITERAL.finditer(text, start, end):
        piece = m.group()
        if piece.isspace():
            yield m.start(), Whitespace, piece
        elif piece[-1].isdigit() or _NUMBER.fullmatch(piece):
            yield (
                m.start(),
                Number.Float
                if re.search(r"[.eE]", piece) and not piece.lower().startswith(("0x", "-0x"))
                else Number.Integer,
                piece,
            )
        elif piece[-1].isalpha():
            yield m.start(), Keyword.Constant, piece
        else:
            yield m.start(), Punctuation, piece


def _damaged(text: str, tree: A.AstNode) -> list[tuple[int, int, _TokenType]]:
    """The words of damaged statements (which the tree keeps as one error node each), classified by
    what is around them: strings, numbers, comments, element types, an operator after ``=``, names."""
    from onnxtext.ir.dtypes import dtype_by_name
    from onnxtext.syntax.lexer import Comment as LexComment
    from onnxtext.syntax.lexer import tokenize

    out: list[tuple[int, int, _TokenType]] = []
    for node in A.walk(tree):
        if not isinstance(node, A.ErrorNode):
            continue
        comments: list[LexComment] = []
        toks = []
        for tok in tokenize(text[: node.span.end], comments, [], node.span.start):
            toks.append(tok)
        out += [(c.start, c.end, Comment.Single) for c in comments]
        for i, tok in enumerate(toks):
            before = toks[i - 1].value if i > 0 else ""
            after = toks[i + 1].value if i + 1 < len(toks) else ""
            if tok.type == "STRING":
                kind: _TokenType = String.Double
            elif tok.type in ("NUMBER", "NUMLIST"):
                kind = Number.Float
            elif tok.type != "IDENT":
                continue
            elif dtype_by_name(tok.value) is not None:
                kind = Keyword.Type
            elif before == "=" and after in ("(", "<", "") or after == "." and before == "=":
                kind = Name.Builtin
            elif after == "=" and before in ("<", ","):
                kind = Name.Attribute
            else:
                kind = Name.Variable
            out.append((tok.start, tok.end, kind))
    return out


def _gap(text: str, start: int, end: int) -> Iterator[tuple[int, _TokenType, str]]:
    """What no semantic token covers: whitespace, operators, punctuation."""
    for m in _GAP.finditer(text, start, end):
        piece = m.group()
        if piece.isspace():
            yield m.start(), Whitespace if "\n" in piece or piece.strip() == "" else Text, piece
        elif piece in ("=", "=>", "->", "@"):
            yield m.start(), Operator, piece
        elif piece in _COMPOSITE:
            yield m.start(), Keyword.Type, piece  # seq(, map(...: the tree keeps no token for them
        elif piece[0].isalpha() or piece[0] == "_":
            yield m.start(), Name, piece
        else:
            yield m.start(), Punctuation, piece
