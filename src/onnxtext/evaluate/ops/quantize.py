"""Quantisation: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, QLinearMatMul/Conv, ...; onnxruntime's
com.microsoft QGemm and QLinearGlobalAveragePool."""

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
    return _requantize(y, y_scale, y_zero_point, et)


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
    return _requantize(y, y_scale, y_zero_point, et)


# onnxruntime's com.microsoft quantized operators, as onnxruntime.quantization's QOperator format
# writes them (quantize_static(quant_format=QuantFormat.QOperator))


def _requantize(y: np.ndarray, y_scale: Any, y_zero_point: Any, et: int) -> np.ndarray:
    """``y`` (float) quantized to ``et`` with the scale and zero point, rounding half to even."""
    zp = 0.0 if y_zero_point is None else np.asarray(y_zero_point).astype(np.float64)
    return _saturate_int(np.rint(y / np.asarray(y_scale, dtype=np.float64)) + zp, et)


@kernel("com.microsoft", "QGemm", 1)
def qgemm(
    a,
    a_scale,
    a_zero_point,
    b,
    b_scale,
    b_zero_point,
    c=None,
    y_scale=None,
    y_zero_point=None,
    *,
    alpha=1.0,
    transA=0,
    transB=0,
    ctx,
):
    """alpha · (A − a_zp)(B − b_zp) · a_scale · b_scale plus the int32 bias C at the same scale;
    quantized with y_scale and y_zero_point when given, else float32. b's scale and zero point
    may be one per output column."""
    a2 = (a.T if transA else a).astype(np.int64) - np.asarray(a_zero_point).astype(np.int64)
    b2 = b.T if transB else b
    b2 = b2.astype(np.int64) - np.asarray(b_zero_point).astype(np.int64).reshape(1, -1)
    if a2.ndim != 2 or b2.ndim != 2 or a2.shape[1] != b2.shape[0]:
        raise KernelError(f"QGemm shapes {list(a.shape)} and {list(b.shape)} do not match", input_index=3)
    acc = a2 @ b2
    if c is not None:
        acc = acc + c.astype(np.int64)
    scale = float(alpha) * np.asarray(a_scale, dtype=np.float64) * np.asarray(b_scale, dtype=np.float64).reshape(1, -1)
    y = acc.astype(np.float64) * scale
    if y_scale is None:
        return y.astype(np.float32)
    et = _out_type(y_zero_point, ctx.input_types[8] if len(ctx.input_types) > 8 else None, 0)
    return _requantize(y, y_scale, y_zero_point, et)


@kernel("com.microsoft", "QLinearGlobalAveragePool", 1)
def qlinear_global_average_pool(x, x_scale, x_zero_point, y_scale, y_zero_point, *, channels_last=0, ctx):
    """The mean over the spatial axes (after the channels, or before them with channels_last) of
    the dequantized input, quantized again."""
    if x.ndim < 3:
        raise KernelError(f"QLinearGlobalAveragePool takes a tensor of rank 3 or more, not {x.ndim}", input_index=0)
    axes = tuple(range(1, x.ndim - 1)) if channels_last else tuple(range(2, x.ndim))
    mean = _deq(x, x_scale, x_zero_point).mean(axis=axes, keepdims=True)
    et = _out_type(y_zero_point, ctx.input_types[4] if len(ctx.input_types) > 4 else None, 0)
    return _requantize(mean, y_scale, y_zero_point, et)


def _qlinear_binary(op: Any, a, a_scale, a_zero_point, b, b_scale, b_zero_point, c_scale, c_zero_point, ctx):
    try:
        y = op(_deq(a, a_scale, a_zero_point), _deq(b, b_scale, b_zero_point))
    except ValueError:
        raise KernelError(f"shapes {list(a.shape)} and {list(b.shape)} do not broadcast", input_index=3) from None
    et = _out_type(c_zero_point, ctx.input_types[7] if len(ctx.input_types) > 7 else None, 0)
    return _requantize(y, c_scale, c_zero_point, et)


@kernel("com.microsoft", "QLinearAdd", 1)
def qlinear_add(a, a_scale, a_zero_point, b, b_scale, b_zero_point, c_scale, c_zero_point=None, *, ctx):
    """The sum of the dequantized inputs (numpy broadcasting), quantized with C's scale and zero point."""
    return _qlinear_binary(np.add, a, a_scale, a_zero_point, b, b_scale, b_zero_point, c_scale, c_zero_point, ctx)


@kernel("com.microsoft", "QLinearMul", 1)
def qlinear_mul(a, a_scale, a_zero_point, b, b_scale, b_zero_point, c_scale, c_zero_point=None, *, ctx):
    """The product of the dequantized inputs (numpy broadcasting), quantized with C's scale and zero point."""
    return _qlinear_binary(np.multiply, a, a_scale, a_zero_point, b, b_scale, b_zero_point, c_scale, c_zero_point, ctx)


@kernel("com.microsoft", "QLinearSoftmax", 1)
def qlinear_softmax(x, x_scale, x_zero_point, y_scale, y_zero_point, *, axis=-1, opset, ctx):
    """Softmax of the dequantized input, quantized again; ``opset`` is that of the Softmax it
    replaces: before 13 the input is seen as a matrix cut at ``axis``, from 13 on the axis alone."""
    from onnxtext.evaluate.ops.math import _along, _coerced, _softmax

    xf = _deq(x, x_scale, x_zero_point)
    y = (_coerced if opset < 13 else _along)(_softmax, xf, axis)
    et = _out_type(y_zero_point, ctx.input_types[4] if len(ctx.input_types) > 4 else None, 0)
    return _requantize(y, y_scale, y_zero_point, et)
