"""What inference did per node of the main graph, kept for the next version (:mod:`onnxtext.analysis.lineup`).

A node's outcome is a function of its bytes, of the types and constants of the values it
reads and of the model's context (:func:`~onnxtext.analysis.lineup.context_key`): the next
version takes it as it is when those are unchanged. A node that inferred a subgraph read
the whole enclosing scope (``outer``): it is reused only where nothing before it changed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from onnxtext.analysis.infer.node import Issue
from onnxtext.analysis.infer.types import ValueType
from onnxtext.ir.paths import ProtoPath

__all__ = ["InferMemo", "NodeOutcome", "rebased"]


@dataclass(slots=True)
class NodeOutcome:
    """What inferring one node of the main graph read and did (never changed once made: shared by versions;
    not frozen, which would make each of 30,000 cost twice as much)."""

    inputs: tuple[str, ...]
    names: tuple[str, ...]
    """Its non-empty output names."""
    types: tuple[ValueType, ...]
    """The type it gave each of :attr:`names`, in order (one node's one type: a tuple shared by every
    node that gave that type, see ``Inference._typed``)."""
    const: np.ndarray | None = None
    """The value of a ``Constant``'s output."""
    issues: tuple[Issue, ...] = ()
    graphs: tuple[tuple[str, dict[str, ValueType]], ...] = ()
    """The graphs it inferred (``Inference.graphs`` entries: its subgraphs, the bodies of what it calls)."""
    outer: bool = False
    """It inferred a subgraph, which may read any value of the enclosing scope."""

    @property
    def sparse(self) -> bool:
        """It holds more than types (a constant, issues, graphs): replayed one by one, and moved with its path."""
        return self.const is not None or bool(self.issues) or bool(self.graphs)


@dataclass(slots=True)
class InferMemo:
    """One version's main-graph outcomes, for the next version."""

    context: bytes
    use_declared: bool
    keys: list[bytes]
    outcomes: list[NodeOutcome]
    sparse: list[int]
    """The indices of the outcomes that are :attr:`NodeOutcome.sparse`, ascending."""
    typed: dict[ValueType, tuple[ValueType]]
    """The one tuple of each type a node gave its one output (``Inference._typed``), for the next version."""


def _moved(path: ProtoPath, old: ProtoPath, new: ProtoPath) -> ProtoPath:
    return ProtoPath((*new, *path[len(old) :])) if path[: len(old)] == old else path


def rebased(outcome: NodeOutcome, old: ProtoPath, new: ProtoPath) -> NodeOutcome:
    """``outcome`` of the node at proto path ``old`` as the node at ``new`` (its issues and graphs moved)."""
    if old == new or not (outcome.issues or outcome.graphs):
        return outcome
    issues = tuple(
        replace(
            i,
            path=_moved(i.path, old, new),
            node_path=_moved(i.node_path, old, new) if i.node_path is not None else None,
        )
        for i in outcome.issues
    )
    was, now = str(old), str(new)  # Inference.graphs is keyed by the written path
    graphs = tuple(
        (now + p[len(was) :] if p == was or p.startswith(was + "/") else p, types) for p, types in outcome.graphs
    )
    return replace(outcome, issues=issues, graphs=graphs)
