"""E206 / E207: initializer names are unique; before IR 4 each initializer is also a graph input."""

from __future__ import annotations

from ...proto import GraphProto
from ..context import CheckContext, GraphInfo
from ..rule import Rule


class UniqueInitializers(Rule):
    code = "E206"
    name = "unique-initializers"
    description = "Initializer names must be unique within a graph."

    def graph(self, ctx: CheckContext, graph: GraphInfo) -> None:
        if not isinstance(graph.proto, GraphProto):
            return
        seen: dict[str, int] = {}
        for i, t in enumerate(graph.proto.initializer):
            if t.name in seen:
                ctx.report(
                    self.code,
                    f"initializer '{t.name}' is defined twice",
                    f"{graph.path}/initializer[{i}]",
                    token="name",
                    related=(("first defined here", f"{graph.path}/initializer[{seen[t.name]}]", "name"),),
                )
            else:
                seen[t.name] = i
            if not t.name:
                ctx.report(self.code, "initializer has no name", f"{graph.path}/initializer[{i}]")


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
