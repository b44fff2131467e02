"""E307: Every required attribute of the operator is given."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, NodeInfo, Resolution
from onnxtext.analysis.check.rule import Rule


class RequiredAttribute(Rule):
    code = "E307"
    name = "required-attribute"
    description = "Every required attribute of the operator is given."

    def applies_to(self, resolution: Resolution) -> bool:
        return resolution.schema is not None and bool(resolution.schema.required_attributes)

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        schema = node.resolution.schema
        if schema is None:
            return
        required = schema.required_attributes
        if not required:
            return
        given = {a.name for a in node.proto.attribute}
        for spec in required:
            if spec.name not in given:
                ctx.report(
                    self.code,
                    f"'{node.proto.op_type}' needs attribute '{spec.name}' ({spec.type})",
                    node.path,
                    token="op_type",
                )
