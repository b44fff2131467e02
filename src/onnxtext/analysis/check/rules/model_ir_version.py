"""E101: The model must set ir_version."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules.model_versions import latest_opset_for_ir
from onnxtext.diagnostics import Fix
from onnxtext.proto import IR_VERSION, ModelProto


class IrVersionPresent(Rule):
    code = "E101"
    name = "ir-version-present"
    description = "The model must set ir_version."

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        if not model.HasField("ir_version") or model.ir_version == 0:
            # without ir_version E103 keeps quiet (an IR before 3 needs no opset): a model missing
            # both hears of both at once, with one fix
            both = not model.opset_import and ctx.token_span("header", ("key", "opset_import")) is None
            ctx.report(
                self.code,
                "the model has no ir_version" + (" and imports no operator set" if both else ""),
                "header",
                token=("key", "ir_version"),
                fix=_ir_version_fix(ctx, both),
            )


def _ir_version_fix(ctx: CheckContext, with_opset: bool) -> Fix:
    """Set the latest IR version: over an ``ir_version: 0`` if there is one, else as a new header
    entry (with ``with_opset``, the default domain's latest opset for it as well)."""
    if ctx.token_span("header", ("value", "ir_version")) is not None:
        return ctx.replacing(f"set 'ir_version: {IR_VERSION}'", "header", ("value", "ir_version"), str(IR_VERSION))
    entries = [("ir_version", str(IR_VERSION))]
    if with_opset:
        entries.append(("opset_import", f'["": {latest_opset_for_ir("", IR_VERSION)}]'))
    shown = " and ".join(f"'{key}: {value}'" for key, value in entries)
    return ctx.adding_entries(f"add {shown} to the model header", "header", entries)
