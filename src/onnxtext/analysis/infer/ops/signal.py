"""Signal processing: the rank DFT and STFT need of their signal, DFT's output shape."""

from __future__ import annotations

from onnxtext.analysis.infer.node import NodeContext, ShapeMismatch
from onnxtext.analysis.infer.registry import shape_fn


@shape_fn("", "STFT")
def signal_rank(ctx: NodeContext) -> None:
    """A signal of rank 2 at least: a batch axis, then the samples (and the real and imaginary
    parts); onnx's inference refuses less ('First input should have at least 2 dimensions')."""
    s = ctx.shape(0)
    if s is not None and len(s) < 2:
        raise ShapeMismatch(
            f"input 0 (the signal) of {ctx.op} has rank {len(s)}, but {ctx.op} needs at least 2 "
            f"(a batch axis, then the samples)",
            0,
        )


@shape_fn("", "DFT")
def dft(ctx: NodeContext) -> None:
    """[..., 1 or 2] in, [..., 2] out (complex; [..., 1] for an inverse one-sided one): the
    transformed axis may change size, the others keep theirs; a one-sided DFT takes a real
    signal (onnx: 'one-sided DFT requires real input')."""
    signal_rank(ctx)
    s = ctx.shape(0)
    if s is None:
        return
    inverse, onesided = ctx.attr_int("inverse", 0), ctx.attr_int("onesided", 0)
    if onesided and not inverse and isinstance(s[-1], int) and s[-1] != 1:
        raise ShapeMismatch(f"a one-sided DFT takes a real signal (last axis 1), but input 0's last axis is {s[-1]}", 0)
    if ctx.version < 20:
        axis: int | None = ctx.attr_int("axis", 1)
    else:
        given = ctx.const_ints(2) if ctx.has(2) else [-2]
        axis = given[0] if given is not None and len(given) == 1 else None
    rank = len(s)
    k = None if axis is None else (axis + rank if axis < 0 else axis)
    out = [None if k is None or i == k else d for i, d in enumerate(s[:-1])]
    ctx.set_shape(0, [*out, 1 if inverse and onesided else 2])  # an inverse one-sided DFT gives a real signal
