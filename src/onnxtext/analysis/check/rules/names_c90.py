"""W201: names follow the C90 identifier rule of the IR spec (information by default: a
person cannot act on an exporter's names; ``select`` it by its code to have it as a warning).

Exporters name every value after its module path (``/l1/Gemm_output_0``): one warning per
name would bury everything else, so a model gets one warning for all of them, at the first,
with the others as related locations."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, GraphInfo, NodeInfo, Token
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import C90_NAME
from onnxtext.diagnostics import Severity


class C90Names(Rule):
    code = "W201"
    name = "c90-names"
    description = (
        "Value names and dimension variables should be C90 identifiers (the IR spec says MUST; real exporters "
        "often break it)."
    )
    default_severity = Severity.INFO

    def __init__(self) -> None:
        self.found: list[tuple[str, str, Token, str]] = []

    def collected(self) -> list[tuple[str, str, Token, str]]:
        return self.found

    def _check(self, ctx: CheckContext, name: str, path: str, token: Token, what: str) -> None:
        if name and not C90_NAME.fullmatch(name):
            self.found.append((name, path, token, what))

    def finish(self, ctx: CheckContext) -> None:
        if not self.found:
            return
        name, path, token, what = self.found[0]
        why = "as the IR spec requires (many exporters write such names and most runtimes accept them)"
        if len(self.found) == 1:
            ctx.report(self.code, f"{what} '{name}' is not a C90 identifier, {why}", path, token=token)
            return
        ctx.report(
            self.code,
            f"{len(self.found)} names are not C90 identifiers, {why}: {_some(self.found)}",
            path,
            token=token,
            related=tuple((f"{w} '{n}'", p, t) for n, p, t, w in self.found[1:]),
        )

    def graph(self, ctx: CheckContext, graph: GraphInfo) -> None:
        for i, name in enumerate(graph.input_names()):
            path, token = graph.input_location(i)
            self._check(ctx, name, path, token, "input")
        if graph.is_function:
            return
        proto = graph.proto
        inputs = set(graph.input_names())
        for i, t in enumerate(proto.initializer):
            if t.name not in inputs:
                self._check(ctx, t.name, f"{graph.path}/initializer[{i}]", "name", "initializer")
        for kind in ("input", "output"):
            for i, vi in enumerate(getattr(proto, kind)):
                if vi.type.HasField("tensor_type"):
                    for d in vi.type.tensor_type.shape.dim:
                        if d.HasField("dim_param"):
                            self._check(ctx, d.dim_param, f"{graph.path}/{kind}[{i}]", "type", "dimension variable")

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        for j, name in enumerate(node.outputs):
            self._check(ctx, name, node.path, ("output", j), "value name")


def _some(found: list[tuple[str, str, Token, str]], shown: int = 3) -> str:
    """``'a', 'b', 'c' and 7 more``."""
    names = ", ".join(f"'{n}'" for n, _, _, _ in found[:shown])
    rest = len(found) - shown
    return f"{names} and {rest} more" if rest > 0 else names
