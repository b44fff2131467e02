"""E208: Tensor inputs and outputs of the main graph must have a shape (at least the rank)."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, GraphInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules.graph_io_types import io, value_kind
from onnxtext.proto import TypeProto


class MainIoShaped(Rule):
    code = "E208"
    name = "main-io-shaped"
    description = "Tensor inputs and outputs of the main graph must have a shape (at least the rank)."

    def graph(self, ctx: CheckContext, graph: GraphInfo) -> None:
        if not graph.is_main:
            return
        for kind, i, vi in io(graph):
            t: TypeProto = vi.type
            which = value_kind(t)
            if which not in ("tensor_type", "sparse_tensor_type"):
                continue
            tensor = getattr(t, which)
            if tensor.elem_type and not tensor.HasField("shape"):
                name = vi.name
                ctx.report(
                    self.code,
                    f"main-graph {kind} '{name}' has no shape: its rank must be known "
                    "(write 'float[N, M]', or 'float' for a scalar, not 'float[]')",
                    f"{graph.path}/{kind}[{i}]",
                    token="type",
                )
