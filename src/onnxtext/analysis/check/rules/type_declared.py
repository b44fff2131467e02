"""E704: A declared type (graph output, value_info) agrees with what the producing node or the initializer gives."""

from __future__ import annotations

from onnxtext.proto import ModelProto
from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule


class DeclaredType(Rule):
    code = "E704"
    name = "declared-type"
    description = (
        "The type a graph output or value_info declares agrees with what its node or initializer gives, as " "far as inference "
        "proves: element type, rank, known sizes (runtimes refuse such models)."
    )

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        for issue in ctx.inference.issues:
            if issue.code == self.code:
                what = "produced here" if issue.node_token == "op_type" else "initialized here"
                related = ((what, issue.node_path, issue.node_token),) if issue.node_path else ()
                ctx.report(self.code, issue.message, issue.path, token="type", related=related)
