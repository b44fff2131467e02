"""Reductions (axes from the attribute or a constant input, keepdims) and ArgMax/ArgMin."""

from __future__ import annotations

from onnxtext.analysis.infer.node import NodeContext
from onnxtext.analysis.infer.registry import shape_fn
from onnxtext.analysis.infer.shapes import norm_axis
from onnxtext.analysis.infer.types import Dim

REDUCE = (
    "ReduceL1 ReduceL2 ReduceLogSum ReduceLogSumExp ReduceMax ReduceMean ReduceMin ReduceProd ReduceSum "
    "ReduceSumSquare".split()
)


def _axes_from_input(op: str, version: int) -> bool:
    return version >= (13 if op == "ReduceSum" else 18)


@shape_fn("", REDUCE)
def reduce(ctx: NodeContext) -> None:
    s = ctx.shape(0)
    if s is None:
        return
    keep = ctx.attr_int("keepdims", 1)
    if _axes_from_input(ctx.op, ctx.version):
        if ctx.has(1):
            axes = ctx.const_ints(1)
            if axes is None:
                if keep:
                    ctx.set_shape(0, (None,) * len(s))
                return
        else:
            axes = []
        if not axes and ctx.attr_int("noop_with_empty_axes", 0):
            ctx.set_shape(0, s)
            return
    else:
        axes = ctx.attr_ints("axes") or []
    norm = {norm_axis(a, len(s)) for a in axes} if axes else set(range(len(s)))
    out: list[Dim] = []
    for k, d in enumerate(s):
        if k in norm:
            if keep:
                out.append(1)
        else:
            out.append(d)
    ctx.set_shape(0, out)


@shape_fn("", ["ArgMax", "ArgMin"])
def arg_reduce(ctx: NodeContext) -> None:
    s = ctx.shape(0)
    if s is None:
        return
    axis = norm_axis(ctx.attr_int("axis", 0), len(s))
    if axis is None:
        return
    keep = ctx.attr_int("keepdims", 1)
    out = [1 if k == axis else d for k, d in enumerate(s) if keep or k != axis]
    ctx.set_shape(0, out)
