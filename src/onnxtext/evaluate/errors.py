"""Errors raised while evaluating a model, with a structured record of where."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from onnxtext.diagnostics import Diagnostic, OnnxTextError, Severity

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

    ``node_index`` is the index in the graph that holds the node; ``path`` lists the
    enclosing nodes from the top graph (``[(3, "body"), (0, "then_branch")]`` means
    node 3 of the main graph, its attribute ``body``, ...), empty for the main graph.
    ``function`` names the model-local function whose body holds the node, if any.
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
    path: list[tuple[int, str]] = field(default_factory=list)
    function: str | None = None
    cause: str | None = None

    def location(self) -> str:
        parts = [f"node[{i}].{attr}" for i, attr in self.path]
        if self.function:
            parts.insert(0, f"function {self.function}")
        if self.node_index is not None:
            what = self.op_type or "?"
            if self.node_name:
                what += f" {self.node_name!r}"
            parts.append(f"node[{self.node_index}] ({what})")
        else:
            parts.append("graph")
        loc = "graph/" + "/".join(parts) if parts else "graph"
        if self.input_index is not None:
            loc += f" input {self.input_index}"
            if self.input_name:
                loc += f" {self.input_name!r}"
        elif self.output_index is not None:
            loc += f" output {self.output_index}"
            if self.output_name:
                loc += f" {self.output_name!r}"
        return loc


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
