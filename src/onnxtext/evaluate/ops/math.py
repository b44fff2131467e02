"""Matrix products, softmax family, Einsum, Det."""

from __future__ import annotations

import numpy as np

from onnxtext.evaluate.errors import KernelError
from onnxtext.evaluate.ops._util import axis_of
from onnxtext.evaluate.registry import kernel


@kernel("", "MatMul", 1)
def matmul(a, b):
    if a.ndim == 0 or b.ndim == 0:
        raise KernelError("MatMul inputs must have rank ≥ 1")
    try:
        return np.matmul(a, b)
    except ValueError:
        raise KernelError(f"MatMul shapes {list(a.shape)} and {list(b.shape)} do not match", input_index=1) from None


@kernel("", "MatMulInteger", 10)
def matmul_integer(a, b, a_zero_point=None, b_zero_point=None):
    a32 = a.astype(np.int32)
    b32 = b.astype(np.int32)
    if a_zero_point is not None:
        azp = np.asarray(a_zero_point).astype(np.int32)
        if azp.ndim == 1 and a.ndim >= 2 and azp.size == a.shape[-2] and azp.size > 1:
            azp = azp[:, None]
        a32 = a32 - azp
    if b_zero_point is not None:
        b32 = b32 - np.asarray(b_zero_point).astype(np.int32)
    return np.matmul(a32, b32).astype(np.int32)


@kernel("", "Gemm", 1)
def gemm(a, b, c=None, *, alpha=1.0, beta=1.0, transA=0, transB=0):
    # a float type narrower than float32 (float16, bfloat16) is computed in float32 and rounded
    # once, as onnxruntime does: the product rounded before the bias is added is off by an ulp
    wide = np.float32 if a.dtype.itemsize < 4 and a.dtype.kind not in "iub" else None
    a2 = (a.T if transA else a).astype(wide or a.dtype, copy=False)
    b2 = (b.T if transB else b).astype(wide or b.dtype, copy=False)
    y = alpha * np.matmul(a2, b2)
    if c is not None:
        y = y + beta * np.asarray(c).astype(wide or c.dtype, copy=False)
    return np.asarray(y).astype(a.dtype, copy=False)


def _softmax(x, axis):
    xd = x  # in the input's own precision, like the spec's function body
    m = np.max(xd, axis=axis, keepdims=True)
    e = np.exp(xd - m)
    return e / np.sum(e, axis=axis, keepdims=True)


def _log_softmax(x, axis):
    xd = x.astype(np.float64)
    m = np.max(xd, axis=axis, keepdims=True)
    s = xd - m
    return s - np.log(np.sum(np.exp(s), axis=axis, keepdims=True))


def _hardmax(x, axis):
    idx = np.argmax(x, axis=axis)
    out = np.zeros_like(x)
    np.put_along_axis(out, np.expand_dims(idx, axis), 1, axis=axis)
    return out


def _coerced(fn, x, axis):
    a = axis_of(axis, x.ndim) if x.ndim else 0
    x2 = x.reshape(int(np.prod(x.shape[:a], dtype=np.int64)), -1)
    return np.asarray(fn(x2, 1)).astype(x.dtype).reshape(x.shape)


def _along(fn, x, axis):
    return np.asarray(fn(x, axis_of(axis, x.ndim))).astype(x.dtype)


for _name, _fn in [("Softmax", _softmax), ("LogSoftmax", _log_softmax), ("Hardmax", _hardmax)]:

    def _k1(x, *, axis=1, _fn=_fn):
        return _coerced(_fn, x, axis)

    def _k13(x, *, axis=-1, _fn=_fn):
        return _along(_fn, x, axis)

    kernel("", _name, 1)(_k1)
    kernel("", _name, 13)(_k13)


@kernel("", "Einsum", 12)
def einsum(*xs, equation):
    return np.asarray(np.einsum(equation.replace(" ", ""), *xs)).astype(xs[0].dtype, copy=False)


@kernel("", "Det", 11)
def det(x):
    return np.asarray(np.linalg.det(x)).astype(x.dtype)
