"""E706: Control flow keeps types: If's branches give the same types, a Loop's or Scan's body
gives back each carried value with the type it came in with."""

from __future__ import annotations

from onnxtext.analysis.infer.diagnose import report_issues
from onnxtext.proto import ModelProto
from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule


class ControlFlowTypes(Rule):
    code = "E706"
    name = "control-flow-types"
    description = (
        "If's branches give outputs of the same types (and as many); a Loop's or Scan's body gives back each "
        "carried value with the element type it came in with."
    )

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        report_issues(ctx, self.code)
