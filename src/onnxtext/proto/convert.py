"""Conversions between onnxtext's protobuf classes and the ``onnx`` package's.

Both schemas are wire-identical (see ``onnxtext_ir.proto``), so every conversion
goes through the serialized bytes. ``onnx`` is imported lazily and only by
:func:`to_onnx`; reading an ``onnx`` message (:func:`from_onnx`, :func:`as_own`)
works on duck typing and never imports it.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TypeVar, overload

from google.protobuf.message import Message

from onnxtext.proto import onnxtext_ir_pb2 as _own_pb2

__all__ = [
    "OnnxNotInstalledError",
    "as_own",
    "from_onnx",
    "is_onnx_message",
    "is_own_message",
    "serialize",
    "to_onnx",
]

OWN_PACKAGE = "onnxtext.ir"
ONNX_PACKAGE = "onnx"
_OWN_PREFIX = OWN_PACKAGE + "."
_ONNX_PREFIX = ONNX_PACKAGE + "."
_ONNX_PB2_MODULES = ("onnx.onnx_ml_pb2", "onnx.onnx_data_pb2")

_M = TypeVar("_M", bound=Message)


class OnnxNotInstalledError(ImportError):
    """Raised when a conversion needs the ``onnx`` package and it is not installed."""

    def __init__(self) -> None:
        super().__init__(
            "the 'onnx' package is required to create onnx messages; install it with `pip install onnx`",
            name="onnx",
        )


def serialize(msg: Message) -> bytes:
    """Serialize ``msg`` deterministically (map entries sorted; stable across runs)."""
    data: bytes = msg.SerializeToString(deterministic=True)
    return data


def _full_name(msg: object) -> str | None:
    descriptor = getattr(msg, "DESCRIPTOR", None)
    name = getattr(descriptor, "full_name", None)
    return name if isinstance(name, str) else None


def is_own_message(msg: object) -> bool:
    """True if ``msg`` is an instance of one of onnxtext's message classes."""
    name = _full_name(msg)
    return isinstance(msg, Message) and name is not None and name.startswith(_OWN_PREFIX)


def is_onnx_message(msg: object) -> bool:
    """True if ``msg`` looks like a message of the ``onnx`` package (by its full name)."""
    name = _full_name(msg)
    return name is not None and name.startswith(_ONNX_PREFIX) and hasattr(msg, "SerializeToString")


def _lookup(modules: tuple[ModuleType, ...], relative_name: str) -> type[Message] | None:
    """Find a (possibly nested) message class such as ``TypeProto.Tensor`` in ``modules``."""
    head, *rest = relative_name.split(".")
    for module in modules:
        obj: object = getattr(module, head, None)
        for part in rest:
            obj = getattr(obj, part, None)
        if isinstance(obj, type) and issubclass(obj, Message):
            return obj
    return None


def _own_class(relative_name: str) -> type[Message]:
    cls = _lookup((_own_pb2,), relative_name)
    if cls is None:
        raise TypeError(f"onnxtext.proto has no message named {relative_name!r}")
    return cls


def _onnx_modules() -> tuple[ModuleType, ...]:
    try:
        importlib.import_module(ONNX_PACKAGE)
    except ModuleNotFoundError as exc:
        # Only "onnx is absent" is translated; a broken onnx install still surfaces.
        if exc.name == ONNX_PACKAGE:
            raise OnnxNotInstalledError() from exc
        raise
    return tuple(importlib.import_module(name) for name in _ONNX_PB2_MODULES)


def to_onnx(msg: Message) -> Message:
    """Convert one of our messages to the ``onnx`` message class of the same name.

    Raises :class:`OnnxNotInstalledError` if ``onnx`` is not installed and
    :class:`TypeError` if ``msg`` is not an onnxtext message.
    """
    name = _full_name(msg)
    if not is_own_message(msg) or name is None:
        raise TypeError(f"expected an onnxtext.proto message, got {type(msg).__qualname__}")
    relative = name[len(_OWN_PREFIX) :]
    cls = _lookup(_onnx_modules(), relative)
    if cls is None:
        raise TypeError(f"the installed onnx package has no message named {relative!r}")
    result = cls()
    result.ParseFromString(msg.SerializeToString())
    return result


@overload
def from_onnx(msg: Message, cls: type[_M]) -> _M: ...
@overload
def from_onnx(msg: Message, cls: None = None) -> Message: ...
def from_onnx(msg: Message, cls: type[_M] | None = None) -> _M | Message:
    """Convert an ``onnx`` message to our class of the same name.

    ``cls`` optionally names the expected class (and gives a precise static type);
    a mismatch raises :class:`TypeError`.
    """
    if not is_onnx_message(msg):
        raise TypeError(f"expected an onnx message, got {type(msg).__qualname__}")
    return as_own(msg, cls)


@overload
def as_own(msg: Message, cls: type[_M]) -> _M: ...
@overload
def as_own(msg: Message, cls: None = None) -> Message: ...
def as_own(msg: Message, cls: type[_M] | None = None) -> _M | Message:
    """Return ``msg`` as one of our messages.

    Our messages are returned unchanged; ``onnx`` messages (recognised by a
    ``DESCRIPTOR.full_name`` starting with ``"onnx."``) are converted through
    their bytes. With ``cls``, the message must correspond to that class.
    """
    name = _full_name(msg)
    if cls is not None and not _full_name_of_class(cls).startswith(_OWN_PREFIX):
        raise TypeError(f"cls must be an onnxtext.proto message class, got {cls.__qualname__}")
    if is_own_message(msg):
        if cls is not None and not isinstance(msg, cls):
            raise TypeError(f"expected {cls.__qualname__}, got {type(msg).__qualname__}")
        return msg
    if name is None or not is_onnx_message(msg):
        raise TypeError(f"expected an onnxtext.proto or onnx message, got {type(msg).__qualname__}")
    relative = name[len(_ONNX_PREFIX) :]
    target: type[Message] = _own_class(relative)
    if cls is not None and target is not cls:
        raise TypeError(f"expected a message convertible to {cls.__qualname__}, got {name}")
    result = target()
    result.ParseFromString(msg.SerializeToString())
    return result


def _full_name_of_class(cls: type[Message]) -> str:
    name = getattr(getattr(cls, "DESCRIPTOR", None), "full_name", None)
    return name if isinstance(name, str) else ""
