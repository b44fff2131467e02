"""W201: names follow the C90 identifier rule of the IR spec."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, GraphInfo, NodeInfo, Token
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import C90_NAME


class C90Names(Rule):
    code = "W201"
    name = "c90-names"
    description = "Value names and dimension variables should be C90 identifiers (the IR spec says MUST; real exporters often break it)."

    def _check(self, ctx: CheckContext, name: str, path: str, token: Token, what: str) -> None:
        if name and not C90_NAME.fullmatch(name):
            ctx.report(
                self.code,
                f"{what} '{name}' is not a C90 identifier, as the IR spec requires "
                "(many exporters write such names and most runtimes accept them)",
                path,
                token=token,
            )

    def graph(self, ctx: CheckContext, graph: GraphInfo) -> None:
        for i, name in enumerate(graph.input_names()):
            path, token = graph.input_location(i)
            self._check(ctx, name, path, token, "input")
        if graph.is_function:
            return
        proto = graph.proto
        for i, t in enumerate(getattr(proto, "initializer")):
            if t.name not in graph.input_names():
                self._check(ctx, t.name, f"{graph.path}/initializer[{i}]", "name", "initializer")
        for kind in ("input", "output"):
            for i, vi in enumerate(getattr(proto, kind)):
                if vi.type.HasField("tensor_type"):
                    for d in vi.type.tensor_type.shape.dim:
                        if d.HasField("dim_param"):
                            self._check(ctx, d.dim_param, f"{graph.path}/{kind}[{i}]", "type", "dimension variable")

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        for j, name in enumerate(node.proto.output):
            self._check(ctx, name, node.path, ("output", j), "value name")
