"""E705: An 'axis' attribute fits the rank of the input it indexes (Transpose's 'perm': E703, from inference)."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, NodeInfo, Resolution
from onnxtext.analysis.check.rule import Rule
from onnxtext.ir.versioned import normalize_domain
from onnxtext.proto import NodeProto

# operator → (input whose rank r bounds 'axis', below, above): the range is
# [-r - below, r - 1 + above]. Flatten's axis may equal r, OneHot's adds an axis, DFT's
# (opset 17 to 19) cannot be the last axis, which holds the real and imaginary parts.
_AXIS: dict[str, tuple[int, int, int]] = {
    **{
        op: (0, 0, 0)
        for op in (
            "Softmax",
            "LogSoftmax",
            "Hardmax",
            "Concat",
            "Split",
            "Gather",
            "GatherElements",
            "ScatterElements",
            "ArgMax",
            "ArgMin",
            "LayerNormalization",
            "RMSNormalization",
            "Compress",
            "TopK",
            "LpNormalization",
            "SplitToSequence",
            "ConcatFromSequence",
            "Unique",
        )
    },
    "Flatten": (0, 0, 1),
    "OneHot": (0, 1, 1),
    "DFT": (0, 0, -1),
}


# operators whose default 'axis' onnx's inference also holds to the rank (ArgMax's and ArgMin's
# default 0 it accepts on a scalar, so do we; Concat has none)
_DEFAULT_CHECKED = frozenset(
    (
        "Softmax",
        "LogSoftmax",
        "Hardmax",
        "LayerNormalization",
        "RMSNormalization",
        "Split",
        "SplitToSequence",
        "TopK",
        "Gather",
        "Flatten",
    )
)


def _writes_axis(node: NodeProto) -> bool:
    return any(a.name == "axis" for a in node.attribute)


def _axes(lo: int, hi: int) -> str:
    return f"(an axis from {lo} to {hi})" if lo <= hi else "(it has no axis)"


def _default_axis(node: NodeInfo) -> int | None:
    """The default 'axis' of a node that does not write one, when it is held to the rank."""
    schema = node.resolution.schema
    if schema is None or node.proto.op_type not in _DEFAULT_CHECKED or _writes_axis(node.proto):
        return None
    spec = schema.attribute("axis")
    return spec.default if spec is not None and isinstance(spec.default, int) else None


class AxisInRange(Rule):
    code = "E705"
    name = "axis-in-range"
    description = "An 'axis' attribute fits the rank of its input (Softmax, Concat, Gather, Split, Flatten...)."

    def reads_types(self, node: NodeProto) -> bool:
        # the rank of the input it indexes, for a written axis or a default one held to the rank
        return _writes_axis(node) or node.op_type in _DEFAULT_CHECKED

    def applies_to(self, resolution: Resolution) -> bool:
        return resolution.schema is not None and resolution.schema.name in _AXIS

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        proto = node.proto
        if node.resolution.schema is None or normalize_domain(proto.domain):
            return
        op = proto.op_type
        rule = _AXIS.get(op)
        if rule is None:
            return
        index, below, above = rule
        default = _default_axis(node)
        if index >= len(node.inputs) or not node.inputs[index] or not (_writes_axis(proto) or default is not None):
            return  # no input, or no 'axis' written nor defaulted: nothing to check, the types unread
        types = ctx.inference.graphs.get(node.graph.path, {})
        t = types.get(node.inputs[index])
        if t is not None and t.kind == "sequence" and t.inner is not None:
            t = t.inner  # ConcatFromSequence: the axis is one of the elements'
        rank = t.rank if t is not None and t.kind == "tensor" else None
        if rank is None:
            return
        if default is not None:
            lo, hi = -rank - below, rank - 1 + above
            if not lo <= default <= hi:
                ctx.report(
                    self.code,
                    f"the default axis {default} of {op} is out of range for input {index}, which has rank {rank} "
                    f"{_axes(lo, hi)}",
                    node.path,
                    token=("input", index),
                )
            return
        for i, a in enumerate(proto.attribute):
            if a.ref_attr_name:
                continue
            if a.name == "axis" and a.type == a.INT:
                if op == "ConcatFromSequence" and any(b.name == "new_axis" and b.i == 1 for b in proto.attribute):
                    below = above = 1
                lo, hi = -rank - below, rank - 1 + above
                if not lo <= a.i <= hi:
                    ctx.report(
                        self.code,
                        f"axis {a.i} is out of range for input {index} of {op}, which has rank {rank} {_axes(lo, hi)}",
                        node.path,
                        token=("attribute", i),
                    )
