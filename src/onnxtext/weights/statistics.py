"""Statistics of a tensor's values, in bounded memory: count, min, max, mean, std, zeros and a histogram.

One function for every place that shows them: the graph view's properties panel (a weight, and with
live values every value), a hover over a weight, the ``onnxtext graph -o x.html`` page, the live
values' child process, and ``print --weights digest``.

The values are read in blocks of :data:`CHUNK` (a memory map of a 10 GB weight is never copied
whole): each block is converted to float64 (the temporaries stay a few blocks' worth), and the
non-finite values (NaN, ±inf) are counted, not used. Two passes over the blocks:

1. min, max, count, zeros and the float64 sum (numpy's pairwise sum inside a block);
2. the histogram over [min, max] and the sum of squared deviations from the mean.

Two passes because the histogram needs its range before it counts anything (a fixed range, such as
the dtype's, would put every value of a trained weight in one or two bars); the second pass then
gives the std as the mean of squared deviations, which does not lose digits the way
``E[x²] - E[x]²`` does when the mean is large against the spread. A tensor of one block is
converted once and both passes read the same float64 copy.

The histogram counts exactly as :func:`numpy.histogram` with ``range=(min, max)`` (its edge
corrections included), without its per-call overhead (a live run computes one per value).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["BINS", "CHUNK", "Histogram", "Statistics", "statistics"]

BINS = 24
"""Bars of a histogram."""
CHUNK = 1 << 16
"""Values per block (numpy's histogram uses the same): half a megabyte of float64 a temporary. Larger
blocks are no faster on 100M values and four times slower on 200K: each fresh temporary of a few
megabytes is a fresh mapping whose pages fault in one by one (a sandboxed kernel makes that dear)."""


@dataclass(frozen=True, slots=True)
class Histogram:
    """``counts[i]`` values in the ``i``-th of ``len(counts)`` equal bars from ``lo`` to ``hi``
    (the last bar includes ``hi``; ``lo == hi``: the bars span ``lo ± 0.5``, as numpy's)."""

    lo: float
    hi: float
    counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Statistics:
    """Of ``count`` values, ``nonfinite`` NaN or infinite; the rest are described by ``min``,
    ``max``, ``mean``, ``std`` (population), ``zeros`` and the ``histogram`` (None when there is
    no finite value)."""

    count: int
    nonfinite: int = 0
    min: float | None = None
    max: float | None = None
    mean: float | None = None
    std: float | None = None
    zeros: int = 0
    histogram: Histogram | None = None


def _floats(dtype: np.dtype) -> bool | None:
    """Whether values of ``dtype`` can be non-finite (True), are always finite numbers (False),
    or are no real numbers at all (None: strings, objects, complex)."""
    if dtype.kind in "biu":
        return False
    if dtype.kind == "f":
        return True
    if dtype.kind == "V" and dtype.type.__module__.split(".")[0] == "ml_dtypes":
        return "float" in dtype.name  # bfloat16, float8_*, float4_*; int4, uint2...: integers
    return None


def statistics(values: np.ndarray, *, bins: int = BINS, chunk: int = CHUNK) -> Statistics | None:
    """The :class:`Statistics` of ``values`` (any shape; a memory map is read a block at a time),
    with a histogram of ``bins`` bars (0: none); None for values that are no real numbers."""
    floats = _floats(values.dtype)
    if floats is None:
        return None
    # casting signalling NaNs (payloads) to float64; squares past float64's range: inf, as numpy's std
    with np.errstate(invalid="ignore", over="ignore"):
        return _statistics(values, floats, bins, chunk)


def _statistics(values: np.ndarray, floats: bool, bins: int, chunk: int) -> Statistics:
    flat = values.reshape(-1)
    n = int(flat.size)
    if n == 0:
        return Statistics(0)
    if flat.dtype.kind == "b":
        flat = flat.view(np.uint8)
    # numpy's own numbers are read as they are (min and max exact, sums in float64); the ml_dtypes
    # ones as float32, which holds each of their values exactly
    wide = np.dtype(np.float32) if flat.dtype.kind == "V" else None
    starts = range(0, n, chunk)

    def block(i: int) -> np.ndarray:
        c = flat[i : i + chunk]
        if wide is not None:
            c = c.astype(wide)
        if floats:
            finite = np.isfinite(c)
            if not finite.all():
                c = c[finite]
        return c

    kept = block(0) if len(starts) == 1 else None  # the one block of a small tensor, read once
    lo, hi, total, finite_count, zeros = np.inf, -np.inf, 0.0, 0, 0
    for i in starts:
        c = kept if kept is not None else block(i)
        if c.size:
            lo, hi = min(lo, float(c.min())), max(hi, float(c.max()))
            total += float(c.sum(dtype=np.float64))
            finite_count += int(c.size)
            zeros += int(c.size - np.count_nonzero(c))
    if finite_count == 0:
        return Statistics(n, n)
    mean = total / finite_count
    counts = np.zeros(bins, dtype=np.int64)
    edges = _edges(lo, hi, bins) if bins else None
    upper = np.append(edges[1:-1], np.inf) if edges is not None else None
    squares = 0.0
    for i in starts:
        c = kept if kept is not None else block(i)
        d = np.subtract(c, mean, dtype=np.float64)
        if edges is not None and upper is not None:
            counts += _counts(c, d, mean, edges, upper)
        np.multiply(d, d, out=d)
        squares += float(d.sum())
    histogram = None
    if edges is not None:
        histogram = Histogram(float(edges[0]), float(edges[-1]), tuple(int(c) for c in counts))
    return Statistics(
        count=n,
        nonfinite=n - finite_count,
        min=lo,
        max=hi,
        mean=mean,
        std=(squares / finite_count) ** 0.5,
        zeros=zeros,
        histogram=histogram,
    )


def _edges(lo: float, hi: float, bins: int) -> np.ndarray | None:
    """The bars' edges over ``[lo, hi]``; None for no bars over an infinite span. One value is
    given a span of 1 around it, or as much of its own size as leaves a span: int64's maximum ±
    0.5 is itself (torch exports slice "to the end" with it), which numpy refuses to cut in bars."""
    if lo == hi:
        pad = max(0.5, abs(lo) * 2.0**-20)
        lo, hi = lo - pad, hi + pad
    if not np.isfinite(hi - lo):
        return None
    return np.linspace(lo, hi, bins + 1, endpoint=True, dtype=np.float64)


def _counts(c: np.ndarray, d: np.ndarray, mean: float, edges: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """:func:`numpy.histogram`'s counts of the values ``c`` (every one within the edges; ``d``: their
    deviations from ``mean``) over equal bins: a first index from the value's place in the span,
    then moved so that ``edges[i] <= c < upper[i]`` (``upper``: the edges after the first, the last
    one infinite: the last bar holds the maximum). The bar is so decided by the edges alone, as
    numpy decides it, whatever the rounding of the first index (one bar off at most)."""
    bins = len(edges) - 1
    first = float(edges[0])
    x = d + (mean - first)
    x *= bins / (float(edges[-1]) - first)
    index = x.astype(np.intp)
    np.clip(index, 0, bins - 1, out=index)
    index -= c < np.take(edges, index)
    index += c >= np.take(upper, index)
    return np.bincount(index, minlength=bins)
