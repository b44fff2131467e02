"""E201: every graph has a name."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, GraphInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.proto import GraphProto


class GraphName(Rule):
    code = "E201"
    name = "graph-name"
    description = "Every graph (the main graph, subgraphs, training graphs) must have a name."

    def graph(self, ctx: CheckContext, graph: GraphInfo) -> None:
        if isinstance(graph.proto, GraphProto) and not graph.proto.name:
            ctx.report(self.code, "the graph has no name", graph.path, token="name")
