"""E209: A declared dimension is a size: 0 or more (an unknown size is a name, or left out)."""

from __future__ import annotations

from collections.abc import Iterator

from onnxtext.analysis.check.context import CheckContext, GraphInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.proto import GraphProto, TypeProto


def negative_dims(t: TypeProto) -> Iterator[int]:
    """The negative ``dim_value``s anywhere in a type (tensors, and inside sequences, optionals, maps)."""
    kind = t.WhichOneof("value")
    if kind in ("tensor_type", "sparse_tensor_type"):
        for d in getattr(t, kind).shape.dim:
            if d.HasField("dim_value") and d.dim_value < 0:
                yield d.dim_value
    elif kind in ("sequence_type", "optional_type"):
        inner = getattr(t, kind)
        if inner.HasField("elem_type"):
            yield from negative_dims(inner.elem_type)
    elif kind == "map_type" and t.map_type.HasField("value_type"):
        yield from negative_dims(t.map_type.value_type)


class DimsNonNegative(Rule):
    code = "E209"
    name = "dims-non-negative"
    description = (
        "A declared dimension (graph inputs, outputs, value_info) is 0 or more; an unknown size is a name such as N."
    )

    def graph(self, ctx: CheckContext, graph: GraphInfo) -> None:
        proto = graph.proto
        if not isinstance(proto, GraphProto):
            return
        for kind in ("input", "output", "value_info"):
            for i, vi in enumerate(getattr(proto, kind)):
                bad = list(negative_dims(vi.type))
                if bad:
                    what = "value_info of" if kind == "value_info" else kind
                    ctx.report(
                        self.code,
                        f"{what} '{vi.name}' declares the dimension {bad[0]}: a dimension is a size, 0 or more "
                        "(write a name such as N for a size that is not known)",
                        f"{graph.path}/{kind}[{i}]",
                        token="type",
                    )
