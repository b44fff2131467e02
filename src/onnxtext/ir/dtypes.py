"""One table of every ``TensorProto.DataType`` and exact conversions for the float
formats numpy does not have.

Each :class:`DType` says how the type is spelled in text (as ``onnx.parser`` spells
it), its number, the typed ``TensorProto`` field that holds its values, its element
width in bits, its kind, the numpy dtype of its little-endian ``raw_data`` layout and the
numpy dtype whose values are its values, where numpy has one (:func:`dtype_by_numpy`).

The conversions (:func:`bits_to_float`, :func:`float_to_bits`) are pure numpy and
exact: no ``ml_dtypes`` at run time. They cover float32, float16 and every format
numpy lacks: bfloat16, the float8 family, float8e8m0, float6e2m3, float6e3m2 and
float4e2m1. Rounding is to nearest, ties to even (for float8e8m0, which has no
mantissa, ties go up, as in ``onnx`` and ``ml_dtypes``); :func:`round_to_format` can
also round toward or away from zero and saturate, as ONNX ``Cast`` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal, NamedTuple

import numpy as np
import numpy.typing as npt

__all__ = [
    "DType",
    "Kind",
    "ALL",
    "NAMES",
    "BY_NAME",
    "BY_CODE",
    "dtype_by_name",
    "dtype_by_code",
    "dtype_by_numpy",
    "FloatFormat",
    "float_format",
    "bits_to_float",
    "float_to_bits",
    "RoundedBits",
    "Rounding",
    "ROUNDINGS",
    "round_to_format",
]

Kind = Literal["float", "int", "uint", "bool", "complex", "string"]


@dataclass(frozen=True)
class DType:
    """One ``TensorProto.DataType``.

    ``field`` is the typed ``TensorProto`` field its values go to when not raw;
    ``storage`` is the numpy dtype of one stored unit of ``raw_data`` (for the
    sub-byte types, ``uint8`` bytes that pack several elements, low bits first);
    ``numpy`` the numpy dtype (native byte order) whose values are this type's, None where
    numpy has none (string, bfloat16, the float8, float6 and float4 formats, sub-byte integers).
    """

    code: int
    name: str
    enum_name: str
    field: str
    bits: int
    kind: Kind
    storage: np.dtype
    numpy: np.dtype | None

    @property
    def is_packed(self) -> bool:
        """True for the sub-byte types whose ``raw_data`` packs several elements a byte."""
        return 0 < self.bits < 8

    @property
    def is_bits_float(self) -> bool:
        """True for the float types an integer literal gives the bit pattern of (16/8/6/4-bit floats)."""
        return self.kind == "float" and self.bits <= 16

    def __repr__(self) -> str:
        return f"DType({self.name})"


_NUMPY_KINDS: dict[Kind, str] = {"float": "f", "int": "i", "uint": "u", "complex": "c", "bool": "b"}


def _dt(code: int, name: str, field: str, bits: int, kind: Kind, storage: str) -> DType:
    stored = np.dtype(storage)
    # numpy's own type: the stored unit, when it is one element of this kind (bool: stored as a byte)
    native = np.dtype("?") if kind == "bool" else stored.newbyteorder("=")
    own = native.kind == _NUMPY_KINDS.get(kind) and 8 * native.itemsize == bits
    return DType(code, name, name.upper(), field, bits, kind, stored, native if own else None)


ALL: tuple[DType, ...] = (
    _dt(1, "float", "float_data", 32, "float", "<f4"),
    _dt(2, "uint8", "int32_data", 8, "uint", "u1"),
    _dt(3, "int8", "int32_data", 8, "int", "i1"),
    _dt(4, "uint16", "int32_data", 16, "uint", "<u2"),
    _dt(5, "int16", "int32_data", 16, "int", "<i2"),
    _dt(6, "int32", "int32_data", 32, "int", "<i4"),
    _dt(7, "int64", "int64_data", 64, "int", "<i8"),
    _dt(8, "string", "string_data", 0, "string", "O"),
    _dt(9, "bool", "int32_data", 8, "bool", "u1"),
    _dt(10, "float16", "int32_data", 16, "float", "<f2"),
    _dt(11, "double", "double_data", 64, "float", "<f8"),
    _dt(12, "uint32", "uint64_data", 32, "uint", "<u4"),
    _dt(13, "uint64", "uint64_data", 64, "uint", "<u8"),
    _dt(14, "complex64", "float_data", 64, "complex", "<c8"),
    _dt(15, "complex128", "double_data", 128, "complex", "<c16"),
    _dt(16, "bfloat16", "int32_data", 16, "float", "<u2"),
    _dt(17, "float8e4m3fn", "int32_data", 8, "float", "u1"),
    _dt(18, "float8e4m3fnuz", "int32_data", 8, "float", "u1"),
    _dt(19, "float8e5m2", "int32_data", 8, "float", "u1"),
    _dt(20, "float8e5m2fnuz", "int32_data", 8, "float", "u1"),
    _dt(21, "uint4", "int32_data", 4, "uint", "u1"),
    _dt(22, "int4", "int32_data", 4, "int", "u1"),
    _dt(23, "float4e2m1", "int32_data", 4, "float", "u1"),
    _dt(24, "float8e8m0", "int32_data", 8, "float", "u1"),
    _dt(25, "uint2", "int32_data", 2, "uint", "u1"),
    _dt(26, "int2", "int32_data", 2, "int", "u1"),
    _dt(27, "float6e2m3", "int32_data", 6, "float", "u1"),
    _dt(28, "float6e3m2", "int32_data", 6, "float", "u1"),
)

#: Every text name, in ``TensorProto.DataType`` order (for "did you mean" suggestions).
NAMES: tuple[str, ...] = tuple(d.name for d in ALL)
BY_NAME: dict[str, DType] = {d.name: d for d in ALL}
BY_CODE: dict[int, DType] = {d.code: d for d in ALL}


def dtype_by_name(name: str) -> DType | None:
    """The type spelled ``name`` in text (case-sensitive, as onnx.parser), or None."""
    return BY_NAME.get(name)


def dtype_by_code(code: int) -> DType | None:
    """The type numbered ``code`` (``TensorProto.DataType``), or None (also for UNDEFINED)."""
    return BY_CODE.get(code)


_BY_NUMPY: dict[np.dtype, DType] = {d.numpy: d for d in ALL if d.numpy is not None}


def dtype_by_numpy(dtype: npt.DTypeLike) -> DType | None:
    """The type whose values a numpy array of ``dtype`` holds (either byte order), or None: numpy
    types ONNX has not (datetimes, objects, strings: a string tensor holds bytes, not a numpy type)."""
    return _BY_NUMPY.get(np.dtype(dtype).newbyteorder("="))


# --------------------------------------------------------------------------- formats

FormatStyle = Literal["ieee", "fn", "fnuz", "none", "e8m0"]


@dataclass(frozen=True)
class FloatFormat:
    """A binary float format: sign bit (except e8m0), ``ebits`` exponent bits,
    ``mbits`` mantissa bits, exponent ``bias``; ``style`` says what the all-ones
    codes mean:

    - ``ieee``: exponent all ones is inf (mantissa 0) or NaN (float32/16, bfloat16, float8e5m2);
    - ``fn``: only all ones (both signs) is NaN, no inf (float8e4m3fn);
    - ``fnuz``: the one code 0x80 ("negative zero") is NaN, no inf, no -0;
    - ``none``: every code is finite (float6, float4);
    - ``e8m0``: unsigned, exponent only (value 2**(code-127)), 0xFF is NaN.
    """

    ebits: int
    mbits: int
    bias: int
    style: FormatStyle

    @property
    def width(self) -> int:
        return self.ebits + self.mbits + (0 if self.style == "e8m0" else 1)

    @property
    def sign_bit(self) -> int:
        return 0 if self.style == "e8m0" else 1 << (self.ebits + self.mbits)

    @property
    def max_code(self) -> int:
        """The magnitude code of the largest finite value."""
        top = 1 << (self.ebits + self.mbits)
        if self.style == "ieee":
            return top - (1 << self.mbits) - 1
        if self.style == "fn":
            return top - 2
        if self.style == "e8m0":
            return 0xFE
        return top - 1

    @property
    def has_nan(self) -> bool:
        return self.style != "none"

    @property
    def has_inf(self) -> bool:
        return self.style == "ieee"

    def nan_code(self, negative: bool = False) -> int:
        """The code a text ``nan`` (``-nan`` if ``negative``) becomes: the quiet NaN."""
        if self.style == "ieee":
            code = (((1 << self.ebits) - 1) << self.mbits) | (1 << (self.mbits - 1))
            return code | (self.sign_bit if negative else 0)
        if self.style == "fn":
            return ((1 << (self.ebits + self.mbits)) - 1) | (self.sign_bit if negative else 0)
        if self.style == "fnuz":
            return 0x80
        if self.style == "e8m0":
            return 0xFF
        raise ValueError("format has no NaN")

    @property
    def inf_code(self) -> int:
        if self.style != "ieee":
            raise ValueError("format has no infinity")
        return ((1 << self.ebits) - 1) << self.mbits

    @property
    def max_value(self) -> float:
        return float(_decode_codes(self, np.array([self.max_code], dtype=np.int64))[0])


_FORMATS: dict[int, FloatFormat] = {
    1: FloatFormat(8, 23, 127, "ieee"),
    10: FloatFormat(5, 10, 15, "ieee"),
    16: FloatFormat(8, 7, 127, "ieee"),
    17: FloatFormat(4, 3, 7, "fn"),
    18: FloatFormat(4, 3, 8, "fnuz"),
    19: FloatFormat(5, 2, 15, "ieee"),
    20: FloatFormat(5, 2, 16, "fnuz"),
    23: FloatFormat(2, 1, 1, "none"),
    24: FloatFormat(8, 0, 127, "e8m0"),
    27: FloatFormat(2, 3, 1, "none"),
    28: FloatFormat(3, 2, 3, "none"),
}


def float_format(dtype: DType) -> FloatFormat:
    """The binary format of float32, float16 and the non-numpy float types.

    Raises ``ValueError`` for other types (double is handled natively)."""
    try:
        return _FORMATS[dtype.code]
    except KeyError:
        raise ValueError(f"{dtype.name} is not a float format with bit conversions") from None


def _decode_codes(fmt: FloatFormat, codes: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """Exact float64 values of (valid) codes of ``fmt``."""
    codes = codes.astype(np.int64)
    if fmt.style == "e8m0":
        out = np.ldexp(1.0, (codes - 127).astype(np.int32))
        return np.where(codes == 0xFF, np.nan, out)
    sign = (codes & fmt.sign_bit) != 0
    mag = codes & (fmt.sign_bit - 1)
    exp_field = mag >> fmt.mbits
    frac = mag & ((1 << fmt.mbits) - 1)
    emin = 1 - fmt.bias
    normal = exp_field > 0
    significand = np.where(normal, frac | (1 << fmt.mbits), frac)
    exponent = np.where(normal, exp_field - fmt.bias, emin) - fmt.mbits
    value = np.ldexp(significand.astype(np.float64), exponent.astype(np.int32))
    if fmt.style == "ieee":
        top = exp_field == (1 << fmt.ebits) - 1
        value = np.where(top & (frac == 0), np.inf, value)
        value = np.where(top & (frac != 0), np.nan, value)
    elif fmt.style == "fn":
        value = np.where(mag == (1 << (fmt.ebits + fmt.mbits)) - 1, np.nan, value)
    elif fmt.style == "fnuz":
        value = np.where(codes == 0x80, np.nan, value)
        sign = sign & (codes != 0x80)
    # Keep the sign of NaNs too (copysign works on NaN).
    return np.copysign(value, np.where(sign, -1.0, 1.0))


@cache
def _value_table(code: int) -> npt.NDArray[np.float64]:
    fmt = _FORMATS[code]
    table = _decode_codes(fmt, np.arange(1 << fmt.width, dtype=np.int64))
    table.setflags(write=False)
    return table


def bits_to_float(dtype: DType, bits: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """The exact float64 values of the bit patterns ``bits`` of ``dtype``.

    ``dtype`` is float32, float16 or one of the non-numpy float types; ``bits`` are
    non-negative integers below ``2**width`` (a ``ValueError`` otherwise). NaN codes
    give NaN with the code's sign bit (where the format has one).
    """
    fmt = float_format(dtype)
    arr = np.asarray(bits)
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"bit patterns of {dtype.name} must be integers, got {arr.dtype}")
    if arr.size == 0:
        return np.zeros(arr.shape, dtype=np.float64)
    if fmt.width == 32:
        a64 = arr.astype(np.int64)
        if a64.min() < 0 or a64.max() >= 1 << 32:
            raise ValueError(f"bit pattern out of range for {dtype.name}")
        with np.errstate(invalid="ignore"):  # signalling NaNs
            return a64.astype(np.uint32).view(np.float32).astype(np.float64)
    a64 = arr.astype(np.int64)
    if a64.min() < 0 or a64.max() >= 1 << fmt.width:
        raise ValueError(f"bit pattern out of range for {dtype.name} (0..{(1 << fmt.width) - 1})")
    return _value_table(dtype.code)[a64]


class RoundedBits(NamedTuple):
    """What :func:`round_to_format` gives for each value."""

    bits: npt.NDArray[np.int64]
    """The code (bit pattern) of the rounded value."""
    exact: npt.NDArray[np.bool_]
    """The code's value equals the input (NaN to NaN counts, -0.0 to +0 of a format without -0 too)."""
    tie: npt.NDArray[np.bool_]
    """The input lay exactly halfway between two neighbouring codes."""
    overflow: npt.NDArray[np.bool_]
    """A finite input too large for the format (the code is inf, NaN or the saturated maximum)."""
    underflow: npt.NDArray[np.bool_]
    """float8e8m0 only: a positive input below the smallest value (the code is its minimum)."""


