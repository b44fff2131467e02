"""The schema or model-local function of every node of a text, resolved once per document.

Resolution itself is :class:`~onnxtext.ir.resolve.Resolver`'s, the one the checker,
inference and the evaluator use too, called through :func:`resolve_node` only.
"""

from __future__ import annotations

from onnxtext.analysis.symbols import Scope, Symbols
from onnxtext.ir.resolve import Resolution, Resolver
from onnxtext.lowering.source_map import SourceMap
from onnxtext.proto import FunctionProto, ModelProto, NodeProto
from onnxtext.syntax import ast as A

__all__ = ["Resolution", "node_resolutions", "resolve_node"]


def resolve_node(resolver: Resolver, node: NodeProto, opsets: dict[str, int]) -> Resolution:
    """What ``node`` calls under ``opsets``: a model-local function, else an operator schema (or nothing)."""
    return resolver.resolve(node, opsets)


def _opsets(resolver: Resolver, scope: Scope, source_map: SourceMap) -> dict[str, int]:
    """The opsets a scope's nodes resolve in: its function's imports, else the model's."""
    *_, root = scope.chain()
    if isinstance(root.node, A.Function):
        path = source_map.path_of(root.node)
        fn = path.resolve(resolver.model) if path is not None else None
        return resolver.opsets_of(fn) if isinstance(fn, FunctionProto) else {}
    return resolver.opsets


def node_resolutions(model: ModelProto, symbols: Symbols, source_map: SourceMap) -> dict[A.Node, Resolution]:
    """Every lowered node of ``symbols``' scopes → its resolution (nodes lowering skipped are absent)."""
    resolver = Resolver(model)
    found: dict[A.Node, Resolution] = {}
    for scope in symbols.scopes:
        opsets = _opsets(resolver, scope, source_map)
        for node in scope.node.nodes:
            if not isinstance(node, A.Node):
                continue  # a damaged statement
            path = source_map.path_of(node)
            proto = path.resolve(model) if path is not None else None
            if isinstance(proto, NodeProto):
                found[node] = resolve_node(resolver, proto, opsets)
    return found
