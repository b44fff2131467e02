"""Line edits: applying them gives the new text; untouched lines are not in any edit."""

from __future__ import annotations

import random

from onnxtext.diagnostics import Edit, Fix
from onnxtext.host.textdiff import line_edits, region_line_edits
from onnxtext.span import Span


def test_edits_rebuild_the_new_text() -> None:
    rng = random.Random(7)
    words = ["a = Relu (x)\n", "b = Neg (a)\n", "# c\n", "\n", "y=Add(a,b)\n", "   y = Add (a, b)\n"]
    for _ in range(300):
        before = "".join(rng.choice(words) for _ in range(rng.randint(0, 8)))
        after = "".join(rng.choice(words) for _ in range(rng.randint(0, 8)))
        if rng.random() < 0.3:
            before, after = before.rstrip("\n"), after.rstrip("\n")
        assert Fix("", tuple(line_edits(before, after))).apply(before) == after


def test_only_changed_lines_are_edited() -> None:
    before = "keep 1\nchange me\nkeep 2\n"
    after = "keep 1\nchanged\nkeep 2\n"
    (edit,) = line_edits(before, after)
    assert before[edit.span.start : edit.span.end] == "change me\n" and edit.new_text == "changed\n"
    assert line_edits(before, before) == []


def test_the_edits_of_a_region_are_whole_lines_inside_it() -> None:
    text = "keep 1\n  a=Relu(x)\n  b = Neg (a)\nkeep 2\n"
    start = text.index("  a=")
    end = text.index("\nkeep 2")
    edits = region_line_edits(text, Edit(Span(start, end), "   a = Relu (x)\n   b = Neg (a)"))
    assert [(text[e.span.start : e.span.end], e.new_text) for e in edits] == [
        ("  a=Relu(x)\n  b = Neg (a)\n", "   a = Relu (x)\n   b = Neg (a)\n")
    ]
    last = text.rstrip("\n")  # the region's last line has no line break
    (edit,) = region_line_edits(last, Edit(Span(last.index("keep 2"), len(last)), "kept"))
    assert Fix("", (edit,)).apply(last) == last.replace("keep 2", "kept")
    assert region_line_edits(text, Edit(Span(start, end), text[start:end])) == []
