"""``SourceFile.lsp_range_json``: a span as the protocol's range in JSON (the custom requests' answers)."""

from __future__ import annotations

import random

from onnxtext.lsp.convert import lsp_range
from onnxtext.span import SourceFile, Span


def test_a_range_counts_lines_from_0_and_columns_in_utf16_units() -> None:
    source = SourceFile("ab\n😀x = Relu (y)\r\n\ttail")
    start = source.text.index("x")
    assert source.lsp_range_json(Span(start, start + 1)) == {
        "start": {"line": 1, "character": 2},  # the emoji is two UTF-16 units
        "end": {"line": 1, "character": 3},
    }
    end = len(source.text)
    assert source.lsp_range_json(Span(0, end)) == {
        "start": {"line": 0, "character": 0},
        "end": {"line": 2, "character": 5},
    }


def test_a_range_is_the_protocol_range_the_server_sends() -> None:
    """The JSON form and the server's protocol value (``lsp.convert.lsp_range``) say the same."""
    rng = random.Random(0)
    text = "".join(rng.choice(["a", "é", "😀", "\n", "\r\n", " ", "\t"]) for _ in range(400))
    source = SourceFile(text)
    for _ in range(300):
        start = rng.randrange(len(text) + 1)
        end = rng.randrange(start, len(text) + 1)
        r = lsp_range(source, Span(start, end))
        assert source.lsp_range_json(Span(start, end)) == {
            "start": {"line": r.start.line, "character": r.start.character},
            "end": {"line": r.end.line, "character": r.end.character},
        }
