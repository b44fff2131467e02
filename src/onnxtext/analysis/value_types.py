"""Inferred types attached to the values of the symbol tables."""

from __future__ import annotations

from onnxtext.analysis.infer import Inference, ValueType
from onnxtext.analysis.symbols import Symbols, ValueSymbol
from onnxtext.lowering.lower import SourceMap
from onnxtext.syntax import ast as A

__all__ = ["value_types"]


def value_types(symbols: Symbols, inference: Inference, source_map: SourceMap) -> dict[ValueSymbol, ValueType]:
    """The type inference gave each value of a graph scope; values it did not type are absent.

    Function bodies have no types of their own (inference types them per call), nor do
    graphs inference did not enter (the branches of a node it has no shape function for).
    """
    found: dict[ValueSymbol, ValueType] = {}
    for scope in symbols.scopes:
        if not isinstance(scope.node, A.Graph):
            continue
        path = source_map.path_of(scope.node)
        graph_types = inference.graphs.get(path) if path is not None else None
        if graph_types is None:
            continue
        for name, symbol in scope.values.items():
            t = graph_types.get(name)
            if t is not None and not t.is_unknown:
                found[symbol] = t
    return found
