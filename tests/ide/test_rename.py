"""Renames that would break single assignment or introduce shadowing are refused, with a reason."""

from __future__ import annotations

import pytest

from onnxtext.document import parse_document
from onnxtext.ide.rename import rename_problem

TEXT = """<ir_version: 8, opset_import: ["" : 18, "local" : 1]>
g (float[2] x, bool c) => (float[2] y) {
   a = Relu (x)
   b = Neg (a)
   y = If (c) <then_branch = t () => (float[2] inner) { inner = Abs (a) }, else_branch = e () => (float[2] o) { o = Identity (b) }>
}

<domain: "local", opset_import: ["" : 18]>
f <alpha> (p) => (q) { q = Add (p, p) }

<domain: "local", opset_import: ["" : 18]>
h (p) => (q) { q = Neg (p) }
"""  # noqa: E501 (the If stays on one line: the tests point at its columns)


def _at(word: str) -> int:
    return TEXT.index(word) + 1


@pytest.mark.parametrize(
    ("word", "new", "problem"),
    [
        ("a = Relu", "z", None),
        ("a = Relu", "a", None),
        ("a = Relu", "b", "the same graph would define it twice"),
        ("a = Relu", "inner", "it would hide the renamed value inside that graph"),
        ("inner =", "x", "the renamed value would hide it inside this graph"),
        ("a = Relu", "", "a name cannot be empty"),
        ("f <alpha>", "h", "a function 'h' of this domain and overload exists already"),
        ("f <alpha>", "k", None),
        ("alpha>", "beta", None),
    ],
)
def test_rename_problems(word: str, new: str, problem: str | None) -> None:
    doc = parse_document(TEXT)
    assert doc.ok, doc.diagnostics
    symbol = doc.symbol_at(_at(word))
    assert symbol is not None, word
    found = rename_problem(doc, symbol, new)
    if problem is None:
        assert found is None
    else:
        assert found is not None and problem in found