_F64_FRAC = (1 << 52) - 1
_F64_MAG = np.int64((1 << 63) - 1)

#: How :func:`round_to_format` picks between the two codes around a value (by magnitude):
#: ``nearest`` (ties to even; float8e8m0: ties up), ``up`` (away from zero) or ``down``
#: (toward zero). The names and meanings are ONNX ``Cast``'s ``round_mode``.
Rounding = Literal["nearest", "up", "down"]
ROUNDINGS: tuple[Rounding, ...] = ("nearest", "up", "down")


def round_to_format(
    dtype: DType,
    values: npt.ArrayLike,
    *,
    sticky: npt.NDArray[np.int8] | None = None,
    saturate: bool = False,
    rounding: Rounding = "nearest",
) -> RoundedBits:
    """Round float64 ``values`` to codes of ``dtype`` (float32, float16 or a non-numpy float).

    Round to nearest, ties to even (float8e8m0: ties up), or as ``rounding`` says.
    ``sticky`` (optional, -1/0/+1 per value; rounding to nearest only) says the true
    value is slightly below/at/above the float64 given in magnitude; it only matters at
    a tie, and makes decimal text round correctly where the float64 parse landed
    exactly on a midpoint.

    Special values: NaN gives the format's quiet NaN (with the input's sign where the
    format has signed NaNs), or code 0 (not exact) in formats without NaN. Infinity and
    overflow give inf (ieee formats), NaN (float8e4m3fn, the fnuz formats, float8e8m0)
    or the largest finite value (float6, float4), as ml_dtypes does. float8e8m0 has no
    zero and no negative values: those give NaN.

    With ``saturate``, values are clamped to the format's finite range instead, as ONNX
    ``Cast`` and ``QuantizeLinear`` do with ``saturate=1``: infinities and overflow
    give the largest finite value of their sign (in every format), and for float8e8m0
    zero and negative values give its smallest value (code 0, ``2**-127``). NaN stays
    NaN. (ONNX applies ``saturate`` to the float8 types only; choosing when to is the
    caller's business.)
    """
    if rounding not in ROUNDINGS:
        raise ValueError(f"rounding must be one of {', '.join(ROUNDINGS)}, not {rounding!r}")
    if sticky is not None and rounding != "nearest":
        raise ValueError("sticky only applies when rounding to nearest")
    if dtype.code == 1 and sticky is None and not saturate and rounding == "nearest":
        fast = _float32_nearest(values)
        if fast is not None:
            return fast
    fmt = float_format(dtype)
    d = np.asarray(values, dtype=np.float64)
    shape = d.shape  # before ascontiguousarray, which makes a scalar 1-d
    d = np.ascontiguousarray(d).reshape(-1)
    negative = np.signbit(d)
    mag = d.view(np.int64) & _F64_MAG
    exp64 = mag >> 52
    finite = exp64 != 0x7FF
    is_nan = np.isnan(d)
    is_inf = np.isinf(d)
    is_zero = mag == 0
    # value = sig * 2**e, sig < 2**53; et = floor(log2(value)) for normal doubles (subnormal
    # ones get et <= -1023, below every format's smallest exponent, which is all that counts).
    sig = np.where(exp64 > 0, (mag & _F64_FRAC) | (1 << 52), mag)
    e = np.maximum(exp64, 1) - 1075
    et = exp64 - 1023
    m = fmt.mbits
    emin = -127 if fmt.style == "e8m0" else 1 - fmt.bias
    qexp = np.maximum(et, emin) - m
    # qexp - e >= 52 - m > 0; from 63 on, every bit of sig is shifted out anyway.
    shift = np.minimum(qexp - e, 63)
    q = sig >> shift
    rem = sig & ((1 << shift) - 1)
    half = 1 << (shift - 1)
    tie = finite & (rem == half)
    exact = finite & (rem == 0)
    if rounding == "nearest":
        odd = (q & 1) == 1
        if sticky is None:
            q = q + ((rem > half) | (tie & odd))
        else:
            st = np.asarray(sticky, dtype=np.int8).reshape(-1)
            q = q + ((rem > half) | (tie & ((st > 0) | ((st == 0) & odd))))
    elif rounding == "up":
        q = q + (rem != 0)
    if fmt.style == "e8m0":
        # Values >= 2**-127: q is the implicit bit 1, or 2 after rounding up (ties go
        # up as that bit is odd); the code is the exponent field.
        # Values below: q counts units of 2**-127 (0 or 1); 0 is an underflow.
        small = et < emin
        code = np.where(small, 0, et + 127 + (q >> 1))
        underflow = finite & ~is_zero & small & (q == 0) & ~negative
        exact = exact & ~small
    else:
        code = q + ((qexp - (emin - m)) << m)
        underflow = np.zeros(d.shape, dtype=bool)
    overflow = finite & (code > fmt.max_code)
    # Specials and overflow.
    too_big = overflow | is_inf
    nan_mask = is_nan
    if saturate or fmt.style == "none":
        code = np.where(too_big, fmt.max_code, code)
    elif fmt.style == "ieee":
        code = np.where(too_big, fmt.inf_code, code)
    else:  # fn, fnuz, e8m0: NaN
        nan_mask = is_nan | too_big
    # Signs.
    if fmt.style == "e8m0":
        bad = negative & ~is_nan | is_zero
        code = np.where(bad, 0 if saturate else 0xFF, code)
        code = np.where(nan_mask, 0xFF, code)
        exact = exact & ~bad & ~overflow | is_nan
    else:
        if fmt.style == "fnuz":
            code = np.where(negative & (code != 0), code | fmt.sign_bit, code)
            code = np.where(nan_mask, 0x80, code)
        elif fmt.style == "none":
            code = np.where(negative, code | fmt.sign_bit, code)
            code = np.where(nan_mask, 0, code)
        else:
            code = np.where(nan_mask, fmt.nan_code(False), code)
            code = np.where(negative, code | fmt.sign_bit, code)
        exact = exact & ~overflow
        if fmt.has_nan:
            exact = exact | is_nan
        if fmt.has_inf and not saturate:
            exact = exact | is_inf
    return RoundedBits(
        code.astype(np.int64, copy=False).reshape(shape),
        exact.reshape(shape),
        tie.reshape(shape),
        overflow.reshape(shape),
        underflow.reshape(shape),
    )


