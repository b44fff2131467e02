"""E203: every value is defined once, also against the outer scopes of a subgraph."""

from __future__ import annotations

from ..context import CheckContext, Definition, GraphInfo, NodeInfo
from ..rule import Rule


def _where(d: Definition) -> str:
    return {
        "input": "a graph input",
        "initializer": "an initializer",
        "function-input": "a function input",
        "node": "a node output",
    }.get(d.kind, "a value")


class SingleAssignment(Rule):
    code = "E203"
    name = "single-assignment"
    description = "A value name is defined once (graph input, node output), and a subgraph's node outputs do not reuse outer names."

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

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        outputs = node.proto.output
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
            if found is None:
                continue
            outer = node.scope.local(name) is None
            where = _where(found) + (" of an enclosing graph" if outer else "")
            ctx.report(
                self.code,
                f"'{name}' is already defined (as {where}); every value must be assigned once",
                node.path,
                token=("output", j),
                related=(("first defined here", found.path, found.token),),
            )
