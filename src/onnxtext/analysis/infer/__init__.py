"""Type and shape inference for the standard operators.

>>> from onnxtext.analysis.infer import infer_types
>>> types = infer_types(model)  # doctest: +SKIP
>>> str(types["y"])  # doctest: +SKIP
'float[N, 4]'

:func:`infer_types` gives each value of the main graph a :class:`ValueType`;
:func:`infer_model` gives every graph's types (subgraphs included) and the type and shape
errors inference proved (:class:`Issue`: a :class:`Finding` at a proto path, which the
checker's type rules report, one rule per finding).
"""

from __future__ import annotations

from typing import Any

from onnxtext.analysis.infer.engine import Inference
from onnxtext.analysis.infer.engine import infer_model as _infer_model
from onnxtext.analysis.infer.node import Finding, Issue, NodeContext
from onnxtext.analysis.infer.registry import registered, shape_fn
from onnxtext.analysis.infer.types import UNKNOWN, ValueType, from_type_proto, parse_type_str, to_type_proto
from onnxtext.proto import ModelProto, as_own

__all__ = [
    "Finding",
    "Inference",
    "Issue",
    "NodeContext",
    "UNKNOWN",
    "ValueType",
    "from_type_proto",
    "infer_model",
    "infer_types",
    "parse_type_str",
    "registered",
    "shape_fn",
    "to_type_proto",
]


def infer_model(model: Any, *, use_declared: bool = True) -> Inference:
    """Infer every graph of ``model`` (ours or onnx's ModelProto).

    ``use_declared``: complete inferred types with declared ones (``value_info``, graph
    outputs), as ``onnx.shape_inference`` does.
    """
    return _infer_model(as_own(model, ModelProto), use_declared=use_declared)


def infer_types(model: Any, *, use_declared: bool = True) -> dict[str, ValueType]:
    """The type of every value of the main graph: inputs, initializers, node outputs."""
    return dict(infer_model(model, use_declared=use_declared).graphs.get("graph", {}))
