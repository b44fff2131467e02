"""E205: every graph (and function) output is produced."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, GraphInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import closest, did_you_mean
from onnxtext.syntax.vocabulary import name_text


class OutputsProduced(Rule):
    code = "E205"
    name = "outputs-produced"
    description = "Each output of a graph or function must be a graph input, an initializer or a node output."

    def graph_end(self, ctx: CheckContext, graph: GraphInfo) -> None:
        if graph.incomplete:
            return  # damaged statements hide which names are produced
        for i, name in enumerate(graph.output_names()):
            if not name:
                continue
            nested = graph.owner is not None or graph.training is not None
            found = graph.scope.lookup(name) if nested else graph.scope.local(name)
            if found is not None:
                continue
            path, token = graph.output_location(i)
            what = "function" if graph.is_function else "graph"
            hint = closest(name, graph.scope.names)
            fix = ctx.replacing(f"write '{hint}'", path, token, name_text(hint)) if hint else None
            ctx.report(
                self.code, f"{what} output '{name}' is never produced{did_you_mean(hint)}", path, token=token, fix=fix
            )
