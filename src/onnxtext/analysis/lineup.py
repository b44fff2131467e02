"""How the main graph's nodes of one version line up with the previous version's (incremental analysis).

A node is its serialized bytes (30,000 nodes serialize in a few ms with upb): two versions
share the nodes before the first that differs (the *prefix*, same indices) and after the
last that differs (the *suffix*, indices moved by the change in node count). What lies
between is the *middle*, analysed anew; a node of the prefix or the suffix reuses its
previous results when what it read is unchanged. Everything else a node's analysis can
read about the model (its header, opsets, functions, training graphs, the main graph's
signature, initializers and value infos) is one :func:`context_key`; when it changed,
nothing is reused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from onnxtext.ir.paths import ROOT, ProtoPath
from onnxtext.proto import GraphProto, ModelProto

MAIN = ROOT / "graph"
"""The main graph's proto path."""

__all__ = ["Keys", "Lineup", "MAIN", "Splice", "context_key", "line_up", "node_keys"]


class Keys:
    """A model's node keys and context key, each computed once, on first use (shared by inference and the checker)."""

    def __init__(self, model: ModelProto, nodes: list[bytes] | None = None) -> None:
        """``nodes``: the node keys, when the caller knows them (carried from the version before)."""
        self.model = model
        self._lineups: dict[int, tuple[list[bytes], Lineup]] = {}
        if nodes is not None:
            self.__dict__["nodes"] = nodes  # what the cached property would compute

    @cached_property
    def nodes(self) -> list[bytes]:
        return node_keys(self.model.graph)

    @property
    def known_nodes(self) -> list[bytes] | None:
        """:attr:`nodes` if computed or given already (None: not yet; asking would compute them)."""
        found: list[bytes] | None = self.__dict__.get("nodes")
        return found

    @cached_property
    def context(self) -> bytes:
        return context_key(self.model)

    def line_up(self, old: list[bytes]) -> Lineup:
        """:func:`line_up` of ``old`` (an earlier version's node keys) with these, computed once per ``old``."""
        found = self._lineups.get(id(old))
        if found is None or found[0] is not old:
            found = self._lineups[id(old)] = (old, line_up(old, self.nodes))
        return found[1]


@dataclass(frozen=True, slots=True)
class Splice:
    """What re-reading an edit did to a model's protobuf (``incremental.reread``): ``removed`` nodes of one
    body from index ``first`` replaced by ``added`` nodes; every other node is the one before, unchanged."""

    body: ProtoPath
    """The graph's or function's proto path (its nodes are ``body/node[i]``)."""
    first: int
    removed: int
    added: int
    start: int = 0
    end: int = 0
    """The old text re-read, ``[start, end)``: whole statements of the body and blanks; what lies
    before it is unchanged, what lies after it moved by :attr:`delta`."""
    delta: int = 0

    def carried(self, model: ModelProto, keys: list[bytes]) -> list[bytes]:
        """The main-graph node keys of ``model`` (the protobuf after the splice), ``keys`` those before it:
        the nodes outside the splice keep theirs, by position; only its own are serialized."""
        if self.body != MAIN:
            return keys
        made = model.graph.node[self.first : self.first + self.added]
        return [*keys[: self.first], *(n.SerializeToString() for n in made), *keys[self.first + self.removed :]]


@dataclass(frozen=True, slots=True)
class Lineup:
    """Nodes ``[0, prefix)`` and the last ``suffix`` nodes are equal in both versions."""

    prefix: int
    suffix: int
    old_count: int
    new_count: int

    @property
    def shift(self) -> int:
        """How far a node of the suffix moved (statements inserted: positive)."""
        return self.new_count - self.old_count

    @property
    def middle_end(self) -> int:
        """The first new index of the suffix."""
        return self.new_count - self.suffix


def node_keys(graph: GraphProto) -> list[bytes]:
    """Each node of ``graph`` as its serialized bytes (what a node's analysis reads of it)."""
    return [node.SerializeToString() for node in graph.node]


_CHUNK = 256
"""Nodes compared at once (a list comparison runs in C; the first difference is then looked for in its chunk)."""


def line_up(old: Sequence[bytes], new: Sequence[bytes]) -> Lineup:
    """The common prefix and suffix of two node lists (the suffix never overlaps the prefix)."""
    n_old, n_new = len(old), len(new)
    most = min(n_old, n_new)
    prefix = 0
    while prefix < most:
        end = min(prefix + _CHUNK, most)
        if old[prefix:end] != new[prefix:end]:
            while old[prefix] == new[prefix]:
                prefix += 1
            break
        prefix = end
    suffix = 0
    limit = most - prefix
    while suffix < limit:
        end = min(suffix + _CHUNK, limit)
        if old[n_old - end : n_old - suffix] != new[n_new - end : n_new - suffix]:
            while old[n_old - 1 - suffix] == new[n_new - 1 - suffix]:
                suffix += 1
            break
        suffix = end
    return Lineup(prefix, suffix, n_old, n_new)


def context_key(model: ModelProto) -> bytes:
    """``model`` serialized without its main graph's nodes: what every node's analysis may read besides itself."""
    head = ModelProto()
    for field, value in model.ListFields():
        if field.name == "graph":
            for gfield, gvalue in value.ListFields():
                if gfield.name != "node":
                    _copy(head.graph, gfield, gvalue)
            head.graph.SetInParent()
        else:
            _copy(head, field, value)
    return head.SerializeToString()


def _copy(target: Message, field: FieldDescriptor, value: Any) -> None:
    name = field.name
    if field.is_repeated:
        getattr(target, name).extend(value)
    elif field.message_type is not None:
        getattr(target, name).CopyFrom(value)
    else:
        setattr(target, name, value)
