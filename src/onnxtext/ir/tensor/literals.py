"""What encoding and decoding share: the error records (:class:`LiteralError`,
:class:`NotRepresentable`), :class:`TensorLiterals`, the storage fields, the literal syntax
(:func:`literal_kind`) and facts about element types and counts."""

from __future__ import annotations

import re
from dataclasses import dataclass

from onnxtext.ir.dtypes import BY_NAME, DType
from onnxtext.proto import TensorProto

__all__ = [
    "LiteralError",
    "NotRepresentable",
    "TensorLiterals",
    "Literal",
    "literal_kind",
    "element_count",
    "STORAGE_FIELDS",
    "TYPED_FIELDS",
]

#: The repeated fields of ``TensorProto`` that hold values, and with ``raw_data`` all of them.
TYPED_FIELDS = ("float_data", "int32_data", "string_data", "int64_data", "double_data", "uint64_data")
STORAGE_FIELDS = (*TYPED_FIELDS, "raw_data")

Literal = tuple[str, str | bytes]


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


def _fmt_float(v: float) -> str:
    return repr(float(v))
