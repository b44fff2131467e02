"""No error (type rules E7xx included) on any backend-suite model that ``onnx.checker`` (full_check) accepts."""

from __future__ import annotations

from pathlib import Path

import pytest

onnx = pytest.importorskip("onnx")

from corpus.backend import all_model_paths, case_id, onnx_checker_rejection  # noqa: E402

from onnxtext.api import check  # noqa: E402

PATHS = all_model_paths()


@pytest.mark.parametrize("path", PATHS, ids=[case_id(p) for p in PATHS])
def test_no_false_errors(path: Path) -> None:
    model = onnx.load(str(path), load_external_data=False)
    rejection = onnx_checker_rejection(model)
    if rejection is not None:
        pytest.skip(f"onnx.checker rejects it: {rejection}")
    errors = [str(d) for d in check(path) if d.is_error]
    assert errors == []
