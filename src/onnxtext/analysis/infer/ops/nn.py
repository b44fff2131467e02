"""Normalisations, recurrent layers and losses."""

from __future__ import annotations

from onnxtext.analysis.infer.node import NodeContext, ShapeMismatch
from onnxtext.analysis.infer.registry import shape_fn
from onnxtext.analysis.infer.shapes import norm_axis


@shape_fn("", "BatchNormalization")
def batch_norm(ctx: NodeContext) -> None:
    ctx.set_shape(0, ctx.shape(0))
    for j in range(1, len(ctx.outputs)):
        ctx.set_shape(j, ctx.shape(3) if ctx.has(3) else None)


@shape_fn("", "LayerNormalization")
def layer_norm(ctx: NodeContext) -> None:
    s = ctx.shape(0)
    ctx.set_shape(0, s)
    if s is None:
        return
    axis = norm_axis(ctx.attr_int("axis", -1), len(s))
    if axis is None:
        return
    reduced = [d if k < axis else 1 for k, d in enumerate(s)]
    stash = ctx.attr_int("stash_type", 1)
    for j in (1, 2):
        ctx.set_shape(j, reduced, stash)


@shape_fn("", "RMSNormalization")
def rms_norm(ctx: NodeContext) -> None:
    ctx.set_shape(0, ctx.shape(0))


@shape_fn("", ["RNN", "GRU", "LSTM"])
def recurrent(ctx: NodeContext) -> None:
    x = ctx.shape(0)
    if x is None:
        return
    if len(x) != 3:  # onnx: 'Input 0 expected to have rank 3'
        raise ShapeMismatch(
            f"input 0 (X) of {ctx.op} has rank {len(x)}, but {ctx.op} needs 3 (sequence, batch, features)", 0
        )
    layout = ctx.attr_int("layout", 0)
    seq, batch = (x[1], x[0]) if layout else (x[0], x[1])
    directions = 2 if ctx.attr_str("direction", "forward") == "bidirectional" else 1
    hidden = ctx.attr_int("hidden_size", 0) or None
    if layout:
        ctx.set_shape(0, (batch, seq, directions, hidden))
        for j in (1, 2):
            ctx.set_shape(j, (batch, directions, hidden))
    else:
        ctx.set_shape(0, (seq, directions, batch, hidden))
        for j in (1, 2):
            ctx.set_shape(j, (directions, batch, hidden))


@shape_fn("", ["NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss"])
def loss(ctx: NodeContext) -> None:
    reduction = ctx.attr_str("reduction", "mean")
    x = ctx.shape(0)
    if ctx.op == "NegativeLogLikelihoodLoss" and x is not None:
        _nll_ranks(ctx, len(x))
    if reduction != "none":
        ctx.set_shape(0, ())
    elif x is not None and len(x) >= 2:
        ctx.set_shape(0, [x[0]] + list(x[2:]))
    if len(ctx.outputs) > 1:
        ctx.set_shape(1, x)


def _nll_ranks(ctx: NodeContext, rank: int) -> None:
    """The input is [N, C, d1...], the target [N, d1...] (one axis fewer), the weight [C] (onnx:
    'Input rank must be >= 2', 'Input 1 expected to have rank 1 but has rank 5')."""
    if rank < 2:
        raise ShapeMismatch(f"input 0 of {ctx.op} has rank {rank}, but {ctx.op} needs at least 2 (N, C, ...)", 0)
    target = ctx.shape(1)
    if target is not None and len(target) != rank - 1:
        raise ShapeMismatch(
            f"input 1 (target) of {ctx.op} has rank {len(target)}, but input 0 has rank {rank}: "
            f"the target has one axis fewer ({rank - 1}), no class axis",
            1,
        )
    x = ctx.shape(0) or ()
    if target is not None:
        for k, (a, b) in enumerate(zip([x[0], *x[2:]], target, strict=False)):
            if isinstance(a, int) and isinstance(b, int) and a != b:
                axis = 0 if k == 0 else k + 1
                raise ShapeMismatch(
                    f"input 1 (target) of {ctx.op} has {b} on axis {k}, but input 0 has {a} on axis {axis}: "
                    f"the target is [N, d1, ...] of input 0's [N, C, d1, ...]",
                    1,
                )
    weight = ctx.shape(2) if ctx.has(2) else None
    if weight is not None and len(weight) != 1:
        raise ShapeMismatch(f"input 2 (weight) of {ctx.op} has rank {len(weight)}, but it has one value per class", 2)
