"""Types attached to the values of the symbol tables: inferred in graphs, declared in functions."""

from __future__ import annotations

from onnxtext.analysis.infer import Inference, ValueType, from_type_proto
from onnxtext.analysis.symbols import Scope, Symbols, ValueSymbol
from onnxtext.lowering.source_map import SourceMap
from onnxtext.proto import FunctionProto
from onnxtext.syntax import ast as A

__all__ = ["value_types"]


def value_types(symbols: Symbols, inference: Inference, source_map: SourceMap) -> dict[ValueSymbol, ValueType]:
    """The type of each value whose type is known; the others are absent.

    Graph values have the types inference gave them (declared ones completing them).
    Function bodies are inferred per call, so a function's values have the types its
    signature and value-info list declare. Graphs inference did not enter (the branches
    of a node it has no shape function for) give nothing.
    """
    found: dict[ValueSymbol, ValueType] = {}
    for scope in symbols.scopes:
        path = source_map.path_of(scope.node)
        if path is None:
            continue
        if isinstance(scope.node, A.Function):
            fn = path.resolve(inference.model)  # the function the scope was lowered to
            graph_types = _declared(fn) if isinstance(fn, FunctionProto) else {}
        else:
            graph_types = inference.graphs.get(str(path), {})
        _attach(scope, graph_types, found)
    return found


def _declared(fn: FunctionProto) -> dict[str, ValueType]:
    return {vi.name: from_type_proto(vi.type) for vi in fn.value_info if vi.HasField("type")}


def _attach(scope: Scope, graph_types: dict[str, ValueType], found: dict[ValueSymbol, ValueType]) -> None:
    for name, symbol in scope.values.items():
        t = graph_types.get(name)
        if t is not None and not t.is_unknown:
            found[symbol] = t
