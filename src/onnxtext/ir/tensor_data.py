"""Literal values ⇄ ``TensorProto`` storage, exactly as ``onnx.parser`` stores them.

Encoding (text → proto): :func:`encode_values` takes the literals of a ``{...}``
body as ``(kind, text)`` pairs; :func:`encode_number_text` takes the raw text of a
body made only of numbers and does the same with numpy, without a Python loop per
element. Both fill the tensor's typed field (or ``raw_data``) and return
:class:`LiteralError` records instead of raising for bad user data.

Decoding (proto → text): :func:`decode_literals` gives the canonical literal texts
whose encoding reproduces the tensor's storage byte for byte, or raises
:class:`NotRepresentable`. :func:`to_numpy` gives the values as a numpy array.

Rules, where they differ from or go beyond ``onnx.parser``:

- values out of range for their type and a value count different from the shape's
  are stored as written where onnx.parser stores them (``300`` in an int8's
  ``int32_data``), with a warning, else errors (:mod:`onnxtext.ir.literal_checks`);
- for the 16/8/6/4-bit float types an integer literal is the raw bit pattern (as in
  onnx.parser) while a literal with ``.``, an exponent, ``nan`` or ``inf`` is a value,
  rounded to nearest even (onnx.parser rejects those);
- int4/uint4/float4e2m1 (two a byte) and int2/uint2 (four a byte) are packed into
  ``int32_data`` like ``onnx.helper.make_tensor`` (onnx.parser does not pack); float6
  is one element per ``int32_data`` entry and packed 4-in-3-bytes in ``raw_data``;
- a decimal for float is rounded correctly (like ``strtof``: no double rounding), one
  that overflows is an error (as in onnx.parser).
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Sequence, Union

import numpy as np
import numpy.typing as npt
import orjson

from onnxtext.ir.dtypes import BY_CODE, BY_NAME, DType, float32_not_once, float32_once, float_format, round_to_format
from onnxtext.ir.literal_checks import AS_GIVEN_NOTE, store_as_given
from onnxtext.proto import TensorProto
from onnxtext.ir.varint import encode_varint

__all__ = [
    "LiteralError",
    "ValueError_",
    "NotRepresentable",
    "TensorLiterals",
    "encode_values",
    "encode_number_text",
    "encode_number_texts",
    "decode_literals",
    "number_text",
    "literal_kind",
    "format_float32",
    "parse_float32",
    "values_count",
    "element_count",
    "to_numpy",
    "STORAGE_FIELDS",
    "TYPED_FIELDS",
]

#: The repeated fields of ``TensorProto`` that hold values, and with ``raw_data`` all of them.
TYPED_FIELDS = ("float_data", "int32_data", "string_data", "int64_data", "double_data", "uint64_data")
STORAGE_FIELDS = (*TYPED_FIELDS, "raw_data")

Literal = tuple[str, Union[str, bytes]]


@dataclass(frozen=True)
class LiteralError:
    """A problem with the literal at ``index`` (``index == len(literals)`` or the first
    surplus literal for a count mismatch)."""

    index: int
    message: str
    kind: str = ""
    """``count`` (value count ≠ shape), ``range`` (an integer out of range for its type),
    ``""`` for every other problem."""
    warning: bool = False
    """True when the values were stored as given (as onnx.parser stores them) and this
    only reports the problem (see :mod:`onnxtext.ir.literal_checks`)."""


#: The name the design brief uses.
ValueError_ = LiteralError


class NotRepresentable(ValueError):
    """The tensor's storage cannot be reproduced from value literals.

    ``index`` names the element at fault, when one is."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


@dataclass(frozen=True)
class TensorLiterals:
    """The canonical literals of a tensor: ``str`` texts for numbers, ``bytes`` for
    strings (the printer escapes them); ``raw`` says the values are in ``raw_data``."""

    values: list[str] | list[bytes]
    raw: bool

    def pairs(self) -> list[Literal]:
        """The values as ``(kind, text)`` literals, as :func:`encode_values` takes them."""
        out: list[Literal] = []
        for v in self.values:
            if isinstance(v, bytes):
                out.append(("string", v))
            else:
                out.append((literal_kind(v), v))
        return out


# --------------------------------------------------------------------------- literal syntax

_INT_RE = re.compile(r"-?(?:0[xX][0-9a-fA-F]+|[0-9]+)")
_FLOAT_RE = re.compile(r"-?[0-9]+(?:\.[0-9]*(?:[eE][+-]?[0-9]+)?|[eE][+-]?[0-9]+)")
_SPECIAL_RE = re.compile(r"-?(?:nan|inf|infinity)", re.IGNORECASE)


def literal_kind(text: str) -> str:
    """The kind of a number literal text: ``int``, ``float``, ``special``, ``bool``
    (true/false) or ``invalid``."""
    if _INT_RE.fullmatch(text):
        return "int"
    if _FLOAT_RE.fullmatch(text):
        return "float"
    if _SPECIAL_RE.fullmatch(text):
        return "special"
    if text in ("true", "false"):
        return "bool"
    return "invalid"


def _int_text(text: str) -> str:
    """A valid int literal as decimal text (hex converted, sign kept so ``-0x0`` stays ``-0``)."""
    if "x" in text or "X" in text:
        neg = text.startswith("-")
        digits = str(int(text[3:] if neg else text[2:], 16))
        return "-" + digits if neg else digits
    return text


def _show(text: str | bytes) -> str:
    """A literal for a message (whitespace around dropped, long ones cut)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "backslashreplace")
    text = text.strip(" \t\r\n")
    return repr(text)[1:-1] if len(text) <= 40 else repr(text[:37])[1:-1] + "..."


# --------------------------------------------------------------------------- type facts

def _int_range(dtype: DType) -> tuple[int, int]:
    if dtype.kind == "bool":
        return 0, 1
    if dtype.kind == "uint":
        return 0, (1 << dtype.bits) - 1
    return -(1 << (dtype.bits - 1)), (1 << (dtype.bits - 1)) - 1


def _is_complex(dtype: DType) -> bool:
    return dtype.kind == "complex"


def _real_dtype(dtype: DType) -> DType:
    """float for complex64, double for complex128, else the type itself."""
    if dtype.code == 14:
        return BY_NAME["float"]
    if dtype.code == 15:
        return BY_NAME["double"]
    return dtype


def element_count(tensor: TensorProto) -> int:
    """The product of the dims (1 for a scalar); raises NotRepresentable for a negative one."""
    n = 1
    for d in tensor.dims:
        if d < 0:
            raise NotRepresentable(f"negative dimension {d}")
        n *= int(d)
    return n


def values_count(tensor: TensorProto) -> int:
    """How many literals a ``{...}`` body of ``tensor`` has: the product of its dims
    (1 for a scalar), twice that for complex types (real, imaginary pairs)."""
    n = element_count(tensor)
    dt = BY_CODE.get(tensor.data_type)
    return 2 * n if dt is not None and _is_complex(dt) else n


def _fmt_float(v: float) -> str:
    return repr(float(v))


# --------------------------------------------------------------------------- encoding core

def _sticky(texts: Sequence[str], d: npt.NDArray[np.float64], idx: npt.NDArray[np.intp]) -> npt.NDArray[np.int8]:
    """-1/0/+1: is the exact decimal value of each ``texts[i]`` (i in idx) below, at or
    above ``d[i]`` in magnitude?"""
    out = np.zeros(len(idx), dtype=np.int8)
    for j, i in enumerate(idx.tolist()):
        # copy_abs() and comparisons are exact (abs() and subtraction would round).
        exact = Decimal(texts[i].strip()).copy_abs()
        approx = Decimal(float(d[i])).copy_abs()
        out[j] = 1 if exact > approx else (-1 if exact < approx else 0)
    return out


def _is_special(text: str) -> bool:
    return "n" in text or "N" in text


def _round_texts(dtype: DType, texts: Sequence[str], d: npt.NDArray[np.float64]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Round the decimal values ``texts`` (parsed to ``d``) to ``dtype`` codes, correctly
    (a float64 landing on a midpoint is settled from the text)."""
    r = round_to_format(dtype, d)
    bits, overflow, underflow = r.bits, r.overflow, r.underflow
    ties = np.flatnonzero(r.tie)
    if ties.size:
        st = _sticky(texts, d, ties)
        moved = st != 0
        if moved.any():
            sel = ties[moved]
            r2 = round_to_format(dtype, d[sel], sticky=st[moved])
            bits = bits.copy()
            overflow = overflow.copy()
            underflow = underflow.copy()
            bits[sel] = r2.bits
            overflow[sel] = r2.overflow
            underflow[sel] = r2.underflow
    return bits, overflow, underflow, r.exact


