"""If, Loop and Scan: their bodies are inferred with the types the node gives their inputs."""

from __future__ import annotations

from onnxtext.analysis.infer.node import Finding, NodeContext
from onnxtext.analysis.infer.registry import shape_fn
from onnxtext.analysis.infer.types import UNKNOWN, Dim, ValueType


def union(a: ValueType, b: ValueType) -> ValueType:
    """What two possible types of a value have in common."""
    if a.is_unknown or b.is_unknown or a.kind != b.kind:
        return UNKNOWN
    if a.kind == "tensor":
        elem = a.elem_type if a.elem_type == b.elem_type else 0
        if a.shape is None or b.shape is None or len(a.shape) != len(b.shape):
            return ValueType.tensor(elem)
        dims: list[Dim] = [x if x == y else None for x, y in zip(a.shape, b.shape, strict=True)]
        return ValueType.tensor(elem, tuple(dims))
    if a.kind in ("sequence", "optional"):
        if a.inner is None or b.inner is None:
            return ValueType(a.kind)
        return ValueType(a.kind, inner=union(a.inner, b.inner))
    return a if a == b else UNKNOWN


def shapeless(t: ValueType) -> ValueType:
    """``t`` without its tensor shapes (a sequence's or optional's tensor included)."""
    if t.kind == "tensor":
        return t.with_shape(None)
    if t.inner is not None:
        return ValueType(t.kind, inner=shapeless(t.inner))
    return t


def disagree(a: ValueType, b: ValueType) -> bool:
    """Whether two types of one value (two branches, an iteration's in and out) cannot both be
    right: different kinds or element types, each known. Sizes may differ."""
    if a.is_unknown or b.is_unknown or "opaque" in (a.kind, b.kind):
        return False
    if (a.kind == "optional") != (b.kind == "optional"):  # an optional may carry its value bare (Loop 16)
        inner, bare = (a.inner, b) if a.kind == "optional" else (b.inner, a)
        return inner is not None and disagree(inner, bare)
    if a.kind != b.kind:
        return True
    if a.elem_type and b.elem_type and a.elem_type != b.elem_type:
        return True
    return a.inner is not None and b.inner is not None and disagree(a.inner, b.inner)


BRANCHES = Finding.CONTROL_FLOW
"""The finding of types that control flow must keep the same (branches, loop-carried values)."""


@shape_fn("", "If")
def if_(ctx: NodeContext) -> None:
    results = []
    for name in ("then_branch", "else_branch"):
        g = ctx.attr_graph(name)
        if g is not None:
            results.append(ctx.subgraph(g, name, []))
    if len(results) != 2:
        return
    then, other = results
    if len(then) != len(other):
        ctx.report(
            BRANCHES,
            f"then_branch has {len(then)} outputs and else_branch {len(other)}: If needs the same number",
            None,
        )
    for j, (a, b) in enumerate(zip(then, other, strict=False)):
        if disagree(a, b):
            ctx.report(BRANCHES, f"output {j} of If is {a} in then_branch but {b} in else_branch", None)
        ctx.set_output(j, union(a, b))


@shape_fn("", "Loop")
def loop(ctx: NodeContext) -> None:
    body = ctx.attr_graph("body")
    if body is None:
        return
    carried = [ctx.input(i) for i in range(2, len(ctx.inputs))]
    # an iteration may change a carried value's shape: the body sees its kind and element type only
    # (as onnx's Loop inference clears the shape of what it passes the body)
    types: list[ValueType | None] = [ValueType.tensor(7, ()), ValueType.tensor(9, ()), *map(shapeless, carried)]
    outs = ctx.subgraph(body, "body", types)
    if outs and len(outs) != len(ctx.outputs) + 1:
        ctx.report(
            BRANCHES,
            f"the body of Loop has {len(outs)} outputs and the node {len(ctx.outputs)}: the body gives the "
            f"condition, then one value for each output of the node ({len(ctx.outputs) + 1} in all)",
            None,
        )
    n = len(carried)
    for j in range(n):
        if 1 + j < len(outs):
            body_out = outs[1 + j]
            if disagree(carried[j], body_out):
                ctx.report(
                    BRANCHES,
                    f"loop-carried value {j} enters Loop as {carried[j]} but the body gives back {body_out}",
                    2 + j,
                )
            ctx.set_output(j, union(carried[j], body_out) if not carried[j].is_unknown else body_out)
    for k, t in enumerate(outs[1 + n :]):
        if t.kind == "tensor":
            ctx.set_output(n + k, ValueType.tensor(t.elem_type, None if t.shape is None else (None, *t.shape)))
        else:
            ctx.set_output(n + k, t)


