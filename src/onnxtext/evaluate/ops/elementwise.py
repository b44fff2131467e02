"""Element-wise arithmetic, unary math and activation functions."""

from __future__ import annotations

from typing import Any

import numpy as np

from onnxtext.evaluate import _types as T
from onnxtext.evaluate.errors import KernelError
from onnxtext.evaluate.ops._util import cast_to, check_same_dtype, erf
from onnxtext.evaluate.registry import kernel


def _binary(a: np.ndarray, b: np.ndarray) -> None:
    if a.dtype != b.dtype:
        raise KernelError(f"element types differ: {a.dtype} and {b.dtype}", input_index=1)


def _out(x: Any, dtype: np.dtype) -> np.ndarray:
    return np.asarray(x).astype(dtype, copy=False)


# -- arithmetic -----------------------------------------------------------------------


@kernel("", "Add", 1)
def add(a, b, **_):
    _binary(a, b)
    return _out(np.add(a, b), a.dtype)


@kernel("", "Sub", 1)
def sub(a, b, **_):
    _binary(a, b)
    return _out(np.subtract(a, b), a.dtype)


@kernel("", "Mul", 1)
def mul(a, b, **_):
    _binary(a, b)
    if a.dtype == np.bool_:
        return np.logical_and(a, b)
    return _out(np.multiply(a, b), a.dtype)


@kernel("", "Div", 1)
def div(a, b, **_):
    _binary(a, b)
    if a.dtype.kind in "iu":
        if np.any(b == 0):
            raise KernelError("integer division by zero", input_index=1)
        q = np.abs(a.astype(np.int64)) // np.abs(b.astype(np.int64))
        q = np.where((a < 0) != (b < 0), -q, q)
        return q.astype(a.dtype)
    return _out(np.divide(a, b), a.dtype)


@kernel("", "Mod", 10)
def mod(a, b, *, fmod=0):
    _binary(a, b)
    if fmod:
        return _out(np.fmod(a, b), a.dtype)
    if a.dtype.kind == "f":
        return _out(np.mod(a, b), a.dtype)
    if np.any(b == 0):
        raise KernelError("integer modulo by zero", input_index=1)
    return _out(np.mod(a, b), a.dtype)


@kernel("", "Pow", 1)
def pow_(a, b):
    if a.dtype.kind in "iu" and b.dtype.kind in "iu":
        return _out(np.power(a.astype(np.int64), b.astype(np.int64)), a.dtype)
    return _out(np.power(a.astype(np.float64) if a.dtype != np.float16 else a, b), a.dtype)


@kernel("", "Neg", 1)
def neg(x):
    return np.negative(x)


@kernel("", "Abs", 1)
def abs_(x):
    return np.abs(x)


@kernel("", "Sign", 9)
def sign(x):
    return np.sign(x).astype(x.dtype)


@kernel("", "Reciprocal", 1)
def reciprocal(x):
    return _out(np.reciprocal(x.astype(x.dtype) if x.dtype.kind == "f" else x.astype(np.float64)), x.dtype)


@kernel("", "Floor", 1)
def floor(x):
    return np.floor(x)


@kernel("", "Ceil", 1)
def ceil(x):
    return np.ceil(x)


@kernel("", "Round", 11)
def round_(x):
    return np.round(x)


@kernel("", "Sqrt", 1)
def sqrt(x):
    return np.sqrt(x)


@kernel("", "Exp", 1)
def exp(x):
    return np.exp(x)


@kernel("", "Log", 1)
def log(x):
    return np.log(x)


def _unary(name: str, fn: Any, since: int = 7) -> None:
    def k(x):
        return _out(fn(x), x.dtype)

    k.__name__ = name.lower()
    kernel("", name, since)(k)


for _name, _fn in [
    ("Sin", np.sin),
    ("Cos", np.cos),
    ("Tan", np.tan),
    ("Asin", np.arcsin),
    ("Acos", np.arccos),
    ("Atan", np.arctan),
]:
    _unary(_name, _fn, 7)
for _name, _fn in [
    ("Sinh", np.sinh),
    ("Cosh", np.cosh),
    ("Asinh", np.arcsinh),
    ("Acosh", np.arccosh),
    ("Atanh", np.arctanh),
]:
    _unary(_name, _fn, 9)
_unary("Tanh", np.tanh, 1)


@kernel("", "Erf", 9)
def erf_(x):
    return _out(erf(x), x.dtype)


@kernel("", "IsNaN", 9)
def isnan(x):
    return np.isnan(x)


@kernel("", "IsInf", 10)
def isinf(x, *, detect_negative=1, detect_positive=1):
    r = np.isinf(x)
    if not detect_negative:
        r &= x > 0
    if not detect_positive:
        r &= x < 0
    return r


def _variadic(fn: Any, args: tuple) -> np.ndarray:
    if not args:
        raise KernelError("needs at least one input")
    check_same_dtype(*args)
    r = args[0]
    for a in args[1:]:
        r = fn(r, a)
    return _out(r, args[0].dtype)


