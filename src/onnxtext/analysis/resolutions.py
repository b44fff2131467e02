"""The schema or model-local function of every node of a text, resolved once per document.

Resolution itself is the checker's (:meth:`CheckContext.resolve`), called through
:func:`resolve_node` only, so that moving it (to ``ir/resolve.py``) changes one line.
"""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, Resolution
from onnxtext.analysis.symbols import Scope, Symbols
from onnxtext.lowering.lower import SourceMap
from onnxtext.proto import FunctionProto, ModelProto, NodeProto
from onnxtext.syntax import ast as A

__all__ = ["Resolution", "node_resolutions", "resolve_node"]


def resolve_node(resolver: CheckContext, node: NodeProto, opsets: dict[str, int]) -> Resolution:
    """What ``node`` calls under ``opsets``: a model-local function, else an operator schema (or nothing)."""
    return resolver.resolve(node, opsets)


def _opsets(resolver: CheckContext, scope: Scope, source_map: SourceMap) -> dict[str, int]:
    """The opsets a scope's nodes resolve in: its function's imports, else the model's."""
    root = scope
    while root.parent is not None:
        root = root.parent
    if isinstance(root.node, A.Function):
        path = source_map.path_of(root.node)
        fn = resolver.proto_at(path) if path is not None else None
        return resolver.function_opsets(fn) if isinstance(fn, FunctionProto) else {}
    return resolver.opsets


def node_resolutions(model: ModelProto, symbols: Symbols, source_map: SourceMap) -> dict[A.Node, Resolution]:
    """Every lowered node of ``symbols``' scopes → its resolution (nodes lowering skipped are absent)."""
    resolver = CheckContext(model)
    found: dict[A.Node, Resolution] = {}
    for scope in symbols.scopes:
        opsets = _opsets(resolver, scope, source_map)
        for node in scope.node.nodes:
            if not isinstance(node, A.Node):
                continue  # a damaged statement
            path = source_map.path_of(node)
            proto = resolver.proto_at(path) if path is not None else None
            if isinstance(proto, NodeProto):
                found[node] = resolve_node(resolver, proto, opsets)
    return found
