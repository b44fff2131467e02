"""The smallest line edits that turn one text into another (formatting keeps the rest untouched)."""

from __future__ import annotations

import difflib

from onnxtext.diagnostics import Edit
from onnxtext.span import Span

__all__ = ["line_edits", "region_line_edits"]


def line_edits(before: str, after: str) -> list[Edit]:
    """Edits of whole lines of ``before`` (character spans) that give ``after``."""
    old = before.splitlines(keepends=True)
    new = after.splitlines(keepends=True)
    starts = [0]
    for line in old:
        starts.append(starts[-1] + len(line))
    edits = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            edits.append(Edit(Span(starts[i1], starts[i2]), "".join(new[j1:j2])))
    return edits


def region_line_edits(text: str, edit: Edit) -> list[Edit]:
    """The line edits of ``text`` that ``edit`` (whole lines replaced) makes: only its lines are compared,
    each with its line break (as :func:`line_edits` gives them)."""
    start, end = edit.span.start, edit.span.end
    after = edit.new_text
    if text[end : end + 1] == "\n":
        end, after = end + 1, after + "\n"
    return [
        Edit(Span(e.span.start + start, e.span.end + start), e.new_text) for e in line_edits(text[start:end], after)
    ]
