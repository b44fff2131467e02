"""E210: a subgraph's outputs are produced inside it, not taken from an enclosing graph."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, GraphInfo
from onnxtext.analysis.check.rule import Rule


class SubgraphOutputsLocal(Rule):
    code = "E210"
    name = "subgraph-outputs-local"
    description = (
        "An output of a subgraph (If branch, Loop or Scan body) is one of its inputs, initializers or "
        "node outputs, not a value of an enclosing graph (onnx.checker and onnxruntime refuse those)."
    )

    def graph_end(self, ctx: CheckContext, graph: GraphInfo) -> None:
        if graph.owner is None or graph.incomplete:
            return  # main graph, functions and training graphs may not be nested; damage hides names
        for i, name in enumerate(graph.output_names()):
            if not name or graph.scope.local(name) is not None:
                continue
            outer = graph.scope.lookup(name)
            if outer is None:
                continue  # E205: never produced at all
            path, token = graph.output_location(i)
            ctx.report(
                self.code,
                f"subgraph output '{name}' is a value of an enclosing graph: a subgraph must produce its outputs "
                f"itself (add a node '{name}_out = Identity ({name})' in it and return that)",
                path,
                token=token,
                related=(("defined here, outside the subgraph", outer.path, outer.token),),
            )
