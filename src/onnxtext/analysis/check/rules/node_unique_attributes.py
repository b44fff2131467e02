"""E308: An attribute name appears at most once per node."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, NodeInfo
from onnxtext.analysis.check.rule import Rule


class UniqueAttributes(Rule):
    code = "E308"
    name = "unique-attributes"
    description = "An attribute name appears at most once per node."

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        seen: dict[str, int] = {}
        for i, attr in enumerate(node.proto.attribute):
            if not attr.name:
                ctx.report(self.code, "attribute has no name", node.path, token=("attribute", i))
            elif attr.name in seen:
                ctx.report(
                    self.code,
                    f"attribute '{attr.name}' is given more than once",
                    node.path,
                    token=("attribute", i),
                    related=(("first given here", node.path, ("attribute", seen[attr.name])),),
                )
            else:
                seen[attr.name] = i
