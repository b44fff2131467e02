"""E703: shapes inference can prove incompatible (MatMul inner dims, Concat ranks, Reshape sizes...)."""

from __future__ import annotations

from onnxtext.analysis.check.rule import InferenceRule
from onnxtext.analysis.infer.node import Finding


class ShapeMismatch(InferenceRule):
    code = "E703"
    name = "shape-mismatch"
    description = (
        "Input shapes fit the operator, as far as inference can prove (broadcasting, MatMul, Concat, Reshape...)."
    )
    finding = Finding.SHAPE
