"""The lowering's source map: proto paths ⇄ the AST nodes they were lowered from, and the one ``locate``.

Keys are :class:`~onnxtext.ir.paths.ProtoPath` objects (``graph/node[3]``,
``functions[0]/node[1]/attribute[0]``); the model header is under the empty path.
:meth:`SourceMap.locate` turns a proto path and a *token* (a finer target inside the
message: ``"op_type"``, ``("input", 1)``, ``("attribute_value", 0)``, ``("key",
"opset_import", 2)``...) into a span of the text, walking up to the closest enclosing
thing the text has; the checker, the evaluator's errors and the CLI all locate through it.
The other way, :meth:`SourceMap.path_at` and :meth:`SourceMap.path_of` map offsets and
AST nodes back to proto paths.
"""

from __future__ import annotations

import bisect
from collections.abc import Container
from dataclasses import dataclass, field
from typing import Any

from onnxtext.ir.paths import ProtoPath
from onnxtext.span import Span
from onnxtext.syntax import ast as A

__all__ = ["SourceMap", "Token", "PathLike", "token_span"]

Token = str | tuple[Any, ...] | None
"""A finer target inside the message a path names (see the module docstring); ``None`` for all of it."""

PathLike = ProtoPath | str
"""A :class:`ProtoPath`, or its written form (``graph/node[3]``; ``""`` is the model)."""


_new = tuple.__new__


def _path(path: PathLike) -> ProtoPath:
    return path if isinstance(path, ProtoPath) else ProtoPath.parse(path)


@dataclass
class SourceMap:
    """Proto paths (``graph/node[3]``, ``functions[0]/node[1]/attribute[0]``) → AST nodes.

    Graphs and tensors written as property values are under their proto paths too
    (``training_info[0]/algorithm/node[2]``, ``graph/sparse_initializer[1]/values``);
    the model's header is under the empty path.
    """

    entries: dict[ProtoPath, A.AstNode] = field(default_factory=dict)
    _reverse: _SpanIndex | None = field(default=None, init=False, repr=False, compare=False)

    def get(self, path: PathLike) -> A.AstNode | None:
        """The AST node lowered to exactly ``path``; ``None`` if none was."""
        return self.entries.get(_path(path))

    def span(self, path: PathLike) -> Span | None:
        node = self.get(path)
        return node.span if node is not None else None

    def __contains__(self, path: PathLike) -> bool:
        return _path(path) in self.entries

    def __getitem__(self, path: PathLike) -> A.AstNode:
        return self.entries[_path(path)]

    def locate(self, path: PathLike, token: Token = None) -> Span | None:
        """The span of ``path`` (+ ``token``), else of the closest enclosing message the text has; ``None`` if none.

        A token is looked for only in the message ``path`` names; when the text does not
        show it there, the whole message's span is given. The header (the model's entry)
        answers for the model itself only: a model field the text does not show (an
        ``opset_import`` entry) is not located at the header.
        """
        path = _path(path)
        entries = self.entries
        for end in range(len(path), 0 if path else -1, -1):
            node = entries.get(path if end == len(path) else ProtoPath(path[:end]))
            if node is not None:
                if token is not None and end == len(path):
                    return token_span(node, token) or node.span
                return node.span
        return None

    def enclosing(self, path: PathLike, fields: Container[str]) -> ProtoPath | None:
        """The closest of ``path`` and its ancestors that the text has and whose last step is one
        of ``fields`` (a statement: ``node``, ``initializer``...); ``None`` if none is."""
        path = _path(path)
        for end in range(len(path), 0, -1):
            here = path if end == len(path) else ProtoPath(path[:end])
            if here[-1][0] in fields and here in self.entries:
                return here
        return None

    def splice_nodes(self, body: ProtoPath, first: int, removed: int, window: SourceMap, plain: bool) -> None:
        """Replace the ``removed`` nodes of ``body`` (a graph or function at the model's top) at
        ``first``, and what is mapped under them, by ``window``'s nodes (mapped at ``first`` on),
        the nodes after them renumbered: an edit re-lowering some statements (``onnxtext.incremental``).
        ``plain``: the old nodes had nothing mapped under them (no attribute or property).

        The order of the entries is not the lowering's then (what is re-keyed comes last): no
        query depends on it (``path_of`` keeps a node's first path, and only graph inputs with
        data are mapped twice, never a node)."""
        entries = self.entries
        self._reverse = None
        added = sum(1 for path in window.entries if len(path) == 2)
        if added == removed and plain:
            for j in range(first, first + removed):
                del entries[body.child("node", j)]
            entries.update(window.entries)
            return
        (step,) = body
        stop = first + removed
        moved = added - removed
        keys: Any = entries  # paths whose second step is a node's: (field, index)
        later = [p for p in keys if len(p) > 1 and p[1][0] == "node" and p[0] == step and p[1][1] >= first]
        pop = entries.pop
        carried = [(p, pop(p)) for p in later]
        entries.update(window.entries)
        entries.update(
            (_new(ProtoPath, (step, ("node", p[1][1] + moved), *p[2:])), node) for p, node in carried if p[1][1] >= stop
        )

    # ---- the other way: text → proto paths (indexes built on the first query)
    def path_of(self, node: A.AstNode) -> ProtoPath | None:
        """The proto path lowered from ``node`` (by identity); None if it was not mapped."""
        return self._index().paths.get(id(node))

    def path_at(self, offset: int) -> ProtoPath | None:
        """The proto path of the innermost mapped node at ``offset``; None if none is there.

        Boundaries as in :func:`onnxtext.syntax.query.node_at`: a node holds the offsets
        ``start <= offset < end``, and a node ending right at ``offset`` is taken when it
        lies inside the node holding ``offset``.
        """
        return self._index().path_at(offset)

    def _index(self) -> _SpanIndex:
        index = self._reverse
        if index is None or index.size != len(self.entries):  # lowering may still add entries
            index = self._reverse = _SpanIndex(self.entries)
        return index


