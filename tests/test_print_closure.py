"""Text → protobuf → text closes: every model ``parse`` makes prints back to a text that parses
to the same bytes, on both print paths, and that text is stable under ``fmt``.

Valid texts are held to this by the golden and round-trip tests; here the texts are seeded
mutations of the corpus (examples, goldens, printed backend models): hostile tokens, cut
characters, swapped numbers, and values dropped from or added to tensor literals, so what
``parse`` accepts with warnings (a value count other than the shape's, integers out of range
for their type, L008) is printed too. Each mutation that parses is a case.
"""

from __future__ import annotations

import random
import re

import pytest
from test_fuzz_cli import SEED_TEXTS, mutate_text

from onnxtext import ParseError, check, parse_model
from onnxtext.printing.text import reference_text, to_text
from onnxtext.syntax.format import format_text

_LIST = re.compile(r"\{\s*(-?[\w.+-]+(?:\s*,\s*-?[\w.+-]+)*)\s*\}")


def mutate_literal(text: str, rng: random.Random) -> str:
    """One value dropped from or added to a ``{...}`` list of the text (its count no longer its shape's)."""
    lists = list(_LIST.finditer(text))
    if not lists:
        return text
    m = rng.choice(lists)
    values = [v.strip() for v in m.group(1).split(",")]
    if rng.random() < 0.5 and len(values) > 1:
        del values[rng.randrange(len(values))]
    else:
        values.insert(rng.randrange(len(values) + 1), rng.choice([values[0], "300", "-1", "70000"]))
    return text[: m.start(1)] + ", ".join(values) + text[m.end(1) :]


def closes(text: str) -> bool:
    """Assert the closure for ``text`` if it parses; whether it did."""
    try:
        model = parse_model(text)
    except ParseError:
        return False
    printed = to_text(model)
    assert reference_text(model) == printed, "the two print paths disagree"
    again = parse_model(printed)
    assert again.SerializeToString() == model.SerializeToString(), printed
    assert format_text(printed) == printed, "the printed text is not stable under fmt"
    return True


def _mutations(seeds: list[str], count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        text = rng.choice(seeds)
        out.append(mutate_literal(text, rng) if rng.random() < 0.5 else mutate_text(text, rng))
    return out


def _corpus_seeds() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in SEED_TEXTS]


def test_value_count_other_than_the_shape() -> None:
    text = (
        '<ir_version: 8, opset_import: ["" : 18]>\ng (float[2, 3] x) => (float[2, 3] y)\n{\n'
        "   w = Constant <value = float[2, 3] {1, 2, 3, 4}> ()\n   y = Add (x, w)\n}\n"
    )
    assert closes(text)
    printed = to_text(parse_model(text))
    assert "float[2, 3] {1.0, 2.0, 3.0, 4.0}" in printed
    # written as stored, it is still the tensor check reports: L008 when parsed, E501 checked
    codes = [(d.code, d.span.start.line, d.span.start.column) for d in check(printed) if d.span is not None]
    assert codes == [("E501", 7, 18), ("L008", 7, 38)]  # the attribute; its values


@pytest.mark.parametrize(
    "literal",
    [
        "float[2, 3] {1, 2, 3, 4}",
        "int64[3] {1, 2}",
        "int8[2] {300, 1}",
        "uint32[1] {-1}",
        'string[2] {"a"}',
        "complex64[2] {1, 2, 3}",
        "complex64[1] {1, 2, 3, 4}",
        "double[2] {1.5, 2, 3}",
        "float16[2] {1}",
        "bool[2] {1, 0, 1}",
    ],
)
def test_literals_stored_as_written(literal: str) -> None:
    ttype, values = literal.split(" {", 1)
    text = (
        f'<ir_version: 8, opset_import: ["" : 18]>\ng () => (y)\n<{ttype} w = {{{values}>\n'
        f"{{\n   y = Constant <value = {literal}> ()\n}}\n"
    )
    assert closes(text)


def test_mutated_corpus_texts() -> None:
    parsed = sum(closes(t) for t in _mutations(_corpus_seeds(), 400, 20))
    assert parsed > 100, parsed  # many mutations leave a text that parses (with warnings or without)


@pytest.mark.slow
def test_mutated_backend_texts() -> None:
    pytest.importorskip("onnx")
    from corpus.backend import all_model_paths

    from onnxtext.proto import ModelProto

    rng = random.Random(21)
    paths = all_model_paths()
    seeds = [to_text(ModelProto.FromString(p.read_bytes())) for p in rng.sample(paths, min(300, len(paths)))]
    seeds = [s for s in seeds if len(s) < 20_000]
    parsed = sum(closes(t) for t in _mutations(seeds, 1500, 22))
    assert parsed > 400, parsed
