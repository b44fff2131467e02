"""E103: A model of IR version 3 or later must import at least one operator set.

Its helpers are shared with ``model_unique_opset_domains``.
"""

from __future__ import annotations

from onnxtext.proto import ModelProto
from onnxtext.ir.schemas import normalize_domain
from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules.model_versions import latest_opset_for_ir


class OpsetImportPresent(Rule):
    code = "E103"
    name = "opset-import-present"
    description = "A model of IR version 3 or later must import at least one operator set."

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        if not model.opset_import and model.ir_version >= 3:
            entry = f'"" : {latest_opset_for_ir("", model.ir_version)}'
            ctx.report(
                self.code,
                "the model imports no operator set",
                "header",
                token=("key", "opset_import"),
                fix=ctx.adding_item(f"add e.g. 'opset_import: [{entry}]' to the model header", "header", "opset_import", entry),
            )


def duplicates(ctx: CheckContext, code: str, imports: list[object], path: str) -> None:
    seen: dict[str, int] = {}
    for i, entry in enumerate(imports):
        domain = normalize_domain(getattr(entry, "domain"))
        if domain in seen:
            shown = getattr(entry, "domain") or "''"
            ctx.report(
                code,
                f"operator-set domain {shown} is imported twice",
                path,
                token=("key", "opset_import", i),
                related=(("first imported here", path, ("key", "opset_import", seen[domain])),),
            )
        else:
            seen[domain] = i
