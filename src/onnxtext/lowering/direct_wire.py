"""Protobuf fields written as text (one character a byte, latin-1) for the parse fast path.

A node statement of ``direct_tokens`` becomes its message's bytes in a few string
operations and one ``MergeFromString`` (C), instead of a call into upb for each field;
upb then holds exactly what the field by field writes give. Names are ASCII (compound
tokens come from ASCII texts only), so a name's length in characters is its length in bytes.
"""

from __future__ import annotations

from onnxtext.ir.varint import encode_varint

__all__ = ["LENGTHS", "field", "tag", "length_text"]

LENGTHS = [chr(n) for n in range(128)]
"""The one-byte varints (0 to 127) as text."""


def length_text(n: int) -> str:
    """A length ``n`` (>= 0) as its varint, latin-1 text."""
    return encode_varint(n).decode("latin-1")


def tag(number: int) -> str:
    """The key of a length-delimited field ``number``."""
    return encode_varint(number << 3 | 2).decode("latin-1")


def field(key: str, value: str) -> str:
    """A length-delimited field: its key, the length of ``value``, ``value`` (latin-1 text)."""
    n = len(value)
    return key + (LENGTHS[n] if n < 128 else length_text(n)) + value
