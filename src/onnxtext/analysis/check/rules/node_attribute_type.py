"""E306: An attribute has the type its operator declares."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, NodeInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import attr_type_name
from onnxtext.analysis.check.rules.node_attributes import INTEGER_FORM, as_floats
from onnxtext.diagnostics import Fix
from onnxtext.proto import AttributeProto


class AttributeType(Rule):
    code = "E306"
    name = "attribute-type"
    description = "An attribute has the type its operator declares."

    def attribute(self, ctx: CheckContext, node: NodeInfo, index: int, attr: AttributeProto) -> None:
        schema = node.resolution.schema
        if not attr.type:
            ctx.report(self.code, f"attribute '{attr.name}' has no type", node.path, token=("attribute", index))
            return
        spec = schema.attribute(attr.name) if schema is not None else None
        if spec is None or attr_type_name(attr.type) == spec.type:
            return
        if INTEGER_FORM.get(spec.type) == attr_type_name(attr.type):
            # An integer literal where a float is declared lowers to an INT attribute,
            # which runtimes refuse: say how to write it as a float.
            kind = "a float" if spec.type == "FLOAT" else "a list of floats"
            written = as_floats(attr)
            # An explicit ``alpha: int = 2`` also needs its declared type changed.
            edits = (
                ctx.edit(node.path, ("attribute_value", index), written),
                ctx.edit(node.path, ("attribute_type", index), spec.type.lower()),
            )
            ctx.report(
                self.code,
                f"attribute '{attr.name}' of {node.proto.op_type} is {kind}; write {written}",
                node.path,
                token=("attribute", index),
                fix=Fix(f"write {written}", tuple(e for e in edits if e is not None)),
            )
            return
        ctx.report(
            self.code,
            f"attribute '{attr.name}' of '{node.proto.op_type}' must be of type {spec.type}, "
            f"not {attr_type_name(attr.type)}",
            node.path,
            token=("attribute", index),
        )
