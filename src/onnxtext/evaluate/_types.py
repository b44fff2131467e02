"""Element types as the evaluator represents them, and conversions for the small floats.

Values of the 8/16/4-bit float types that numpy lacks (bfloat16, float8*, float4e2m1,
float8e8m0) are held as float32 arrays whose values lie on the type's grid; int4/uint4/
int2/uint2 as int8/uint8. ``round_to`` puts float values on a type's grid.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

__all__ = [
    "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64", "STRING", "BOOL",
    "FLOAT16", "DOUBLE", "UINT32", "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16",
    "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4", "INT4",
    "FLOAT4E2M1", "FLOAT8E8M0", "UINT2", "INT2",
    "NP_DTYPE", "EXOTIC_FLOATS", "SUB_BYTE_INTS", "np_dtype", "elem_type_of", "round_to",
    "decode_bits", "encode_bits", "int_range", "TYPE_NAMES",
]

FLOAT, UINT8, INT8, UINT16, INT16, INT32, INT64, STRING, BOOL = 1, 2, 3, 4, 5, 6, 7, 8, 9
FLOAT16, DOUBLE, UINT32, UINT64, COMPLEX64, COMPLEX128, BFLOAT16 = 10, 11, 12, 13, 14, 15, 16
FLOAT8E4M3FN, FLOAT8E4M3FNUZ, FLOAT8E5M2, FLOAT8E5M2FNUZ = 17, 18, 19, 20
UINT4, INT4, FLOAT4E2M1, FLOAT8E8M0, UINT2, INT2 = 21, 22, 23, 24, 25, 26

TYPE_NAMES = {
    FLOAT: "float", UINT8: "uint8", INT8: "int8", UINT16: "uint16", INT16: "int16",
    INT32: "int32", INT64: "int64", STRING: "string", BOOL: "bool", FLOAT16: "float16",
    DOUBLE: "double", UINT32: "uint32", UINT64: "uint64", COMPLEX64: "complex64",
    COMPLEX128: "complex128", BFLOAT16: "bfloat16", FLOAT8E4M3FN: "float8e4m3fn",
    FLOAT8E4M3FNUZ: "float8e4m3fnuz", FLOAT8E5M2: "float8e5m2", FLOAT8E5M2FNUZ: "float8e5m2fnuz",
    UINT4: "uint4", INT4: "int4", FLOAT4E2M1: "float4e2m1", FLOAT8E8M0: "float8e8m0",
    UINT2: "uint2", INT2: "int2",
}

NP_DTYPE: dict[int, np.dtype] = {
    FLOAT: np.dtype(np.float32), UINT8: np.dtype(np.uint8), INT8: np.dtype(np.int8),
    UINT16: np.dtype(np.uint16), INT16: np.dtype(np.int16), INT32: np.dtype(np.int32),
    INT64: np.dtype(np.int64), STRING: np.dtype(object), BOOL: np.dtype(np.bool_),
    FLOAT16: np.dtype(np.float16), DOUBLE: np.dtype(np.float64), UINT32: np.dtype(np.uint32),
    UINT64: np.dtype(np.uint64), COMPLEX64: np.dtype(np.complex64),
    COMPLEX128: np.dtype(np.complex128), BFLOAT16: np.dtype(np.float32),
    FLOAT8E4M3FN: np.dtype(np.float32), FLOAT8E4M3FNUZ: np.dtype(np.float32),
    FLOAT8E5M2: np.dtype(np.float32), FLOAT8E5M2FNUZ: np.dtype(np.float32),
    UINT4: np.dtype(np.uint8), INT4: np.dtype(np.int8), FLOAT4E2M1: np.dtype(np.float32),
    FLOAT8E8M0: np.dtype(np.float32), UINT2: np.dtype(np.uint8), INT2: np.dtype(np.int8),
}

EXOTIC_FLOATS = frozenset(
    {BFLOAT16, FLOAT8E4M3FN, FLOAT8E4M3FNUZ, FLOAT8E5M2, FLOAT8E5M2FNUZ, FLOAT4E2M1, FLOAT8E8M0}
)
SUB_BYTE_INTS = frozenset({UINT4, INT4, UINT2, INT2})

_BY_DTYPE: dict[np.dtype, int] = {}
for _code in (FLOAT, UINT8, INT8, UINT16, INT16, INT32, INT64, STRING, BOOL, FLOAT16, DOUBLE,
              UINT32, UINT64, COMPLEX64, COMPLEX128):
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


# -- small float formats -------------------------------------------------------------

# (exponent bits, mantissa bits, bias, has_inf, nan_kind) where nan_kind: "ieee" (all-ones
# exponent with mantissa != 0), "fn" (only S.1111.111), "uz" (only 0x80 is NaN, no -0), "none"
_FORMATS = {
    FLOAT8E4M3FN: (4, 3, 7, "fn"),
    FLOAT8E4M3FNUZ: (4, 3, 8, "uz"),
    FLOAT8E5M2: (5, 2, 15, "ieee"),
    FLOAT8E5M2FNUZ: (5, 2, 16, "uz"),
    FLOAT4E2M1: (2, 1, 1, "none"),
}


@lru_cache(maxsize=None)
def _table(elem_type: int) -> np.ndarray:
    """float64 value of every bit pattern of a small float type."""
    ebits, mbits, bias, kind = _FORMATS[elem_type]
    nbits = 1 + ebits + mbits
    codes = np.arange(1 << nbits, dtype=np.int64)
    sign = np.where(codes >> (nbits - 1) & 1, -1.0, 1.0)
    exp = (codes >> mbits) & ((1 << ebits) - 1)
    man = codes & ((1 << mbits) - 1)
    sub = exp == 0
    val = np.where(
        sub,
        man / (1 << mbits) * 2.0 ** (1 - bias),
        (1 + man / (1 << mbits)) * 2.0 ** (exp - bias),
    ) * sign
    emax = (1 << ebits) - 1
    if kind == "ieee":
        val = np.where((exp == emax) & (man == 0), sign * np.inf, val)
        val = np.where((exp == emax) & (man != 0), np.nan, val)
    elif kind == "fn":
        val = np.where((exp == emax) & (man == (1 << mbits) - 1), np.nan, val)
    elif kind == "uz":
        val[1 << (nbits - 1)] = np.nan
    return val


@lru_cache(maxsize=None)
def _positive_grid(elem_type: int) -> tuple[np.ndarray, np.ndarray]:
    """Sorted finite non-negative values and their codes."""
    tab = _table(elem_type)
    nbits = int(np.log2(tab.size))
    half = 1 << (nbits - 1)
    codes = np.arange(half)
    vals = tab[:half]
    ok = np.isfinite(vals)
    return vals[ok], codes[ok]


def encode_bits(x: np.ndarray, elem_type: int, saturate: bool = True) -> np.ndarray:
    """Bit patterns (uint8) of ``x`` rounded to nearest-even on the type's grid."""
    if elem_type == BFLOAT16:
        f = np.ascontiguousarray(x, dtype=np.float32)
        b = f.view(np.uint32).astype(np.uint64)
        rounded = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)
        return np.where(np.isnan(f), np.uint16(0x7FC0), rounded)
    if elem_type == FLOAT8E8M0:
        return _encode_e8m0(x, saturate)
    ebits, mbits, bias, kind = _FORMATS[elem_type]
    nbits = 1 + ebits + mbits
    sign_bit = 1 << (nbits - 1)
    vals, codes = _positive_grid(elem_type)
    xf = np.asarray(x, dtype=np.float64)
    a = np.abs(xf)
    idx = np.clip(np.searchsorted(vals, a), 1, vals.size - 1)
    lo, hi = vals[idx - 1], vals[idx]
    dlo, dhi = a - lo, hi - a
    pick_hi = (dhi < dlo) | ((dhi == dlo) & (codes[idx] % 2 == 0))
    code = np.where(pick_hi, codes[idx], codes[idx - 1]).astype(np.int64)
    vmax = vals[-1]
    over = a > vmax
    code = np.where(over, codes[-1], code)  # saturated magnitude
    if saturate or kind == "none":
        special = np.zeros(a.shape, dtype=bool)
    else:
        step = vals[-1] - vals[-2]
        special = a >= vmax + step / 2  # overflows to inf/NaN
    code = np.where(np.signbit(xf), code | sign_bit, code)
    if kind == "uz":
        code = np.where(code == sign_bit, 0, code)  # no negative zero
    if kind == "ieee":
        inf_code = ((1 << ebits) - 1) << mbits
        code = np.where(special, inf_code | np.where(np.signbit(xf), sign_bit, 0), code)
        nan_code = sign_bit - 1
    elif kind == "fn":
        code = np.where(special, (sign_bit - 1) | np.where(np.signbit(xf), sign_bit, 0), code)
        nan_code = sign_bit - 1
    elif kind == "uz":
        code = np.where(special, sign_bit, code)
        nan_code = sign_bit
    else:
        nan_code = sign_bit  # float4e2m1 has no NaN
    code = np.where(np.isnan(xf), nan_code, code)
    return code.astype(np.uint8)


