"""Resize: the output from 'sizes' or 'scales', over all axes or those 'axes' names (opset 18)."""

from __future__ import annotations

import math

from onnxtext.analysis.infer.node import NodeContext, ShapeMismatch
from onnxtext.analysis.infer.registry import shape_fn
from onnxtext.analysis.infer.types import Dim


def _axes(ctx: NodeContext, rank: int) -> list[int]:
    """The axes resized: 'axes' (each once, within the rank) or all (onnx: 'Axis 3 is referred to
    more than once', 'Unexpected axis value')."""
    axes = ctx.attr_ints("axes") if ctx.version >= 18 else None
    if axes is None:
        return list(range(rank))
    normed = []
    for a in axes:
        k = a + rank if a < 0 else a
        if not 0 <= k < rank:
            raise ShapeMismatch(
                f"'axes' holds {a}, but input 0 has rank {rank} (an axis from {-rank} to {rank - 1})", 0
            )
        if k in normed:
            raise ShapeMismatch(f"'axes' names axis {k} more than once", 0)
        normed.append(k)
    return normed


@shape_fn("", "Resize")
def resize(ctx: NodeContext) -> None:
    x = ctx.shape(0)
    if x is None:
        return
    axes = _axes(ctx, len(x))
    scales_at, sizes_at = (1, None) if ctx.version < 11 else (2, 3)
    sizes = ctx.const_ints(sizes_at) if sizes_at is not None and ctx.has(sizes_at) else None
    scales = ctx.const(scales_at) if ctx.has(scales_at) else None
    values: list[float] | list[int] | list[None] | None = sizes
    at: int = scales_at
    if sizes and sizes_at is not None:
        at = sizes_at
    else:
        values = None if scales is None else scales.ravel().tolist()
    if not values:  # computed: the axes not resized keep their sizes, a 1-D input's length is checked
        at = sizes_at if sizes_at is not None and ctx.has(sizes_at) else scales_at
        length = ctx.shape(at) if ctx.has(at) else None
        if length is None or len(length) != 1 or not isinstance(length[0], int) or length[0] <= 0:
            ctx.set_shape(0, [None if k in axes else d for k, d in enumerate(x)])
            return
        values = [None] * length[0]
    given = "sizes" if at == sizes_at else "scales"
    if len(values) != len(axes):
        raise ShapeMismatch(
            f"input {at} ({given}) has {len(values)} values, but {len(axes)} axes are resized: one value per axis", at
        )
    out: list[Dim] = list(x)
    stretch = ctx.attr_str("keep_aspect_ratio_policy", "stretch") == "stretch"
    for k, v in zip(axes, values, strict=True):
        if v is None:
            out[k] = None
        elif given == "sizes":
            out[k] = int(v) if stretch else None
        else:
            d = x[k]
            out[k] = math.floor(d * float(v)) if isinstance(d, int) else None
    ctx.set_shape(0, out)
