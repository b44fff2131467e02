"""E701: a node input's type is one its operator's type constraint allows."""

from __future__ import annotations

from onnxtext.analysis.infer.diagnose import report_issues
from onnxtext.proto import ModelProto
from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule


class TypeConstraint(Rule):
    code = "E701"
    name = "type-constraint"
    description = "The type of a node input is one the operator's type constraint allows (e.g. no string MatMul)."

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        report_issues(ctx, self.code)
