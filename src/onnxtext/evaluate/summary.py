"""One line about a runtime value: type, shape, statistics (``run --trace``, live values)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from onnxtext.evaluate.errors import describe_value
from onnxtext.evaluate.interop import to_internal

__all__ = ["Stats", "stats", "summarize"]


@dataclass(frozen=True)
class Stats:
    """A value's element type (``float32``, ``string``, ``seq``, ``map``, ``None``), shape and statistics."""

    dtype: str
    shape: tuple[int, ...] | None
    min: float | None = None
    max: float | None = None
    mean: float | None = None

    def text(self) -> str:
        """``float32[2, 3] min=-1 max=2 mean=0.5``."""
        if self.shape is None:
            return self.dtype
        out = f"{self.dtype}[{', '.join(str(d) for d in self.shape)}]"
        if self.min is not None and self.max is not None and self.mean is not None:
            out += f" min={_num(self.min)} max={_num(self.max)} mean={_num(self.mean)}"
        return out


def stats(value: Any) -> Stats:
    """The :class:`Stats` of a tensor, sequence, map or empty optional."""
    if value is None:
        return Stats("None", None)
    if isinstance(value, list):
        return Stats(f"sequence of {len(value)}", None)
    if isinstance(value, dict):
        return Stats(f"map of {len(value)}", None)
    arr = np.asarray(value)
    dtype = "string" if arr.dtype.kind in "OUS" else str(arr.dtype)
    wide = to_internal(arr)  # bfloat16, float8, int4... as the numpy types that hold them exactly
    if arr.size and wide.dtype.kind in "biuf":
        data = wide.astype(np.float64)
        return Stats(dtype, tuple(int(d) for d in arr.shape), float(data.min()), float(data.max()), float(data.mean()))
    return Stats(dtype, tuple(int(d) for d in arr.shape))


def summarize(name: str, value: Any, *, values: bool) -> str:
    """``name: float32[2, 3] min=... max=... mean=...`` (and the first values of small tensors)."""
    if value is None:
        return f"{name}: None (empty optional)"
    if isinstance(value, list):
        items = ", ".join(describe_value(v) for v in value[:4]) + (", ..." if len(value) > 4 else "")
        return f"{name}: sequence of {len(value)} [{items}]"
    if isinstance(value, dict):
        items = ", ".join(f"{k!r}: {_short(v)}" for k, v in list(value.items())[:4])
        return f"{name}: map of {len(value)} {{{items}{', ...' if len(value) > 4 else ''}}}"
    arr = np.asarray(value)
    text = f"{name}: {stats(arr).text()}"
    if values and 0 < arr.size <= 10:
        text += " values=[" + ", ".join(_short(v) for v in arr.reshape(-1)) + "]"
    elif values and arr.size > 10 and arr.dtype.kind in "OUS":
        text += " first=[" + ", ".join(_short(v) for v in arr.reshape(-1)[:5]) + ", ...]"
    return text


def _num(x: float) -> str:
    return f"{x:.6g}"


def _short(v: Any) -> str:
    if isinstance(v, np.ndarray):
        v = v.reshape(-1)[0] if v.size == 1 else v
    if isinstance(v, (float, np.floating)):
        return _num(float(v))
    if isinstance(v, (bytes, str)):
        return repr(v)
    return str(v)