def _parse_floats(texts: Sequence[str]) -> npt.NDArray[np.float64]:
    return np.array(list(map(float, texts)), dtype=np.float64) if len(texts) else np.zeros(0, np.float64)


_HUGE = 1 << 20000


def _int_or_huge(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        if text.strip(" \t\r\n").lstrip("-").isdigit():
            return -_HUGE if text.strip().startswith("-") else _HUGE
        raise


def _int_display(v: int, text: str) -> str:
    return str(v) if -(10**40) < v < 10**40 else _show(text)


def _parse_ints(texts: Sequence[str]) -> tuple[np.ndarray, list[int] | None]:
    """Parse decimal int texts: an int64 array, or (None-array, python ints) when some do not fit."""
    try:
        ints = list(map(int, texts))
    except ValueError:  # beyond Python's digit limit for int(): surely out of range
        ints = [_int_or_huge(t) for t in texts]
    try:
        return np.array(ints, dtype=np.int64), None
    except OverflowError:
        return np.zeros(0, np.int64), ints


def _encode_numbers(
    dtype: DType, texts: Sequence[str], is_int: npt.NDArray[np.bool_] | None, errors: list[LiteralError]
) -> np.ndarray:
    """Values of valid number ``texts`` (decimal ints where ``is_int``, else floats or
    specials; ``is_int is None`` means all ints) for ``dtype``.

    Returns one array element per literal: int64 (uint64 for uint64) values for the
    integer and bool types, uint32 bits for float, float64 for double, int64 codes
    for the other float types; complex types give their real type's array.
    Problems are appended to ``errors``.
    """
    n = len(texts)
    dtype = _real_dtype(dtype)
    if dtype.kind in ("int", "uint", "bool"):
        if is_int is not None and not is_int.all():
            for i in np.flatnonzero(~is_int).tolist():
                if dtype.kind == "bool":
                    errors.append(LiteralError(i, f"bool needs true, false, 0 or 1, got '{_show(texts[i])}'"))
                else:
                    errors.append(LiteralError(i, f"{dtype.name} needs an integer, got '{_show(texts[i])}'"))
            texts = [t if ok else "0" for t, ok in zip(texts, is_int.tolist(), strict=True)]
        lo, hi = _int_range(dtype)
        arr, big = _parse_ints(texts)
        if big is not None:
            vals = big
            out = np.zeros(n, dtype=np.uint64 if dtype.code == 13 else np.int64)
            for i, v in enumerate(vals):
                if lo <= v <= hi:
                    out[i] = v
                else:
                    errors.append(_range_error(i, _int_display(v, texts[i]), dtype, lo, hi))
            return out
        bad = (arr < max(lo, -(1 << 63))) | (arr > min(hi, (1 << 63) - 1))
        for i in np.flatnonzero(bad).tolist():
            errors.append(_range_error(i, int(arr[i]), dtype, lo, hi))
        if dtype.code == 13:
            return arr.astype(np.uint64)
        return arr
    if dtype.code == 11:  # double
        d = _parse_floats(texts)
        for i in np.flatnonzero(np.isinf(d)).tolist():
            if not _is_special(texts[i]):
                errors.append(LiteralError(i, f"value {_show(texts[i])} is out of range for double"))
        return d
    fmt = float_format(dtype)
    if dtype.code == 1:
        d = _parse_floats(texts)
        bits, overflow, _, _ = _round_texts(dtype, texts, d)
        inf = np.flatnonzero(np.isinf(d))
        if inf.size:  # a decimal beyond float64's range is not "inf"
            overflow = overflow.copy()
            overflow[inf] = [not _is_special(texts[i]) for i in inf.tolist()]
        for i in np.flatnonzero(overflow).tolist():
            errors.append(
                LiteralError(
                    i, f"value {_show(texts[i])} is out of range for float (largest value {_fmt_float(fmt.max_value)})"
                )
            )
        return bits.astype(np.uint32)
    # 16/8/6/4-bit floats: ints are bit patterns, the rest values.
    codes = np.zeros(n, dtype=np.int64)
    int_idx = np.arange(n) if is_int is None else np.flatnonzero(is_int)
    if int_idx.size:
        sub = [texts[i] for i in int_idx.tolist()]
        arr, big = _parse_ints(sub)
        top = (1 << fmt.width) - 1
        if big is not None:
            for j, v in enumerate(big):
                if 0 <= v <= top:
                    codes[int_idx[j]] = v
                else:
                    errors.append(
                        LiteralError(
                            int(int_idx[j]),
                            f"bit pattern {_int_display(v, sub[j])} is out of range for {dtype.name} (0 to {top})",
                            "range",
                        )
                    )
        else:
            bad = (arr < 0) | (arr > top)
            for j in np.flatnonzero(bad).tolist():
                errors.append(
                    LiteralError(
                        int(int_idx[j]), f"bit pattern {int(arr[j])} is out of range for {dtype.name} (0 to {top})", "range"
                    )
                )
            codes[int_idx] = np.where(bad, 0, arr)
    if is_int is not None and not is_int.all():
        val_idx = np.flatnonzero(~is_int)
        sub = [texts[i] for i in val_idx.tolist()]
        d = _parse_floats(sub)
        bits, overflow, underflow, _ = _round_texts(dtype, sub, d)
        codes[val_idx] = bits
        isnan = np.isnan(d)
        isinf = np.isinf(d)
        for j in range(len(sub)):
            msg = None
            if isnan[j] and not fmt.has_nan:
                msg = f"{dtype.name} has no NaN"
            elif isinf[j] and _is_special(sub[j]) and not fmt.has_inf:
                msg = f"{dtype.name} has no infinity"
            elif (isinf[j] and not _is_special(sub[j])) or overflow[j]:
                msg = (
                    f"value {_show(sub[j])} is out of range for {dtype.name} "
                    f"(largest value {_fmt_float(fmt.max_value)})"
                )
            elif fmt.style == "e8m0" and not isnan[j]:
                if d[j] == 0:
                    msg = f"{dtype.name} has no zero"
                elif d[j] < 0:
                    msg = f"{dtype.name} has no negative values"
                elif underflow[j]:
                    msg = f"value {_show(sub[j])} is out of range for {dtype.name} (smallest value " f"{_fmt_float(2.0**-127)})"
            if msg is not None:
                errors.append(LiteralError(int(val_idx[j]), msg))
    return codes


def _range_error(i: int, v: int | str, dtype: DType, lo: int, hi: int) -> LiteralError:
    return LiteralError(i, f"value {v} is out of range for {dtype.name} ({lo} to {hi})", "range")


# --------------------------------------------------------------------------- packing

def _pack(codes: npt.NDArray[np.int64], bits: int) -> npt.NDArray[np.uint8]:
    """Pack sub-byte codes into bytes, low bits first (like onnx.numpy_helper)."""
    c = (codes.astype(np.int64) & ((1 << bits) - 1)).astype(np.uint8)
    n = c.size
    if bits == 4:
        if n % 2:
            c = np.concatenate([c, np.zeros(1, np.uint8)])
        return (c[0::2] | (c[1::2] << 4)).astype(np.uint8)
    if bits == 2:
        pad = -n % 4
        if pad:
            c = np.concatenate([c, np.zeros(pad, np.uint8)])
        return (c[0::4] | (c[1::4] << 2) | (c[2::4] << 4) | (c[3::4] << 6)).astype(np.uint8)
    if bits == 6:
        nbytes = -(-n * 6 // 8)
        pad = -n % 4
        if pad:
            c = np.concatenate([c, np.zeros(pad, np.uint8)])
        v0, v1, v2, v3 = c[0::4], c[1::4], c[2::4], c[3::4]
        packed = np.empty((v0.size, 3), dtype=np.uint8)
        packed[:, 0] = v0 | ((v1 & 0x03) << 6)
        packed[:, 1] = (v1 >> 2) | ((v2 & 0x0F) << 4)
        packed[:, 2] = (v2 >> 4) | (v3 << 2)
        return packed.reshape(-1)[:nbytes]
    raise ValueError(bits)


def _unpack(data: npt.NDArray[np.uint8], bits: int, n: int, what: str, strict: bool = True) -> npt.NDArray[np.int64]:
    """Unpack ``n`` sub-byte codes; the container must be exactly the packed size and
    the padding bits zero (else NotRepresentable)."""
    need = -(-n * bits // 8)
    if data.size != need:
        raise NotRepresentable(f"{what} holds {data.size} bytes of packed {bits}-bit values, {need} expected for {n} elements")
    d = data.astype(np.int64)
    if bits == 4:
        out = np.empty(d.size * 2, np.int64)
        out[0::2] = d & 0xF
        out[1::2] = d >> 4
    elif bits == 2:
        out = np.empty(d.size * 4, np.int64)
        for k in range(4):
            out[k::4] = (d >> (2 * k)) & 3
    elif bits == 6:
        groups = -(-n // 4)
        full = np.zeros(groups * 3, np.int64)
        full[: d.size] = d
        b0, b1, b2 = full[0::3], full[1::3], full[2::3]
        out = np.empty(groups * 4, np.int64)
        out[0::4] = b0 & 0x3F
        out[1::4] = (b0 >> 6) | ((b1 & 0x0F) << 2)
        out[2::4] = (b1 >> 4) | ((b2 & 0x03) << 4)
        out[3::4] = b2 >> 2
    else:
        raise ValueError(bits)
    if strict and np.any(out[n:]):
        raise NotRepresentable(f"{what}: the padding bits after the last of {n} packed {bits}-bit values are not zero")
    return out[:n]


# --------------------------------------------------------------------------- storing

def _clear(tensor: TensorProto) -> None:
    for f in STORAGE_FIELDS:
        tensor.ClearField(f)


def _codes_for_storage(dtype: DType, arr: np.ndarray) -> np.ndarray:
    """The per-element unsigned codes of sub-byte types (int4 -1 → 15)."""
    return arr.astype(np.int64) & ((1 << dtype.bits) - 1)


def _store(tensor: TensorProto, dtype: DType, arr: np.ndarray, raw: bool) -> None:
    _clear(tensor)
    code = dtype.code
    if code in (1, 14):
        _store_words(tensor, np.asarray(arr, dtype=np.uint32).astype("<u4").tobytes(), raw)
        return
    if raw:
        if dtype.is_packed:
            data = _pack(_codes_for_storage(dtype, arr), dtype.bits).tobytes()
        elif code in (11, 15):
            data = arr.astype("<f8").tobytes()
        elif dtype.kind == "float":  # float16, bfloat16, float8: codes
            data = arr.astype("<u2" if dtype.bits == 16 else "u1").tobytes()
        else:
            data = arr.astype(dtype.storage).tobytes()
        tensor.raw_data = data
        return
    if arr.size == 0:
        return
    field = dtype.field
    if code in (11, 15):
        _set_packed(tensor, "double_data", np.asarray(arr, dtype="<f8").tobytes())
    elif dtype.is_packed and dtype.bits in (2, 4):
        tensor.int32_data.extend(_pack(_codes_for_storage(dtype, arr), dtype.bits).astype(np.int64).tolist())
    else:
        getattr(tensor, field).extend(arr.tolist())


def _store_words(tensor: TensorProto, data: bytes, raw: bool) -> None:
    """Store float32 (or complex64) values given as the little-endian bytes of their bit
    patterns, in ``raw_data`` or in ``float_data`` (the storage fields are empty)."""
    if raw:
        tensor.raw_data = data
    elif data:
        # packed bytes: one step in C, and every bit pattern kept (a Python float would quiet a signaling NaN)
        _set_packed(tensor, "float_data", data)


def _set_packed(tensor: TensorProto, field: str, data: bytes) -> None:
    """Fill the empty repeated float/double ``field`` from its little-endian bytes in one
    step, as the packed wire form protobuf parses in C (a Python float per value costs 30x)."""
    tensor.MergeFromString(_PACKED_TAGS[field] + encode_varint(len(data)) + data)


_PACKED_TAGS = {
    name: encode_varint(TensorProto.DESCRIPTOR.fields_by_name[name].number << 3 | 2) for name in ("float_data", "double_data")
}


def _count_error(tensor: TensorProto, dtype: DType, got: int) -> LiteralError | None:
    n = element_count(tensor)
    if _is_complex(dtype):
        want = 2 * n
        if got != want:
            return LiteralError(
                min(got, want),
                f"expected {want} numbers (real, imaginary pairs of {n} {dtype.name} values) for shape " f"{list(tensor.dims)}, got {got}",
                "count",
            )
        return None
    if got != n:
        return LiteralError(min(got, n), f"expected {n} values for shape {list(tensor.dims)}, got {got}", "count")
    return None


# --------------------------------------------------------------------------- public encoding

def encode_values(tensor: TensorProto, dtype: DType, literals: Sequence[Literal], *, raw: bool) -> list[LiteralError]:
    """Store ``literals`` as the values of ``tensor`` (whose dims are already set).

    Each literal is ``(kind, text)`` with kind ``int``, ``float``, ``special``
    (nan/inf/infinity), ``string`` (unescaped bytes or str) or ``bool`` (true/false);
    any other kind (e.g. ``word``) is an error. The values go to ``dtype``'s typed field,
    or to ``raw_data`` (little-endian, sub-byte types packed) if ``raw``. The storage
    fields are cleared first, and left empty when there are errors. Never raises for
    bad data: returns the problems, in literal order, the count mismatch last.
    """
    errors: list[LiteralError] = []
    n = len(literals)
    try:
        count_error = _count_error(tensor, dtype, n)
    except NotRepresentable as e:
        _clear(tensor)
        return [LiteralError(0, str(e))]
    if dtype.kind == "string":
        strings: list[bytes] = []
        for i, (kind, text) in enumerate(literals):
            if kind == "string":
                strings.append(text if isinstance(text, bytes) else text.encode("utf-8"))
            else:
                errors.append(LiteralError(i, f"expected a string, got '{_show(text)}'"))
        if raw:
            errors.append(LiteralError(0, "string tensors cannot be stored in raw_data"))
        _clear(tensor)
        if not errors:
            tensor.string_data.extend(strings)
            if count_error is not None:  # onnx.parser keeps the strings as written
                errors.append(replace(count_error, message=f"{count_error.message}; {AS_GIVEN_NOTE}", warning=True))
            return errors
        if count_error is not None:
            errors.append(count_error)
        return errors
    texts: list[str] = []
    is_int = np.ones(n, dtype=bool)
    # float/double (and complex parts): a hex literal is the IEEE bit pattern (NaN payloads, exact bits).
    bit_width = {1: 32, 14: 32, 11: 64, 15: 64}.get(dtype.code)
    bit_patterns: dict[int, int] = {}
    for i, (kind, text) in enumerate(literals):
        t = "0"
        if kind == "string" or isinstance(text, bytes):
            errors.append(LiteralError(i, f"expected a number for {dtype.name}, got a string"))
        elif kind == "int" and bit_width and _INT_RE.fullmatch(text) and text[:2] in ("0x", "0X"):
            bits = int(text[2:], 16)
            if bits >= 1 << bit_width:
                errors.append(LiteralError(i, f"bit pattern {text} does not fit in {bit_width} bits"))
            else:
                bit_patterns[i] = bits
            is_int[i] = False
        elif kind == "int" and _INT_RE.fullmatch(text):
            t = _int_text(text)
        elif kind == "float" and _FLOAT_RE.fullmatch(text):
            t = text
            is_int[i] = False
        elif kind == "special" and _SPECIAL_RE.fullmatch(text):
            t = text
            is_int[i] = False
        elif kind == "bool" and text in ("true", "false"):
            if dtype.kind == "bool":
                t = "1" if text == "true" else "0"
            else:
                errors.append(LiteralError(i, f"expected a number for {dtype.name}, got '{text}'"))
        elif kind in ("int", "float", "special", "bool", "invalid"):
            errors.append(LiteralError(i, f"invalid number '{_show(text)}'"))
        else:
            errors.append(LiteralError(i, f"expected a value, got '{_show(text)}'"))
        texts.append(t)
    arr = _encode_numbers(dtype, texts, is_int, errors)
    if bit_patterns:
        idx = np.fromiter(bit_patterns.keys(), dtype=np.int64)
        if bit_width == 32:  # float arrays hold uint32 bits already
            arr[idx] = np.fromiter(bit_patterns.values(), dtype=np.uint64).astype(arr.dtype)
        else:
            arr.view(np.uint64)[idx] = np.fromiter(bit_patterns.values(), dtype=np.uint64)
    errors.sort(key=lambda e: e.index)
    if count_error is not None:
        errors.append(count_error)
    _clear(tensor)
    if not errors:
        _store(tensor, dtype, arr, raw)
        return errors
    return store_as_given(tensor, dtype, literals, errors, raw=raw, encode=encode_values)


def encode_number_texts(jobs: Sequence[tuple[TensorProto, DType, str]], *, raw: bool) -> list[list[LiteralError]]:
    """:func:`encode_number_text` of each ``(tensor, dtype, body)``, with the same results.

    The float32 bodies of plain decimal numbers are read together: one orjson call and one
    numpy pass over all their values (for the many small tensors of a text, numpy's cost
    per call dwarfs the work). Each tensor the batch cannot take as :func:`_json_numbers`
    would (a count mismatch, a zero that may be "-0", a value to round the exact way),
    and each of another type, is encoded on its own.
    """
    results: list[list[LiteralError] | None] = [None] * len(jobs)
    batch = [k for k, (_, dtype, body) in enumerate(jobs) if dtype.code == 1 and _batchable(body)]
    if batch:
        _encode_float32_batch(jobs, batch, results, raw)
    return [found if found is not None else encode_number_text(*jobs[k], raw=raw) for k, found in enumerate(results)]


def _batchable(body: str) -> bool:
    """A body :func:`_json_numbers` may read, which stays in its place in a JSON array of bodies."""
    return not _BLANK.match(body) and not any(c in body for c in _NOT_NUMBERS) and "]" not in body


def _encode_float32_batch(
    jobs: Sequence[tuple[TensorProto, DType, str]], batch: list[int], results: list[list[LiteralError] | None], raw: bool
) -> None:
    """Store each float32 tensor of ``batch`` (indices of ``jobs``) that :func:`_json_numbers`
    would take, as it would; its result becomes ``[]`` (the others stay None)."""
    try:
        lists = orjson.loads("[[" + "],[".join(jobs[k][2] for k in batch) + "]]")
    except orjson.JSONDecodeError:  # some body is not JSON: each goes its own way
        return
    taken: list[int] = []
    taken_values: list[list[float]] = []
    for k, values in zip(batch, lists, strict=True):
        try:
            if not values or _count_error(jobs[k][0], jobs[k][1], len(values)) is not None:
                continue
        except NotRepresentable:
            continue
        taken.append(k)
        taken_values.append(values)
    counts = [len(values) for values in taken_values]
    try:
        if len(taken_values) == 1:
            d = np.array(taken_values[0], dtype=np.float64)
        else:  # no list of all the values in between
            d = np.fromiter(itertools.chain.from_iterable(taken_values), dtype=np.float64, count=sum(counts))
    except OverflowError:  # an integer beyond float64: encode_number_text says what it says
        return
    if not d.size:
        return
    starts = np.zeros(len(counts), dtype=np.intp)
    np.cumsum(counts[:-1], out=starts[1:])
    unsure = np.logical_or.reduceat(float32_not_once(d), starts)
    zero = np.logical_or.reduceat(d == 0, starts)
    with np.errstate(over="ignore"):  # the values beyond float32 are those of tensors left to encode on their own
        data = d.astype(np.float32).view(np.uint32).astype("<u4", copy=False).tobytes()
    for i, k in enumerate(taken):
        tensor, dtype, body = jobs[k]
        if unsure[i] or (zero[i] and _may_hold_negative_zero(body)):
            continue
        start = 4 * int(starts[i])
        _clear(tensor)
        _store_words(tensor, data[start : start + 4 * counts[i]], raw)  # what _store does with the bits
        results[k] = []


def _split_literal(item: str) -> Literal:
    t = item.strip(" \t\r\n")
    return (literal_kind(t), t)


_BLANK = re.compile(r"[ \t\r\n]*\Z")  # matched from the start: stops at the first other character


def encode_number_text(tensor: TensorProto, dtype: DType, body: str, *, raw: bool) -> list[LiteralError]:
    """:func:`encode_values` for a body of comma-separated numbers: the text between
    ``{`` and ``}`` (e.g. ``"1.5, -2, nan, 3e-5"``), vectorised.

    Gives exactly what :func:`encode_values` gives for the same literals; error indices
    are item positions. A body that is not only numbers gets an error per bad item.
    """
    if _BLANK.match(body):
        return encode_values(tensor, dtype, [], raw=raw)
    fast = _json_numbers(tensor, dtype, body)
    if fast is not None:
        _store(tensor, dtype, fast, raw)  # which clears the storage fields first
        return []
    items = body.split(",")
    scan = _scan_body(body) if dtype.kind != "string" else None
    if scan is None:
        return encode_values(tensor, dtype, [_split_literal(s) for s in items], raw=raw)
    n = len(items)
    try:
        count_error = _count_error(tensor, dtype, n)
    except NotRepresentable as e:
        _clear(tensor)
        return [LiteralError(0, str(e))]
    texts = items  # int() and float() skip the " \t\r\n" around (no other space is there)
    is_int: npt.NDArray[np.bool_] | None
    if dtype.kind in ("int", "uint", "bool"):
        is_int = None  # all must be integers: int() rejects anything else
    elif dtype.is_bits_float:
        is_int = scan.int_items()
    else:
        is_int = np.zeros(n, dtype=bool)  # ints and floats give the same value here
    errors: list[LiteralError] = []
    try:
        # int()/float() reject every item _fast_ok let through that is not a number
        # literal (and an integer one where is_int says so).
        arr = _encode_numbers(dtype, texts, is_int, errors)
    except ValueError:
        return encode_values(tensor, dtype, [_split_literal(s) for s in items], raw=raw)
    errors.sort(key=lambda e: e.index)
    if count_error is not None:
        errors.append(count_error)
    _clear(tensor)
    if not errors:
        _store(tensor, dtype, arr, raw)
        return errors
    return store_as_given(tensor, dtype, [_split_literal(s) for s in items], errors, raw=raw, encode=encode_values)


# What JSON reads besides numbers (objects, arrays, strings, true, false, null) starts
# with one of these; a body without them is numbers only, if orjson accepts it.
_NOT_NUMBERS = ("{", "[", '"', "t", "f", "n")
# JSON reads the integer "-0" as 0; float and double keep its sign.
_NEGATIVE_ZERO = ("-0,", "-0 ", "-0\t", "-0\r", "-0\n")


def _json_numbers(tensor: TensorProto, dtype: DType, body: str) -> np.ndarray | None:
    """The values of a body of plain decimal numbers, read by orjson (C) into the array
    :func:`_encode_numbers` gives; None for anything else or anything it would report.

    JSON's numbers are a subset of the text's (no hex, nan, inf, ``+1``, ``1.``, leading
    zeros), read correctly rounded to float64. Only float, double and the integer types
    take this path, and only when every value is valid and the count matches the shape:
    the exact path handles (and reports) the rest. Float32 values that land halfway
    between two float32 values as float64s (where rounding twice could differ from
    rounding the decimal once) or beyond float32's range also go the exact way.
    """
    code = dtype.code
    if code not in (1, 11) and dtype.kind not in ("int", "uint"):
        return None
    if any(c in body for c in _NOT_NUMBERS):
        return None
    try:
        values = orjson.loads("[" + body + "]")
        if _count_error(tensor, dtype, len(values)) is not None:
            return None
    except (orjson.JSONDecodeError, NotRepresentable):
        return None
    if dtype.kind in ("int", "uint"):
        try:
            ints = np.array(values)
        except OverflowError:  # beyond both int64 and uint64 together
            return None
        if ints.dtype != np.int64:  # a float among them, or beyond int64 (a uint64 above 2**63)
            return None
        lo, hi = _int_range(dtype)
        if ints.size and (int(ints.min()) < lo or int(ints.max()) > hi):
            return None
        return ints.astype(np.uint64) if code == 13 else ints
    d = np.array(values, dtype=np.float64)
    if not d.all() and _may_hold_negative_zero(body):
        return None
    if code == 11:
        return d
    return float32_once(d)  # None for a midpoint, a subnormal or beyond float32's range


def _may_hold_negative_zero(body: str) -> bool:
    """Whether a body with a zero among its values may write one "-0" (JSON reads the integer
    as 0; searched only for a zero, since "-0" starts many numbers)."""
    return any(z in body for z in _NEGATIVE_ZERO) or body.rstrip(" \t\r\n").endswith("-0")


def _byte_table(chars: str) -> npt.NDArray[np.bool_]:
    table = np.zeros(256, dtype=bool)
    table[np.frombuffer(chars.encode("ascii"), np.uint8)] = True
    return table


_ALLOWED = _byte_table("0123456789eE.,+- \t\r\nnNaAiIfFtTyY")
_DIGIT = _byte_table("0123456789")
_EXP = _byte_table("eE")
_NOT_INT = _byte_table(".eEnNaAiIfFtTyY")


class _Scan:
    """A body that passed :func:`_scan_body`, as bytes."""

    __slots__ = ("data",)

    def __init__(self, data: npt.NDArray[np.uint8]) -> None:
        self.data = data

    def int_items(self) -> npt.NDArray[np.bool_] | None:
        """Which items are integer literals (None: all of them)."""
        flags = _NOT_INT[self.data]
        if not flags.any():
            return None
        starts = np.concatenate([[0], np.flatnonzero(self.data == ord(",")) + 1])
        padded = np.concatenate([flags, [False]]).astype(np.int32)
        return np.add.reduceat(padded, starts) == 0  # type: ignore[no-any-return]


def _scan_body(body: str) -> _Scan | None:
    """Cheap vectorised checks of a body: only number characters, '+' only after an
    exponent 'e', '.' only after a digit. With those, ``float()``/``int()`` accepting
    an item means it is a valid number literal (int() also rejects non-integers).
    None if the checks fail (the slow path then finds the bad items)."""
    try:
        data = np.frombuffer(body.encode("ascii"), dtype=np.uint8)
    except UnicodeEncodeError:
        return None
    if not _ALLOWED[data].all():
        return None
    for ch, before in ((".", _DIGIT), ("+", _EXP)):
        pos = np.flatnonzero(data == ord(ch))
        if pos.size and (pos[0] == 0 or not before[data[pos - 1]].all()):
            return None
    return _Scan(data)


# --------------------------------------------------------------------------- decoding

def _typed_values(tensor: TensorProto, field: str) -> np.ndarray:
    values = getattr(tensor, field)
    if field == "float_data":
        return np.array(values, dtype=np.float32)
    if field == "double_data":
        return np.array(values, dtype=np.float64)
    if field == "uint64_data":
        return np.array(values, dtype=np.uint64)
    return np.array(values, dtype=np.int64)


def _sign_extend(dtype: DType, codes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    if dtype.kind != "int":
        return codes
    return np.where(codes >= 1 << (dtype.bits - 1), codes - (1 << dtype.bits), codes)


def _storage(tensor: TensorProto, dtype: DType, *, strict: bool = True, as_given: bool = False) -> tuple[np.ndarray, bool]:
    """The per-element values of ``tensor`` (as :func:`_encode_numbers` returns them),
    and whether they came from raw_data. Raises NotRepresentable when the storage is
    not what encoding would give (strict) or not readable at all.

    ``as_given`` also takes what encoding stores as written (see
    :mod:`~onnxtext.ir.literal_checks`): a typed field with another count than the
    shape's, integers and bit patterns out of range for the type (returned unchanged)."""
    if tensor.data_location == TensorProto.EXTERNAL or len(tensor.external_data):
        raise NotRepresentable("the values are in external data")
    n = element_count(tensor)
    nvals = 2 * n if _is_complex(dtype) else n
    has_raw = tensor.HasField("raw_data")
    filled = [f for f in STORAGE_FIELDS[:-1] if len(getattr(tensor, f))]
    if has_raw and filled:
        raise NotRepresentable(f"the tensor has both raw_data and {filled[0]}")
    for f in filled:
        if f != dtype.field:
            raise NotRepresentable(f"{dtype.name} values are kept in {dtype.field}, not {f}")
    code = dtype.code
    if dtype.kind == "string":
        if has_raw:
            raise NotRepresentable("string values in raw_data")
        strings = list(tensor.string_data)
        if len(strings) != n and not as_given:
            raise NotRepresentable(f"{len(strings)} strings stored for {n} elements")
        return np.array(strings + [b""], dtype=object)[:-1], False
    if has_raw:
        data = tensor.raw_data
        if dtype.is_packed:
            codes = _unpack(np.frombuffer(data, np.uint8), dtype.bits, n, "raw_data", strict)
            return _sign_extend(dtype, codes), True
        unit: np.dtype
        if code in (1, 14):
            unit = np.dtype("<u4")
        elif code in (11, 15):
            unit = np.dtype("<f8")
        elif dtype.kind == "float":
            unit = np.dtype("<u2" if dtype.bits == 16 else "u1")
        else:
            unit = dtype.storage
        if len(data) != nvals * unit.itemsize:
            raise NotRepresentable(f"raw_data holds {len(data)} bytes, {nvals * unit.itemsize} expected for {n} {dtype.name} elements")
        arr = np.frombuffer(data, dtype=unit)
        if code in (1, 14):
            return arr.astype(np.uint32), True
        if code in (11, 15):
            return arr.astype(np.float64), True
        if dtype.kind == "float":
            return arr.astype(np.int64), True
        if dtype.kind == "bool":
            a = arr.astype(np.int64)
            if strict and np.any(a > 1):
                i = int(np.flatnonzero(a > 1)[0])
                raise NotRepresentable(f"raw_data byte {a[i]} is not a bool (element {i})", i)
            return a, True
        return (arr.astype(np.uint64) if code == 13 else arr.astype(np.int64)), True
    vals = _typed_values(tensor, dtype.field)
    if dtype.is_packed and dtype.bits in (2, 4):
        if np.any((vals < 0) | (vals > 255)):
            i = int(np.flatnonzero((vals < 0) | (vals > 255))[0])
            if strict:
                raise NotRepresentable(f"int32_data entry {int(vals[i])} is not a byte of packed {dtype.name} values", i)
        codes = _unpack((vals & 0xFF).astype(np.uint8), dtype.bits, n, "int32_data", strict)
        return _sign_extend(dtype, codes), False
    if len(vals) != nvals and not as_given:
        raise NotRepresentable(f"{dtype.field} holds {len(vals)} values, {nvals} expected for shape {list(tensor.dims)}")
    if code in (1, 14):
        return vals.view(np.uint32).astype(np.uint32), False
    if code in (11, 15):
        return vals, False
    if dtype.kind == "float":
        top = (1 << float_format(dtype).width) - 1
        bad = (vals < 0) | (vals > top)
        if np.any(bad) and not as_given:
            i = int(np.flatnonzero(bad)[0])
            if strict:
                raise NotRepresentable(f"int32_data value {int(vals[i])} is not a {dtype.name} bit pattern (element {i})", i)
            vals = vals & top
        return vals, False
    lo, hi = _int_range(dtype)
    bad = (vals < lo) | (vals > hi) if code not in (7, 13) else np.zeros(vals.shape, bool)
    if np.any(bad) and not as_given:
        i = int(np.flatnonzero(bad)[0])
        if strict:
            raise NotRepresentable(f"value {int(vals[i])} of element {i} is out of range for {dtype.name}", i)
    return vals, False


def decode_literals(tensor: TensorProto, dtype: DType) -> TensorLiterals:
    """The canonical literals of ``tensor``'s values: encoding them with
    :func:`encode_values` (``raw`` as returned) gives the same storage, byte for byte.

    Floats are the shortest decimal that reads back to the same bits, always with ``.``
    or an exponent, or ``nan``/``-nan``/``inf``/``-inf``; a NaN of a 16/8-bit float type
    that is not the one ``nan`` gives is written as its integer bit pattern. Integers
    are decimal, bools ``0``/``1``, strings bytes.

    Values stored as written (a typed field with another count than the shape's, an
    integer or bit pattern out of range) give their literals as they are, which encode
    back to the same storage with warnings (:mod:`~onnxtext.ir.literal_checks`).

    Raises :class:`NotRepresentable` if that is impossible: external data, storage in
    the wrong field, a wrong count of raw bytes, out-of-range or non-canonical packed
    values, a float/double NaN with a payload.
    """
    arr, raw = _storage(tensor, dtype, as_given=True)
    if dtype.kind == "string":
        return TensorLiterals(arr.tolist(), False)
    return TensorLiterals(_format_values(dtype, arr), raw)


def _format_values(dtype: DType, arr: np.ndarray) -> list[str]:
    code = dtype.code
    if dtype.kind in ("int", "uint", "bool"):
        return list(map(str, arr.tolist()))
    if code in (11, 15):
        return _format_doubles(arr)
    if code in (1, 14):
        return _format_float32(arr)
    table = _literal_table(code)
    codes = arr.astype(np.int64)
    inside = (codes >= 0) & (codes < len(table))
    if inside.all():
        return table[codes].tolist()  # type: ignore[no-any-return]
    out: list[str] = table[np.where(inside, codes, 0)].tolist()
    for i in np.flatnonzero(~inside).tolist():  # a bit pattern stored as written (onnx.parser keeps it)
        out[i] = str(int(codes[i]))
    return out


def _format_doubles(arr: npt.NDArray[np.float64]) -> list[str]:
    out = list(map(float.__repr__, arr.tolist()))
    nan = np.flatnonzero(np.isnan(arr))
    if nan.size:
        bits = arr[nan].view(np.uint64)
        for j, i in enumerate(nan.tolist()):
            b = int(bits[j])
            if b == 0x7FF8000000000000:
                out[i] = "nan"
            elif b == 0xFFF8000000000000:
                out[i] = "-nan"
            else:
                out[i] = f"0x{b:016x}"  # the bit pattern: a NaN with a payload
    return out


_POW10 = np.array([float(10**k) for k in range(0, 309)], dtype=np.float64)
_RECIP_OFF = 340
#: _RECIP[q + _RECIP_OFF] is 10**-q correctly rounded (q in -340..340).
_RECIP = np.array([float(f"1e{-q}") for q in range(-_RECIP_OFF, _RECIP_OFF + 1)], dtype=np.float64)


def _probe(
    q: npt.NDArray[np.int64],
    x: npt.NDArray[np.float64],
    hi: npt.NDArray[np.float64],
    lo_ratio: npt.NDArray[np.float64],
    lo_in: npt.NDArray[np.bool_],
    hi_in: npt.NDArray[np.bool_],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Is there a decimal ``D * 10**q`` (D >= 1 integer) in the rounding interval
    ``(x - hi*lo_ratio, x + hi)`` of each ``x`` (ends included where ``lo_in``/``hi_in``)?

    Returns (feasible, unsure, digits, choice_unsure): ``digits`` is the closer of the
    two candidates around ``x`` that is inside; ``unsure`` marks elements where this
    cannot be decided here, ``choice_unsure`` those where ``digits`` may be wrong:
    they need the exact computation.

    The scaled value ``s = x * 10**-q`` is computed with relative error below 2**-51; the
    margin ``s * 2**-49`` covers that. The interval half-widths are at least 2**-26
    relative to ``x`` in every format used, far more than the margin, so a candidate
    within the margin of ``x`` is inside whatever its side. Candidates too close to an
    interval end are settled exactly in float64 when they are integers below 2**53.
    """
    r = _RECIP[q + _RECIP_OFF]
    s = x * r
    th = hi * r
    tl = th * lo_ratio
    m = s * 2.0**-49 + 2.0**-50
    fl = np.floor(s)
    dl = s - fl
    dh = 1.0 - dl
    in_l = (dl + m < tl) & (fl >= 1)
    in_h = dh + m < th
    on_edge = (np.abs(dl - tl) <= m) | (np.abs(dh - th) <= m)
    close = in_l & in_h & (np.abs(dl - dh) <= m)
    pick_h = in_h & (~in_l | (dh < dl))
    hard = np.flatnonzero(on_edge | close)
    if hard.size:
        qh = q[hard]
        ok = (qh >= 0) & (qh <= 22) & (s[hard] < 2.0**52)
        e = hard[ok]
        if e.size:
            p = _POW10[q[e]]
            xe = x[e]
            f = fl[e]
            f = np.where(f * p > xe, f - 1, f)  # exact floor of x / 10**q
            f = np.where((f + 1) * p <= xe, f + 1, f)
            dlx = xe - f * p  # exact: integers below 2**53 and x
            dhx = (f + 1) * p - xe
            lo_abs = hi[e] * lo_ratio[e]
            il = (f >= 1) & ((dlx < lo_abs) | ((dlx == lo_abs) & lo_in[e]))
            ih = (dhx < hi[e]) | ((dhx == hi[e]) & hi_in[e])
            ph = ih & (~il | (dhx < dlx) | ((dhx == dlx) & (f % 2 == 1)))
            in_l[e], in_h[e], pick_h[e], fl[e] = il, ih, ph, f
            on_edge[e] = False
            close[e] = False
    feasible = in_l | in_h
    unsure = ~feasible & on_edge
    choice_unsure = on_edge | close
    return feasible, unsure, (fl + pick_h).astype(np.int64), choice_unsure


def _shortest(
    x: npt.NDArray[np.float64],
    lo: npt.NDArray[np.float64],
    hi: npt.NDArray[np.float64],
    lo_incl: npt.NDArray[np.bool_],
    hi_incl: npt.NDArray[np.bool_],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The shortest decimals ``D * 10**Q`` in the rounding intervals
    ``[x - lo, x + hi]`` (ends included where ``*_incl``) of positive ``x``; of two
    equally short, the closer to ``x``. ``lo`` is ``hi`` or ``hi/2``, or (float8e8m0)
    ``hi/2``, and at least 2**-26 of ``x``.

    Vectorised in float64 with error bounds; elements too close to call are settled
    exactly with fractions (:func:`_shortest_exact`).
    """
    n = x.size
    lo_ratio = lo / hi
    width = lo + hi
    with np.errstate(divide="ignore"):
        # At q_sure the interval is wider than 10**q: it holds a decimal (with D >= 2).
        q_sure = np.ceil(np.log10(width)).astype(np.int64) - 1
        q_sure -= width * _RECIP[q_sure + _RECIP_OFF] <= 1.000001
        q_top = np.floor(np.log10(x)).astype(np.int64) + 2  # 10**q_top > x + hi: none
    digits = np.zeros(n, dtype=np.int64)
    q_out = np.zeros(n, dtype=np.int64)
    unsure = np.zeros(n, dtype=bool)
    # Try q_sure + 1, + 2, ... until infeasible: most values need q_sure or q_sure + 1.
    idx = np.arange(n)
    q_try = q_sure + 1
    d_prev: np.ndarray | None = None
    cu_prev: np.ndarray | None = None
    while idx.size:
        if idx.size == n:  # first round: no copies
            feasible, uns, d_try, cu_try = _probe(q_try, x, hi, lo_ratio, lo_incl, hi_incl)
        else:
            feasible, uns, d_try, cu_try = _probe(q_try, x[idx], hi[idx], lo_ratio[idx], lo_incl[idx], hi_incl[idx])
        unsure[idx[uns | (feasible & (q_try >= q_top[idx]))]] = True
        done = ~feasible | (q_try >= q_top[idx])
        fin = np.flatnonzero(done)
        if fin.size:
            sub = idx[fin]
            if d_prev is None or cu_prev is None:  # the answer is q_sure, not probed yet
                _, _, d_fin, cu_fin = _probe(q_try[fin] - 1, x[sub], hi[sub], lo_ratio[sub], lo_incl[sub], hi_incl[sub])
            else:
                d_fin, cu_fin = d_prev[fin], cu_prev[fin]
            digits[sub] = d_fin
            unsure[sub[cu_fin]] = True
            q_out[sub] = q_try[fin] - 1
        keep = ~done
        idx = idx[keep]
        q_try = q_try[keep] + 1
        d_prev = d_try[keep]
        cu_prev = cu_try[keep]
    for i in np.flatnonzero(unsure).tolist():
        digits[i], q_out[i] = _shortest_exact(float(x[i]), float(lo[i]), float(hi[i]), bool(lo_incl[i]), bool(hi_incl[i]))
    return digits, q_out

def _shortest_exact(x: float, lo: float, hi: float, lo_incl: bool, hi_incl: bool) -> tuple[int, int]:
    """:func:`_shortest` for one value, in exact rational arithmetic."""
    fx, flo, fhi = Fraction(x), Fraction(lo), Fraction(hi)
    k = math.floor(math.log10(x))
    for q in range(k + 2, k - 30, -1):
        scale = Fraction(10) ** q
        s = fx / scale
        base = math.floor(s)
        best: tuple[Fraction, int] | None = None
        for d in (base, base + 1):
            if d <= 0:
                continue
            diff = d * scale - fx
            ok = (-diff < flo or (-diff == flo and lo_incl)) if diff < 0 else (diff < fhi or (diff == fhi and hi_incl))
            if ok:
                key = (abs(diff), d % 2)
                if best is None or key < (best[0], best[1] % 2):
                    best = (abs(diff), d)
        if best is not None:
            return best[1], q
    raise AssertionError("no decimal found")  # pragma: no cover


def _format_decimals(negative: npt.NDArray[np.bool_], digits: npt.NDArray[np.int64], q: npt.NDArray[np.int64]) -> np.ndarray:
    """Texts of ``±digits * 10**q`` in Python ``repr`` style: positional for
    1e-4 <= |v| < 1e16 (at least one digit after the point), else ``d.ddde±XX``."""
    n = digits.size
    out = np.empty(n, dtype=object)
    if n == 0:
        return out
    ndig = np.searchsorted(_POW10[:20], digits.astype(np.float64), side="right").astype(np.int64)
    exp10 = ndig - 1 + q
    positional = (exp10 >= -4) & (exp10 < 16)
    value = digits.astype(np.float64)
    value = np.where(q >= 0, value * _POW10[np.clip(q, 0, 308)], value / _POW10[np.clip(-q, 0, 308)])
    value = np.where(negative, -value, value)
    key = np.where(positional, np.maximum(1, -q), 1000 + ndig - 1)
    for k in np.unique(key).tolist():
        idx = np.flatnonzero(key == k)
        fmt = f"%.{k}f" if k < 1000 else f"%.{k - 1000}e"
        out[idx] = list(map(fmt.__mod__, value[idx].tolist()))
    return out


def _format_codes(x: npt.NDArray[np.float64], m_even: npt.NDArray[np.bool_],
                  lo: npt.NDArray[np.float64], hi: npt.NDArray[np.float64],
                  lo_incl: npt.NDArray[np.bool_] | None = None,
                  hi_incl: npt.NDArray[np.bool_] | None = None) -> np.ndarray:
    """Shortest texts for finite nonzero values ``x`` (signed) given their rounding intervals."""
    ax = np.abs(x)
    li = m_even if lo_incl is None else lo_incl
    hi_ = m_even if hi_incl is None else hi_incl
    digits, q = _shortest(ax, lo, hi, li, hi_)
    return _format_decimals(np.signbit(x), digits, q)


def _intervals(mbits: int, bias: int, codes_mag: npt.NDArray[np.int64]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For magnitude codes of a sign-magnitude binary format (finite, nonzero):
    the half-widths below and above of each value's rounding interval, and whether the
    mantissa is even (interval ends included)."""
    exp_field = codes_mag >> mbits
    frac = codes_mag & ((1 << mbits) - 1)
    emin = 1 - bias
    e = np.maximum(exp_field - bias, emin) - mbits  # quantum exponent
    half = ((e - 1 + 1023) << 52).view(np.float64)  # 2.0**(e-1), a normal float64 here
    lo = np.where((frac == 0) & (exp_field > 1), half / 2, half)
    return lo, half, (codes_mag & 1) == 0


@lru_cache(maxsize=None)
def _literal_table(code: int) -> np.ndarray:
    """Canonical literal text of every code of a 16/8/6/4-bit float type."""
    from onnxtext.ir.dtypes import _value_table  # the exact values

    dtype = BY_CODE[code]
    fmt = float_format(dtype)
    codes = np.arange(1 << fmt.width, dtype=np.int64)
    values = _value_table(code)
    out = np.empty(codes.size, dtype=object)
    nan = np.isnan(values)
    out[nan] = [str(c) for c in codes[nan].tolist()]  # bit patterns, but for:
    if fmt.has_nan:
        out[fmt.nan_code(False)] = "nan"
        if fmt.style in ("ieee", "fn"):
            out[fmt.nan_code(True)] = "-nan"
    inf = np.isinf(values)
    out[inf] = np.where(values[inf] > 0, "inf", "-inf")
    zero = values == 0
    out[zero] = np.where(np.signbit(values[zero]), "-0.0", "0.0")
    fin = np.isfinite(values) & ~zero
    x = values[fin]
    if fmt.style == "e8m0":
        ax = np.abs(x)
        out[fin] = _format_codes(x, np.ones(x.shape, bool), ax / 4, ax / 2,
                                 np.ones(x.shape, bool), np.zeros(x.shape, bool))
    else:
        mag = codes[fin] & (fmt.sign_bit - 1)
        lo, hi, even = _intervals(fmt.mbits, fmt.bias, mag)
        out[fin] = _format_codes(x, even, lo, hi)
    out.setflags(write=False)
    return out


def _format_float32(bits: npt.NDArray[np.uint32]) -> list[str]:
    if bits.size and not ((bits & 0x7F800000) == 0x7F800000).any():  # no NaN or infinity: all through orjson
        return _shortest_float32(bits.astype(np.uint32).view(np.float32))
    b = bits.astype(np.int64)
    n = b.size
    out = np.empty(n, dtype=object)
    if n == 0:
        return []
    mag = b & 0x7FFFFFFF
    exp_field = mag >> 23
    negative = (b >> 31) == 1
    is_nan = (exp_field == 0xFF) & ((mag & 0x7FFFFF) != 0)
    if is_nan.any():
        out[is_nan] = np.where(negative[is_nan], "-nan", "nan")
        payload = is_nan & (mag != 0x7FC00000)
        for i in np.flatnonzero(payload).tolist():  # NaNs with payloads print as their bit pattern
            out[i] = f"0x{int(b[i]) & 0xFFFFFFFF:08x}"
    is_inf = mag == 0x7F800000
    out[is_inf] = np.where(negative[is_inf], "-inf", "inf")
    zero = mag == 0
    out[zero] = np.where(negative[zero], "-0.0", "0.0")
    fin = ~(is_nan | is_inf | zero)
    if fin.any():
        out[fin] = _shortest_float32(b[fin].astype(np.uint32).view(np.float32))
    return out.tolist()  # type: ignore[no-any-return]


def _shortest_float32(x: npt.NDArray[np.float32]) -> list[str]:
    """The shortest texts of finite float32 values that read back to them.

    orjson (C) gives the digits (shortest, nearest to the value, as our own vectorised
    search does: checked value for value in the tests); its layout is the tensors' style
    for magnitudes in [1e-4, 1e13); the rest come from our own vectorised search.
    """
    texts = orjson.dumps(x, option=orjson.OPT_SERIALIZE_NUMPY)[1:-1].decode("ascii").split(",")
    odd = _laid_out_again(x)
    if odd.size:
        for i, text in zip(odd.tolist(), _general_float32(x[odd]), strict=True):
            texts[i] = text
    return texts


def _general_float32(x: npt.NDArray[np.float32]) -> list[str]:
    """Our own vectorised shortest search (the other float types' path), for the values
    orjson lays out otherwise (few, or a whole tensor of tiny values)."""
    mag = x.view(np.uint32).astype(np.int64) & 0x7FFFFFFF
    lo, hi, even = _intervals(23, 127, mag)
    return list(_format_codes(x.astype(np.float64), even, lo, hi))


def _laid_out_again(x: npt.NDArray[np.float32]) -> npt.NDArray[np.intp]:
    """Which values orjson may lay out otherwise than the tensors' style (exponent form,
    or ``0.0000…``). Generous bounds: a value just below a power of ten may print as it."""
    ax = np.abs(x)
    return np.flatnonzero(((ax < np.float32(2e-4)) & (ax > 0)) | (ax >= np.float32(5e12)))


def _float32_text(x: npt.NDArray[np.float32]) -> str:
    """``", ".join(_shortest_float32(x))`` made as one string: no list of a million texts."""
    odd = _laid_out_again(x)
    if odd.size > x.size // 16:  # many tiny or huge values: patching the text item by item costs more
        return ", ".join(_shortest_float32(x))
    data = orjson.dumps(x, option=orjson.OPT_SERIALIZE_NUMPY)[1:-1]
    if odd.size:
        commas = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == ord(","))
        starts = np.concatenate(([0], commas + 1))[odd].tolist()
        ends = np.append(commas, len(data))[odd].tolist()
        pieces = []
        at = 0
        for start, end, text in zip(starts, ends, _general_float32(x[odd]), strict=True):
            pieces += [data[at:start], text.encode("ascii")]
            at = end
        pieces.append(data[at:])
        data = b"".join(pieces)
    return data.replace(b",", b", ").decode("ascii")


def float32_texts(values: npt.NDArray[np.float32], counts: Sequence[int]) -> list[str] | None:
    """The :func:`number_text` of each of many small float32 tensors whose values are ``values``
    one after the other (``counts`` of them each, none 0): one orjson and numpy pass for all
    (per tensor, numpy's cost per call outweighs the work). None when a value is NaN or infinite."""
    bits = values.view(np.uint32)
    if bool(((bits & 0x7F800000) == 0x7F800000).any()):
        return None
    items = _float32_text(values).split(", ")
    out = []
    at = 0
    for n in counts:
        out.append(", ".join(items[at : at + n]))
        at += n
    return out


def number_text(tensor: TensorProto, dtype: DType) -> tuple[str, bool] | None:
    """``", ".join(decode_literals(tensor, dtype).values)`` and its ``raw``, for a float
    tensor without NaN or infinity, made in C as one string; None for any other tensor
    (then :func:`decode_literals`). Raises :class:`NotRepresentable` as it does."""
    if dtype.code != 1:
        return None
    arr, raw = _storage(tensor, dtype, as_given=True)
    bits = np.asarray(arr, dtype=np.uint32)
    if not bits.size or bool(((bits & 0x7F800000) == 0x7F800000).any()):
        return None
    return _float32_text(bits.view(np.float32)), raw


def _layout(sign: str, digits: str, exp10: int) -> str:
    """Shortest significant ``digits`` (no leading or trailing zeros) times 10**``exp10``
    in the tensors' style: positional for exponents -4 to 15, else ``d.ddde±XX``."""
    q = exp10 - (len(digits) - 1)
    if not -4 <= exp10 < 16:
        return f"{sign}{digits[0]}{'.' + digits[1:] if len(digits) > 1 else ''}e{exp10:+03d}"
    if q >= 0:
        return f"{sign}{digits}{'0' * q}.0"
    if exp10 >= 0:
        return f"{sign}{digits[: exp10 + 1]}.{digits[exp10 + 1:]}"
    return f"{sign}0.{'0' * (-exp10 - 1)}{digits}"


def format_float32(value: float) -> str:
    """The shortest text of a float32 value that reads back to it, in the tensors' style.

    One value at a time (attributes): numpy's scalar Dragon4 gives the shortest digits,
    laid out as :func:`_format_decimals` lays out a whole tensor.
    """
    f = np.float32(value)
    if f == 0 or not np.isfinite(f):
        return _format_float32(np.array([f], dtype=np.float32).view(np.uint32))[0]
    mantissa, _, exp_text = np.format_float_scientific(f, unique=True, trim="-").partition("e")
    sign = "-" if mantissa.startswith("-") else ""
    return _layout(sign, mantissa.lstrip("-").replace(".", ""), int(exp_text))


_FLT_MAX = float(np.finfo(np.float32).max)


def parse_float32(text: str) -> float:
    """The float32 nearest to a decimal text, rounded once (as C's strtof does).

    Going through float64 rounds twice, which can differ from one rounding only when the
    float64 lies exactly halfway between two float32 values: only then (and near
    overflow) does the exact path run.
    """
    d = float(text)
    if d != d or abs(d) == math.inf:
        return d
    if abs(d) < _FLT_MAX:
        f = np.float32(d)
        near = float(f)
        if near == d:
            return near
        other = float(np.nextafter(f, np.float32(math.copysign(math.inf, d - near))))
        if d - near != other - d:  # not a midpoint: rounding once or twice agrees
            return near
    bits, _, _, _ = _round_texts(BY_CODE[1], [text], _parse_floats([text]))
    return float(np.array(bits, dtype=np.uint32).view(np.float32)[0])


# --------------------------------------------------------------------------- numpy

_NUMPY_INT = {2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16, 6: np.int32, 7: np.int64, 12: np.uint32,
              13: np.uint64, 21: np.uint8, 22: np.int8, 25: np.uint8, 26: np.int8}


def to_numpy(tensor: TensorProto) -> np.ndarray:
    """The values of ``tensor`` (typed fields or raw_data) as a numpy array of its shape.

    Integer types give their numpy type (int4/int2 → int8, uint4/uint2 → uint8; typed
    values out of range wrap like onnx's ``to_array``), bool → bool, float16 → float16,
    bfloat16/float8/float6/float4 → float32 (exact), complex → complex64/128, string →
    object array of bytes. Raises :class:`NotRepresentable` (a ValueError) for unknown
    types, external data or a wrong amount of data.
    """
    dtype = BY_CODE.get(tensor.data_type)
    if dtype is None:
        raise NotRepresentable(f"unknown data type {tensor.data_type}")
    arr, _ = _storage(tensor, dtype, strict=False)
    shape = tuple(int(d) for d in tensor.dims)
    code = dtype.code
    if dtype.kind == "string":
        return arr.reshape(shape)
    if code in _NUMPY_INT:
        return arr.astype(_NUMPY_INT[code]).reshape(shape)
    if dtype.kind == "bool":
        return (arr != 0).reshape(shape)
    if code == 1:
        return arr.astype(np.uint32).view(np.float32).reshape(shape)
    if code == 11:
        return arr.astype(np.float64).reshape(shape)
    if code == 14:
        return arr.astype(np.uint32).view(np.float32).view(np.complex64).reshape(shape)
    if code == 15:
        return arr.astype(np.float64).view(np.complex128).reshape(shape)
    if code == 10:
        return arr.astype(np.uint16).view(np.float16).reshape(shape)
    from onnxtext.ir.dtypes import bits_to_float

    return bits_to_float(dtype, arr).astype(np.float32).reshape(shape)
