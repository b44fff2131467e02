"""Quantisation: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, QLinearMatMul/Conv, ..."""

from __future__ import annotations

from typing import Any

import numpy as np

from onnxtext.evaluate import _types as T
from onnxtext.evaluate.errors import KernelError
from onnxtext.evaluate.ops._util import axis_of, cast_to
from onnxtext.evaluate.ops.nn import _conv
from onnxtext.evaluate.registry import kernel


def _expand_param(p: Any, x: np.ndarray, axis: int, block_size: int) -> np.ndarray:
    """Broadcast a scale / zero point (scalar, per-axis or blocked) to x's shape."""
    p = np.asarray(p)
    if p.size == 1 and p.ndim <= 1:
        return p.reshape(())
    a = axis_of(axis, x.ndim)
    if p.ndim == 1 and not block_size:
        if p.shape[0] != x.shape[a]:
            raise KernelError(f"per-axis parameter has {p.shape[0]} values; axis {a} has {x.shape[a]}")
        shape = [1] * x.ndim
        shape[a] = -1
        return p.reshape(shape)
    if block_size:
        rep = np.repeat(p, block_size, axis=a)
        return np.take(rep, np.arange(x.shape[a]), axis=a)
    return p


def _out_type(zero_point, zp_type, output_dtype) -> int:
    if output_dtype:
        return int(output_dtype)
    if zp_type:
        return int(zp_type)
    if zero_point is not None:
        return T.elem_type_of(np.asarray(zero_point).dtype)
    return T.UINT8


def _saturate_int(v: np.ndarray, et: int) -> np.ndarray:
    if et in T.SUB_BYTE_INTS:
        lo, hi = T.int_range(et)
    else:
        info = np.iinfo(T.np_dtype(et))
        lo, hi = info.min, info.max
    return np.clip(v, lo, hi).astype(T.np_dtype(et))


def _quantize(x, scale, zp, et, axis, block_size, saturate):
    s = _expand_param(scale, x, axis, block_size)
    if et in T.EXOTIC_FLOATS:
        q = x.astype(np.float32) / s.astype(np.float32)
        if zp is not None:
            q = q + _expand_param(zp, x, axis, block_size).astype(np.float32)
        return cast_to(q, et, saturate)
    q = np.rint(x.astype(np.float32) / s.astype(np.float32)).astype(np.float64)
    if zp is not None:
        q = q + _expand_param(zp, x, axis, block_size).astype(np.float64)
    return _saturate_int(q, et)


@kernel("", "QuantizeLinear", 10)
def quantize_linear(
    x, y_scale, y_zero_point=None, *, axis=1, block_size=0, output_dtype=0, saturate=1, precision=0, ctx
):
    zp_type = ctx.input_types[2] if len(ctx.input_types) > 2 else None
    et = _out_type(y_zero_point, zp_type, output_dtype)
    return _quantize(x, y_scale, y_zero_point, et, axis, block_size, saturate)


@kernel("", "DequantizeLinear", 10)
def dequantize_linear(x, x_scale, x_zero_point=None, *, axis=1, block_size=0, output_dtype=0):
    s = _expand_param(x_scale, x, axis, block_size)
    v = x.astype(np.float32)
    if x_zero_point is not None:
        v = v - _expand_param(x_zero_point, x, axis, block_size).astype(np.float32)
    y = v * s.astype(np.float32)
    dt = T.np_dtype(output_dtype) if output_dtype else np.asarray(x_scale).dtype
    return y.astype(dt)


@kernel("", "DynamicQuantizeLinear", 11)
def dynamic_quantize_linear(x):
    lo = min(0.0, float(np.min(x))) if x.size else 0.0
    hi = max(0.0, float(np.max(x))) if x.size else 0.0
    scale = np.float32((hi - lo) / 255.0)
    zp = np.clip(np.rint(0 - lo / scale), 0, 255) if scale else np.float32(0)
    y = np.clip(np.rint(x / scale) + zp, 0, 255) if scale else np.zeros_like(x)
    return y.astype(np.uint8), np.array(scale, dtype=np.float32), np.array(zp, dtype=np.uint8)


def _deq(x, scale, zp, axis=1):
    v = x.astype(np.float64)
    if zp is not None:
        z = np.asarray(zp).astype(np.float64)
        if z.ndim == 1 and z.size > 1 and x.ndim >= 2:
            shape = [1] * x.ndim
            shape[axis] = -1
            z = z.reshape(shape)
        v = v - z
    s = np.asarray(scale).astype(np.float64)
    if s.ndim == 1 and s.size > 1 and x.ndim >= 2:
        shape = [1] * x.ndim
        shape[axis] = -1
        s = s.reshape(shape)
    return v * s


@kernel("", "QLinearMatMul", 10)
def qlinear_matmul(a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point, *, ctx):
    af = _deq(a, a_scale, a_zero_point, axis=a.ndim - 2)
    bf = _deq(b, b_scale, b_zero_point, axis=b.ndim - 1)
    y = np.matmul(af, bf)
    et = _out_type(y_zero_point, ctx.input_types[7] if len(ctx.input_types) > 7 else None, 0)
    if et in T.EXOTIC_FLOATS:
        return cast_to(y / np.asarray(y_scale, dtype=np.float64) + np.asarray(y_zero_point, dtype=np.float64), et)
    q = np.rint(y / np.asarray(y_scale, dtype=np.float64)) + np.asarray(y_zero_point).astype(np.float64)
    return _saturate_int(q, et)


@kernel("", "QLinearConv", 10)
def qlinear_conv(
    x,
    x_scale,
    x_zero_point,
    w,
    w_scale,
    w_zero_point,
    y_scale,
    y_zero_point,
    b=None,
    *,
    auto_pad="NOTSET",
    dilations=None,
    group=1,
    kernel_shape=None,
    pads=None,
    strides=None,
    ctx,
):
    xf = _deq(x, x_scale, x_zero_point)
    wf = _deq(w, w_scale, w_zero_point, axis=0)
    bias = (
        None
        if b is None
        else b.astype(np.float64) * np.asarray(x_scale, dtype=np.float64) * np.asarray(w_scale, dtype=np.float64)
    )
    y = _conv(xf, wf, bias, auto_pad, dilations, group, kernel_shape, pads, strides)
    et = _out_type(y_zero_point, ctx.input_types[7] if len(ctx.input_types) > 7 else None, 0)
    q = np.rint(y / np.asarray(y_scale, dtype=np.float64)) + np.asarray(y_zero_point).astype(np.float64)
    return _saturate_int(q, et)
