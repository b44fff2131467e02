"""E703: shapes inference can prove incompatible (MatMul inner dims, Concat ranks, Reshape sizes...)."""

from __future__ import annotations

from ...infer.diagnose import report_issues
from ...proto import ModelProto
from ..context import CheckContext
from ..rule import Rule


class ShapeMismatch(Rule):
    code = "E703"
    name = "shape-mismatch"
    description = "Input shapes fit the operator, as far as inference can prove (broadcasting, MatMul, Concat, Reshape...)."

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        report_issues(ctx, self.code)
