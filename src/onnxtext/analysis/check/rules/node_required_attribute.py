"""E307: Every required attribute of the operator is given (Constant: one of its value attributes)."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, NodeInfo, Resolution
from onnxtext.analysis.check.rule import Rule
from onnxtext.ir.schemas import OpSchema, normalize_domain


class RequiredAttribute(Rule):
    code = "E307"
    name = "required-attribute"
    description = "Every required attribute of the operator is given (Constant: exactly one of its values)."

    def applies_to(self, resolution: Resolution) -> bool:
        schema = resolution.schema
        return schema is not None and (bool(schema.required_attributes) or _is_constant(schema))

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        schema = node.resolution.schema
        if schema is None:
            return
        if _is_constant(schema):
            self._constant(ctx, node, [spec.name for spec in schema.attributes])
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

    def _constant(self, ctx: CheckContext, node: NodeInfo, values: list[str]) -> None:
        """Constant's attributes are all optional, but it takes its value from exactly one."""
        given = [a.name for a in node.proto.attribute if a.name in values]
        if len(given) == 1:
            return
        which = "none" if not given else " and ".join(f"'{name}'" for name in given)
        ctx.report(
            self.code,
            f"'Constant' needs exactly one of the attributes {', '.join(values)}; it has {which}",
            node.path,
            token="op_type",
        )


def _is_constant(schema: OpSchema) -> bool:
    return schema.name == "Constant" and not normalize_domain(schema.domain)
