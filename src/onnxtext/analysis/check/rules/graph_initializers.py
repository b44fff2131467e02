"""E206: Initializer names must be unique within a graph (an algorithm graph's also against the main graph's)."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, GraphInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.proto import GraphProto


class UniqueInitializers(Rule):
    code = "E206"
    name = "unique-initializers"
    description = (
        "Initializer names must be unique within a graph (an algorithm graph's also against the main graph's)."
    )

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
        if graph.training == "algorithm":
            self._main_duplicates(ctx, graph)

    def _main_duplicates(self, ctx: CheckContext, graph: GraphInfo) -> None:
        """The algorithm graph runs appended to the main graph: their initializers share one list."""
        main: dict[str, int] = {}
        for k, t in enumerate(ctx.model.graph.initializer):
            main.setdefault(t.name, k)
        assert isinstance(graph.proto, GraphProto)
        for i, t in enumerate(graph.proto.initializer):
            if t.name and t.name in main:
                ctx.report(
                    self.code,
                    f"initializer '{t.name}' of the algorithm graph is also an initializer of the main graph, "
                    "and the algorithm graph runs appended to it",
                    f"{graph.path}/initializer[{i}]",
                    token="name",
                    related=(("first defined here", f"graph/initializer[{main[t.name]}]", "name"),),
                )
