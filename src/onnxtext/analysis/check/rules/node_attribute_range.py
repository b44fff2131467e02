"""E311: An integer attribute lies in the range its operator accepts (``blocksize`` at least 1...)."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, NodeInfo, Resolution
from onnxtext.analysis.check.rule import Rule
from onnxtext.ir.attribute_ranges import attribute_range_problems, ranged_operators

_RANGED = ranged_operators()


class AttributeRange(Rule):
    code = "E311"
    name = "attribute-range"
    description = "An integer attribute lies in the range its operator accepts (blocksize, num_scan_inputs...)."

    def applies_to(self, resolution: Resolution) -> bool:
        return resolution.schema is not None and (resolution.domain, resolution.schema.name) in _RANGED

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        resolution = node.resolution
        proto = node.proto
        problems = attribute_range_problems(
            resolution.domain, proto.op_type, resolution.version, proto.attribute, len(node.inputs), len(node.outputs)
        )
        for problem in problems:
            ctx.report(self.code, problem.message(proto.op_type), node.path, token=("attribute", problem.index))
