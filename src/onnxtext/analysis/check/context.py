"""What the checker rules share: the model, where things are (spans or readable paths), scopes, opsets.

A rule never computes a position itself: it names a protobuf path (``graph/node[3]``)
and optionally a finer *token* inside it (``("input", 1)``, ``("attribute", 0)``,
``"op_type"``, ``("key", "ir_version")``) and :meth:`CheckContext.report` turns that into
a span of the text when the model came from a text, or into a readable path
(``graph/node[3] (MatMul 'mm1') input 1``) when it came from a binary file.

Type and shape inference will add a per-scope type table: :class:`Scope` maps each
visible value name to its :class:`Definition`, the place to hang a ``type`` later.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

from onnxtext.analysis.check.damage import Damage
from onnxtext.syntax import ast as A
from onnxtext.diagnostics import Fix, Diagnostic, Related, Severity
from onnxtext.lowering.lower import SourceMap
from onnxtext.proto import (
    AttributeProto,
    FunctionProto,
    GraphProto,
    ModelProto,
    NodeProto,
    TensorProto,
)
from onnxtext.ir.schemas import OpSchema, get_schema, normalize_domain
from onnxtext.syntax.span import SourceFile, Span

__all__ = [
    "Token",
    "Definition",
    "Scope",
    "GraphInfo",
    "NodeInfo",
    "Resolution",
    "CheckContext",
    "severity_of",
]

Token = Union[str, tuple[Any, ...], None]
"""A finer target inside the object a path names; see :meth:`CheckContext.locate`."""

_SEGMENT = re.compile(r"^([A-Za-z_]+)(?:\[(\d+)\])?$")


def severity_of(code: str) -> Severity:
    """``W…`` codes are warnings, every other code is an error."""
    return Severity.WARNING if code.startswith("W") else Severity.ERROR


@dataclass(slots=True)
class Definition:
    """Where a value name is defined: a proto path and token (for "first defined here" notes)."""

    name: str
    path: str
    token: Token = None
    kind: str = "value"
    """``input``, ``initializer``, ``node`` (a node output), ``function-input``, or ``state``
    (a state variable as an initialization graph sees it, which its outputs may rebind), or
    ``damaged`` (a name that a statement damaged in the text appears to define)."""


@dataclass(slots=True)
class Scope:
    """The value names one graph (or function body) defines, with the scope it is nested in."""

    parent: Scope | None = None
    names: dict[str, Definition] = field(default_factory=dict)

    def local(self, name: str) -> Definition | None:
        return self.names.get(name)

    def lookup(self, name: str) -> Definition | None:
        """The definition of ``name`` here or in an outer scope."""
        scope: Scope | None = self
        while scope is not None:
            found = scope.names.get(name)
            if found is not None:
                return found
            scope = scope.parent
        return None

    def define(self, definition: Definition) -> None:
        """Record a definition; the first one of a name wins (duplicates are a rule's business)."""
        self.names.setdefault(definition.name, definition)

    def visible(self) -> Iterator[str]:
        scope: Scope | None = self
        while scope is not None:
            yield from scope.names
            scope = scope.parent


@dataclass(slots=True)
class Resolution:
    """What a node's (domain, op_type, overload) names."""

    domain: str
    """Normalised: ``""`` for ``ai.onnx``."""
    version: int | None
    """The imported opset version of the domain; ``None`` when the domain is not imported."""
    schema: OpSchema | None = None
    function: FunctionProto | None = None
    function_path: str | None = None


@dataclass(slots=True)
class GraphInfo:
    """A graph or a function body being walked."""

    path: str
    scope: Scope
    opsets: dict[str, int]
    proto: GraphProto | FunctionProto
    is_main: bool = False
    function: FunctionProto | None = None
    """The function this body belongs to (also for graphs nested in a function's nodes)."""
    owner: NodeInfo | None = None
    """The node whose attribute holds this graph (``None`` for the main graph and functions)."""
    training: str | None = None
    """``initialization`` or ``algorithm`` for a graph of ``training_info`` (``None`` otherwise)."""
    later: dict[str, Definition] = field(default_factory=dict)
    """Outputs of this graph's nodes not yet reached by the walk (for "used before defined")."""
    incomplete: bool = False
    """Damaged statements of the text hide which names this scope (or an enclosing one) defines."""

    @property
    def is_function(self) -> bool:
        return isinstance(self.proto, FunctionProto)

    def output_names(self) -> list[str]:
        if isinstance(self.proto, FunctionProto):
            return list(self.proto.output)
        return [vi.name for vi in self.proto.output]

    def input_names(self) -> list[str]:
        if isinstance(self.proto, FunctionProto):
            return list(self.proto.input)
        return [vi.name for vi in self.proto.input]

    def output_location(self, index: int) -> tuple[str, Token]:
        if isinstance(self.proto, FunctionProto):
            return self.path, ("output", index)
        return f"{self.path}/output[{index}]", "name"

    def input_location(self, index: int) -> tuple[str, Token]:
        if isinstance(self.proto, FunctionProto):
            return self.path, ("input", index)
        return f"{self.path}/input[{index}]", "name"


@dataclass(slots=True)
class NodeInfo:
    """One node of a graph or function body, seen before its outputs are defined."""

    proto: NodeProto
    path: str
    graph: GraphInfo
    resolution: Resolution

    @property
    def scope(self) -> Scope:
        return self.graph.scope


class CheckContext:
    """The model under check, its (optional) source map, and the diagnostics found so far."""

    def __init__(
        self,
        model: ModelProto,
        *,
        source: SourceFile | None = None,
        source_map: SourceMap | None = None,
        tree: A.Model | None = None,
        model_dir: Path | None = None,
        damage: Mapping[str, Damage] | None = None,
    ) -> None:
        self.model = model
        self.source = source
        self.source_map = source_map
        self.tree = tree
        self.model_dir = model_dir
        """The folder of the model's file (external data is relative to it); ``None`` if unknown."""
        self.damage: Mapping[str, Damage] = damage or {}
        """Per graph or function path, what statements damaged in the text hide (see ``damage.py``)."""
        self.diagnostics: list[Diagnostic] = []
        self.ir_version = model.ir_version
        self.opsets = self._opsets(list(model.opset_import))
        if not model.opset_import and 0 < model.ir_version < 3:
            self.opsets[""] = 1  # before IR 3 the default opset 1 was implied
        self.functions: dict[tuple[str, str, str], tuple[FunctionProto, str]] = {}
        for i, fn in enumerate(model.functions):
            key = (normalize_domain(fn.domain), fn.name, fn.overload)
            self.functions.setdefault(key, (fn, f"functions[{i}]"))

    # ------------------------------------------------------------ opsets and resolution
    @staticmethod
    def _opsets(imports: list[Any]) -> dict[str, int]:
        """Domain (``""`` for ``ai.onnx``) → version; the first import of a domain wins."""
        result: dict[str, int] = {}
        for entry in imports:
            result.setdefault(normalize_domain(entry.domain), entry.version)
        return result

    def function_opsets(self, fn: FunctionProto) -> dict[str, int]:
        return self._opsets(list(fn.opset_import))

    def opset_version(self, domain: str, opsets: dict[str, int] | None = None) -> int | None:
        """The imported version of ``domain`` (``""`` and ``ai.onnx`` are the same)."""
        return (self.opsets if opsets is None else opsets).get(normalize_domain(domain))

    def resolve(self, node: NodeProto, opsets: dict[str, int]) -> Resolution:
        """A model-local function if one has the node's (domain, op_type, overload), else the schema."""
        domain = normalize_domain(node.domain)
        version = opsets.get(domain)
        local = self.functions.get((domain, node.op_type, node.overload))
        if local is not None:
            return Resolution(domain, version, function=local[0], function_path=local[1])
        schema = get_schema(node.op_type, domain, version) if version is not None else None
        return Resolution(domain, version, schema=schema)

    # ------------------------------------------------------------ reporting
    def report(
        self,
        code: str,
        message: str,
        path: str,
        *,
        token: Token = None,
        related: tuple[tuple[str, str, Token], ...] = (),
        fix: str | None = None,
        severity: Severity | None = None,
    ) -> Diagnostic:
        """Record a diagnostic at ``path`` (+ ``token``); ``related`` holds (message, path, token) notes."""
        sev = severity if severity is not None else severity_of(code)
        span = self.locate(path, token)
        if span is not None and self.source is not None:
            notes = []
            for note, rpath, rtoken in related:
                rspan = self.locate(rpath, rtoken)
                if rspan is not None:
                    notes.append(Related(note, rspan))
            diag = Diagnostic.at(code, sev, message, span, self.source, fix=fix, related=tuple(notes))
        else:
            diag = Diagnostic(code, sev, message, path=self.describe(path, token), fix=Fix(fix) if fix else None)
        self.diagnostics.append(diag)
        return diag

    # ------------------------------------------------------------ spans (text input)
    def locate(self, path: str, token: Token = None) -> Span | None:
        """The span of ``path`` (+ ``token``) in the text; ``None`` without a source map."""
        if self.source_map is None:
            return None
        probe = path
        while probe:
            node = self.source_map.entries.get(probe)
            if node is not None:
                exact = probe == path
                if exact and token is not None:
                    return _token_span(node, token) or node.span
                return node.span
            probe = probe.rpartition("/")[0]
        if path in ("header", "") and self.tree is not None:
            return Span(self.tree.span.start, self.tree.span.start)
        graph = self.source_map.entries.get("graph")
        return graph.span if graph is not None else None

    # ------------------------------------------------------------ readable paths (binary input)
    def proto_at(self, path: str) -> Any:
        """The message a proto path names (``header`` and ``""`` name the model); ``None`` if none."""
        msg: Any = self.model
        if path in ("", "header"):
            return msg
        for segment in path.split("/"):
            m = _SEGMENT.match(segment)
            if m is None:
                return None
            name, index = m.group(1), m.group(2)
            try:
                msg = getattr(msg, name)
                if index is not None:
                    msg = msg[int(index)]
            except (AttributeError, IndexError):
                return None
        return msg

    def describe(self, path: str, token: Token = None) -> str:
        """``graph/node[12] (MatMul 'mm1') input 0``: a path a human can follow in a binary model."""
        msg = self.proto_at(path)
        text = "model" if path in ("", "header") else path
        if isinstance(msg, NodeProto):
            label = f"{msg.domain}.{msg.op_type}" if msg.domain else msg.op_type
            text += f" ({label} '{msg.name}')" if msg.name else f" ({label})"
        elif isinstance(msg, (GraphProto, FunctionProto)) or hasattr(msg, "name") and not isinstance(msg, ModelProto):
            name = getattr(msg, "name", "")
            if name:
                text += f" '{name}'"
        if token is None or token in ("name", "type"):
            return text
        if isinstance(token, str):
            return f"{text} {token}"
        kind = token[0]
        if kind == "attribute" and isinstance(msg, NodeProto) and isinstance(token[1], int):
            if token[1] < len(msg.attribute):
                return f"{text} attribute '{msg.attribute[token[1]].name}'"
        if kind == "key":
            return f"{text} {token[1]}" + (f"[{token[2]}]" if len(token) > 2 else "")
        if kind == "external_data":
            tensor = _tensor_of(msg, token)
            if tensor is not None and 0 <= token[1] < len(tensor.external_data):
                return f"{text} external_data '{tensor.external_data[token[1]].key}'"
        return f"{text} {kind} {token[1]}"


def _tensor_of(msg: Any, token: tuple[Any, ...]) -> TensorProto | None:
    """The tensor an ``("external_data", entry[, list index])`` token is about."""
    if isinstance(msg, TensorProto):
        return msg
    if isinstance(msg, AttributeProto):
        if len(token) > 2:
            return msg.tensors[token[2]] if 0 <= token[2] < len(msg.tensors) else None
        return msg.t
    return None


def _token_span(node: A.AstNode, token: Token) -> Span | None:
    """The span of a finer target inside an AST node, if it can be found."""
    if isinstance(token, str):
        return _named_span(node, token)
    if not isinstance(token, tuple) or not token:
        return None
    kind = token[0]
    arg = token[1] if len(token) > 1 else None
    if kind == "external_data" and isinstance(arg, int):
        return _external_entry_span(node, arg, token[2] if len(token) > 2 else None)
    if isinstance(node, A.Node) and isinstance(arg, int):
        table: dict[str, list[Any]] = {"input": node.inputs, "output": node.outputs, "attribute": A.intact(node.attributes)}
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
