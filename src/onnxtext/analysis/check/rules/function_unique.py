"""E401: Model-local functions are identified by (domain, name, overload): no two may share it."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.ir.resolve import function_key
from onnxtext.proto import FunctionProto


class UniqueFunctions(Rule):
    code = "E401"
    name = "unique-functions"
    description = "Model-local functions are identified by (domain, name, overload): no two may share it."

    def function(self, ctx: CheckContext, fn: FunctionProto, path: str) -> None:
        first = ctx.resolver.functions.get(function_key(fn))
        if not fn.name:
            ctx.report(self.code, "function has no name", path, token="name")
        elif first is not None and first[0] is not fn:
            overload = f" overload '{fn.overload}'" if fn.overload else ""
            ctx.report(
                self.code,
                f"function '{fn.name}'{overload} of domain '{fn.domain}' is defined twice",
                path,
                token="name",
                related=(("first defined here", f"functions[{first[1]}]", "name"),),
            )
