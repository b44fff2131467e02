"""Helpers shared by kernels."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _types as T
from ..errors import KernelError

__all__ = ["erf", "cast_to", "like", "axis_of", "axes_list", "as_int", "check_same_dtype"]

_P = 0.3275911
_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


def erf(x: np.ndarray) -> np.ndarray:
    """Error function, float64 accuracy ~1e-15 (series/continued fraction via complementary)."""
    xd = np.asarray(x, dtype=np.float64)
    a = np.abs(xd)
    # erfc for a >= 0 using the Numerical Recipes Chebyshev fit (fractional error < 1.2e-7),
    # then refine small |x| with the Taylor series for full accuracy.
    t = 1.0 / (1.0 + 0.5 * a)
    poly = (-a * a - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (
        -0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (
            -0.82215223 + t * 0.17087277)))))))))
    erfc = t * np.exp(poly)
    res = 1.0 - erfc
    small = a < 0.5
    if np.any(small):
        z = a[small]
        z2 = z * z
        term = z.copy()
        s = z.copy()
        for n in range(1, 20):
            term = term * (-z2) / n
            s = s + term / (2 * n + 1)
        res[small] = 2.0 / np.sqrt(np.pi) * s
    res = np.where(np.isnan(xd), np.nan, res)
    return np.copysign(res, xd)


def cast_to(x: Any, to: int, saturate: int = 1, round_mode: str = "up") -> np.ndarray:
    """Cast to an ONNX element type, in our representation."""
    to = int(to)
    x = np.asarray(x)
    if to == T.STRING:
        return _to_string(x)
    if x.dtype == object:
        x = _from_string(x, to)
    if to in T.EXOTIC_FLOATS:
        if to == T.FLOAT8E8M0:
            return T.decode_bits(T._encode_e8m0(x.astype(np.float32), bool(saturate), round_mode), to)
        xf = x.astype(np.float32) if x.dtype != np.float64 else x
        return T.round_to(xf, to, bool(saturate))
    if to in T.SUB_BYTE_INTS:
        lo, hi = T.int_range(to)
        bits = 2 if to in (T.UINT2, T.INT2) else 4
        if x.dtype.kind == "f":
            v = np.rint(np.nan_to_num(x.astype(np.float64), nan=0.0))
            v = np.clip(v, -2.0 ** 63, 2.0 ** 63 - 1).astype(np.int64)
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
