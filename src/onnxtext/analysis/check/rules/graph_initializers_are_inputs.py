"""E207: Before IR version 4, every initializer must also be a graph input."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, GraphInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.proto import GraphProto


class InitializersAreInputs(Rule):
    code = "E207"
    name = "initializers-are-inputs"
    description = "Before IR version 4, every initializer must also be a graph input."

    def graph(self, ctx: CheckContext, graph: GraphInfo) -> None:
        if not isinstance(graph.proto, GraphProto) or not 0 < ctx.ir_version < 4:
            return
        inputs = {vi.name for vi in graph.proto.input}
        for i, t in enumerate(graph.proto.initializer):
            if t.name not in inputs:
                ctx.report(
                    self.code,
                    f"initializer '{t.name}' is not a graph input, which IR version {ctx.ir_version} requires "
                    "(IR 4 lifted this)",
                    f"{graph.path}/initializer[{i}]",
                    token="name",
                )