@kernel("", "Sum", 1)
def sum_(*xs):
    return _variadic(np.add, xs)


@kernel("", "Max", 1)
def max_(*xs):
    return _variadic(np.maximum, xs)


@kernel("", "Min", 1)
def min_(*xs):
    return _variadic(np.minimum, xs)


@kernel("", "Mean", 1)
def mean(*xs):
    r = _variadic(np.add, xs)
    return _out(r / len(xs), xs[0].dtype)


# -- activations ----------------------------------------------------------------------


@kernel("", "Relu", 1)
def relu(x):
    return np.maximum(x, np.zeros((), dtype=x.dtype))


@kernel("", "LeakyRelu", 1)
def leaky_relu(x, *, alpha=0.01):
    return _out(np.where(x >= 0, x, x * alpha), x.dtype)


@kernel("", "PRelu", 1)
def prelu(x, slope):
    return _out(np.where(x >= 0, x, x * slope), x.dtype)


@kernel("", "ThresholdedRelu", 10)
def thresholded_relu(x, *, alpha=1.0):
    return _out(np.where(x > alpha, x, 0), x.dtype)


@kernel("", "Elu", 1)
def elu(x, *, alpha=1.0):
    return _out(np.where(x > 0, x, alpha * (np.exp(x) - 1)), x.dtype)


@kernel("", "Selu", 1)
def selu(x, *, alpha=1.67326319217681884765625, gamma=1.05070102214813232421875):
    return _out(np.where(x > 0, gamma * x, gamma * alpha * (np.exp(x) - 1)), x.dtype)


@kernel("", "Celu", 12)
def celu(x, *, alpha=1.0):
    return _out(np.maximum(0, x) + np.minimum(0, alpha * (np.exp(x / alpha) - 1)), x.dtype)


@kernel("", "Sigmoid", 1)
def sigmoid(x):
    xd = x.astype(np.float64)
    return _out(np.where(xd >= 0, 1 / (1 + np.exp(-xd)), np.exp(xd) / (1 + np.exp(xd))), x.dtype)


@kernel("", "HardSigmoid", 1)
def hard_sigmoid(x, *, alpha=0.2, beta=0.5):
    return _out(np.clip(alpha * x + beta, 0, 1), x.dtype)


@kernel("", "HardSwish", 14)
def hard_swish(x):
    return _out(x * np.clip(x / 6 + 0.5, 0, 1), x.dtype)


@kernel("", "Softplus", 1)
def softplus(x):
    xd = x.astype(np.float64)
    return _out(np.logaddexp(0, xd), x.dtype)


@kernel("", "Softsign", 1)
def softsign(x):
    return _out(x / (1 + np.abs(x)), x.dtype)


@kernel("", "Mish", 18)
def mish(x):
    xd = x.astype(np.float64)
    return _out(xd * np.tanh(np.logaddexp(0, xd)), x.dtype)


@kernel("", "Swish", 24)
def swish(x, *, alpha=1.0):
    xd = x.astype(np.float64)
    return _out(xd / (1 + np.exp(-alpha * xd)), x.dtype)


@kernel("", "Gelu", 20)
def gelu(x, *, approximate="none"):
    xd = x.astype(np.float64)
    if approximate == "tanh":
        y = 0.5 * xd * (1 + np.tanh(np.sqrt(2 / np.pi) * (xd + 0.044715 * xd**3)))
    else:
        y = 0.5 * xd * (1 + erf(xd / np.sqrt(2)))
    return _out(y, x.dtype)


@kernel("", "Shrink", 9)
def shrink(x, *, bias=0.0, lambd=0.5):
    return _out(np.where(x < -lambd, x + bias, np.where(x > lambd, x - bias, 0)), x.dtype)


@kernel("", "Clip", 1)
@kernel("", "Clip", 6)
def clip6(x, *, min=-3.4028234663852886e38, max=3.4028234663852886e38):  # noqa: A002
    return _out(np.clip(x, min, max), x.dtype)


@kernel("", "Clip", 11)
def clip(x, lo=None, hi=None):
    r = x
    if lo is not None:
        r = np.maximum(r, lo)
    if hi is not None:
        r = np.minimum(r, hi)
    return _out(r, x.dtype)


# -- casts ----------------------------------------------------------------------------


@kernel("", "Cast", 1)
def cast(x, *, to, saturate=1, round_mode="up"):
    return cast_to(x, to, saturate, round_mode)


@kernel("", "CastLike", 15)
def cast_like(x, target, *, saturate=1, round_mode="up", ctx):
    et = ctx.input_types[1] if len(ctx.input_types) > 1 and ctx.input_types[1] else None
    if et is None:
        et = T.elem_type_of(target.dtype)
    return cast_to(x, et, saturate, round_mode)


@kernel("", "Identity", 1)
def identity(x):
    return x
