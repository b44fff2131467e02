"""E404: An operator a function uses means the same at the function's and the model's version of its domain."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, NodeInfo, Resolution
from onnxtext.analysis.check.rule import Rule
from onnxtext.ir.schemas import get_schema


class FunctionOpsetCompatible(Rule):
    code = "E404"
    name = "function-opset-compatible"
    description = "An operator a function uses means the same at the function's and the model's version of its domain."

    def applies_to(self, resolution: Resolution) -> bool:
        return resolution.schema is not None and resolution.version is not None

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        fn = node.graph.function
        res = node.resolution
        if fn is None or node.graph.owner is not None or res.schema is None or res.version is None:
            return
        model_version = ctx.opset_version(res.domain)
        if model_version is None or model_version == res.version:
            return
        theirs = get_schema(node.proto.op_type, res.domain, model_version)
        if theirs is not None and theirs.since_version == res.schema.since_version:
            return
        shown = res.domain or "''"
        ctx.report(
            self.code,
            f"'{node.proto.op_type}' differs between opset {res.version} of domain {shown} "
            f"(imported by function '{fn.name}') and opset {model_version} (imported by the model)",
            node.path,
            token="op_type",
        )
