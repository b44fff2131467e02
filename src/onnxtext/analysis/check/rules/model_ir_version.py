"""E101: The model must set ir_version."""

from __future__ import annotations

from onnxtext.diagnostics import Fix
from onnxtext.proto import IR_VERSION, ModelProto
from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule


class IrVersionPresent(Rule):
    code = "E101"
    name = "ir-version-present"
    description = "The model must set ir_version."

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        if not model.HasField("ir_version") or model.ir_version == 0:
            ctx.report(
                self.code,
                "the model has no ir_version",
                "header",
                token=("key", "ir_version"),
                fix=_ir_version_fix(ctx),
            )


def _ir_version_fix(ctx: CheckContext) -> Fix:
    """Set the latest IR version: over an ``ir_version: 0`` if there is one, else as a new header entry."""
    if ctx.token_span("header", ("value", "ir_version")) is not None:
        return ctx.replacing(f"set 'ir_version: {IR_VERSION}'", "header", ("value", "ir_version"), str(IR_VERSION))
    return ctx.adding_entry(f"add 'ir_version: {IR_VERSION}' to the model header", "header", "ir_version", str(IR_VERSION))
