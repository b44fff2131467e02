"""Helpers shared by kernels."""

from __future__ import annotations

from typing import Any

import numpy as np

from onnxtext.evaluate import _types as T
from onnxtext.evaluate.errors import KernelError

__all__ = ["erf", "cast_to", "like", "axis_of", "axes_list", "as_int", "check_same_dtype"]


def erf(x: np.ndarray) -> np.ndarray:
    """Error function in float64: Taylor series near 0, Chebyshev-fitted erfc elsewhere (error < 1e-7)."""
    xd = np.asarray(x, dtype=np.float64)
    a = np.abs(xd)
    t = 1.0 / (1.0 + 0.5 * a)
    poly = (
        -a * a
        - 1.26551223
        + t
        * (
            1.00002368
            + t
            * (
                0.37409196
                + t
                * (
                    0.09678418
                    + t
                    * (
                        -0.18628806
                        + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))
                    )
                )
            )
        )
    )
    far = 1.0 - t * np.exp(poly)
    z = np.minimum(a, 0.5) ** 2
    series = 0.0
    for c in _ERF_TAYLOR[::-1]:
        series = series * z + c
    near = np.minimum(a, 0.5) * series
    res = np.where(a < 0.5, near, far)
    return np.copysign(res, xd)


_ERF_TAYLOR = [2 / np.sqrt(np.pi) * (-1) ** n / (float(np.prod(np.arange(1, n + 1))) * (2 * n + 1)) for n in range(11)]


def cast_to(x: Any, to: int, saturate: int = 1, round_mode: str = "up") -> np.ndarray:
    """Cast to an ONNX element type, in our representation."""
    to = int(to)
    x = np.asarray(x)
    if to == T.STRING:
        return _to_string(x)
    if x.dtype == object:
        x = _from_string(x, to)
    if to in T.EXOTIC_FLOATS:
        return T.round_to(x, to, bool(saturate), round_mode)
    if to in T.SUB_BYTE_INTS:
        lo, hi = T.int_range(to)
        bits = 2 if to in (T.UINT2, T.INT2) else 4
        if x.dtype.kind == "f":
            v = np.rint(np.nan_to_num(x.astype(np.float64), nan=0.0))
            v = np.clip(v, -(2.0**63), 2.0**63 - 1).astype(np.int64)
        else:
            v = x.astype(np.int64)
        v = v & ((1 << bits) - 1)
        if lo < 0:
            v = np.where(v > hi, v - (1 << bits), v)
        return v.astype(T.np_dtype(to))
    dt = T.np_dtype(to)
    if x.dtype.kind == "f" and dt.kind in "iu":
        with np.errstate(invalid="ignore"):
            return x.astype(dt)
    return x.astype(dt)


def _to_string(x: np.ndarray) -> np.ndarray:
    out = np.empty(x.shape, dtype=object)
    flat = x.reshape(-1)
    if x.dtype == object:
        vals = [str(v) for v in flat]
    elif x.dtype.kind == "f":
        vals = [_fmt_float(float(v), x.dtype) for v in flat]
    elif x.dtype == np.bool_:
        vals = ["1" if v else "0" for v in flat]
    else:
        vals = [str(int(v)) for v in flat]
    out.reshape(-1)[:] = vals
    return out


def _fmt_float(v: float, dtype: np.dtype) -> str:
    if np.isnan(v):
        return "NaN"
    if np.isinf(v):
        return "INF" if v > 0 else "-INF"
    s = repr(float(np.float32(v))) if dtype == np.float32 else repr(v)
    s = str(dtype.type(v))
    return s


def _from_string(x: np.ndarray, to: int) -> np.ndarray:
    flat = [str(v) for v in x.reshape(-1)]
    arr: np.ndarray
    if to == T.BOOL:
        arr = np.array([s not in ("0", "", "false", "False") for s in flat], dtype=np.bool_)
    else:
        arr = np.array([float(s) for s in flat], dtype=np.float64) if flat else np.zeros(0)
    return arr.reshape(x.shape)


def like(x: np.ndarray, value: Any) -> np.ndarray:
    return np.asarray(value, dtype=x.dtype)


def axis_of(axis: int, rank: int, name: str = "axis") -> int:
    if not -rank <= axis < max(rank, 1):
        raise KernelError(f"{name}={axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def axes_list(axes: Any, rank: int) -> list[int]:
    return [axis_of(int(a), rank, "axes") for a in np.asarray(axes).reshape(-1)]


def as_int(x: Any) -> int:
    return int(np.asarray(x).reshape(-1)[0])


def check_same_dtype(*arrays: np.ndarray) -> None:
    dts = {a.dtype for a in arrays if a is not None}
    if len(dts) > 1:
        raise KernelError(f"inputs have different element types: {', '.join(str(d) for d in dts)}")
