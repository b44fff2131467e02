"""A memory budget for a run: the nodes whose output size comes from input *values*
(``ConstantOfShape``, ``Expand``, ``Tile``, ``Range``, ``OneHot``, ``Resize``, ``Pad``,
broadcasting arithmetic, ``Loop`` scan outputs) are sized before their kernel allocates, and
a node that would go beyond the budget is a located error instead of a ``MemoryError`` or
the system's out-of-memory killer.

Sizes are Python integers (no overflow at 10^12 elements and beyond); a size that cannot be
told before running (an input that is not a tensor, a malformed attribute) is left to the
kernel, which reports malformed input itself.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from onnxtext.ir.versioned import normalize_domain

__all__ = [
    "planned_bytes",
    "over_budget",
    "format_bytes",
    "parse_size",
    "default_budget",
    "BROADCASTING",
    "BUDGET_WORDS",
]

#: How an over-budget message names the budget (such errors are of kind errors.OVER_BUDGET).
BUDGET_WORDS = "memory budget"

#: Operators whose output has the broadcast shape of their inputs.
BROADCASTING = frozenset(
    {
        "Add",
        "Sub",
        "Mul",
        "Div",
        "Pow",
        "Mod",
        "And",
        "Or",
        "Xor",
        "Equal",
        "Greater",
        "Less",
        "GreaterOrEqual",
        "LessOrEqual",
        "Where",
        "Max",
        "Min",
        "Sum",
        "Mean",
        "BitShift",
        "BitwiseAnd",
        "BitwiseOr",
        "BitwiseXor",
        "PRelu",
    }
)


def _values(x: Any) -> list[int] | None:
    """The integers of a small 1-D (or scalar) integer tensor, or None."""
    if not isinstance(x, np.ndarray) or x.dtype.kind not in "iu" or x.size > 64:
        return None
    return [int(v) for v in x.reshape(-1)]


def _broadcast(shapes: Sequence[Sequence[int]]) -> list[int] | None:
    rank = max((len(s) for s in shapes), default=0)
    out = [1] * rank
    for s in shapes:
        for k, d in enumerate(s, rank - len(s)):
            if d != 1 and out[k] not in (1, d):
                return None  # incompatible: the kernel says so
            if d != 1:
                out[k] = d
    return out


def _itemsize(x: Any, default: int = 4) -> int:
    return int(x.dtype.itemsize) if isinstance(x, np.ndarray) and x.dtype != object else default


def _elements(shape: Sequence[int] | None) -> int | None:
    if shape is None or any(d < 0 for d in shape):
        return None
    return math.prod(shape)


def _constant_of_shape(args: Sequence[Any], attrs: dict[str, Any]) -> int | None:
    shape = _values(args[0]) if args else None
    n = _elements(shape)
    return None if n is None else n * _itemsize(attrs.get("value"))


def _expand(args: Sequence[Any], attrs: dict[str, Any]) -> int | None:
    if len(args) < 2 or not isinstance(args[0], np.ndarray):
        return None
    shape = _values(args[1])
    n = _elements(_broadcast([args[0].shape, shape]) if shape is not None else None)
    return None if n is None else n * _itemsize(args[0])


def _tile(args: Sequence[Any], attrs: dict[str, Any]) -> int | None:
    if len(args) < 2 or not isinstance(args[0], np.ndarray):
        return None
    repeats = _values(args[1])
    if repeats is None or len(repeats) != args[0].ndim:
        return None
    n = _elements([d * r for d, r in zip(args[0].shape, repeats, strict=True)])
    return None if n is None else n * _itemsize(args[0])


def _range(args: Sequence[Any], attrs: dict[str, Any]) -> int | None:
    if len(args) < 3 or not all(isinstance(a, np.ndarray) and a.size == 1 for a in args[:3]):
        return None
    start, limit, delta = (float(a.reshape(-1)[0]) for a in args[:3])
    if delta == 0 or not all(math.isfinite(v) for v in (start, limit, delta)):
        return None
    return max(math.ceil((limit - start) / delta), 0) * _itemsize(args[0])


def _one_hot(args: Sequence[Any], attrs: dict[str, Any]) -> int | None:
    if len(args) < 3 or not isinstance(args[0], np.ndarray) or not isinstance(args[1], np.ndarray) or args[1].size != 1:
        return None
    depth = float(args[1].reshape(-1)[0])
    if not math.isfinite(depth) or depth < 0:
        return None
    return int(args[0].size) * int(depth) * _itemsize(args[2])


def _resize(args: Sequence[Any], attrs: dict[str, Any]) -> int | None:
    if not args or not isinstance(args[0], np.ndarray):
        return None
    x = args[0]
    sizes = _values(args[3]) if len(args) > 3 else None
    if sizes is not None and len(sizes) == x.ndim:
        n = _elements(sizes)
        return None if n is None else n * _itemsize(x)
    scales = args[2] if len(args) > 2 else (args[1] if len(args) == 2 else None)  # Resize-11+ / Upsample, Resize-10
    if isinstance(scales, np.ndarray) and scales.dtype.kind == "f" and scales.size == x.ndim:
        dims = [d * float(s) for d, s in zip(x.shape, scales.reshape(-1), strict=True)]
        if all(math.isfinite(d) and d >= 0 for d in dims):
            return math.prod(int(d) for d in dims) * _itemsize(x)
    return None


def _pad(args: Sequence[Any], attrs: dict[str, Any]) -> int | None:
    if not args or not isinstance(args[0], np.ndarray):
        return None
    x = args[0]
    pads = _values(args[1]) if len(args) > 1 else attrs.get("pads")
    if pads is None or len(pads) != 2 * x.ndim or len(args) > 3 and args[3] is not None:
        return None  # with axes the pads cover some dims only: left to the kernel
    return _size_or_none([d + int(pads[k]) + int(pads[k + x.ndim]) for k, d in enumerate(x.shape)], x)


def _size_or_none(shape: list[int], x: np.ndarray) -> int | None:
    n = _elements(shape)
    return None if n is None else n * _itemsize(x)


def _random(args: Sequence[Any], attrs: dict[str, Any]) -> int | None:
    shape = attrs.get("shape")
    n = _elements([int(d) for d in shape]) if isinstance(shape, (list, tuple)) else None
    return None if n is None else n * 8


def _broadcasting(args: Sequence[Any], attrs: dict[str, Any]) -> int | None:
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    if len(arrays) < 2:
        return None
    n = _elements(_broadcast([a.shape for a in arrays]))
    return None if n is None else n * max(_itemsize(a) for a in arrays)


_PLANNERS: dict[str, Callable[[Sequence[Any], dict[str, Any]], int | None]] = {
    "ConstantOfShape": _constant_of_shape,
    "Expand": _expand,
    "Tile": _tile,
    "Range": _range,
    "OneHot": _one_hot,
    "Resize": _resize,
    "Upsample": _resize,
    "Pad": _pad,
    "RandomNormal": _random,
    "RandomUniform": _random,
}


def planned_bytes(op_type: str, domain: str, args: Sequence[Any], attrs: dict[str, Any]) -> int | None:
    """How many bytes the node's output will take, for the nodes sized by input values; None otherwise."""
    if normalize_domain(domain):  # not the default domain
        return None
    if op_type in BROADCASTING:
        return _broadcasting(args, attrs)
    planner = _PLANNERS.get(op_type)
    return planner(args, attrs) if planner is not None else None


