"""One text, all stages: parse to an AST, lower to protobuf, keep diagnostics and the source map.

A :class:`Document` is one version of a text and the host of its analyses: the symbol
tables, node resolutions and inferred types are computed on first
use and kept, so a language server asks for what a request needs and pays only for that.
Everything is built from the tree where it can be (symbols work on broken texts); what
needs the protobuf (types, resolutions) is empty while ``proto`` is None.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from onnxtext._gc import collector_paused
from onnxtext.analysis.symbols import Symbol, Symbols, ValueSymbol, build_symbols
from onnxtext.diagnostics import Diagnostic, ParseError, Severity, as_error
from onnxtext.ir.paths import ROOT, ProtoPath
from onnxtext.lowering.lower import Lowering
from onnxtext.lowering.source_map import SourceMap
from onnxtext.proto import FunctionProto, GraphProto, ModelProto, NodeProto
from onnxtext.span import SourceFile, Span
from onnxtext.syntax import ast as A
from onnxtext.syntax.lexer import Comment
from onnxtext.syntax.parser import parse_text
from onnxtext.syntax.query import node_at

if TYPE_CHECKING:
    from onnxtext.analysis.check.context import Resolution
    from onnxtext.analysis.infer import Inference, ValueType

__all__ = ["Document", "parse_document", "raise_for_errors"]


@dataclass
class Document:
    """A parsed text: its AST, the protobuf it denotes, diagnostics, source map.

    The tree and the protobuf are always there: with errors, damaged statements are
    :class:`ast.ErrorNode` in the tree and left out of the protobuf (a best effort:
    every intact statement lowers as it would in the undamaged text).
    ``diagnostics`` are those of parsing and lowering; :func:`onnxtext.api.diagnose` adds the
    checker's (inference's type and shape errors among them).
    """

    kind: str
    source: SourceFile
    tree: Any
    proto: Any
    diagnostics: list[Diagnostic]
    source_map: SourceMap = field(default_factory=SourceMap)
    comments: list[Comment] = field(default_factory=list)
    """Every comment of the text, as the lexer read it (``ParseResult.comments``)."""

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)

    def raise_for_errors(self, *, strict: bool = False) -> None:
        """Raise :class:`ParseError` if there is an error (``strict``: or a warning, reported as an error)."""
        raise_for_errors(self.diagnostics, strict=strict)

    # ------------------------------------------------------------ analyses, each computed once
    @cached_property
    def symbols(self) -> Symbols:
        """Scopes, values, functions and attribute references, from the tree."""
        if self.tree is None:
            return Symbols()
        with collector_paused():
            return build_symbols(self.tree)

    @property
    def model(self) -> ModelProto | None:
        """The protobuf when it is a model (what inference, resolution and checking need)."""
        return self.proto if isinstance(self.proto, ModelProto) else None

    @cached_property
    def inference(self) -> Inference | None:
        """Type and shape inference over :attr:`model`; None without one."""
        from onnxtext.analysis.infer import infer_model

        if self.model is None:
            return None
        with collector_paused():  # a big model: many small objects, none garbage
            return infer_model(self.model)

    def made_inference(self) -> Inference | None:
        """:attr:`inference` if it was computed already (None: not yet)."""
        found = self.__dict__.get("inference")
        return found if found is not None else None

    def keep_inference(self, inference: Inference) -> None:
        """Take ``inference`` (of :attr:`model`, made incrementally: equal to one from scratch) as :attr:`inference`."""
        self.__dict__["inference"] = inference

    @cached_property
    def types(self) -> dict[ValueSymbol, ValueType]:
        """The inferred type of each value inference typed (see :func:`~onnxtext.analysis.value_types.value_types`)."""
        from onnxtext.analysis.value_types import value_types

        if self.inference is None:
            return {}
        return value_types(self.symbols, self.inference, self.source_map)

    def type_of(self, symbol: ValueSymbol) -> ValueType | None:
        return self.types.get(symbol)

    @cached_property
    def resolutions(self) -> dict[A.Node, Resolution]:
        """The schema or model-local function of every lowered node."""
        from onnxtext.analysis.resolutions import node_resolutions

        if self.model is None:
            return {}
        return node_resolutions(self.model, self.symbols, self.source_map)

    # ------------------------------------------------------------ position queries
    def nodes_at(self, offset: int) -> list[A.AstNode]:
        """The AST nodes around ``offset``, outermost first (see :func:`onnxtext.syntax.query.node_at`)."""
        return node_at(self.tree, offset) if self.tree is not None else []

    def symbol_at(self, offset: int) -> Symbol | None:
        return self.symbols.symbol_at(offset)

    def definition_at(self, offset: int) -> list[Span]:
        return self.symbols.definition_at(offset)

    def references(self, symbol: Symbol, *, include_definitions: bool = True) -> list[Span]:
        return self.symbols.references(symbol, include_definitions=include_definitions)

    def resolution_at(self, offset: int) -> tuple[A.Node, Resolution] | None:
        """The innermost node statement at ``offset`` and what it calls (for hover on an operator)."""
        for node in reversed(self.nodes_at(offset)):
            if isinstance(node, A.Node):
                found = self.resolutions.get(node)
                return (node, found) if found is not None else None
        return None

    def path_at(self, offset: int) -> ProtoPath | None:
        """The proto path of the innermost lowered node at ``offset``."""
        return self.source_map.path_at(offset)


def raise_for_errors(diagnostics: list[Diagnostic], *, strict: bool = False) -> None:
    """Raise :class:`ParseError` if ``diagnostics`` hold an error (``strict``: or a warning, reported as an error)."""
    if strict and any(d.severity is Severity.WARNING for d in diagnostics):
        raise ParseError([as_error(d) for d in diagnostics])
    if any(d.is_error for d in diagnostics):
        raise ParseError(diagnostics)


def parse_document(text: str, kind: str = "model", path: str = "<text>") -> Document:
    """Parse and lower ``text`` as a ``kind`` (model, graph, function, node, node_list)."""
    with collector_paused():
        return _parse_document(text, kind, path)


def _parse_document(text: str, kind: str, path: str) -> Document:
    result = parse_text(text, kind, path)
    diags = list(result.diagnostics)
    tree = result.tree
    if kind == "node_list" and isinstance(tree, tuple):
        tree = tree[0]
    lw = Lowering(result.source)
    proto: Any
    whole = Span(0, len(text))
    if kind == "model":
        assert isinstance(tree, A.Model)
        proto = lw.model(tree)
        lw.check_depth(proto, whole)
    elif kind == "graph":
        proto = lw.graph(tree, GraphProto(), ROOT / "graph")
        lw.check_depth(proto, whole, ROOT / "graph")
    elif kind == "function":
        # A function text damaged beyond its body is one error node: an empty function stands for it.
        proto = (
            lw.function(tree, FunctionProto(), ROOT / "function") if isinstance(tree, A.Function) else FunctionProto()
        )
        lw.check_depth(proto, whole, ROOT / "function")
    elif kind == "node":
        proto = NodeProto()
        if isinstance(tree, A.Node):
            lw.node(tree, proto, ROOT / "node")
        lw.check_depth(proto, whole, ROOT / "node")
    else:
        holder = GraphProto()
        lw.nodes(tree, holder.node, ROOT / "nodes")
        lw.check_depth(holder, whole, ROOT / "nodes")
        proto = list(holder.node)
    diags.extend(lw.diagnostics)
    source_map = lw.source_map
    diags.sort(key=lambda d: d.offset)
    return Document(kind, result.source, tree, proto, diags, source_map, result.comments)
