"""print → parse gives back byte-identical protobufs for every model of the ONNX backend suite.

The printed text is also what ``fmt`` makes of it (print and fmt agree), and no line of it is
wider than 100 columns where it could have been broken.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("onnx")

from corpus.backend import all_model_paths, case_id  # noqa: E402
from test_format_corpus import breakable_long_lines  # noqa: E402

from onnxtext import parse_model  # noqa: E402
from onnxtext.printing.text import to_text
from onnxtext.proto import ModelProto  # noqa: E402
from onnxtext.syntax.format import format_text  # noqa: E402

PATHS = all_model_paths()


@pytest.mark.parametrize("path", PATHS, ids=[case_id(p) for p in PATHS])
def test_print_parse_is_identity(path: Path) -> None:
    original = ModelProto.FromString(path.read_bytes())
    text = to_text(original)
    back = parse_model(text, path=f"{case_id(path)}.onnxtxt")
    assert back.SerializeToString(deterministic=True) == original.SerializeToString(deterministic=True), text
    # stability: printing the parsed model gives the same text
    assert to_text(back) == text
    assert format_text(text) == text
    assert breakable_long_lines(text, 100) == []
