"""Signal processing: the rank DFT and STFT need of their signal."""

from __future__ import annotations

from onnxtext.analysis.infer.node import NodeContext, ShapeMismatch
from onnxtext.analysis.infer.registry import shape_fn


@shape_fn("", ["DFT", "STFT"])
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
