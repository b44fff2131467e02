"""Errors raised while evaluating a model, with a structured record of where."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from onnxtext.diagnostics import Diagnostic, OnnxTextError, Severity
from onnxtext.ir.paths import ProtoPath

_GRAPH = ProtoPath.parse("graph")

__all__ = ["EvaluationError", "NodeErrorRecord", "KernelError", "describe_value"]


def describe_value(value: Any) -> str:
    """A short description of a runtime value: ``float32[2, 3]``, ``seq(3)``, ``None``."""
    if value is None:
        return "None"
    if isinstance(value, list):
        return f"seq(len={len(value)})"
    if isinstance(value, dict):
        return f"map(len={len(value)})"
    dtype = getattr(value, "dtype", None)
    shape = getattr(value, "shape", None)
    if dtype is not None and shape is not None:
        return f"{dtype}[{', '.join(str(d) for d in shape)}]"
    return type(value).__name__


@dataclass(slots=True)
class NodeErrorRecord:
    """Where and why evaluation failed.

    ``path`` is the :class:`ProtoPath` of what failed: a node (``graph/node[3]/attribute[0]/g/node[1]``,
    ``functions[1]/node[2]`` for a node of a model-local function's body), a graph input
    (``graph/input[0]``), a graph output (``graph/node[3]/attribute[0]/g/output[1]``) or a
    graph. ``node_index`` is the failing node's index in its graph (``None`` when no node
    failed); ``function`` names the model-local function whose body holds it, if any.
    """

    message: str
    node_index: int | None = None
    op_type: str | None = None
    domain: str = ""
    node_name: str = ""
    input_index: int | None = None
    input_name: str | None = None
    output_index: int | None = None
    output_name: str | None = None
    input_shapes: list[str] = field(default_factory=list)
    path: ProtoPath = field(default_factory=lambda: _GRAPH)
    function: str | None = None
    cause: str | None = None

    def location(self) -> str:
        """``graph/node[1] (MatMul 'mm') input 0 'x'``: the path with what is at it, without the model."""
        loc = str(self.path) or "graph"
        if self.node_index is not None:
            what = self.op_type or "?"
            if self.node_name:
                what += f" {self.node_name!r}"
            loc += f" ({what})"
        return loc + self.detail()

    def detail(self) -> str:
        """`` input 0 'x'`` / `` output 1 'y'``: the value of the node (or graph) that is at fault."""
        if self.input_index is not None:
            return f" input {self.input_index}" + (f" {self.input_name!r}" if self.input_name else "")
        if self.output_index is not None:
            return f" output {self.output_index}" + (f" {self.output_name!r}" if self.output_name else "")
        if self.node_index is None and self.output_name:
            return f" output {self.output_name!r}"
        return ""


class KernelError(ValueError):
    """Raised by a kernel for a semantic error; ``input_index``/``output_index`` point at the culprit."""

    def __init__(
        self, message: str, *, input_index: int | None = None, output_index: int | None = None
    ) -> None:
        super().__init__(message)
        self.input_index = input_index
        self.output_index = output_index


class EvaluationError(OnnxTextError):
    """Evaluation failed at one node (or at a graph input/output); ``.record`` says where."""

    def __init__(self, record: NodeErrorRecord) -> None:
        self.record = record
        diag = Diagnostic(
            code="E-EVAL",
            severity=Severity.ERROR,
            message=record.message,
            path=record.location(),
        )
        text = f"{record.location()}: {record.message}"
        if record.input_shapes:
            text += f" (inputs: {', '.join(record.input_shapes)})"
        super().__init__(text, [diag])
