"""E403: A function attribute with a default value states its type and holds a value, not a reference."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import attr_type_name
from onnxtext.proto import FunctionProto


class FunctionAttributeDefault(Rule):
    code = "E403"
    name = "function-attribute-default"
    description = "A function attribute with a default value states its type and holds a value, not a reference."

    def function(self, ctx: CheckContext, fn: FunctionProto, path: str) -> None:
        for k, attr in enumerate(fn.attribute_proto):
            apath = f"{path}/attribute_proto[{k}]"
            if not attr.type:
                ctx.report(self.code, f"default of attribute '{attr.name}' has no type", apath, token="name")
            elif attr.ref_attr_name:
                ctx.report(
                    self.code,
                    f"default of attribute '{attr.name}' ({attr_type_name(attr.type)}) cannot be a reference",
                    apath,
                    token="name",
                )
