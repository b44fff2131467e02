"""Small helpers shared by rules."""

from __future__ import annotations

import re

from onnxtext.analysis.check.context import Token
from onnxtext.diagnostics import closest, did_you_mean
from onnxtext.proto import AttributeProto, TensorProto

__all__ = ["C90_NAME", "attr_type_name", "closest", "did_you_mean", "quote", "tensor_label", "tensor_token"]

C90_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""A C90 identifier (what the IR spec asks of every name)."""


def attr_type_name(code: int) -> str:
    """``INTS`` for ``AttributeProto.INTS``; ``UNDEFINED`` for 0 or an unknown number."""
    try:
        return AttributeProto.AttributeType.Name(code)  # type: ignore[arg-type]
    except ValueError:
        return f"<unknown type {code}>"


def quote(name: str) -> str:
    return f"'{name}'"


def tensor_label(t: TensorProto) -> str:
    """``tensor 'w'`` (or ``tensor`` when it has no name), for messages."""
    return f"tensor '{t.name}'" if t.name else "tensor"


def tensor_token(token: object) -> Token:
    """Where to point for a problem of a whole tensor: its type, or its item of an attribute's list."""
    return token if isinstance(token, tuple) else "type"
