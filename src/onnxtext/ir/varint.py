"""The protobuf varint, once: encoding, its size, and decoding from a buffer.

The wire scanner of binary models (``weights/wire.py``), the tensors written as packed
fields or raw bytes (``ir/tensor/encode.py``, ``weights/external.py``) and the print fast
path, which measures a node's fields from their strings (``printing/emit.py``), all use
these; ``tests/test_one_of_each.py`` checks no other module writes its own.
"""

from __future__ import annotations

__all__ = ["WireError", "encode_varint", "varint_size", "decode_varint"]


class WireError(ValueError):
    """The bytes are not a well-formed protobuf message (the caller falls back to a full parse)."""


def encode_varint(v: int) -> bytes:
    """``v`` (>= 0) as a protobuf varint."""
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def varint_size(v: int) -> int:
    """The number of bytes :func:`encode_varint` writes for ``v`` (>= 0)."""
    size = 1
    while v >= 0x80:
        v >>= 7
        size += 1
    return size


def decode_varint(buf: memoryview, pos: int, end: int) -> tuple[int, int]:
    """The varint at ``buf[pos:end]`` and the position after it; :class:`WireError` if truncated or overlong."""
    result = shift = 0
    while True:
        if pos >= end or shift > 63:
            raise WireError("truncated or overlong varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7