_FLT_MAX = float(np.finfo(np.float32).max)
_FLT_MIN = 2.0**-126  # the smallest normal float32
# Halfway between two float32 values: where float32 is normal (24 significant bits of
# float64's 53), the 29 bits float32 drops are exactly 1000...0.
_DROPPED = 0x1FFFFFFF
_HALFWAY = 0x10000000


def float32_once(d: npt.NDArray[np.float64]) -> npt.NDArray[np.uint32] | None:
    """The float32 bits nearest to each value, when rounding the float64 gives what rounding
    its decimal would: every value zero or in float32's normal range, none halfway between
    two float32 values. None otherwise (then :func:`round_to_format` with the text's sticky
    bits decides). Few numpy operations: this is the path of every small float tensor."""
    if bool(float32_not_once(d).any()):
        return None
    return d.astype(np.float32).view(np.uint32)


def float32_not_once(d: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
    """Where :func:`float32_once` cannot take a value (a (contiguous) float64 array): zero
    is fine, a float32 subnormal, a value beyond float32's range, NaN or a float64 halfway
    between two float32 values is not."""
    ad = np.abs(d)
    usual = (ad < _FLT_MAX) & ((ad >= _FLT_MIN) | (ad == 0))
    return ~usual | ((d.view(np.uint64) & _DROPPED) == _HALFWAY)


def _float32_nearest(values: npt.ArrayLike) -> RoundedBits | None:
    """:func:`round_to_format` for float32, to nearest, through numpy's own (correctly rounded)
    conversion: a few operations instead of the general bit arithmetic, which matters for the
    many small tensors of a text. None when a value is NaN, infinite or out of float32's range
    (the general path says how those go)."""
    d = np.asarray(values, dtype=np.float64)
    shape = d.shape
    d = d.reshape(-1)
    with np.errstate(invalid="ignore"):
        if not bool((np.abs(d) < _FLT_MAX).all()):
            return None
    f = d.astype(np.float32)
    exact = f.astype(np.float64) == d
    tie = (d.view(np.uint64) & _DROPPED) == _HALFWAY
    tiny = np.abs(d) < _FLT_MIN
    if tiny.any():  # float32's subnormals are coarser: compare with the neighbour on d's side
        sub = np.flatnonzero(tiny & ~exact)
        ds = d[sub]
        back = f[sub].astype(np.float64)
        other = np.nextafter(f[sub], np.where(ds > back, np.float32(np.inf), np.float32(-np.inf))).astype(np.float64)
        tie[tiny] = False
        tie[sub] = (ds - back) == (other - ds)  # both differences are exact (Sterbenz)
    none = np.zeros(shape, dtype=bool)
    return RoundedBits(
        f.view(np.uint32).astype(np.int64).reshape(shape), exact.reshape(shape), tie.reshape(shape), none, none
    )


def float_to_bits(dtype: DType, values: npt.ArrayLike) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Round float64 ``values`` to bit patterns of ``dtype``; also say which were exact.

    See :func:`round_to_format` for the rules (round to nearest even; NaN, inf and
    overflow as ml_dtypes converts them)."""
    r = round_to_format(dtype, values)
    return r.bits, r.exact
