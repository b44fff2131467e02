"""E309: attribute references (``@name``) appear only in function bodies (what they name: W302)."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, NodeInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.proto import AttributeProto


class AttributeReference(Rule):
    code = "E309"
    name = "attribute-reference"
    description = "An attribute reference '@name' is only allowed in a function body."

    def attribute(self, ctx: CheckContext, node: NodeInfo, index: int, attr: AttributeProto) -> None:
        ref = attr.ref_attr_name
        if ref and node.graph.function is None:
            ctx.report(
                self.code,
                f"attribute '{attr.name}' refers to '@{ref}' outside a function",
                node.path,
                token=("attribute", index),
            )
