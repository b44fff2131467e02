"""Inlay-hint placement: after each defined name of one graph, never inside subgraphs."""

from __future__ import annotations

from onnxtext.ide.hints import value_hints
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


def test_live_values_land_in_every_graph_and_function_that_ran() -> None:
    from onnxtext.document import parse_document
    from onnxtext.evaluate.live import LiveResult, LiveValue
    from onnxtext.evaluate.summary import Stats
    from onnxtext.ide.hints import inlay_hints

    text = (
        '<ir_version: 8, opset_import: ["" : 18, "local" : 1]>\n'
        "g (float[2] x, bool c) => (float[2] y) {\n"
        "   y = If (c) <then_branch = t () => (float[2] u) { u = local.twice (x) }, else_branch = e () => "
        "(float[2] v) { v = Abs (x) }>\n"
        "}\n"
        '<domain: "local", opset_import: ["" : 18]>\ntwice (p) => (q) {\n   q = Add (p, p)\n}\n'
    )
    doc = parse_document(text)
    f32 = Stats("float32", (2,), 0.0, 1.0, 0.5)
    live = LiveResult(
        values=[
            LiveValue("u", 0, f32, "graph/node[0]/attribute[0]/g"),
            LiveValue("y", 0, f32, "graph"),
            LiveValue("q", 0, f32, "functions[0]", runs=2),
        ],
        inputs=[LiveValue("x", -1, f32), LiveValue("c", -1, Stats("bool", ()))],
    )
    hints = {(text[: h.offset].splitlines()[-1].split()[-1], h.label) for h in inlay_hints(doc, True, live)}
    assert ("u", " = float32[2] min=0 max=1 mean=0.5") in hints
    assert ("q", " = float32[2] min=0 max=1 mean=0.5 (last of 2 runs)") in hints
    assert ("y", " = float32[2] min=0 max=1 mean=0.5") in hints
    assert any(label == " = bool[]" for _, label in hints)  # the input c
    assert ("v", ": float[2]") in hints  # the branch that did not run keeps its inferred type


def test_long_labels_are_cut_between_numbers() -> None:
    """VS Code cuts a hint over 43 characters mid-number; the label is cut between words first."""
    from onnxtext.ide.hints import HINT_WIDTH, fit_label

    label = " = float32[2, 4] min=-0.966945 max=0.825511 mean=-0.0123"
    shown = fit_label(label)
    assert shown == " = float32[2, 4] min=-0.966945…"
    assert len(shown) <= HINT_WIDTH and shown.endswith("…")
    assert label.startswith(shown[:-1]) and label[len(shown) - 1] == " "  # cut at a space: whole numbers
    assert fit_label(" : float[N, 4]") == " : float[N, 4]"
    assert fit_label("x" * 60).endswith("…") and len(fit_label("x" * 60)) == HINT_WIDTH


SHOWN = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 4] x) => (float[2, 4] y) {
   a = Relu (x)
   b = Neg (a)
   y = Abs (b)
}
"""


def _shown(lo: int, hi: int, **kwargs: object) -> list[tuple[str, str, str | None]]:
    from onnxtext.document import parse_document
    from onnxtext.ide.hints import hints_between

    doc = parse_document(SHOWN)
    found = hints_between(doc, lo, hi, types=True, live=None, **kwargs)  # type: ignore[arg-type]
    return [(SHOWN[: h.offset].split()[-1], h.label, h.tooltip) for h in found]


def test_hints_between_keeps_those_placed_in_the_range() -> None:
    assert _shown(0, len(SHOWN)) == [
        ("a", ": float[2, 4]", None),
        ("b", ": float[2, 4]", None),
        ("y", ": float[2, 4]", None),
    ]
    lo, hi = SHOWN.index("b = Neg"), SHOWN.index("b = Neg") + 1  # a range's ends count
    assert _shown(lo, hi) == [("b", ": float[2, 4]", None)]


def test_hints_between_carries_offsets_through_an_edit_and_drops_what_it_touched() -> None:
    at_b = SHOWN.index("b = Neg") + 1

    def moved(offset: int) -> int | None:  # as lsp/shift does: 'b' replaced, the rest moved by 0
        return None if offset == at_b else offset

    assert [name for name, _, _ in _shown(0, len(SHOWN), moved=moved)] == ["a", "y"]


def test_a_long_live_label_is_cut_and_whole_in_its_tooltip() -> None:
    from onnxtext.document import parse_document
    from onnxtext.evaluate.live import LiveResult, LiveValue
    from onnxtext.evaluate.summary import Stats
    from onnxtext.ide.hints import hints_between

    doc = parse_document(SHOWN)
    live = LiveResult(values=[LiveValue("a", 0, Stats("float32", (2, 4), -0.966945, 0.825511, -0.0123))])
    found = hints_between(doc, 0, len(SHOWN), types=False, live=live)
    assert [(h.label, h.tooltip) for h in found] == [
        (" = float32[2, 4] min=-0.966945…", "= float32[2, 4] min=-0.966945 max=0.825511 mean=-0.0123")
    ]
