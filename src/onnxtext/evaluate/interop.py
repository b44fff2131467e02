"""The evaluator's values at its boundary: the ecosystem's ``ml_dtypes`` arrays in and out.

``onnx.numpy_helper``, JAX and onnxruntime hold bfloat16, the float8 types, float4e2m1,
int4/uint4 and int2/uint2 in ``ml_dtypes`` arrays. The kernels compute on the evaluator's
own representation (the small floats as float32 arrays on the type's grid, the sub-byte
integers as int8/uint8), so :meth:`Evaluator.run` converts at its edges: fed ``ml_dtypes``
arrays go in exactly, outputs of those types come back as ``ml_dtypes`` arrays.

Plain numpy stays accepted where it is unambiguous: a float32 array fed to a bfloat16 (or
float8, float4) input whose values all lie on that type's grid, an int8/uint8 array fed to
an int4/uint4/int2/uint2 input whose values are in its range.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from onnxtext.evaluate import _types as T

__all__ = ["ML_DTYPE_NAMES", "ml_dtype", "elem_of_dtype", "to_internal", "to_external", "fed_problem"]

#: The ``ml_dtypes`` type of each element type numpy lacks.
ML_DTYPE_NAMES: dict[int, str] = {
    T.BFLOAT16: "bfloat16",
    T.FLOAT8E4M3FN: "float8_e4m3fn",
    T.FLOAT8E4M3FNUZ: "float8_e4m3fnuz",
    T.FLOAT8E5M2: "float8_e5m2",
    T.FLOAT8E5M2FNUZ: "float8_e5m2fnuz",
    T.FLOAT4E2M1: "float4_e2m1fn",
    T.FLOAT8E8M0: "float8_e8m0fnu",
    T.INT4: "int4",
    T.UINT4: "uint4",
    T.INT2: "int2",
    T.UINT2: "uint2",
}
_ELEM_BY_NAME = {name: elem for elem, name in ML_DTYPE_NAMES.items()}


def ml_dtype(elem: int) -> np.dtype:
    """The ``ml_dtypes`` numpy dtype of an element type in :data:`ML_DTYPE_NAMES`."""
    import ml_dtypes  # a dependency; imported on first use (it is not needed to parse or print)

    return np.dtype(getattr(ml_dtypes, ML_DTYPE_NAMES[elem]))


def elem_of_dtype(dtype: np.dtype) -> int | None:
    """The element type of an ``ml_dtypes`` dtype (None for numpy's own dtypes)."""
    if dtype.type.__module__.split(".")[0] != "ml_dtypes":
        return None
    return _ELEM_BY_NAME.get(dtype.name)


def to_internal(value: Any) -> Any:
    """A value as the kernels hold it: ``ml_dtypes`` arrays (in sequences and maps too) converted exactly."""
    if isinstance(value, np.ndarray):
        elem = elem_of_dtype(value.dtype)
        return value if elem is None else value.astype(T.NP_DTYPE[elem])
    if isinstance(value, list):
        return [to_internal(v) for v in value]
    if isinstance(value, dict):
        return {k: to_internal(v) for k, v in value.items()}
    return value


def to_external(value: Any, tp: Any, elem: int | None = None) -> Any:
    """A computed value as the caller gets it: arrays of the types numpy lacks as
    ``ml_dtypes`` arrays. ``tp`` is the value's declared TypeProto (or None); ``elem``
    the tensor element type the evaluator tracked when nothing is declared."""
    kind = tp.WhichOneof("value") if tp is not None else None
    if kind in ("tensor_type", "sparse_tensor_type"):
        elem = int(getattr(tp, kind).elem_type) or elem
    if isinstance(value, np.ndarray):
        if elem in ML_DTYPE_NAMES and elem_of_dtype(value.dtype) is None and value.dtype == T.NP_DTYPE[elem]:
            return value.astype(ml_dtype(elem))
        return value
    if isinstance(value, list):
        inner = tp.sequence_type.elem_type if kind == "sequence_type" else None
        return [to_external(v, inner) for v in value]
    if isinstance(value, dict):
        inner = tp.map_type.value_type if kind == "map_type" else None
        return {k: to_external(v, inner) for k, v in value.items()}
    if value is not None and kind == "optional_type":
        return to_external(value, tp.optional_type.elem_type)
    return value


def fed_problem(value: Any, elem: int) -> str | None:
    """Why ``value`` cannot be fed to a tensor input declared with element type ``elem``, or None."""
    if not isinstance(value, np.ndarray) or elem not in T.NP_DTYPE:
        return None
    given = elem_of_dtype(value.dtype)
    name = T.TYPE_NAMES.get(elem, str(elem))
    if given is not None:
        return None if given == elem else f"is declared {name} but was fed {value.dtype.name}"
    if elem not in ML_DTYPE_NAMES:
        return None  # numpy's own types: the evaluator's input check compares dtypes
    if value.dtype != T.NP_DTYPE[elem]:
        return f"is declared {name} but was fed {value.dtype.name} (feed an ml_dtypes.{ML_DTYPE_NAMES[elem]} array)"
    if elem in T.SUB_BYTE_INTS:
        lo, hi = T.int_range(elem)
        fits = bool(np.all((value >= lo) & (value <= hi)))
    else:
        exact = value.astype(ml_dtype(elem)).astype(value.dtype)
        fits = bool(np.all((exact == value) | (np.isnan(exact) & np.isnan(value))))
    if fits:
        return None
    return (
        f"is declared {name} but was fed {value.dtype.name} values that are not {name} values "
        f"(feed an ml_dtypes.{ML_DTYPE_NAMES[elem]} array, or round them with astype)"
    )
