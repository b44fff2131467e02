"""Differential tests against onnx.parser: whatever it accepts, we parse to the same protobuf."""

from __future__ import annotations

from pathlib import Path

import pytest

onnx = pytest.importorskip("onnx")
import onnx.parser  # noqa: E402
import onnx.printer  # noqa: E402

from corpus.backend import all_model_paths, case_id  # noqa: E402

from onnxtext import ParseError, parse_model  # noqa: E402

PATHS = all_model_paths()


def _onnx_parse(text: str) -> bytes | None:
    try:
        return onnx.parser.parse_model(text).SerializeToString(deterministic=True)
    except onnx.parser.ParseError:
        return None


@pytest.mark.parametrize("path", PATHS, ids=[case_id(p) for p in PATHS])
def test_onnx_printer_output_parses_the_same(path: Path) -> None:
    """Every text onnx.printer prints parses here; where onnx.parser accepts it, to the same bytes."""
    model = onnx.load(str(path), load_external_data=False)
    text = onnx.printer.to_text(model)
    expected = _onnx_parse(text)
    try:
        ours = parse_model(text).SerializeToString(deterministic=True)
    except ParseError as e:
        if expected is None:
            pytest.skip(f"neither parser accepts onnx.printer's text: {e}")
        raise
    if expected is not None and "int4" not in text and "uint4" not in text and "float4e2m1" not in text and "\\" not in text:
        assert ours == expected