def _one_per_output(ctx: NodeContext, outs: list[ValueType]) -> None:
    """A Scan body gives one value for each output of the node (a body whose inference was skipped gives none)."""
    if outs and len(outs) != len(ctx.outputs):
        ctx.report(
            BRANCHES,
            f"the body of Scan has {len(outs)} outputs and the node {len(ctx.outputs)}: "
            f"the body gives one value for each output of the node",
            None,
        )


@shape_fn("", "Scan", 9)
def scan(ctx: NodeContext) -> None:
    body = ctx.attr_graph("body")
    if body is None:
        return
    m = ctx.attr_int("num_scan_inputs", 0)
    n = len(ctx.inputs) - m
    if n < 0 or m < 0:
        return  # E311: more scanned inputs than inputs
    axes = ctx.attr_ints("scan_input_axes") or [0] * m
    states = [ctx.input(i) for i in range(n)]
    slices: list[ValueType | None] = []
    length: Dim = None
    for k in range(m):
        t = ctx.input(n + k)
        if t.kind != "tensor" or t.shape is None:
            slices.append(t)
            continue
        axis = axes[k] + len(t.shape) if axes[k] < 0 else axes[k]
        if 0 <= axis < len(t.shape):
            length = t.shape[axis] if length is None else length
            slices.append(t.with_shape(t.shape[:axis] + t.shape[axis + 1 :]))
        else:
            slices.append(t)
    outs = ctx.subgraph(body, "body", [*states, *slices])
    _one_per_output(ctx, outs)
    for j in range(min(n, len(outs))):
        if disagree(states[j], outs[j]):
            ctx.report(BRANCHES, f"state variable {j} enters Scan as {states[j]} but the body gives back {outs[j]}", j)
        ctx.set_output(j, outs[j])
    out_axes = ctx.attr_ints("scan_output_axes") or [0] * (len(outs) - n)
    for k, t in enumerate(outs[n:]):
        if t.kind == "tensor" and t.shape is not None:
            axis = out_axes[k] if k < len(out_axes) else 0
            axis = axis + len(t.shape) + 1 if axis < 0 else axis
            shape = list(t.shape)
            shape.insert(axis, length)
            ctx.set_output(n + k, t.with_shape(tuple(shape)))
        else:
            ctx.set_output(n + k, t)


@shape_fn("", "Scan", 8)
def scan_batched(ctx: NodeContext) -> None:
    """Scan of opset 8: input 0 is the optional sequence lengths, every state and scan input has
    a batch axis first (and scan inputs the sequence axis next); the outputs keep the body's
    element types, with sizes left unknown."""
    body = ctx.attr_graph("body")
    m = ctx.attr_int("num_scan_inputs", 0)
    n = len(ctx.inputs) - 1 - m
    if body is None or n < 0 or m < 0:
        return

    def without(t: ValueType, axes: int) -> ValueType:
        return (
            t.with_shape(t.shape[axes:]) if t.kind == "tensor" and t.shape is not None and len(t.shape) >= axes else t
        )

    states = [without(ctx.input(1 + i), 1) for i in range(n)]
    slices = [without(ctx.input(1 + n + k), 2) for k in range(m)]
    outs = ctx.subgraph(body, "body", [*states, *slices])
    _one_per_output(ctx, outs)
    for j, t in enumerate(outs):
        ctx.set_output(j, ValueType.tensor(t.elem_type) if t.kind == "tensor" else t)
