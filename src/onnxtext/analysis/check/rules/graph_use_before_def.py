"""E204: a node uses only values defined before it (in topological order), here or in an outer scope."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, NodeInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import closest, did_you_mean
from onnxtext.syntax.vocabulary import name_text


class DefinedBeforeUse(Rule):
    code = "E204"
    name = "defined-before-use"
    description = (
        "Node inputs must name a graph input, an initializer, or an output of an earlier node (or of an outer scope)."
    )

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        if node.graph.incomplete:
            return  # damaged statements hide which names are defined
        for i, name in enumerate(node.inputs):
            if not name or node.scope.lookup(name) is not None:
                continue
            later = node.graph.later.get(name)
            if later is not None:
                ctx.report(
                    self.code,
                    f"'{name}' is used before the node that defines it: nodes must be in topological order",
                    node.path,
                    token=("input", i),
                    related=(("defined here", later.path, later.token),),
                )
            else:
                hint = closest(name, node.scope.visible())
                fix = ctx.replacing(f"write '{hint}'", node.path, ("input", i), name_text(hint)) if hint else None
                ctx.report(
                    self.code, f"'{name}' is not defined{did_you_mean(hint)}", node.path, token=("input", i), fix=fix
                )