class _SpanIndex:
    """Mapped nodes sorted by span with their enclosing mapped node: innermost-at in O(log n + depth).

    Spans of a tree nest, so the last span starting at or before an offset is either the
    innermost one containing it or inside it: walking up from there finds it.
    """

    def __init__(self, entries: dict[ProtoPath, A.AstNode]) -> None:
        self.size = len(entries)
        self.paths: dict[int, ProtoPath] = {}
        for path, node in entries.items():
            self.paths.setdefault(id(node), path)
        self._entries = entries
        self._sorted = False
        """The spans sorted, on the first offset query: ``path_of`` (value types: hovers, hints) needs
        only ``paths``, and sorting the spans of a 30,000-node text took most of a second."""
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.keys: list[ProtoPath] = []
        self.parent: list[int] = []

    def _sort(self) -> None:
        items: list[tuple[int, int, ProtoPath]] = []
        for path, node in self._entries.items():
            if node.span.end > node.span.start:
                items.append((node.span.start, -node.span.end, path))
        items.sort()
        self.starts = [start for start, _, _ in items]
        self.ends = [-neg_end for _, neg_end, _ in items]
        self.keys = [path for _, _, path in items]
        open_: list[int] = []
        for i, (start, _, _) in enumerate(items):
            while open_ and self.ends[open_[-1]] <= start:
                open_.pop()
            self.parent.append(open_[-1] if open_ else -1)
            open_.append(i)
        self._sorted = True

    def _holding(self, offset: int) -> int:
        """The index of the innermost span with ``start <= offset < end``; -1 if none."""
        if not self._sorted:
            self._sort()
        i = bisect.bisect_right(self.starts, offset) - 1
        while i >= 0 and not offset < self.ends[i]:
            i = self.parent[i]
        return i

    def path_at(self, offset: int) -> ProtoPath | None:
        outer = self._holding(offset)
        before = self._holding(offset - 1) if offset > 0 else -1
        if before >= 0 and before != outer and self.ends[before] == offset:
            probe = self.parent[before]
            while probe >= 0 and probe != outer:
                probe = self.parent[probe]
            if probe == outer:  # the node ending here lies inside the one holding the offset
                return self.keys[before]
        return self.keys[outer] if outer >= 0 else None