def _encode_e8m0(x: np.ndarray, saturate: bool, round_mode: str = "up") -> np.ndarray:
    f = np.ascontiguousarray(x, dtype=np.float32)
    b = f.view(np.uint32)
    exp = ((b >> 23) & 0xFF).astype(np.int64)
    man = b & 0x7FFFFF
    if round_mode == "up":
        exp = exp + ((man != 0) & (exp != 0xFF)).astype(np.int64)
    elif round_mode == "nearest":
        exp = exp + (((man & 0x400000) != 0) & (exp != 0xFF)).astype(np.int64)
    if saturate:
        exp = np.where((exp > 254) & ~np.isnan(f) & ~np.isinf(f), 254, exp)
    exp = np.where(np.isnan(f) | np.isinf(f), 255, exp)
    return np.minimum(exp, 255).astype(np.uint8)


def decode_bits(bits: np.ndarray, elem_type: int) -> np.ndarray:
    """float32 values of bit patterns of a small float type."""
    if elem_type == BFLOAT16:
        return (np.asarray(bits, dtype=np.uint32) << 16).view(np.float32)
    if elem_type == FLOAT8E8M0:
        e = np.asarray(bits, dtype=np.int64)
        return np.where(e == 255, np.nan, np.ldexp(1.0, e - 127)).astype(np.float32)
    return _table(elem_type)[np.asarray(bits, dtype=np.int64)].astype(np.float32)


def round_to(x: np.ndarray, elem_type: int, saturate: bool = True) -> np.ndarray:
    """float32 values of ``x`` rounded onto the grid of a small float type."""
    return decode_bits(encode_bits(x, elem_type, saturate), elem_type)
