"""E103 / E104 / W104: opset imports are present, one per domain, and of known versions."""

from __future__ import annotations

from onnxtext.proto import ModelProto
from onnxtext.ir.schemas import known_domains, latest_opset_version, normalize_domain
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


class UniqueOpsetDomains(Rule):
    code = "E104"
    name = "unique-opset-domains"
    description = "Each operator-set domain is imported at most once ('' and 'ai.onnx' are the same domain)."

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        _duplicates(ctx, self.code, list(model.opset_import), "header")

    def function(self, ctx: CheckContext, fn: object, path: str) -> None:
        _duplicates(ctx, self.code, list(getattr(fn, "opset_import")), path)


def _duplicates(ctx: CheckContext, code: str, imports: list[object], path: str) -> None:
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


class OpsetVersionKnown(Rule):
    code = "W104"
    name = "opset-version-known"
    description = "Imported versions of ONNX domains should be ones the operator table knows."

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        domains = set(known_domains())
        for i, entry in enumerate(model.opset_import):
            domain = normalize_domain(entry.domain)
            if domain not in domains:
                continue
            latest = latest_opset_version(domain)
            shown = entry.domain or "''"
            if entry.version < 1 or (latest is not None and entry.version > latest):
                ctx.report(
                    self.code,
                    f"opset {entry.version} of domain {shown} is unknown (latest known: {latest}); "
                    "its operators are checked against the latest known versions",
                    "header",
                    token=("key", "opset_import", i),
                )
