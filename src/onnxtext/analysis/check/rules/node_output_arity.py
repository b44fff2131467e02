"""E304: A node has as many outputs as its operator (or model-local function) produces; required ones are not empty."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, NodeInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules.node_arity import check_arity


class OutputArity(Rule):
    code = "E304"
    name = "output-arity"
    description = "A node has as many outputs as its operator (or model-local function) produces; required ones are not empty."

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        res = node.resolution
        if res.schema is not None:
            s = res.schema
            check_arity(ctx, self.code, node, "output", node.proto.output, s.outputs, s.min_output, s.max_output)
        elif res.function is not None and len(node.proto.output) > len(res.function.output):
            f = res.function
            ctx.report(
                self.code,
                f"function '{f.name}' has {len(f.output)} outputs, got {len(node.proto.output)}",
                node.path,
                token=("output", len(f.output)),
            )
