"""E202: Inputs and outputs of the main graph must have a name and a complete type.

Its helpers are shared with ``graph_main_io_shaped``.
"""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, GraphInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.diagnostics import Edit, Fix
from onnxtext.proto import GraphProto, TypeProto, ValueInfoProto
from onnxtext.span import Span


def value_kind(t: TypeProto) -> str | None:
    return t.WhichOneof("value")


_OPAQUE_NAME = "an opaque type name"


def _missing(t: TypeProto) -> str | None:
    """What a main-graph value's type lacks (element type, key/value type, an opaque type's name), or None."""
    kind = value_kind(t)
    if kind is None:
        return "a type"
    if kind in ("tensor_type", "sparse_tensor_type"):
        return None if getattr(t, kind).elem_type else "an element type"
    if kind in ("sequence_type", "optional_type"):
        inner = getattr(t, kind)
        return None if inner.HasField("elem_type") else "an element type"
    if kind == "map_type":
        m = t.map_type
        return None if m.key_type and m.HasField("value_type") else "a key and value type"
    if kind == "opaque_type":
        return None if t.opaque_type.name else _OPAQUE_NAME
    return None


def io(graph: GraphInfo) -> list[tuple[str, int, ValueInfoProto]]:
    proto = graph.proto
    assert isinstance(proto, GraphProto)
    return [("input", i, vi) for i, vi in enumerate(proto.input)] + [
        ("output", i, vi) for i, vi in enumerate(proto.output)
    ]


class MainIoTyped(Rule):
    code = "E202"
    name = "main-io-typed"
    description = "Inputs and outputs of the main graph must have a name and a complete type."

    def graph(self, ctx: CheckContext, graph: GraphInfo) -> None:
        if not graph.is_main:
            return
        for kind, i, vi in io(graph):
            path = f"{graph.path}/{kind}[{i}]"
            name = vi.name
            if not name:
                ctx.report(self.code, f"{kind} {i} of the main graph has no name", path)
                continue
            what = _missing(vi.type) if vi.HasField("type") else "a type"
            if what == _OPAQUE_NAME:
                ctx.report(
                    self.code,
                    f"main-graph {kind} '{name}' is opaque without a type name: an opaque type of the main graph "
                    f"names its type",
                    path,
                    token="name",
                    fix=Fix(f"name it like 'opaque(my.domain, MyType) {name}'"),
                )
            elif what is not None:
                ctx.report(
                    self.code,
                    f"main-graph {kind} '{name}' has no {what.split(' ', 1)[1]}: "
                    f"inputs and outputs of the main graph must be typed",
                    path,
                    token="name",
                    fix=self._declare(ctx, graph, kind, name, path, vi),
                )

    @staticmethod
    def _declare(ctx: CheckContext, graph: GraphInfo, kind: str, name: str, path: str, vi: ValueInfoProto) -> Fix:
        """Write the type inference found for an untyped output before its name (an input's is unknown)."""
        inferred = ctx.inference.graphs.get(graph.path, {}).get(name) if kind == "output" else None
        text = str(inferred) if inferred is not None and not inferred.is_unknown and inferred.type_str() else None
        span = ctx.token_span(path, "name") if text is not None and not vi.HasField("type") else None
        if text is None or span is None:
            return Fix(f"declare it like 'float[N] {name}'")
        return Fix(f"declare it as inferred: '{text} {name}'", (Edit(Span(span.start, span.start), f"{text} "),))
