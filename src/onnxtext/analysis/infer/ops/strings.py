"""Text operators: TfIdfVectorizer's n-gram counts, StringNormalizer's strings."""

from __future__ import annotations

from onnxtext.analysis.infer.node import NodeContext, ShapeMismatch
from onnxtext.analysis.infer.registry import shape_fn
from onnxtext.analysis.infer.types import Dim


@shape_fn("", "TfIdfVectorizer")
def tfidf(ctx: NodeContext) -> None:
    """[C] or [N, C] in; one count per n-gram out, [D] or [N, D] with D = max(ngram_indexes) + 1."""
    x = ctx.shape(0)
    if x is None:
        return
    if len(x) not in (1, 2):
        raise ShapeMismatch(f"input 0 of TfIdfVectorizer has rank {len(x)}, but it takes [C] or [N, C]", 0)
    indexes = ctx.attr_ints("ngram_indexes")
    width: Dim = max(indexes) + 1 if indexes else None
    ctx.set_shape(0, [width] if len(x) == 1 else [x[0], width])


@shape_fn("", "StringNormalizer")
def string_normalizer(ctx: NodeContext) -> None:
    """[C] or [1, C] in and out (stop words may drop strings: the size is left unknown)."""
    x = ctx.shape(0)
    if x is None:
        return
    if len(x) not in (1, 2) or (len(x) == 2 and isinstance(x[0], int) and x[0] != 1):
        raise ShapeMismatch(
            f"input 0 of StringNormalizer has shape [{', '.join('?' if d is None else str(d) for d in x)}], "
            f"but it takes [C] or [1, C]",
            0,
        )
    ctx.set_shape(0, [None] if len(x) == 1 else [1, None])
