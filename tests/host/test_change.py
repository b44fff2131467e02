"""The one change of an edit: made from two texts (a whole-text change), composed, and carrying offsets of the
last analysed text to the current one."""

from __future__ import annotations

import random

import pytest

from onnxtext.host.change import Change
from onnxtext.span import Span


def test_an_insertion_moves_what_follows() -> None:
    shift = Change.between("a = Relu (x)\nb = Neg (a)\n", "a = Relu (x)\n\nb = Neg (a)\n")
    assert shift == Change(13, 13, 14, "\n")
    assert shift.offset(5) == 5
    assert shift.offset(13) == 13  # right at the insertion: stays
    assert shift.offset(20) == 21


def test_a_replacement_drops_what_it_replaced() -> None:
    shift = Change.between("y = Relu (x)", "y = Sigmoid (x)")
    assert (shift.start, shift.old_end, shift.new_end) == (4, 8, 11)
    assert shift.offset(6) is None
    assert shift.offset(8) == 11
    assert shift.offset(12) == 15


def test_equal_texts_move_nothing() -> None:
    shift = Change.between("abc", "abc")
    assert [shift.offset(i) for i in range(4)] == [0, 1, 2, 3]


def test_repeated_characters_never_overlap_prefix_and_suffix() -> None:
    shift = Change.between("aaaa", "aaaaaa")
    assert shift.start <= shift.old_end and shift.start <= shift.new_end
    assert shift.new_end - shift.old_end == 2


def test_random_edits_map_every_kept_character_to_itself() -> None:
    rng = random.Random(7)
    for _ in range(200):
        old = "".join(rng.choice("ab\n ") for _ in range(rng.randrange(0, 30)))
        lo = rng.randrange(0, len(old) + 1)
        hi = rng.randrange(lo, len(old) + 1)
        new = old[:lo] + "".join(rng.choice("ab") for _ in range(rng.randrange(0, 4))) + old[hi:]
        shift = Change.between(old, new)
        assert old[: shift.start] == new[: shift.start]
        assert old[shift.old_end :] == new[shift.new_end :]
        for i in range(len(old)):
            moved = shift.offset(i)
            if moved is not None and (i < shift.start or i >= shift.old_end) and i != shift.start:
                assert new[moved] == old[i]


def test_quick_fixes_move_with_the_edit_and_touched_ones_are_left_out() -> None:
    from onnxtext.api import check
    from onnxtext.host.change import moved_fixes
    from onnxtext.span import SourceFile

    old = (
        '<ir_version: 10, opset_import: ["" : 21]>\ng (float[2] x) => (float[2] y, float[2] z) {\n'
        "   y = Rleu (x)\n   z = Nge (x)\n}\n"
    )
    diags = [d for d in check(old) if d.fix is not None and d.fix.edits]
    assert [d.code for d in diags] == ["E301", "E301"]
    new = old.replace("   z = Nge", "\n   z = Nge").replace("Rleu", "Rle")  # a line inserted, the first typo edited
    shift = Change.between(old, new)
    moved = list(moved_fixes(diags, shift, SourceFile(new)))
    assert len(moved) == 1  # the edit touched Rleu: its fix is left out
    suggested = diags[1].fix.edits[0].new_text  # type: ignore[union-attr]
    assert moved[0].fix is not None and moved[0].fix.apply(new) == new.replace("Nge", suggested)
    assert moved[0].span is not None and moved[0].span.start.line == 5  # one line down


def test_a_span_starting_at_an_insertion_moves_with_its_text() -> None:
    """A line inserted right before a statement: the statement's span moves whole (its start
    stayed put, and the span swallowed the inserted line)."""
    old, new = "a = Relu (x)\nb = Neg (a)\n", "a = Relu (x)\nc = Abs (x)\nb = Neg (a)\n"
    shift = Change.between(old, new)
    b = Span(13, 24)
    moved = shift.span(b)
    assert moved is not None and new[moved.start : moved.end] == old[b.start : b.end]
    a = Span(0, 12)
    assert shift.span(a) == a  # before the insertion
    assert shift.span(Span(13, 13)) == Span(13, 13)  # an empty span right there stays put


def test_a_change_applies_and_says_its_delta() -> None:
    change = Change.replacing(4, 8, "Sigmoid")
    assert change.apply("y = Relu (x)") == "y = Sigmoid (x)"
    assert (change.new_end, change.delta) == (11, 3)
    with pytest.raises(ValueError):
        Change(3, 2, 3, "")  # ends before it starts
    with pytest.raises(ValueError):
        Change(0, 0, 2, "x")  # its text is not what it inserts


def test_composed_changes_cover_every_one_of_them() -> None:
    """Several ranges of one notification (or the changes since the last analysis) as one change of
    the first text: applied to it, it gives the last text."""
    rng = random.Random(11)
    for _ in range(300):
        first = text = "".join(rng.choice("ab\n ") for _ in range(rng.randrange(0, 30)))
        made = []
        for _ in range(rng.randrange(1, 5)):
            lo = rng.randrange(0, len(text) + 1)
            hi = rng.randrange(lo, len(text) + 1)
            change = Change.replacing(lo, hi, "".join(rng.choice("abc\n") for _ in range(rng.randrange(0, 4))))
            made.append(change)
            text = change.apply(text)
        composed = Change.compose(made, text)
        assert composed is not None and composed.apply(first) == text
        for i in range(len(first)):  # what no change touched keeps its character
            moved = composed.offset(i)
            if moved is not None and (i < composed.start or i >= composed.old_end) and i != composed.start:
                assert text[moved] == first[i]
    assert Change.compose([], "abc") is None


def test_a_letter_typed_and_deleted_composes_to_nothing_replaced() -> None:
    typed = Change.replacing(5, 5, "x")
    deleted = Change.replacing(5, 6, "")
    composed = Change.compose([typed, deleted], "hello world")
    assert composed == Change(5, 5, 5, "")
