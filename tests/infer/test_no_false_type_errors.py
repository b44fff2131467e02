"""No E7xx error on any backend-suite model that ``onnx.checker`` (full_check) accepts."""

from __future__ import annotations

from pathlib import Path

import pytest

onnx = pytest.importorskip("onnx")

from corpus.backend import all_model_paths, case_id  # noqa: E402

from onnxtext.check import check  # noqa: E402

PATHS = all_model_paths()


@pytest.mark.parametrize("path", PATHS, ids=[case_id(p) for p in PATHS])
def test_no_false_type_errors(path: Path) -> None:
    model = onnx.load(str(path), load_external_data=False)
    try:
        onnx.checker.check_model(model, full_check=True)
    except (onnx.checker.ValidationError, onnx.shape_inference.InferenceError) as exc:
        pytest.skip(f"onnx.checker rejects it: {str(exc).splitlines()[0][:120]}")
    errors = [str(d) for d in check(path, select=["E7"])]
    assert errors == []
