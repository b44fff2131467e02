"""W301: A node in a domain of model-local functions should call one of them."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, NodeInfo, Resolution
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import closest, did_you_mean
from onnxtext.ir.schemas import known_domains


class LocalFunctionResolved(Rule):
    code = "W301"
    name = "local-function-resolved"
    description = "A node in a domain of model-local functions should call one of them."

    def applies_to(self, resolution: Resolution) -> bool:
        return resolution.function is None and resolution.domain not in known_domains()

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        res = node.resolution
        if res.function is not None or res.domain in known_domains():
            return
        op = node.proto.op_type
        overloads = ctx.resolver.overloads(res.domain, op)
        if overloads:
            # The name exists: only the overload is wrong (a typo, or a function not written yet).
            shown = ", ".join(f"'{o}'" for o in overloads)
            hint = closest(node.proto.overload, [o for o in overloads if o])
            ctx.report(
                self.code,
                f"model-local function '{op}' of domain '{res.domain}' has no overload '{node.proto.overload}' "
                f"(it has {shown}){did_you_mean(hint)}; a runtime must provide this operator",
                node.path,
                token="op_type",
            )
            return
        names = [name for (domain, name, _) in ctx.resolver.functions if domain == res.domain]
        if not names:
            return
        overload = f" (overload '{node.proto.overload}')" if node.proto.overload else ""
        hint = closest(op, names)
        ctx.report(
            self.code,
            f"no model-local function '{op}'{overload} in domain '{res.domain}'"
            f"{did_you_mean(hint)}; a runtime must provide this operator",
            node.path,
            token="op_type",
            fix=ctx.replacing(f"write '{hint}'", node.path, "op_type", hint) if hint else None,
        )
