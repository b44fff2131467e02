"""Numpy reference evaluator: run any ONNX model with numpy kernels.

>>> ev = Evaluator(model)                       # ModelProto (ours or onnx's), path, or text
>>> (y,) = ev.run(None, {"x": x})               # like onnx.reference / onnxruntime
>>> ev.run(None, feeds, trace=lambda name, node_index, value: ...)
>>> ev.trace(feeds)                             # [TraceEntry(name, node_index, value), ...]

Runtime values: numpy arrays (strings as object arrays of ``str``; bfloat16, float8,
float4e2m1, int4/uint4, int2/uint2 as the arrays ``onnx.numpy_helper`` and JAX use,
e.g. ``ml_dtypes.bfloat16``), ``list`` for sequences, ``dict`` for maps, ``None`` for an
empty optional. ``Evaluator(model, max_memory=...)`` refuses nodes that would exceed a budget. Failures raise
:class:`EvaluationError` whose ``.record`` (:class:`NodeErrorRecord`) locates the node.
"""

from __future__ import annotations

from onnxtext.evaluate import ops as _ops  # noqa: F401  (registers the kernels)
from onnxtext.evaluate.errors import EvaluationError, KernelError, NodeErrorRecord
from onnxtext.evaluate.evaluator import Evaluator, KernelContext, TraceEntry
from onnxtext.evaluate.registry import kernel, registered_ops
from onnxtext.evaluate.values import proto_value

__all__ = [
    "Evaluator",
    "EvaluationError",
    "KernelContext",
    "KernelError",
    "NodeErrorRecord",
    "TraceEntry",
    "kernel",
    "proto_value",
    "registered_ops",
]
