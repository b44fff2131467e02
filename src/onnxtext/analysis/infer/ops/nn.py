"""Normalisations, recurrent layers and losses."""

from __future__ import annotations

from onnxtext.analysis.infer.node import NodeContext
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


@shape_fn("", ["RNN", "GRU", "LSTM"])
def recurrent(ctx: NodeContext) -> None:
    x = ctx.shape(0)
    if x is None or len(x) != 3:
        return
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
    if reduction != "none":
        ctx.set_shape(0, ())
    elif x is not None and len(x) >= 2:
        ctx.set_shape(0, [x[0]] + list(x[2:]))
    if len(ctx.outputs) > 1:
        ctx.set_shape(1, x)
