"""Selection ranges: the syntax around a position, innermost last, each span once, growing outwards."""

from __future__ import annotations

from onnxtext.document import parse_document
from onnxtext.ide.selection import selection_spans

TEXT = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 4] x) => (float[N, 4] y) {
   a = Softmax <axis = 1> (x)
   y = Neg (a)
}
"""


def _texts(word: str, shift: int = 0, text: str = TEXT) -> list[str]:
    doc = parse_document(text)
    return [text[s.start : s.end] for s in selection_spans(doc, text.index(word) + shift)]


def test_from_an_attribute_name_out_to_the_whole_text() -> None:
    found = _texts("axis", 1)
    assert found[-1] == "axis"
    assert "axis = 1" in found and "a = Softmax <axis = 1> (x)" in found
    assert found[0].startswith("<ir_version")


def test_each_span_contains_the_next_and_none_repeats() -> None:
    doc = parse_document(TEXT)
    spans = selection_spans(doc, TEXT.index("Neg (a)") + 5)
    assert len({(s.start, s.end) for s in spans}) == len(spans)
    assert all(a.start <= b.start and b.end <= a.end for a, b in zip(spans, spans[1:], strict=False))
    assert TEXT[spans[-1].start : spans[-1].end] == "a"


def test_no_empty_span_is_offered() -> None:
    doc = parse_document(TEXT)
    for offset in range(len(TEXT) + 1):
        assert all(s.end > s.start for s in selection_spans(doc, offset))


def test_a_broken_text_still_has_ranges_around_what_is_intact() -> None:
    broken = TEXT.replace("y = Neg (a)", "y = Neg (a")
    found = _texts("Softmax", 2, broken)
    assert found and found[-1] == "Softmax"
