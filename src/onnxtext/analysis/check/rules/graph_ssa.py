"""E203: every value is defined once, also against the outer scopes of a subgraph.

An algorithm graph of ``training_info`` runs appended to the main graph, so its inputs
and node outputs must not reuse the main graph's names; an initialization graph's outputs
may carry the names of the state variables they are bound to.
"""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, Definition, GraphInfo, NodeInfo
from onnxtext.analysis.check.rule import Rule


def _where(d: Definition) -> str:
    return {
        "input": "a graph input",
        "initializer": "an initializer",
        "function-input": "a function input",
        "node": "a node output",
    }.get(d.kind, "a value")


def _outer(graph: GraphInfo) -> str:
    return " of the main graph" if graph.training == "algorithm" else " of an enclosing graph"


class SingleAssignment(Rule):
    code = "E203"
    name = "single-assignment"
    description = (
        "A value name is defined once (graph input, node output), and a subgraph's node outputs do not reuse "
        "outer names."
    )

    def graph(self, ctx: CheckContext, graph: GraphInfo) -> None:
        seen: dict[str, int] = {}
        for i, name in enumerate(graph.input_names()):
            if not name:
                continue
            if name in seen:
                path, token = graph.input_location(i)
                first = graph.input_location(seen[name])
                ctx.report(
                    self.code,
                    f"input '{name}' is declared twice",
                    path,
                    token=token,
                    related=(("first declared here", first[0], first[1]),),
                )
            else:
                seen[name] = i
            if graph.training == "algorithm":
                self._main_input(ctx, graph, i, name)

    def _main_input(self, ctx: CheckContext, graph: GraphInfo, index: int, name: str) -> None:
        """An algorithm input that names a main-graph value defines it twice in the combined graph."""
        found = graph.scope.parent.lookup(name) if graph.scope.parent is not None else None
        if found is None or found.kind == "initializer":
            return  # a name may be both an input and an initializer
        path, token = graph.input_location(index)
        ctx.report(
            self.code,
            f"algorithm input '{name}' is already defined (as {_where(found)} of the main graph), "
            "and the algorithm graph runs appended to the main graph",
            path,
            token=token,
            related=(("first defined here", found.path, found.token),),
        )

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        outputs = node.outputs
        for j, name in enumerate(outputs):
            if not name:
                continue
            if name in outputs[:j]:
                ctx.report(
                    self.code,
                    f"'{name}' is an output of this node more than once",
                    node.path,
                    token=("output", j),
                )
                continue
            found = node.scope.lookup(name)
            if found is None or found.kind in ("state", "damaged"):
                continue
            outer = node.scope.local(name) is None
            where = _where(found) + (_outer(node.graph) if outer else "")
            ctx.report(
                self.code,
                f"'{name}' is already defined (as {where}); every value must be assigned once",
                node.path,
                token=("output", j),
                related=(("first defined here", found.path, found.token),),
            )
