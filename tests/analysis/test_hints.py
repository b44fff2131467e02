"""Inlay-hint placement: after each defined name of one graph, never inside subgraphs."""

from __future__ import annotations

from onnxtext.analysis.hints import value_hints
from onnxtext.syntax.parser import parse_text

TEXT = """g (float[2] x, bool c) => (float[2] y) {
   a, b = Split (x)
   y = If (c) <then_branch = t () => (float[2] z) { z = Neg (a) }, else_branch = e () => (float[2] w) { w = Abs (b) }>
}
"""


def test_hints_follow_each_output_of_the_graph_only() -> None:
    result = parse_text(TEXT)
    labels = {"a": "float[1]", "b": "float[1]", "y": "float[2]", "z": "never", "x": "float[2]"}
    hints = list(value_hints(result.tree.graph, labels.get))
    assert [(TEXT[: h.offset].splitlines()[-1], h.label) for h in hints] == [
        ("   a", "float[1]"),
        ("   a, b", "float[1]"),
        ("   y", "float[2]"),
    ]
    with_inputs = list(value_hints(result.tree.graph, labels.get, inputs=True))
    assert [h.name for h in with_inputs] == ["x", "a", "b", "y"]


def test_no_label_no_hint() -> None:
    result = parse_text(TEXT)
    assert list(value_hints(result.tree.graph, lambda name: None)) == []
