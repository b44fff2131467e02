"""Decoding (proto → text): :func:`decode_literals` gives the canonical literal texts whose
encoding reproduces the tensor's storage byte for byte, or raises :class:`NotRepresentable`;
:func:`number_text` the same for a float tensor as one string, made in C."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from onnxtext.ir.dtypes import DType, float_format
from onnxtext.ir.tensor.float_text import _float32_text, _format_doubles, _format_float32, _literal_table
from onnxtext.ir.tensor.literals import (
    STORAGE_FIELDS,
    NotRepresentable,
    TensorLiterals,
    _int_range,
    _is_complex,
    element_count,
)
from onnxtext.ir.tensor.packing import _unpack
from onnxtext.proto import TensorProto

__all__ = ["decode_literals", "number_text", "float32_texts"]


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


def _storage(
    tensor: TensorProto, dtype: DType, *, strict: bool = True, as_given: bool = False
) -> tuple[np.ndarray, bool]:
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
            raise NotRepresentable(
                f"raw_data holds {len(data)} bytes, {nvals * unit.itemsize} expected for {n} {dtype.name} elements"
            )
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
                raise NotRepresentable(
                    f"int32_data entry {int(vals[i])} is not a byte of packed {dtype.name} values", i
                )
        codes = _unpack((vals & 0xFF).astype(np.uint8), dtype.bits, n, "int32_data", strict)
        return _sign_extend(dtype, codes), False
    if len(vals) != nvals and not as_given:
        raise NotRepresentable(
            f"{dtype.field} holds {len(vals)} values, {nvals} expected for shape {list(tensor.dims)}"
        )
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
                raise NotRepresentable(
                    f"int32_data value {int(vals[i])} is not a {dtype.name} bit pattern (element {i})", i
                )
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


def float32_texts(values: npt.NDArray[np.float32], counts: Sequence[int]) -> list[str] | None:
    """The :func:`number_text` of each of many small float32 tensors whose values are ``values``
    one after the other (``counts`` of them each, none 0): one orjson and numpy pass for all
    (per tensor, numpy's cost per call outweighs the work). None when a value is NaN or infinite."""
    bits = values.view(np.uint32)
    if bool(((bits & 0x7F800000) == 0x7F800000).any()):
        return None
    text = _float32_text(values)
    # Each tensor's text is a slice of the whole, up to the comma after its last number.
    commas = np.flatnonzero(np.frombuffer(text.encode("ascii"), dtype=np.uint8) == 44)
    ends = commas[np.cumsum(counts[:-1], dtype=np.int64) - 1].tolist()
    starts = [0, *(end + 2 for end in ends)]
    return [text[start:end] for start, end in zip(starts, [*ends, len(text)], strict=True)]


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
