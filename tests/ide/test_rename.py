"""Renames that would break single assignment or introduce shadowing are refused, with a reason."""

from __future__ import annotations

import pytest

from onnxtext.document import parse_document
from onnxtext.ide.rename import rename_problem, rename_targets

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


@pytest.mark.parametrize(
    ("at", "end", "expected"),
    [
        ("a = Relu", None, ["a"]),  # a node statement: its outputs
        ("Relu (x)", None, ["a"]),
        ("x)\n   b", None, ["x"]),  # the name under the cursor among its inputs
        ("x)\n   b", "b = Neg", ["a"]),  # a selection past the name: the statement's outputs
        ("float[2] x", None, ["x"]),  # a graph input's declaration
        ("float[2] y)", None, ["y"]),  # a graph output's
        ("inner = Abs", None, ["inner"]),  # a subgraph's node
        ("q = Add", None, ["q"]),  # a function body's
        ("f <alpha>", None, []),  # a function's name is no value
    ],
)
def test_rename_targets_name_the_values_of_the_statement(at: str, end: str | None, expected: list[str]) -> None:
    doc = parse_document(TEXT, "model")
    start = TEXT.index(at) + 1
    found = rename_targets(doc, start, TEXT.index(end) + 1 if end is not None else None)
    assert [name for name, _ in found] == expected
    for name, span in found:  # each span names its value: the rename asked there renames it
        assert TEXT[span.start : span.end] == name and doc.symbol_at(span.start) is not None


def test_rename_targets_outside_any_statement_are_none() -> None:
    doc = parse_document(TEXT, "model")
    assert rename_targets(doc, TEXT.index("\n}\n") + 1) == []
