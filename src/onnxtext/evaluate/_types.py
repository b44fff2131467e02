"""Element types as the evaluator represents them, and ONNX's conversion to the small floats.

Values of the 8/16/4-bit float types that numpy lacks (bfloat16, float8*, float4e2m1,
float8e8m0) are held as float32 arrays whose values lie on the type's grid; int4/uint4/
int2/uint2 as int8/uint8. ``round_to`` puts float values on a type's grid (the formats
and the rounding are :mod:`onnxtext.ir.dtypes`').
"""

from __future__ import annotations

import numpy as np

from onnxtext.ir.dtypes import BY_CODE, ROUNDINGS, Rounding, bits_to_float, round_to_format

__all__ = [
    "FLOAT",
    "UINT8",
    "INT8",
    "UINT16",
    "INT16",
    "INT32",
    "INT64",
    "STRING",
    "BOOL",
    "FLOAT16",
    "DOUBLE",
    "UINT32",
    "UINT64",
    "COMPLEX64",
    "COMPLEX128",
    "BFLOAT16",
    "FLOAT8E4M3FN",
    "FLOAT8E4M3FNUZ",
    "FLOAT8E5M2",
    "FLOAT8E5M2FNUZ",
    "UINT4",
    "INT4",
    "FLOAT4E2M1",
    "FLOAT8E8M0",
    "UINT2",
    "INT2",
    "NP_DTYPE",
    "EXOTIC_FLOATS",
    "SUB_BYTE_INTS",
    "np_dtype",
    "elem_type_of",
    "round_to",
    "int_range",
    "TYPE_NAMES",
]

FLOAT, UINT8, INT8, UINT16, INT16, INT32, INT64, STRING, BOOL = 1, 2, 3, 4, 5, 6, 7, 8, 9
FLOAT16, DOUBLE, UINT32, UINT64, COMPLEX64, COMPLEX128, BFLOAT16 = 10, 11, 12, 13, 14, 15, 16
FLOAT8E4M3FN, FLOAT8E4M3FNUZ, FLOAT8E5M2, FLOAT8E5M2FNUZ = 17, 18, 19, 20
UINT4, INT4, FLOAT4E2M1, FLOAT8E8M0, UINT2, INT2 = 21, 22, 23, 24, 25, 26

NP_DTYPE: dict[int, np.dtype] = {
    FLOAT: np.dtype(np.float32),
    UINT8: np.dtype(np.uint8),
    INT8: np.dtype(np.int8),
    UINT16: np.dtype(np.uint16),
    INT16: np.dtype(np.int16),
    INT32: np.dtype(np.int32),
    INT64: np.dtype(np.int64),
    STRING: np.dtype(object),
    BOOL: np.dtype(np.bool_),
    FLOAT16: np.dtype(np.float16),
    DOUBLE: np.dtype(np.float64),
    UINT32: np.dtype(np.uint32),
    UINT64: np.dtype(np.uint64),
    COMPLEX64: np.dtype(np.complex64),
    COMPLEX128: np.dtype(np.complex128),
    BFLOAT16: np.dtype(np.float32),
    FLOAT8E4M3FN: np.dtype(np.float32),
    FLOAT8E4M3FNUZ: np.dtype(np.float32),
    FLOAT8E5M2: np.dtype(np.float32),
    FLOAT8E5M2FNUZ: np.dtype(np.float32),
    UINT4: np.dtype(np.uint8),
    INT4: np.dtype(np.int8),
    FLOAT4E2M1: np.dtype(np.float32),
    FLOAT8E8M0: np.dtype(np.float32),
    UINT2: np.dtype(np.uint8),
    INT2: np.dtype(np.int8),
}

EXOTIC_FLOATS = frozenset({BFLOAT16, FLOAT8E4M3FN, FLOAT8E4M3FNUZ, FLOAT8E5M2, FLOAT8E5M2FNUZ, FLOAT4E2M1, FLOAT8E8M0})
SUB_BYTE_INTS = frozenset({UINT4, INT4, UINT2, INT2})

TYPE_NAMES: dict[int, str] = {code: BY_CODE[code].name for code in NP_DTYPE}

_BY_DTYPE: dict[np.dtype, int] = {}
for _code in (
    FLOAT,
    UINT8,
    INT8,
    UINT16,
    INT16,
    INT32,
    INT64,
    STRING,
    BOOL,
    FLOAT16,
    DOUBLE,
    UINT32,
    UINT64,
    COMPLEX64,
    COMPLEX128,
):
    _BY_DTYPE[NP_DTYPE[_code]] = _code


def np_dtype(elem_type: int) -> np.dtype:
    try:
        return NP_DTYPE[int(elem_type)]
    except KeyError:
        raise ValueError(f"unsupported tensor element type {elem_type}") from None


def elem_type_of(dtype: np.dtype) -> int:
    dt = np.dtype(dtype)
    if dt.kind in "US":
        return STRING
    return _BY_DTYPE[dt]


def int_range(elem_type: int) -> tuple[int, int]:
    return {UINT4: (0, 15), INT4: (-8, 7), UINT2: (0, 3), INT2: (-2, 1)}[elem_type]


_ROUND_MODES: dict[str, Rounding] = {r: r for r in ROUNDINGS}


def round_to(x: np.ndarray, elem_type: int, saturate: bool = True, round_mode: str = "up") -> np.ndarray:
    """float32 values of ``x`` rounded onto the grid of a small float type, as ONNX ``Cast`` does.

    As in ONNX, ``saturate`` applies to the float8 types only (bfloat16 overflows to inf;
    float4e2m1 has no inf and always saturates), and ``round_mode`` (``up``, ``down`` or
    ``nearest``) to float8e8m0 only: the others round to nearest even.
    """
    rounding = _ROUND_MODES.get(round_mode)
    if rounding is None:
        raise ValueError(f"round_mode must be one of {', '.join(ROUNDINGS)}, not {round_mode!r}")
    dt = BY_CODE[elem_type]
    r = round_to_format(
        dt, x, saturate=saturate and dt.bits == 8, rounding=rounding if elem_type == FLOAT8E8M0 else "nearest"
    )
    return bits_to_float(dt, r.bits).astype(np.float32)
