"""No error-severity diagnostic on exporter-made models (torch, skl2onnx, onnxscript) that onnx.checker accepts."""

from __future__ import annotations

import pytest

onnx = pytest.importorskip("onnx")

from corpus.exporters import GENERATORS, Generator  # noqa: E402

from onnxtext.check import check  # noqa: E402
from onnxtext.proto import ModelProto  # noqa: E402


@pytest.mark.parametrize("gen", list(GENERATORS.values()), ids=list(GENERATORS))
def test_no_errors_where_onnx_checker_accepts(gen: Generator) -> None:
    for module in gen.requires:
        pytest.importorskip(module)
    data = gen.ensure().read_bytes()
    try:
        onnx.checker.check_model(onnx.ModelProto.FromString(data), full_check=True)
    except onnx.checker.ValidationError as e:
        pytest.skip(f"onnx.checker rejects this model: {str(e)[:200]}")
    errors = [d for d in check(ModelProto.FromString(data)) if d.is_error]
    assert not errors, "\n".join(str(d) for d in errors)