_ATTRIBUTE_PARTS = {"attribute_name": "name", "attribute_type": "type_name", "attribute_value": "value"}
"""Token kind → the part of a node's attribute it names (``("attribute_value", 0)``)."""


def token_span(node: A.AstNode, token: Token) -> Span | None:
    """The span of a finer target inside an AST node, if it can be found."""
    if isinstance(token, str):
        return _named_span(node, token)
    if not isinstance(token, tuple) or not token:
        return None
    kind = token[0]
    arg = token[1] if len(token) > 1 else None
    if kind == "external_data" and isinstance(arg, int):
        return _external_entry_span(node, arg, token[2] if len(token) > 2 else None)
    if isinstance(node, A.Node) and kind in _ATTRIBUTE_PARTS and isinstance(arg, int):
        attributes = A.intact(node.attributes)  # the protobuf's attributes: a damaged one is not lowered
        if not 0 <= arg < len(attributes):
            return None
        part = getattr(attributes[arg], _ATTRIBUTE_PARTS[kind])
        return part.span if part is not None else None
    if isinstance(node, A.Node) and isinstance(arg, int):
        table: dict[str, list[Any]] = {
            "input": node.inputs,
            "output": node.outputs,
            "attribute": A.intact(node.attributes),
        }
        items = table.get(kind, [])
        return items[arg].span if 0 <= arg < len(items) else None
    if isinstance(node, A.Function):
        if kind in ("input", "output") and isinstance(arg, int):
            vis = A.intact(node.inputs if kind == "input" else node.outputs)
            return vis[arg].name.span if 0 <= arg < len(vis) else None
        if kind == "attribute":
            for attr in A.intact(node.attributes or []):
                if attr.name.value == arg:
                    return attr.name.span
            return None
        if kind == "key" and node.header is not None:
            return _key_span(node.header, token)
    if isinstance(node, A.Props) and kind == "key":
        return _key_span(node, token)
    if isinstance(node, A.Props) and kind == "value":
        for entry in A.intact(node.entries):
            if entry.key.value == arg:
                return entry.value.span
    return None


def _external_entry_span(node: A.AstNode, entry: int, item: int | None) -> Span | None:
    """The ``"key": "value"`` pair of an external tensor's data list (an initializer's or an attribute's)."""
    body: A.AstNode | None = None
    if isinstance(node, A.Initializer):
        body = node.body
    elif isinstance(node, A.Attribute):
        value: A.AstNode | None = node.value
        if item is not None:
            value = value.items[item] if isinstance(value, A.AttrList) and 0 <= item < len(value.items) else None
        body = value.body if isinstance(value, A.TensorValue) else None
    if isinstance(body, A.ExternalBody) and 0 <= entry < len(body.items):
        return body.items[entry].span
    return None


def _key_span(props: A.Props, token: tuple[Any, ...]) -> Span | None:
    for entry in A.intact(props.entries):
        if entry.key.value == token[1]:
            if len(token) > 2 and isinstance(entry.value, A.PropList):
                items = entry.value.items
                index = token[2]
                return items[index].span if 0 <= index < len(items) else entry.span
            return entry.span
    return None


def _named_span(node: A.AstNode, token: str) -> Span | None:
    if isinstance(node, A.Node):
        if token == "op_type":
            return node.op_type.span
        if token == "domain":
            if node.domain:
                return node.domain[0].span.cover(node.domain[-1].span)
            return node.op_type.span
        if token == "name" and node.label is not None:
            return node.label.span
        return None
    if isinstance(node, A.Initializer):
        node = node.info
    if isinstance(node, A.ValueInfo):
        if token == "name":
            return node.name.span
        if token == "type" and node.type is not None:
            return node.type.span
        return None
    if isinstance(node, (A.Graph, A.Function)) and token == "name":
        return node.name.span
    if isinstance(node, A.Attribute) and token == "name":
        return node.name.span
    return None
