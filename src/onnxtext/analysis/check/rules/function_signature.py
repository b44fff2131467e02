"""E402: Function input, output and attribute names are non-empty and distinct."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.proto import FunctionProto


class FunctionSignature(Rule):
    code = "E402"
    name = "function-signature"
    description = "Function input, output and attribute names are non-empty and distinct."

    def function(self, ctx: CheckContext, fn: FunctionProto, path: str) -> None:
        for kind, names in (("output", list(fn.output)),):
            seen: set[str] = set()
            for i, name in enumerate(names):
                if not name:
                    ctx.report(self.code, f"{kind} {i} of function '{fn.name}' has no name", path, token=(kind, i))
                elif name in seen:
                    ctx.report(self.code, f"function output '{name}' is declared twice", path, token=(kind, i))
                seen.add(name)
        for i, name in enumerate(fn.input):
            if not name:
                ctx.report(self.code, f"input {i} of function '{fn.name}' has no name", path, token=("input", i))
        attrs: set[str] = set()
        for name in list(fn.attribute) + [a.name for a in fn.attribute_proto]:
            if name in attrs:
                ctx.report(
                    self.code,
                    f"attribute '{name}' of function '{fn.name}' is declared twice",
                    path,
                    token=("attribute", name),
                )
            attrs.add(name)
