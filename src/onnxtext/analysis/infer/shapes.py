"""Dimension arithmetic shared by shape functions (onnx's rules, so results agree with onnx)."""

from __future__ import annotations

from collections.abc import Sequence

from onnxtext.analysis.infer.node import ShapeMismatch
from onnxtext.analysis.infer.types import Dim, Shape

__all__ = ["broadcast", "dim_mul", "merge_dim", "norm_axis", "product"]


def broadcast(shapes: Sequence[Shape], indices: Sequence[int] | None = None) -> Shape:
    """Multidirectional (numpy) broadcasting of ``shapes``; ``None`` if a rank is unknown.

    Raises :class:`ShapeMismatch` when two known sizes other than 1 differ.
    """
    if any(s is None for s in shapes):
        return None
    known = [s for s in shapes if s is not None]
    rank = max((len(s) for s in known), default=0)
    out: list[Dim] = []
    for k in range(rank):
        value = 1
        value_from = -1
        symbolic: Dim = None
        n_symbolic = 0
        for j, s in enumerate(known):
            offset = rank - len(s)
            if k < offset:
                continue
            d = s[k - offset]
            if isinstance(d, int):
                if d != 1:
                    if value != 1 and value != d:
                        where = indices[j] if indices is not None else j
                        other = indices[value_from] if indices is not None else value_from
                        raise ShapeMismatch(
                            f"cannot broadcast dimension {d} of input {where} with dimension {value} of input {other}",
                            where,
                        )
                    value, value_from = d, j
            elif n_symbolic == 0:
                symbolic, n_symbolic = d, 1
            elif d is None or d != symbolic:
                n_symbolic += 1
        if value != 1 or n_symbolic == 0:
            out.append(value)
        elif n_symbolic == 1:
            out.append(symbolic)
        else:
            out.append(None)
    return tuple(out)


def merge_dim(a: Dim, b: Dim) -> Dim:
    """What is known of a dim two sources describe (the known one wins)."""
    if isinstance(a, int):
        return a
    if isinstance(b, int):
        return b
    return a if a is not None else b


def dim_mul(a: Dim, b: Dim) -> Dim:
    if isinstance(a, int) and isinstance(b, int):
        return a * b
    if a == 1:
        return b
    if b == 1:
        return a
    return None


def product(dims: Sequence[Dim]) -> Dim:
    result: Dim = 1
    for d in dims:
        result = dim_mul(result, d)
    return result


def norm_axis(axis: int, rank: int) -> int | None:
    """``axis`` in ``[0, rank)``; ``None`` when out of range."""
    if axis < 0:
        axis += rank
    return axis if 0 <= axis < rank else None
