"""``layout.Numbers`` (a tensor's numbers laid out with numpy on one text) lays out exactly as the
documents it stands for: ``Packed`` runs joined by ``[",", LINE]``, one run per matrix row."""

from __future__ import annotations

import random

import pytest

from onnxtext.syntax.layout import (
    HARDLINE,
    INDENT,
    LINE,
    SOFTLINE,
    Doc,
    Group,
    Indent,
    Numbers,
    lay_out_numbers,
    render,
)


def _text(rng: random.Random, count: int) -> str:
    pool = ["0.0", "-1.5", "3.1415927", "1e-07", "-2.5e+38", "7", "123456789012345678901234567890.0"]
    return ", ".join(rng.choice(pool) + rng.choice(["", "", "5", "25"]) for _ in range(count))


def _nest(doc: Doc, depth: int) -> Doc:
    for _ in range(depth):
        doc = Indent(doc)
    return doc


@pytest.mark.parametrize("seed", range(80))
def test_lay_out_is_the_documents_layout(seed: int) -> None:
    rng = random.Random(seed)
    row = rng.choice([0, 0, 1, 2, 3, 7, 40])
    count = row * rng.choice([1, 3, 50, 200]) if row else rng.choice([1, 2, 5, 300, 3000])
    numbers = Numbers(_text(rng, count), row)
    width = rng.choice([8, 30, 60, 100, 140])
    depth = rng.choice([0, 1, 3])
    ind = len(INDENT) * depth
    for extra in (0, 2, width // 2, width + 5):
        # ``extra`` columns written on the line before the numbers start, ``ind`` columns in.
        reference = render(_nest([HARDLINE, "y" * extra, numbers.as_doc()], depth), width)
        expected = reference[1 + ind + extra :]
        laid, end = numbers.lay_out(ind + extra, ind, width)
        assert laid == expected
        assert end == (len(laid.rsplit("\n", 1)[-1]) if "\n" in laid else ind + extra + len(laid))
        # The print fast path's: the same from the numbers joined by "," alone.
        compact = numbers.text.replace(", ", ",").encode("ascii")
        assert lay_out_numbers(compact, row, ind + extra, ind, width) == (laid, end)


@pytest.mark.parametrize("seed", range(20))
def test_render_takes_it_for_long_literals(seed: int) -> None:
    rng = random.Random(1000 + seed)
    row = rng.choice([0, 4, 30])
    numbers = Numbers(_text(rng, 1200 if not row else row * 60), row)
    assert len(numbers.text) >= 2048
    width = rng.choice([40, 100])
    depth = rng.choice([0, 1, 2])

    def doc(inner: Doc) -> Doc:
        literal = Group(["{", Indent([SOFTLINE, inner]), SOFTLINE, "}"])
        return ["<", _nest([HARDLINE, "w = ", literal, ","], depth), LINE, "x>"]

    assert render(doc(numbers), width) == render(doc(numbers.as_doc()), width)
    # one line when it fits
    assert render(doc(numbers), 10**9) == render(doc(numbers.as_doc()), 10**9)


@pytest.mark.parametrize("extra", [0, 30, 85])
@pytest.mark.parametrize("long_row", [None, 0, 5])
def test_short_rows_each_on_a_line(extra: int, long_row: int | None) -> None:
    """A matrix whose rows each fit a line (a kernel's taps) starts a line per row; a row that does not
    fit (the first one after ``extra`` columns, or one of the others) is filled as any other."""
    rng = random.Random(extra)
    row = 4
    items = [rng.choice(["0.5", "-1.25", "3.1415927", "1e-07"]) for _ in range(row * 12)]
    if long_row is not None:
        items[long_row * row] = "1" * 90
    numbers = Numbers(", ".join(items), row)
    reference = render([HARDLINE, "y" * extra, numbers.as_doc()], 100)[1 + extra :]
    laid, _ = numbers.lay_out(extra, 0, 100)
    assert laid == reference
    assert lay_out_numbers(numbers.text.replace(", ", ",").encode("ascii"), row, extra, 0, 100)[0] == reference
    if long_row is None and extra < 85:
        assert laid.count("\n") == 11
