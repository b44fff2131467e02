"""What a run gave against what the model declares: each graph output's element type and
known sizes (a symbol, ``N``, takes the same size wherever it appears); inside subgraphs, each
declared value (outputs and value_info) each time the body runs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from onnxtext.evaluate._types import elem_type_of
from onnxtext.evaluate.interop import elem_of_dtype
from onnxtext.ir.dtypes import dtype_by_code
from onnxtext.proto import ModelProto

__all__ = ["OUTPUT_MISMATCH", "output_mismatches", "value_mismatch"]

OUTPUT_MISMATCH = "R003"


def _elem(value: np.ndarray) -> int | None:
    found = elem_of_dtype(value.dtype)
    if found is not None:
        return found
    try:
        return elem_type_of(value.dtype)
    except KeyError:
        return None


def _shown(elem: int, shape: Sequence[object]) -> str:
    dtype = dtype_by_code(elem)
    name = dtype.name if dtype is not None else str(elem)
    return f"{name}[{', '.join(str(d) for d in shape)}]" if shape else name


def value_mismatch(
    t: Any, value: np.ndarray, sizes: dict[str, int], *, elem: bool = True
) -> tuple[str, str, str] | None:
    """(declared type, value's type, what differs) for a value that contradicts the ``TypeProto.Tensor``
    ``t`` (element type unless ``elem`` is false, rank, fixed sizes, a symbol's size in ``sizes``,
    where each symbol takes the size it first meets); None if it agrees."""
    got_elem = _elem(value)
    declared_dims: list[object] = []
    problems: list[str] = []
    if elem and t.elem_type and got_elem is not None and got_elem != t.elem_type:
        problems.append("element type")
    if t.HasField("shape"):
        dims = t.shape.dim
        declared_dims = [d.dim_value if d.HasField("dim_value") else (d.dim_param or "?") for d in dims]
        if len(dims) != value.ndim:
            problems.append("rank")
        else:
            for d, size in zip(dims, value.shape, strict=True):
                if d.HasField("dim_value") and d.dim_value != size:
                    problems.append("size")
                    break
                if d.dim_param and sizes.setdefault(d.dim_param, size) != size:
                    problems.append(f"size of {d.dim_param} (already {sizes[d.dim_param]})")
                    break
    if not problems:
        return None
    declared = _shown(t.elem_type, declared_dims) if t.HasField("shape") else _shown(t.elem_type, ["..."])
    got = _shown(got_elem, value.shape) if got_elem is not None else f"{value.dtype}{list(value.shape)}"
    return declared, got, ", ".join(problems)


def output_mismatches(model: ModelProto, outputs: Sequence[Any]) -> list[tuple[int, str]]:
    """(output index, message) for each tensor output whose value contradicts its declared type."""
    out: list[tuple[int, str]] = []
    sizes: dict[str, int] = {}
    for i, (vi, value) in enumerate(zip(model.graph.output, outputs, strict=False)):
        if not isinstance(value, np.ndarray) or not vi.type.HasField("tensor_type"):
            continue
        found = value_mismatch(vi.type.tensor_type, value, sizes)
        if found is not None:
            declared, got, what = found
            out.append((i, f"output '{vi.name}' is declared {declared} but the run gave {got} ({what} differ)"))
    return out
