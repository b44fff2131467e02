"""E103: A model of IR version 3 or later must import at least one operator set.

Its helpers are shared with ``model_unique_opset_domains``.
"""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules.model_versions import latest_opset_for_ir
from onnxtext.diagnostics import Edit, Fix
from onnxtext.ir.schemas import normalize_domain
from onnxtext.proto import ModelProto, OperatorSetIdProto
from onnxtext.span import Span


class OpsetImportPresent(Rule):
    code = "E103"
    name = "opset-import-present"
    description = "A model of IR version 3 or later must import at least one operator set."

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        if not model.opset_import and model.ir_version >= 3:
            entry = f'"": {latest_opset_for_ir("", model.ir_version)}'
            ctx.report(
                self.code,
                "the model imports no operator set",
                "header",
                token=("key", "opset_import"),
                fix=ctx.adding_item(
                    f"add e.g. 'opset_import: [{entry}]' to the model header", "header", "opset_import", entry
                ),
            )


def duplicates(
    ctx: CheckContext, code: str, imports: list[OperatorSetIdProto], path: str, *, same_version: bool
) -> None:
    """Report each entry whose domain an earlier entry imports: with the same version
    (``same_version``: harmless, one entry is enough) or with another one (the last counts)."""
    seen: dict[str, int] = {}
    for i, entry in enumerate(imports):
        domain = normalize_domain(entry.domain)
        if domain not in seen:
            seen[domain] = i
            continue
        first = imports[seen[domain]]
        version, first_version = int(entry.version), int(first.version)
        if (version == first_version) != same_version:
            continue
        shown = entry.domain or "''"
        related = (("first imported here", path, ("key", "opset_import", seen[domain])),)
        token = ("key", "opset_import", i)
        if same_version:
            ctx.report(
                code,
                f"operator-set domain {shown} is imported twice, both times as version {version}; one entry is enough",
                path,
                token=token,
                related=related,
                fix=_dropping(ctx, "remove the repeated entry", path, i),
            )
        else:
            ctx.report(
                code,
                f"operator-set domain {shown} is imported twice, as version {first_version} and as version {version}; "
                f"onnx.checker and onnxruntime take the last ({version}): import each domain once",
                path,
                token=token,
                related=related,
                fix=_dropping(ctx, f"remove the earlier import (version {first_version})", path, seen[domain]),
            )


def _dropping(ctx: CheckContext, message: str, path: str, index: int) -> Fix:
    """A fix deleting item ``index`` of a header's ``opset_import`` list with its leading comma
    (the first item, with the comma after it)."""
    here = ctx.token_span(path, ("key", "opset_import", index))
    if here is None:
        return Fix(message)
    if index == 0:
        after = ctx.token_span(path, ("key", "opset_import", 1))
        return Fix(message, (Edit(Span(here.start, after.start), ""),)) if after is not None else Fix(message)
    before = ctx.token_span(path, ("key", "opset_import", index - 1))
    if before is None:
        return Fix(message)
    return Fix(message, (Edit(Span(before.end, here.end), ""),))
