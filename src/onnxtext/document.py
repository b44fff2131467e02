"""One text, all stages: parse to an AST, lower to protobuf, keep diagnostics and the source map."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from onnxtext.syntax import ast as A
from onnxtext._gc import collector_paused
from onnxtext.diagnostics import Diagnostic, ParseError
from onnxtext.lowering.lower import Lowering, SourceMap
from onnxtext.syntax.parser import ENTRY_POINTS, parse_text
from onnxtext.proto import FunctionProto, GraphProto, ModelProto, NodeProto
from onnxtext.syntax.span import SourceFile

__all__ = ["Document", "parse_document", "KINDS"]

KINDS = ENTRY_POINTS


@dataclass
class Document:
    """A parsed text: its AST, the protobuf it denotes, diagnostics, source map.

    The tree and the protobuf are always there: with errors, damaged statements are
    :class:`ast.ErrorNode` in the tree and left out of the protobuf (a best effort:
    every intact statement lowers as it would in the undamaged text).
    """

    kind: str
    source: SourceFile
    tree: Any
    proto: Any
    diagnostics: list[Diagnostic]
    source_map: SourceMap = field(default_factory=SourceMap)

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)

    def raise_for_errors(self) -> None:
        if not self.ok:
            raise ParseError(self.diagnostics)


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
    if kind == "model":
        assert isinstance(tree, A.Model)
        proto = lw.model(tree)
    elif kind == "graph":
        proto = lw.graph(tree, GraphProto(), "graph")
    elif kind == "function":
        # A function text damaged beyond its body is one error node: an empty function stands for it.
        proto = lw.function(tree, FunctionProto(), "function") if isinstance(tree, A.Function) else FunctionProto()
    elif kind == "node":
        proto = NodeProto()
        if isinstance(tree, A.Node):
            lw.node(tree, proto, "node")
    else:
        holder = GraphProto()
        lw.nodes(tree, holder.node, "nodes")
        proto = list(holder.node)
    diags.extend(lw.diagnostics)
    source_map = lw.source_map
    diags.sort(key=lambda d: d.offset)
    return Document(kind, result.source, tree, proto, diags, source_map)


def _typed(kind: str, text: str, path: str) -> Any:
    doc = parse_document(text, kind, path)
    doc.raise_for_errors()
    return doc.proto


def parse_model(text: str, path: str = "<text>") -> ModelProto:
    """Parse a model text; raises :class:`ParseError` listing every problem."""
    result: ModelProto = _typed("model", text, path)
    return result


def parse_graph(text: str, path: str = "<text>") -> GraphProto:
    result: GraphProto = _typed("graph", text, path)
    return result


def parse_function(text: str, path: str = "<text>") -> FunctionProto:
    result: FunctionProto = _typed("function", text, path)
    return result


def parse_node(text: str, path: str = "<text>") -> NodeProto:
    result: NodeProto = _typed("node", text, path)
    return result


def parse_nodes(text: str, path: str = "<text>") -> list[NodeProto]:
    """Parse a node list ``{ ... }``."""
    result: list[NodeProto] = _typed("node_list", text, path)
    return result
