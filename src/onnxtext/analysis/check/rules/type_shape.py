"""E703: shapes inference can prove incompatible (MatMul inner dims, Concat ranks, Reshape sizes...)."""

from __future__ import annotations

from onnxtext.analysis.infer.diagnose import report_issues
from onnxtext.proto import ModelProto
from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule


class ShapeMismatch(Rule):
    code = "E703"
    name = "shape-mismatch"
    description = "Input shapes fit the operator, as far as inference can prove (broadcasting, MatMul, Concat, Reshape...)."

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        report_issues(ctx, self.code)
