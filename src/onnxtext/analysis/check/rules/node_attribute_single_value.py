"""E310: An attribute holds one value field, and none when it is a reference (@name)."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, NodeInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules.node_attributes import LIST_FIELDS, VALUE_FIELDS
from onnxtext.proto import AttributeProto


class AttributeSingleValue(Rule):
    code = "E310"
    name = "attribute-single-value"
    description = "An attribute holds one value field, and none when it is a reference (@name)."

    def attribute(self, ctx: CheckContext, node: NodeInfo, index: int, attr: AttributeProto) -> None:
        used = [f for f in VALUE_FIELDS if attr.HasField(f)]
        used += [f for f in LIST_FIELDS if len(getattr(attr, f))]
        if len(used) > 1:
            ctx.report(
                self.code,
                f"attribute '{attr.name}' holds several values ({', '.join(used)})",
                node.path,
                token=("attribute", index),
            )
        elif used and attr.ref_attr_name and node.graph.function is not None:
            ctx.report(
                self.code,
                f"attribute '{attr.name}' refers to '@{attr.ref_attr_name}' and also holds a value",
                node.path,
                token=("attribute", index),
            )
