"""E705: An 'axis' attribute fits the rank of the input it indexes (Transpose's 'perm': E703, from inference)."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, NodeInfo
from onnxtext.analysis.check.rule import Rule

# operator → (input whose rank bounds 'axis', how far past the last axis it may go): the
# range is [-rank - extra, rank - 1 + extra]; Flatten's axis may equal the rank.
_AXIS: dict[str, tuple[int, int]] = {
    **{op: (0, 0) for op in (
        "Softmax", "LogSoftmax", "Hardmax", "Concat", "Split", "Gather", "GatherElements", "ScatterElements",
        "ArgMax", "ArgMin", "LayerNormalization", "Compress", "TopK", "LpNormalization", "SplitToSequence",
        "ConcatFromSequence", "ReverseSequence", "CumSum", "Unique", "GroupNormalization",
    )},
    "Flatten": (0, 1),
}


class AxisInRange(Rule):
    code = "E705"
    name = "axis-in-range"
    description = "An 'axis' attribute fits the rank of its input (Softmax, Concat, Gather, Split, Flatten...)."

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        proto = node.proto
        if node.resolution.schema is None or proto.domain not in ("", "ai.onnx"):
            return
        op = proto.op_type
        rule = _AXIS.get(op)
        if rule is None:
            return
        index = rule[0]
        if index >= len(proto.input) or not proto.input[index]:
            return
        types = ctx.inference.graphs.get(node.graph.path, {})
        t = types.get(proto.input[index])
        rank = t.rank if t is not None and t.kind == "tensor" else None
        if rank is None:
            return
        for i, a in enumerate(proto.attribute):
            if a.ref_attr_name:
                continue
            if a.name == "axis" and a.type == a.INT:
                extra = rule[1]
                if op == "ConcatFromSequence":
                    extra = 1 if any(b.name == "new_axis" and b.i == 1 for b in proto.attribute) else 0
                if not -rank - extra <= a.i <= rank - 1 + extra:
                    hi = rank - 1 + extra
                    ctx.report(
                        self.code,
                        f"axis {a.i} is out of range for input {index} of {op}, which has rank {rank} "
                        f"(an axis from {-rank - extra} to {hi})",
                        node.path,
                        token=("attribute", i),
                    )