def over_budget(what: str, size: int, budget: int) -> str | None:
    """The error message when ``size`` bytes for ``what`` exceed ``budget``, else None."""
    if size <= budget:
        return None
    return f"{what} would take {format_bytes(size)}, beyond the {BUDGET_WORDS} of {format_bytes(budget)}"


def format_bytes(n: int) -> str:
    """``1.5 GB``-style sizes (powers of 1024)."""
    value = float(n)
    for unit in ("bytes", "KB", "MB", "GB", "TB", "PB"):
        if value < 1024 or unit == "PB":
            return f"{int(value)} bytes" if unit == "bytes" else f"{value:.3g} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


_SIZE = re.compile(r"([0-9]+(?:\.[0-9]*)?)\s*([kmgt]?)i?b?", re.IGNORECASE)
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_size(text: str) -> int:
    """``4G``, ``512M``, ``1.5GiB``, ``100000`` → bytes; raises ValueError."""
    m = _SIZE.fullmatch(text.strip())
    if m is None:
        raise ValueError(f"expected a size such as 4G, 512M or a number of bytes, not {text!r}")
    return int(float(m.group(1)) * _UNITS[m.group(2).lower()])


def default_budget() -> int:
    """Half the machine's physical memory (4 GB where it cannot be told), and at most half
    the address space the process may take (``ulimit -v``)."""
    try:
        budget = int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE")) // 2
    except (ValueError, OSError, AttributeError):
        budget = 4 << 30
    try:
        import resource
    except ImportError:  # not on this platform
        return budget
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return budget if soft == resource.RLIM_INFINITY else min(budget, soft // 2)
