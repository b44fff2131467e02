"""What the checker rules share: the model, where things are (spans or readable paths), scopes, opsets.

A rule never computes a position itself: it names a protobuf path (``graph/node[3]``)
and optionally a finer *token* inside it (``("input", 1)``, ``("attribute", 0)``,
``"op_type"``, ``("key", "ir_version")``) and :meth:`CheckContext.report` turns that into
a span of the text when the model came from a text, or into a readable path
(``graph/node[3] (MatMul 'mm1') input 1``) when it came from a binary file.

Fixes are located the same way: :meth:`CheckContext.replacing` builds a fix that
replaces the text of a token (``("attribute_name", 0)``, ``("attribute_type", 0)``, ``("attribute_value", 0)``,
``("value", "ir_version")``...), :meth:`CheckContext.adding_entry` one that adds a
``key: value`` to a header. Without a source (a binary model) a fix has no edits.

What a node calls is :attr:`CheckContext.resolver`'s answer (:mod:`onnxtext.ir.resolve`,
shared with inference and the evaluator); the type rules read :attr:`CheckContext.inference`,
given by the caller or computed once. :class:`Scope` maps each visible value name to its
:class:`Definition`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from onnxtext.analysis.check.damage import Damage
from onnxtext.analysis.infer.engine import Inference, infer_model
from onnxtext.diagnostics import Diagnostic, Edit, Fix, Related, Severity
from onnxtext.ir.paths import ProtoPath, describe
from onnxtext.ir.resolve import Resolution, Resolver
from onnxtext.ir.schemas import normalize_domain
from onnxtext.ir.scoping import ScopeChain
from onnxtext.lowering.source_map import SourceMap, Token, token_span
from onnxtext.proto import (
    AttributeProto,
    FunctionProto,
    GraphProto,
    ModelProto,
    NodeProto,
    TensorProto,
)
from onnxtext.span import SourceFile, Span
from onnxtext.syntax import ast as A
from onnxtext.syntax.layout import INDENT

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
class Scope(ScopeChain):
    """The value names one graph (or function body) defines, with the scope it is nested in
    (``ir/scoping``: the proto paths of definitions, to report at)."""

    parent: Scope | None = None
    names: dict[str, Definition] = field(default_factory=dict)

    def local(self, name: str) -> Definition | None:
        return self.names.get(name)

    def lookup(self, name: str) -> Definition | None:
        """The definition of ``name`` here or in an outer scope."""
        for scope in self.chain():
            found = scope.names.get(name)
            if found is not None:
                return found
        return None

    def define(self, definition: Definition) -> None:
        """Record a definition; the first one of a name wins (duplicates are a rule's business)."""
        self.names.setdefault(definition.name, definition)

    def visible(self) -> Iterator[str]:
        for scope in self.chain():
            yield from scope.names


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
    inputs: list[str]
    """``proto.input``, read once: every read of a repeated field builds its strings anew."""
    outputs: list[str]
    """``proto.output``, read once."""

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
        inference: Inference | Callable[[], Inference] | None = None,
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
        self.undecodable: list[str] = []
        """Proto paths of string fields that held bytes, not UTF-8 (the model here has U+FFFD there)."""
        self.severities: dict[str, Severity] = {}
        """Each selected rule's severity (its default unless selected by its code); by the code letter otherwise."""
        self.ir_version = model.ir_version
        self.resolver = Resolver(model)
        """The one node → schema/function resolution (shared with inference and the evaluator)."""
        self.opsets = self.resolver.opsets
        self._inference = inference

    @property
    def inference(self) -> Inference:
        """Types of the model's values and the issues inference found: the one given (or the one its
        function gives: a document's, shared with hover and hints), or computed on first use."""
        if self._inference is None:
            self._inference = infer_model(self.model)
        elif not isinstance(self._inference, Inference):
            self._inference = self._inference()
        return self._inference

    # ------------------------------------------------------------ opsets and resolution
    def opset_version(self, domain: str, opsets: dict[str, int] | None = None) -> int | None:
        """The imported version of ``domain`` (``""`` and ``ai.onnx`` are the same)."""
        return (self.opsets if opsets is None else opsets).get(normalize_domain(domain))

    def resolve(self, node: NodeProto, opsets: dict[str, int]) -> Resolution:
        """What ``node`` calls, seen from a scope importing ``opsets`` (see :class:`Resolver`)."""
        return self.resolver.resolve(node, opsets)

    # ------------------------------------------------------------ reporting
    def report(
        self,
        code: str,
        message: str,
        path: str,
        *,
        token: Token = None,
        related: tuple[tuple[str, str, Token], ...] = (),
        fix: Fix | str | None = None,
        severity: Severity | None = None,
    ) -> Diagnostic:
        """Record a diagnostic at ``path`` (+ ``token``); ``related`` holds (message, path, token) notes."""
        sev = severity if severity is not None else self.severities.get(code) or severity_of(code)
        span = self.locate(path, token)
        if span is not None and self.source is not None:
            notes = []
            for note, rpath, rtoken in related:
                rspan = self.locate(rpath, rtoken)
                if rspan is not None:
                    notes.append(Related(note, rspan))
            diag = Diagnostic.at(code, sev, message, span, self.source, fix=fix, related=tuple(notes))
        else:
            if isinstance(fix, str):
                fix = Fix(fix)
            diag = Diagnostic(code, sev, message, path=self.describe(path, token), fix=fix)
        self.diagnostics.append(diag)
        return diag

    # ------------------------------------------------------------ spans (text input)
    def locate(self, path: str, token: Token = None) -> Span | None:
        """The span of ``path`` (+ ``token``) in the text (see :meth:`SourceMap.locate`); ``None`` without a
        source map. The model (``header``, ``""``) without a header is the text's start; what nothing
        encloses, the main graph."""
        if self.source_map is None:
            return None
        span = self.source_map.locate(_parse_path(path), token) if path != "" else None
        if span is not None:
            return span
        if path in ("header", "") and self.tree is not None:
            return Span(self.tree.span.start, self.tree.span.start)
        return self.source_map.span(_MAIN_GRAPH)

    def token_span(self, path: str, token: Token) -> Span | None:
        """The span of exactly ``path`` + ``token`` (no enclosing span as a fallback); ``None`` if not found."""
        node = self._owner(path)
        if node is None:
            return None
        return token_span(node, token) if token is not None else node.span

    def _owner(self, path: str) -> A.AstNode | None:
        """The AST node lowered to exactly ``path`` (``header`` and ``""``: the model's header); ``None`` if none."""
        if self.source_map is None:
            return None
        node = self.source_map.get(_parse_path(path))
        if node is None and path in ("header", "") and self.tree is not None:
            node = self.tree.header
        return node

    # ------------------------------------------------------------ fixes (edits of the text)
    def edit(self, path: str, token: Token, new_text: str) -> Edit | None:
        """An edit replacing the text of ``path`` + ``token`` by ``new_text``; ``None`` if it is not in a text."""
        span = self.token_span(path, token)
        return Edit(span, new_text) if span is not None else None

    def replacing(self, message: str, path: str, token: Token, new_text: str) -> Fix:
        """A fix replacing the text of ``path`` + ``token`` by ``new_text`` (no edit if it is not in a text)."""
        edit = self.edit(path, token, new_text)
        return Fix(message, (edit,) if edit is not None else ())

    def adding_entry(self, message: str, path: str, key: str, value: str) -> Fix:
        """A fix adding ``key: value`` to the header of the model (``path`` ``header``) or of a function.

        A missing header is written.
        """
        return self.adding_entries(message, path, [(key, value)])

    def adding_entries(self, message: str, path: str, entries: Sequence[tuple[str, str]]) -> Fix:
        """A fix adding ``key: value`` entries to a header, as ``fmt`` writes them: one per line in a
        header written over several lines, a missing header written whole."""
        edit = self._entries_edit(path, [f"{key}: {value}" for key, value in entries])
        return Fix(message, (edit,) if edit is not None else ())

    def adding_item(self, message: str, path: str, key: str, item: str) -> Fix:
        """A fix adding ``item`` to the list entry ``key`` of a header (writing ``key: [item]`` if absent)."""
        owner = self._header_owner(path)
        if owner is not None and owner.header is not None:
            for entry in A.intact(owner.header.entries):
                if entry.key.value == key and isinstance(entry.value, A.PropList):
                    items = entry.value.items
                    if items:
                        return Fix(message, (Edit(Span(items[-1].span.end, items[-1].span.end), f", {item}"),))
                    inside = entry.value.span.start + 1  # just after the '['
                    return Fix(message, (Edit(Span(inside, inside), item),))
        edit = self._entries_edit(path, [f"{key}: [{item}]"])
        return Fix(message, (edit,) if edit is not None else ())

    def _header_owner(self, path: str) -> A.Model | A.Function | None:
        if self.source_map is None or self.tree is None:
            return None
        owner: A.AstNode | None = self.tree if path in ("header", "") else self.source_map.get(_parse_path(path))
        return owner if isinstance(owner, (A.Model, A.Function)) else None

    def _entries_edit(self, path: str, entries: list[str]) -> Edit | None:
        owner = self._header_owner(path)
        if owner is None or self.source is None:
            return None
        props = owner.header
        if props is None:
            lines = "".join(
                f"{INDENT}{entry}{',' if i < len(entries) - 1 else ''}\n" for i, entry in enumerate(entries)
            )
            return Edit(Span(owner.span.start, owner.span.start), f"<\n{lines}>\n")
        if props.entries:
            first = props.entries[0].span.start
            text = self.source.text
            if "\n" in text[props.span.start : first]:  # one entry a line: the new ones too, at its indentation
                indent = text[text.rfind("\n", 0, first) + 1 : first]
                return Edit(Span(first, first), "".join(f"{entry},\n{indent}" for entry in entries))
            return Edit(Span(first, first), "".join(f"{entry}, " for entry in entries))
        inside = props.span.start + 1  # just after the '<'
        return Edit(Span(inside, inside), ", ".join(entries))

    def raising_opset(self, message: str, path: str, domain: str, version: int) -> Fix:
        """A fix setting the imported version of ``domain`` in the header of the model (``path``
        ``header``) or of a function to ``version`` (no edit when the import is not written out)."""
        edit = self._opset_edit(path, domain, version)
        return Fix(message, (edit,) if edit is not None else ())

    def _opset_edit(self, path: str, domain: str, version: int) -> Edit | None:
        if self.source_map is None or self.tree is None:
            return None
        owner: A.AstNode | None = self.tree if path in ("header", "") else self.source_map.get(_parse_path(path))
        if not isinstance(owner, (A.Model, A.Function)) or owner.header is None:
            return None
        for entry in A.intact(owner.header.entries):
            if entry.key.value != "opset_import" or not isinstance(entry.value, A.PropList):
                continue
            for item in entry.value.items:
                written = _opset_entry(item)
                if written is not None and normalize_domain(written[0]) == domain:
                    return Edit(written[1].span, str(version))
        return None

    # ------------------------------------------------------------ readable paths (binary input)
    def proto_at(self, path: str) -> Any:
        """The message a proto path names (``header`` and ``""`` name the model); ``None`` if none."""
        return _parse_path(path).resolve(self.model)

    def describe(self, path: str, token: Token = None) -> str:
        """``graph/node[12] (MatMul 'mm1') input 0``: a path a human can follow in a binary model."""
        msg = self.proto_at(path)
        text = describe(self.model, _parse_path(path)) if msg is not None else path
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


def _parse_path(path: str) -> ProtoPath:
    """``path`` as a :class:`ProtoPath` (``header`` names the model; so does a malformed path's empty parse)."""
    if path == "header":
        return ProtoPath()
    try:
        return ProtoPath.parse(path)
    except ValueError:
        return ProtoPath((("?",),))  # names nothing: resolve() gives None


def _opset_entry(item: A.AstNode) -> tuple[str, A.AstNode] | None:
    """The domain of an ``opset_import`` entry and its written version, in each spelling the
    language takes: ``"" : 17``, ``{version: 17}`` (the domain left unset: the default one,
    how legacy exporters print) and ``{domain: "", version: 17}``; None without a version."""
    if isinstance(item, A.PropPair):
        return (item.key.text, item.value) if isinstance(item.key, A.Str) else None
    if not isinstance(item, A.PropDict):
        return None
    fields = {entry.key.value: entry.value for entry in A.intact(item.entries)}  # a repeated key: the last counts
    domain, version = fields.get("domain"), fields.get("version")
    if version is None or not (domain is None or isinstance(domain, A.Str)):
        return None
    return (domain.text if domain is not None else ""), version


def _tensor_of(msg: Any, token: tuple[Any, ...]) -> TensorProto | None:
    """The tensor an ``("external_data", entry[, list index])`` token is about."""
    if isinstance(msg, TensorProto):
        return msg
    if isinstance(msg, AttributeProto):
        if len(token) > 2:
            return msg.tensors[token[2]] if 0 <= token[2] < len(msg.tensors) else None
        return msg.t
    return None


_MAIN_GRAPH = ProtoPath.parse("graph")
