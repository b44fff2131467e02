"""Semantic tokens: each word's kind, on a text with a header, initializers, subgraphs, functions."""

from __future__ import annotations

from onnxtext.ide.semantic import semantic_tokens
from onnxtext.syntax.parser import parse_text

TEXT = """<ir_version: 8, opset_import: ["" : 18, "com.x" : 1]>
main (float[N] x) => (float[N] y)
<float[1] w = {2.5}>
{
   # scale
   [lbl] a = Mul (x, w)
   y = com.x.Thing <alpha = 1.5, name = "s"> (a)
}
"""


def _words() -> list[tuple[str, str, tuple[str, ...]]]:
    result = parse_text(TEXT)
    assert result.ok, result.diagnostics
    return [
        (TEXT[t.span.start : t.span.end], t.type, t.modifiers) for t in semantic_tokens(result.tree, result.comments)
    ]


def test_every_kind_is_classified() -> None:
    words = _words()
    assert ("ir_version", "property", ()) in words
    assert ("8", "number", ()) in words
    assert ('"com.x"', "string", ()) in words
    assert ("main", "function", ("declaration",)) in words
    assert ("float", "type", ()) in words
    assert ("N", "parameter", ()) in words
    assert ("x", "variable", ("declaration",)) in words
    assert ("w", "variable", ("declaration", "readonly")) in words
    assert ("{2.5}", "number", ()) in words
    assert ("# scale", "comment", ()) in words
    assert ("lbl", "label", ()) in words
    assert ("Mul", "function", ("defaultLibrary",)) in words
    assert ("w", "variable", ("readonly",)) in words  # a use of an initializer
    assert ("com", "namespace", ()) in words and ("Thing", "function", ()) in words
    assert ("alpha", "property", ()) in words and ('"s"', "string", ()) in words


def test_tokens_are_ordered_and_disjoint() -> None:
    result = parse_text(TEXT)
    tokens = semantic_tokens(result.tree, result.comments)
    for a, b in zip(tokens, tokens[1:], strict=False):
        assert a.span.end <= b.span.start


def test_deprecated_operators_are_marked() -> None:
    result = parse_text(TEXT)
    tokens = semantic_tokens(result.tree, result.comments, deprecated=lambda node: node.op_type.value == "Mul")
    assert [t.modifiers for t in tokens if TEXT[t.span.start : t.span.end] == "Mul"] == [
        ("defaultLibrary", "deprecated")
    ]


def test_every_comment_is_a_token_damaged_statements_included() -> None:
    """Comments come from the parse result, not from the tree: one inside a damaged statement is coloured too."""
    text = (
        '# top\n<ir_version: 10, opset_import: ["" : 21]>\ng (float x) => (float y) {\n'
        "  z = Relu(x, # a\n  y = ( # b\n  y = Neg(x) # c\n}\n# tail\n"
    )
    result = parse_text(text)
    assert not result.ok
    tokens = semantic_tokens(result.tree, result.comments)
    assert [text[t.span.start : t.span.end] for t in tokens if t.type == "comment"] == [
        "# top",
        "# a",
        "# b",
        "# c",
        "# tail",
    ]


def test_a_document_marks_deprecated_operators() -> None:
    from onnxtext.document import parse_document
    from onnxtext.ide.semantic import document_tokens

    text = (
        '<ir_version: 8, opset_import: ["" : 18]>\ng (float[2] x) => (float[2] y, float[2] z) {\n'
        "   y = Relu (x)\n   z = Scatter (x, x, x)\n}\n"
    )
    words = {text[t.span.start : t.span.end]: t.modifiers for t in document_tokens(parse_document(text))}
    assert "deprecated" in words["Scatter"]
    assert "deprecated" not in words["Relu"]
