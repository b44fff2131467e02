"""Errors raised while evaluating a model, with a structured record of where."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from onnxtext.diagnostics import Diagnostic, OnnxTextError, Severity
from onnxtext.ir.paths import ProtoPath, describe
from onnxtext.span import SourceFile

_GRAPH = ProtoPath.parse("graph")

__all__ = [
    "EvaluationError",
    "NodeErrorRecord",
    "KernelError",
    "RUN_ERROR",
    "FAILED",
    "OVER_BUDGET",
    "describe_value",
    "readable_path",
]

FAILED = "failed"
"""The kind of an evaluation error: a node (or an input, an output) failed."""
OVER_BUDGET = "over-budget"
"""The kind of an evaluation error: a node would exceed the memory budget (the CLI says how to raise it)."""

RUN_ERROR = "R002"
"""The code of a runtime error with given inputs (``R001`` is a node failing on made-up inputs, in the editor)."""


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
    ``kind`` is :data:`FAILED`, or :data:`OVER_BUDGET` when the memory budget refused the node.
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
    kind: str = "failed"

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

    def summary(self) -> str:
        """The message led by the failing node (and input), ended by what its inputs were:
        ``MatMul 'mm' input 1 'b': shapes do not match (inputs: float32[2, 3], float32[4, 5])``."""
        message = self.message
        if self.op_type and self.node_index is not None:
            node = f"{self.op_type} {self.node_name!r}" if self.node_name else self.op_type
            culprit = f" input {self.input_index} {self.input_name!r}" if self.input_index is not None else ""
            message = f"{node}{culprit}: {message}"
        if self.input_shapes:
            message += f" (inputs: {', '.join(self.input_shapes)})"
        return message


class KernelError(ValueError):
    """Raised by a kernel for a semantic error; ``input_index``/``output_index`` point at the culprit,
    ``kind`` is the record's (:data:`OVER_BUDGET` when the memory budget refuses it)."""

    def __init__(
        self,
        message: str,
        *,
        input_index: int | None = None,
        output_index: int | None = None,
        kind: str = "failed",
    ) -> None:
        super().__init__(message)
        self.input_index = input_index
        self.output_index = output_index
        self.kind = kind


class EvaluationError(OnnxTextError):
    """Evaluation failed at one node (or at a graph input/output); ``.record`` says where.

    ``.diagnostics`` holds its :meth:`diagnostic` without a text (a readable path); the
    caller that has the model's text asks :meth:`diagnostic` for one located in it.
    """

    def __init__(self, record: NodeErrorRecord) -> None:
        self.record = record
        text = f"{record.location()}: {record.message}"
        if record.input_shapes:
            text += f" (inputs: {', '.join(record.input_shapes)})"
        super().__init__(text, [self.diagnostic()])

    def diagnostic(self, *, model: Any = None, source_map: Any = None, source: SourceFile | None = None) -> Diagnostic:
        """The error as a :data:`RUN_ERROR` diagnostic on the failing node.

        With the ``source_map`` (the lowering's ``SourceMap``) and ``source`` of the model's text it has the
        span of the node, or of the closest enclosing thing the text has;
        otherwise (a binary model, or a node the text does not have) a readable path,
        described in ``model`` when given (``graph/node[1] (MatMul 'mm') input 0 'x'``).
        """
        record = self.record
        span = source_map.locate(record.path) if source_map is not None and source is not None else None
        if span is not None and source is not None:
            return Diagnostic.at(RUN_ERROR, Severity.ERROR, record.summary(), span, source)
        where = readable_path(record, model) if model is not None else record.location()
        return Diagnostic(RUN_ERROR, Severity.ERROR, record.summary(), path=where)


def readable_path(record: NodeErrorRecord, model: Any) -> str:
    """``graph/node[3]/attribute[0]/g/node[1] (MatMul 'mm1') input 0 'x'`` for a binary model's error."""
    text = describe(model, record.path)
    if record.function is not None and record.path and record.path[0][0] == "functions":
        text += f" in function '{record.function}'"
    return text + record.detail()
