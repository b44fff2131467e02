"""Convolutions and pooling: output spatial sizes from kernel, strides, pads, dilations, auto_pad."""

from __future__ import annotations

import math

from onnxtext.analysis.infer.node import Finding, NodeContext, ShapeMismatch
from onnxtext.analysis.infer.registry import shape_fn
from onnxtext.analysis.infer.types import Dim


def _kernel_length(ctx: NodeContext, n: int) -> None:
    """A given 'kernel_shape' has one value per spatial axis (onnx: 'Attribute kernel_shape has
    incorrect size'); raises :class:`ShapeMismatch` when it does not."""
    kernel = ctx.attr_ints("kernel_shape")
    if kernel is not None and len(kernel) != n:
        raise ShapeMismatch(
            f"'kernel_shape' has {len(kernel)} values, but input 0 has {n} spatial axes: {ctx.op} needs {n}", 0
        )


def _lengths(ctx: NodeContext, n: int, names: tuple[str, ...]) -> None:
    """Each of the attributes ``names`` that is given has one value per spatial axis (``pads``
    two); raises :class:`ShapeMismatch` naming the first that does not."""
    for name in names:
        values = ctx.attr_ints(name)
        want = 2 * n if name == "pads" else n
        if values is not None and len(values) != want:
            raise ShapeMismatch(
                f"'{name}' has {len(values)} values, but input 0 has {n} spatial axes: {ctx.op} needs {want}", 0
            )


