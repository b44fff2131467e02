"""E702: inputs bound to the same type constraint have the same type."""

from __future__ import annotations

from onnxtext.analysis.infer.diagnose import report_issues
from onnxtext.proto import ModelProto
from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule


class SameConstraintType(Rule):
    code = "E702"
    name = "same-constraint-different-types"
    description = "Inputs that share a type constraint have the same type (e.g. no Add(float, int64))."

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        report_issues(ctx, self.code)
