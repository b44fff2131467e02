"""What a shape function sees of one node: input types, constant inputs, attributes, outputs to refine."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import numpy as np

from onnxtext.analysis.infer.types import UNKNOWN, Dim, Shape, ValueType
from onnxtext.ir.paths import ProtoPath
from onnxtext.proto import AttributeProto, GraphProto, NodeProto, TensorProto

__all__ = ["Finding", "Issue", "NodeContext", "ShapeMismatch"]


class Finding(Enum):
    """What inference proved wrong. Inference decides; each finding is one checker rule, which
    gives it a code (``analysis/check/rules/type_*.py``: ``InferenceRule.finding``)."""

    TYPE_CONSTRAINT = "type-constraint"
    """An input's type is not one its operator's type constraint allows."""
    SAME_CONSTRAINT = "same-constraint"
    """Inputs bound to one type constraint have different types."""
    SHAPE = "shape"
    """Shapes that cannot fit the operator (:class:`ShapeMismatch`)."""
    DECLARED = "declared"
    """A declared type (graph output, value_info) contradicts what the producing node gives."""
    CONTROL_FLOW = "control-flow"
    """Control flow changes a type it must keep (If's branches, loop-carried values)."""


@dataclass(frozen=True, slots=True)
class Issue:
    """A type or shape error inference proved, at a node input (``input_index``) or the node."""

    finding: Finding
    message: str
    path: ProtoPath
    """The proto path of the node (``graph/node[3]``); of the declaration for :attr:`Finding.DECLARED`."""
    input_index: int | None = None
    node_path: ProtoPath | None = None
    """:attr:`Finding.DECLARED`: the node that produces the value (or the initializer that holds it)."""
    node_token: str = "op_type"
    """:attr:`Finding.DECLARED`: what to point at in :attr:`node_path` (``name`` for an initializer)."""
    declare: ValueType | None = None
    """:attr:`Finding.DECLARED`: the type to declare instead, what the node or initializer gives with
    what the declaration says that inference does not know (its fix)."""

    @property
    def token(self) -> str | tuple[Any, ...]:
        """What the issue is about in the message at :attr:`path` (a checker location token)."""
        if self.finding is Finding.DECLARED:
            return "type"
        return ("input", self.input_index) if self.input_index is not None else "op_type"

    @property
    def related(self) -> tuple[tuple[str, ProtoPath, str], ...]:
        """Notes as (message, path, token): where a contradicted declaration's value is produced or initialized."""
        if self.node_path is None:
            return ()
        what = "produced here" if self.node_token == "op_type" else "initialized here"
        return ((what, self.node_path, self.node_token),)


class ShapeMismatch(Exception):
    """Raised by shape helpers when known dims contradict each other; becomes a :attr:`Finding.SHAPE` issue."""

    def __init__(self, message: str, input_index: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.input_index = input_index


@dataclass(slots=True)
class NodeContext:
    node: NodeProto
    op: str
    version: int
    inputs: list[ValueType | None]
    """``None`` for an absent (empty-named or missing) optional input."""
    const_of: Callable[[str], np.ndarray | None]
    """The value of a constant (initializer or ``Constant`` output) by name; ``None`` for any other value.
    Read only when a shape function asks (:meth:`const`): most inputs are weights no shape depends on."""
    attrs: dict[str, AttributeProto]
    outputs: list[ValueType]
    report: Callable[[Finding, str, int | None], None]
    subgraph: Callable[[GraphProto, str, Sequence[ValueType | None]], list[ValueType]] = field(
        default=lambda g, name, types: [UNKNOWN] * len(g.output)
    )
    """Infers a graph attribute given its input types; returns its output types."""

    # ------------------------------------------------------------ inputs
    def has(self, i: int) -> bool:
        return 0 <= i < len(self.inputs) and self.inputs[i] is not None

    def input(self, i: int) -> ValueType:
        # an index from a malformed attribute (num_scan_inputs beyond the inputs) may be negative
        t = self.inputs[i] if 0 <= i < len(self.inputs) else None
        return t if t is not None else UNKNOWN

    def shape(self, i: int) -> Shape:
        t = self.input(i)
        return t.shape if t.kind == "tensor" else None

    def rank(self, i: int) -> int | None:
        s = self.shape(i)
        return None if s is None else len(s)

    def const(self, i: int) -> np.ndarray | None:
        names = self.node.input
        if i >= len(names):
            return None
        name = names[i]
        return self.const_of(name) if name else None

    def const_ints(self, i: int) -> list[int] | None:
        c = self.const(i)
        if c is None or c.dtype.kind not in "iu":
            return None
        return [int(v) for v in c.reshape(-1)]

    # ------------------------------------------------------------ attributes
    def attr(self, name: str) -> AttributeProto | None:
        return self.attrs.get(name)

    def attr_int(self, name: str, default: int) -> int:
        a = self.attrs.get(name)
        return int(a.i) if a is not None else default

    def attr_str(self, name: str, default: str) -> str:
        a = self.attrs.get(name)
        return a.s.decode("utf-8", "replace") if a is not None else default

    def attr_ints(self, name: str) -> list[int] | None:
        a = self.attrs.get(name)
        if a is None:
            return None
        return [int(v) for v in a.ints]

    def attr_tensor(self, name: str) -> TensorProto | None:
        a = self.attrs.get(name)
        return a.t if a is not None and a.HasField("t") else None

    def attr_graph(self, name: str) -> GraphProto | None:
        a = self.attrs.get(name)
        return a.g if a is not None and a.HasField("g") else None

    # ------------------------------------------------------------ outputs
    def set_output(self, i: int, t: ValueType) -> None:
        if 0 <= i < len(self.outputs):  # a malformed node (Scan's num_scan_inputs) can point anywhere
            self.outputs[i] = t

    def set_shape(self, i: int, shape: Sequence[Dim] | None, elem_type: int | None = None) -> None:
        """Output ``i`` becomes a tensor of ``shape``; its element type stays unless given."""
        if i >= len(self.outputs):
            return
        cur = self.outputs[i]
        elem = elem_type if elem_type is not None else (cur.elem_type if cur.kind == "tensor" else 0)
        self.outputs[i] = ValueType.tensor(elem, None if shape is None else tuple(shape))

    def elem(self, i: int) -> int:
        t = self.input(i)
        return t.elem_type if t.kind == "tensor" else 0
