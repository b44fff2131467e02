"""E302: The domain of a node must be imported by the model (or by the function the node is in)."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, NodeInfo, Resolution
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules.model_versions import latest_opset_for_ir
from onnxtext.analysis.check.rules.node_operator import function_path, shown_domain
from onnxtext.diagnostics import Fix
from onnxtext.ir.schemas import known_domains


class DomainImported(Rule):
    code = "E302"
    name = "domain-imported"
    description = "The domain of a node must be imported by the model (or by the function the node is in)."

    def applies_to(self, resolution: Resolution) -> bool:
        return resolution.version is None

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        res = node.resolution
        if res.version is not None:
            return
        fn = node.graph.function
        if fn is None and not ctx.model.opset_import:
            return  # E103 already says there is no opset import at all
        where = f"function '{fn.name}'" if fn is not None else "the model"
        shown = shown_domain(res.domain)
        # The version of an ONNX domain is the latest the IR version allows; a custom
        # domain's version is the user's to choose, so that fix has no edit.
        version = latest_opset_for_ir(res.domain, ctx.ir_version) if res.domain in known_domains() else None
        entry = f'"{node.proto.domain}" : {version if version is not None else "VERSION"}'
        message = f"add '{entry}' to the opset_import of {where}"
        owner = "header" if fn is None else function_path(ctx, fn)
        if version is None or owner is None:
            fix = Fix(message)
        else:
            fix = ctx.adding_item(message, owner, "opset_import", entry)
        ctx.report(
            self.code,
            f"domain {shown} of operator '{node.proto.op_type}' is not imported by {where}",
            node.path,
            token="domain",
            fix=fix,
        )
