"""E102: ir_version must be a released IR version (1 to 14)."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.proto import IR_VERSION, ModelProto


class IrVersionKnown(Rule):
    code = "E102"
    name = "ir-version-known"
    description = f"ir_version must be a released IR version (1 to {IR_VERSION})."

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        version = model.ir_version
        if version > IR_VERSION or version < 0:
            ctx.report(
                self.code,
                f"unknown ir_version {version}: the latest IR version is {IR_VERSION}",
                "header",
                token=("key", "ir_version"),
            )
