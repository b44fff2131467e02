"""No error-severity diagnostic on exporter-made models (torch, skl2onnx, onnxscript) that onnx.checker accepts."""

from __future__ import annotations

import pytest

onnx = pytest.importorskip("onnx")

from corpus.backend import onnx_checker_rejection  # noqa: E402
from corpus.exporters import GENERATORS, Generator  # noqa: E402

from onnxtext.api import check  # noqa: E402
from onnxtext.proto import ModelProto  # noqa: E402


@pytest.mark.parametrize("gen", list(GENERATORS.values()), ids=list(GENERATORS))
def test_no_errors_where_onnx_checker_accepts(gen: Generator) -> None:
    for module in gen.requires:
        pytest.importorskip(module)
    data = gen.ensure().read_bytes()
    rejection = onnx_checker_rejection(onnx.ModelProto.FromString(data))
    if rejection is not None:
        pytest.skip(f"onnx.checker rejects this model: {rejection}")
    errors = [d for d in check(ModelProto.FromString(data)) if d.is_error]
    assert not errors, "\n".join(str(d) for d in errors)
