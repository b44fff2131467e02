"""E304: A node has as many outputs as its operator (or model-local function) produces; required ones are not empty."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, NodeInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules.node_arity import check_node_arity


class OutputArity(Rule):
    code = "E304"
    name = "output-arity"
    description = (
        "A node has as many outputs as its operator (or model-local function) produces; required ones are not empty."
    )

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        check_node_arity(ctx, self.code, node, "output")
