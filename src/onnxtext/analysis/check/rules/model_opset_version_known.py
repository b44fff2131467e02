"""W104: Imported versions of ONNX domains should be ones the operator table knows."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.ir.schemas import known_domains, latest_opset_version, normalize_domain
from onnxtext.proto import ModelProto


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
