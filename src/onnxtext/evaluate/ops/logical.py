"""Comparisons, boolean logic and bitwise operators."""

from __future__ import annotations

import numpy as np

from onnxtext.evaluate.errors import KernelError
from onnxtext.evaluate.registry import kernel


def _cmp(fn):
    def k(a, b):
        return fn(a, b)

    return k


for _n, _f in [
    ("Equal", np.equal),
    ("Less", np.less),
    ("Greater", np.greater),
    ("LessOrEqual", np.less_equal),
    ("GreaterOrEqual", np.greater_equal),
]:
    kernel("", _n, 1)(_cmp(_f))


@kernel("", "And", 1)
def and_(a, b):
    return np.logical_and(a, b)


@kernel("", "Or", 1)
def or_(a, b):
    return np.logical_or(a, b)


@kernel("", "Xor", 1)
def xor(a, b):
    return np.logical_xor(a, b)


@kernel("", "Not", 1)
def not_(x):
    return np.logical_not(x)


@kernel("", "BitwiseAnd", 18)
def bitwise_and(a, b):
    return np.bitwise_and(a, b)


@kernel("", "BitwiseOr", 18)
def bitwise_or(a, b):
    return np.bitwise_or(a, b)


@kernel("", "BitwiseXor", 18)
def bitwise_xor(a, b):
    return np.bitwise_xor(a, b)


@kernel("", "BitwiseNot", 18)
def bitwise_not(x):
    return np.bitwise_not(x)


@kernel("", "BitShift", 11)
def bit_shift(x, y, *, direction):
    if direction == "LEFT":
        return np.left_shift(x, y).astype(x.dtype)
    if direction == "RIGHT":
        return np.right_shift(x, y).astype(x.dtype)
    raise KernelError(f"direction must be LEFT or RIGHT, not {direction!r}")


@kernel("", "Where", 9)
def where(cond, a, b):
    if a.dtype != b.dtype:
        raise KernelError(f"element types differ: {a.dtype} and {b.dtype}", input_index=2)
    return np.where(cond, a, b)
