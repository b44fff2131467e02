"""Reductions: ReduceSum/Mean/Max/Min/Prod/L1/L2/LogSum/LogSumExp/SumSquare, ArgMax/ArgMin."""

from __future__ import annotations

from typing import Any

import numpy as np

from onnxtext.evaluate.ops._util import axes_list, axis_of
from onnxtext.evaluate.registry import kernel


def _axes(x: np.ndarray, axes: Any, noop: int) -> tuple[int, ...] | None | str:
    if axes is None or (hasattr(axes, "__len__") and len(np.asarray(axes).reshape(-1)) == 0):
        return "noop" if noop else None
    return tuple(axes_list(axes, x.ndim))


def _reduce(fn, x, axes, keepdims, noop, empty_value=None):
    ax = _axes(x, axes, noop)
    if ax == "noop":
        return x
    if empty_value is not None and x.size == 0:
        shape = list(x.shape)
        red = range(x.ndim) if ax is None else ax
        for a in red:
            shape[a] = 1
        if not keepdims:
            shape = [d for i, d in enumerate(x.shape) if i not in red]
        return np.full(shape, empty_value, dtype=x.dtype)
    r = fn(x, axis=ax, keepdims=bool(keepdims))
    return np.asarray(r).astype(x.dtype, copy=False)


def _register(name: str, fn, empty=None, attr_since=1, input_since=18):
    def k_attr(x, *, axes=None, keepdims=1, noop_with_empty_axes=0):
        return _reduce(fn, x, axes, keepdims, noop_with_empty_axes, _empty(empty, x))

    def k_input(x, axes=None, *, keepdims=1, noop_with_empty_axes=0):
        return _reduce(fn, x, axes, keepdims, noop_with_empty_axes, _empty(empty, x))

    kernel("", name, attr_since)(k_attr)
    kernel("", name, input_since)(k_input)


def _empty(empty, x):
    if empty is None:
        return None
    return empty(x) if callable(empty) else empty


def _lowest(x):
    if x.dtype.kind == "f":
        return -np.inf
    if x.dtype == np.bool_:
        return False
    return np.iinfo(x.dtype).min


def _highest(x):
    if x.dtype.kind == "f":
        return np.inf
    if x.dtype == np.bool_:
        return True
    return np.iinfo(x.dtype).max


def _log_sum_exp(x, axis, keepdims):
    xd = x.astype(np.float64)
    m = np.max(xd, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    r = np.log(np.sum(np.exp(xd - m), axis=axis, keepdims=True)) + m
    if not keepdims:
        r = np.squeeze(r, axis=axis if axis is not None else tuple(range(x.ndim)))
    return r


_register("ReduceSum", np.sum, 0, 1, 13)
_register("ReduceMean", np.mean, np.nan)
_register("ReduceMax", np.max, _lowest)
_register("ReduceMin", np.min, _highest)
_register("ReduceProd", np.prod, 1)
_register("ReduceL1", lambda x, axis, keepdims: np.sum(np.abs(x), axis=axis, keepdims=keepdims), 0)
_register(
    "ReduceL2",
    lambda x, axis, keepdims: np.sqrt(np.sum(np.square(x.astype(np.float64)), axis=axis, keepdims=keepdims)),
    0,
)
_register("ReduceSumSquare", lambda x, axis, keepdims: np.sum(np.square(x), axis=axis, keepdims=keepdims), 0)
_register("ReduceLogSum", lambda x, axis, keepdims: np.log(np.sum(x, axis=axis, keepdims=keepdims)), -np.inf)
_register("ReduceLogSumExp", _log_sum_exp, -np.inf)


def _arg(fn, x, axis, keepdims, select_last_index):
    axis = axis_of(axis, x.ndim)
    if select_last_index:
        flipped = np.flip(x, axis)
        r = x.shape[axis] - 1 - fn(flipped, axis=axis)
    else:
        r = fn(x, axis=axis)
    r = np.asarray(r, dtype=np.int64)
    if keepdims:
        r = np.expand_dims(r, axis)
    return r


@kernel("", "ArgMax", 1)
def argmax(x, *, axis=0, keepdims=1, select_last_index=0):
    return _arg(np.argmax, x, axis, keepdims, select_last_index)


@kernel("", "ArgMin", 1)
def argmin(x, *, axis=0, keepdims=1, select_last_index=0):
    return _arg(np.argmin, x, axis, keepdims, select_last_index)
