"""Line edits: applying them gives the new text; untouched lines are not in any edit."""

from __future__ import annotations

import random

from onnxtext.diagnostics import Fix
from onnxtext.lsp.textdiff import line_edits


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
