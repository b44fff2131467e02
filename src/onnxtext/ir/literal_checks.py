"""Tensor literals that do not fit their type, stored the way ``onnx.parser`` stores them.

``onnx.parser`` keeps what a ``{...}`` body says even when it does not fit the declared
type: a value count different from the shape's (``int64[3] {1, 2}``), a complex tensor
with one number per element, an integer out of range for a type kept in a wider field
(``int8 {300}`` in ``int32_data``, ``uint32 {-1}`` wrapped into ``uint64_data``, a
float16 bit pattern beyond 16 bits). Such texts occur in real projects' tests, so the
lowering gives the same protobuf and reports each problem as a located warning; the
checker reports the stored tensor as invalid (``E501``, ``E509``).

What ``onnx.parser`` rejects stays an error here: an integer beyond the storage field
(``int8 {3000000000}``, ``int64 {2**63}``), a float value that overflows, a value
literal for a 16/8-bit float type, and anything in ``raw_data`` or in the packed
sub-byte types (which onnxtext packs like ``onnx.helper.make_tensor`` and
``onnx.parser`` does not; see the README's "Known differences").

This module only decides and stores; number conversion stays in :mod:`onnxtext.ir.tensor`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from onnxtext.ir.dtypes import BY_NAME, DType
from onnxtext.proto import TensorProto

if TYPE_CHECKING:
    from onnxtext.ir.tensor.literals import LiteralError

__all__ = ["store_as_given", "storage_bounds", "valid_range", "AS_GIVEN_NOTE"]

Literal = tuple[str, str | bytes]
Encoder = Callable[..., "list[LiteralError]"]

#: What a warning adds to the problem's message.
AS_GIVEN_NOTE = "onnx.parser keeps it as written"

_INT32 = (-(1 << 31), (1 << 31) - 1)
_UINT64_WRAP = (-((1 << 64) - 1), (1 << 64) - 1)


def storage_bounds(dtype: DType) -> tuple[int, int] | None:
    """The integers ``onnx.parser`` accepts for ``dtype`` (they may lie outside the type's
    own range), or None where it accepts only the type's range."""
    if dtype.is_packed or dtype.kind not in ("int", "uint", "bool", "float"):
        return None
    if dtype.field == "int32_data":
        return _INT32
    if dtype.field == "uint64_data":  # read with stoull: "-1" wraps around
        return _UINT64_WRAP
    return None


def _stored_int(dtype: DType, literal: Literal) -> int | None:
    """The value ``onnx.parser`` stores for an out-of-range integer literal, or None if it rejects it."""
    kind, text = literal
    if kind != "int" or isinstance(text, bytes):
        return None
    t = text.strip(" \t\r\n")
    if t.lstrip("-")[:2] in ("0x", "0X"):  # hex literals are onnxtext's: no onnx.parser reading to follow
        return None
    bounds = storage_bounds(dtype)
    if bounds is None:
        return None
    try:
        v = int(t)
    except ValueError:  # beyond Python's digit limit: beyond every field
        return None
    if not bounds[0] <= v <= bounds[1]:
        return None
    return v % (1 << 64) if dtype.field == "uint64_data" else v


def store_as_given(
    tensor: TensorProto,
    dtype: DType,
    literals: Sequence[Literal],
    errors: list[LiteralError],
    *,
    raw: bool,
    encode: Encoder,
) -> list[LiteralError]:
    """If every one of ``errors`` is a problem ``onnx.parser`` stores as written, store the
    literals that way in ``tensor`` and return the problems as warnings; else return
    ``errors`` unchanged (the tensor's storage left empty).

    ``encode`` is :func:`~onnxtext.ir.tensor.encode.encode_values`, used on a probe tensor
    whose shape matches the literals (the values that fit are converted as usual)."""
    if raw or dtype.is_packed or not errors:
        return errors
    forgiven: dict[int, int] = {}
    count_mismatch = False
    for e in errors:
        if e.kind == "count":
            count_mismatch = True
            continue
        if e.kind != "range" or not 0 <= e.index < len(literals):
            return errors
        v = _stored_int(dtype, literals[e.index])
        if v is None:
            return errors
        forgiven[e.index] = v
    probe = TensorProto()
    probe_dtype = dtype
    n = len(literals)
    if not count_mismatch:
        probe.dims.extend(tensor.dims)
    elif dtype.kind == "complex" and n % 2:
        probe_dtype = BY_NAME["float" if dtype.code == 14 else "double"]  # same field, one number each
        probe.dims.append(n)
    else:
        probe.dims.append(n // 2 if dtype.kind == "complex" else n)
    probe.data_type = probe_dtype.code
    substituted = [("int", "0") if i in forgiven else lit for i, lit in enumerate(literals)]
    if encode(probe, probe_dtype, substituted, raw=False):
        return errors
    values = getattr(probe, dtype.field)
    for i, v in forgiven.items():
        values[i] = v
    target = getattr(tensor, dtype.field)
    del target[:]
    target.extend(values)
    return [replace(e, message=f"{e.message}; {AS_GIVEN_NOTE}", warning=True) for e in errors]


def valid_range(dtype: DType) -> tuple[int, int] | None:
    """The integers a typed field may hold for one element of ``dtype`` (a bit pattern for
    the 16/8-bit floats), or None for the types whose field cannot hold a wrong one."""
    if dtype.is_packed or storage_bounds(dtype) is None:
        return None
    if dtype.kind == "bool":
        return 0, 1
    if dtype.kind == "int":
        return -(1 << (dtype.bits - 1)), (1 << (dtype.bits - 1)) - 1
    return 0, (1 << dtype.bits) - 1  # uint, and float bit patterns