def _spatial(ctx: NodeContext, spatial: tuple[Dim, ...], kernel: list[int], *, pooling: bool) -> list[Dim]:
    n = len(spatial)
    _lengths(ctx, n, ("strides", "dilations", "pads"))
    strides = ctx.attr_ints("strides") or [1] * n
    dilations = ctx.attr_ints("dilations") or [1] * n
    pads = ctx.attr_ints("pads") or [0] * (2 * n)
    auto_pad = ctx.attr_str("auto_pad", "NOTSET")
    ceil_mode = ctx.attr_int("ceil_mode", 0) if pooling else 0
    out: list[Dim] = []
    for k, d in enumerate(spatial):
        if not isinstance(d, int):
            out.append(None)
            continue
        stride = strides[k] if k < len(strides) else 1
        if not isinstance(d, int) or stride <= 0 or k + n >= len(pads) or k >= len(dilations):
            out.append(None)  # an attribute the checker reports as invalid: the size stays unknown
            continue
        if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            out.append(-(-d // stride))
            continue
        effective = (kernel[k] - 1) * dilations[k] + 1
        total = d - effective if auto_pad == "VALID" else d + pads[k] + pads[k + n] - effective
        if ceil_mode:
            size = math.ceil(total / stride) + 1
            if (size - 1) * stride >= d + (0 if auto_pad == "VALID" else pads[k]):
                size -= 1
        else:
            size = total // stride + 1
        out.append(size)
    return out


def _batched(ctx: NodeContext, index: int, what: str) -> tuple[Dim, ...] | None:
    """The shape of input ``index`` (``X`` or ``W``), which has a batch or channel axis, another
    one, and at least one spatial axis; raises :class:`ShapeMismatch` when its rank is below 3."""
    s = ctx.shape(index)
    if s is not None and len(s) < 3:
        raise ShapeMismatch(
            f"input {index} ({what}) of {ctx.op} has rank {len(s)}, but {ctx.op} needs at least 3 "
            f"(two axes, then one per spatial axis)",
            index,
        )
    return s


def _same_rank(ctx: NodeContext, x: tuple[Dim, ...], index: int, w: tuple[Dim, ...] | None) -> None:
    """Without 'kernel_shape', the weight's axes after the first two are the kernel, one per spatial
    axis of X; reported, the output's batch axis still inferred."""
    if w is not None and len(w) != len(x) and ctx.attr_ints("kernel_shape") is None:
        ctx.report(
            Finding.SHAPE,
            f"input {index} (W) of {ctx.op} has rank {len(w)}, but input 0 (X) has rank {len(x)}: the weight "
            f"has one kernel axis per spatial axis of X ({len(x) - 2}), after its two channel axes",
            index,
        )


@shape_fn("", ["Conv", "ConvInteger", "QLinearConv"])
def conv(ctx: NodeContext) -> None:
    wi = 3 if ctx.op == "QLinearConv" else 1
    x, w = _batched(ctx, 0, "X"), ctx.shape(wi)
    if x is None:
        return
    _same_rank(ctx, x, wi, w)
    _kernel_length(ctx, len(x) - 2)
    kernel = ctx.attr_ints("kernel_shape")
    if kernel is None and w is not None and all(isinstance(d, int) for d in w[2:]):
        kernel = [int(d) for d in w[2:]]  # type: ignore[arg-type]
    channels: Dim = w[0] if w else None  # a weight of rank 0 is the checker's to report, not a crash
    if kernel is None or len(kernel) != len(x) - 2:
        ctx.set_shape(0, [x[0], channels] + [None] * (len(x) - 2))
        return
    ctx.set_shape(0, [x[0], channels] + _spatial(ctx, x[2:], kernel, pooling=False))


@shape_fn("", ["MaxPool", "AveragePool", "LpPool"])
def pool(ctx: NodeContext) -> None:
    x = _batched(ctx, 0, "X")
    if x is not None:
        _kernel_length(ctx, len(x) - 2)
    kernel = ctx.attr_ints("kernel_shape")
    if x is None or kernel is None or len(kernel) != len(x) - 2:
        return
    out = [x[0], x[1]] + _spatial(ctx, x[2:], kernel, pooling=True)
    ctx.set_shape(0, out)
    ctx.set_shape(1, out)


@shape_fn("", ["GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool"])
def global_pool(ctx: NodeContext) -> None:
    x = ctx.shape(0)
    if x is not None and len(x) >= 2:
        ctx.set_shape(0, [x[0], x[1]] + [1] * (len(x) - 2))


@shape_fn("", "ConvTranspose")
def conv_transpose(ctx: NodeContext) -> None:
    x, w = _batched(ctx, 0, "X"), ctx.shape(1)
    if x is None:
        return
    _same_rank(ctx, x, 1, w)
    _kernel_length(ctx, len(x) - 2)
    n = len(x) - 2
    group = ctx.attr_int("group", 1)
    channels: Dim = w[1] * group if w is not None and len(w) > 1 and isinstance(w[1], int) else None
    kernel = ctx.attr_ints("kernel_shape")
    if kernel is None and w is not None and all(isinstance(d, int) for d in w[2:]):
        kernel = [int(d) for d in w[2:]]  # type: ignore[arg-type]
    output_shape = ctx.attr_ints("output_shape")
    if output_shape is not None:
        ctx.set_shape(0, [x[0], channels] + list(output_shape[-n:]))
        return
    if kernel is None or len(kernel) != n:
        ctx.set_shape(0, [x[0], channels] + [None] * n)
        return
    _lengths(ctx, n, ("strides", "dilations", "pads", "output_padding"))
    strides = ctx.attr_ints("strides") or [1] * n
    dilations = ctx.attr_ints("dilations") or [1] * n
    pads = ctx.attr_ints("pads") or [0] * (2 * n)
    out_pad = ctx.attr_ints("output_padding") or [0] * n
    auto_pad = ctx.attr_str("auto_pad", "NOTSET")
    spatial: list[Dim] = []
    for k in range(n):
        d = x[2 + k]
        if not isinstance(d, int):
            spatial.append(None)
        elif auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            spatial.append(d * strides[k])
        else:
            spatial.append(
                strides[k] * (d - 1) + out_pad[k] + (kernel[k] - 1) * dilations[k] + 1 - pads[k] - pads[k + n]
            )
    ctx.set_shape(0, [x[0], channels] + spatial)
