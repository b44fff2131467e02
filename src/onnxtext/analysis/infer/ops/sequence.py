"""Sequence and optional operators."""

from __future__ import annotations

from onnxtext.analysis.infer.node import NodeContext
from onnxtext.analysis.infer.ops.controlflow import union
from onnxtext.analysis.infer.ops.elem_types import attr_elem
from onnxtext.analysis.infer.registry import shape_fn
from onnxtext.analysis.infer.types import UNKNOWN, ValueType


def _seq_elem(ctx: NodeContext, i: int) -> ValueType | None:
    t = ctx.input(i)
    return t.inner if t.kind == "sequence" else None


@shape_fn("", "SequenceEmpty")
def sequence_empty(ctx: NodeContext) -> None:
    dtype = attr_elem(ctx, "dtype") if "dtype" in ctx.attrs else 1  # an unknown one is E312's
    ctx.set_output(0, ValueType.sequence(ValueType.tensor(dtype or 0)))


@shape_fn("", "SequenceConstruct")
def sequence_construct(ctx: NodeContext) -> None:
    types = [ctx.input(i) for i in range(len(ctx.inputs))]
    if not types:
        return
    elem = types[0]
    for t in types[1:]:
        elem = union(elem, t)
    ctx.set_output(0, ValueType.sequence(elem))


@shape_fn("", "SequenceInsert")
def sequence_insert(ctx: NodeContext) -> None:
    inner = _seq_elem(ctx, 0)
    t = ctx.input(1)
    ctx.set_output(0, ValueType.sequence(union(inner, t) if inner is not None else t))


@shape_fn("", "SequenceErase")
def sequence_erase(ctx: NodeContext) -> None:
    ctx.set_output(0, ctx.input(0))


@shape_fn("", "SequenceAt")
def sequence_at(ctx: NodeContext) -> None:
    inner = _seq_elem(ctx, 0)
    if inner is not None:
        ctx.set_output(0, inner)


@shape_fn("", "SequenceLength")
def sequence_length(ctx: NodeContext) -> None:
    ctx.set_shape(0, (), 7)


@shape_fn("", "SplitToSequence")
def split_to_sequence(ctx: NodeContext) -> None:
    t = ctx.input(0)
    if t.kind != "tensor":
        return
    if t.shape is None:
        ctx.set_output(0, ValueType.sequence(ValueType.tensor(t.elem_type)))
        return
    axis = ctx.attr_int("axis", 0)
    axis = axis + len(t.shape) if axis < 0 else axis
    if not 0 <= axis < len(t.shape):  # out of range: the axis rule (E705) reports it
        ctx.set_output(0, ValueType.sequence(ValueType.tensor(t.elem_type)))
        return
    keep = ctx.attr_int("keepdims", 1)
    shape = list(t.shape)
    if not ctx.has(1):
        if not keep:
            del shape[axis]
        else:
            shape[axis] = 1
    else:
        split = ctx.const_ints(1)
        c = ctx.const(1)
        if split is not None and c is not None and c.ndim == 0:
            d = shape[axis]
            shape[axis] = split[0] if isinstance(d, int) and split[0] > 0 and d % split[0] == 0 else None
        elif split is not None and len(set(split)) == 1:
            shape[axis] = split[0]
        else:
            shape[axis] = None
    ctx.set_output(0, ValueType.sequence(ValueType.tensor(t.elem_type, tuple(shape))))


@shape_fn("", "ConcatFromSequence")
def concat_from_sequence(ctx: NodeContext) -> None:
    inner = _seq_elem(ctx, 0)
    if inner is None or inner.kind != "tensor" or inner.shape is None:
        return
    new_axis = ctx.attr_int("new_axis", 0)
    rank = len(inner.shape) + new_axis
    axis = ctx.attr_int("axis", 0)
    axis = axis + rank if axis < 0 else axis
    shape = list(inner.shape)
    if new_axis:
        shape.insert(axis, None)
    elif 0 <= axis < len(shape):
        shape[axis] = None
    ctx.set_shape(0, shape, inner.elem_type)


@shape_fn("", "Optional")
def optional(ctx: NodeContext) -> None:
    if ctx.has(0):
        ctx.set_output(0, ValueType.optional(ctx.input(0)))
        return
    a = ctx.attr("type")
    if a is not None and a.HasField("tp"):
        from onnxtext.analysis.infer.types import from_type_proto

        ctx.set_output(0, ValueType.optional(from_type_proto(a.tp)))


@shape_fn("", "OptionalGetElement")
def optional_get_element(ctx: NodeContext) -> None:
    t = ctx.input(0)
    if t.kind == "optional":
        ctx.set_output(0, t.inner if t.inner is not None else UNKNOWN)
    elif not t.is_unknown:
        ctx.set_output(0, t)


@shape_fn("", "OptionalHasElement")
def optional_has_element(ctx: NodeContext) -> None:
    ctx.set_shape(0, (), 9)
