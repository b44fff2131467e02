"""Turning what the user passes to :class:`Evaluator` into our ModelProto."""

from __future__ import annotations

import importlib
import os
from typing import Any

from onnxtext.proto import ModelProto, as_own

__all__ = ["load_model"]

_BINARY = (".onnx", ".pb")


def load_model(model: Any) -> ModelProto:
    """Our ModelProto from: our ModelProto, an onnx ModelProto, bytes, a path, or onnx text."""
    if isinstance(model, ModelProto):
        return model
    if isinstance(model, (bytes, bytearray)):
        m = ModelProto()
        m.ParseFromString(bytes(model))
        return m
    if isinstance(model, os.PathLike) or (isinstance(model, str) and _looks_like_path(model)):
        return _load_path(os.fspath(model))
    if isinstance(model, str):
        return _parse_text(model, "<text>")
    if hasattr(model, "SerializeToString"):
        own = as_own(model)
        if not isinstance(own, ModelProto):
            raise TypeError(f"expected a ModelProto, got {type(model).__qualname__}")
        return own
    raise TypeError(f"cannot evaluate a {type(model).__qualname__}")


def _looks_like_path(s: str) -> bool:
    return "\n" not in s and "{" not in s and (os.path.exists(s) or s.lower().endswith(_BINARY))


def _load_path(path: str) -> ModelProto:
    if path.lower().endswith(_BINARY):
        with open(path, "rb") as f:
            data = f.read()
        m = ModelProto()
        m.ParseFromString(data)
        return m
    with open(path, encoding="utf-8-sig") as f:
        return _parse_text(f.read(), path)


def _parse_text(text: str, path: str) -> ModelProto:
    try:
        parse_model = getattr(importlib.import_module("onnxtext"), "parse_model")
    except (ImportError, AttributeError):
        raise NotImplementedError("evaluating a text model needs onnxtext.parse_model") from None
    model = parse_model(text, path=path)
    if not isinstance(model, ModelProto):
        model = as_own(model)
    return model  # type: ignore[return-value]
