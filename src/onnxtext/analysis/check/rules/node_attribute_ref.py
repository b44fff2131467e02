"""E309: attribute references (``@name``) appear only in functions and name a declared attribute."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, NodeInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import closest, did_you_mean
from onnxtext.analysis.check.rules.node_attributes import function_attribute_names
from onnxtext.proto import AttributeProto


class AttributeReference(Rule):
    code = "E309"
    name = "attribute-reference"
    description = (
        "An attribute reference '@name' is only allowed in a function body and must name one of its attributes."
    )

    def attribute(self, ctx: CheckContext, node: NodeInfo, index: int, attr: AttributeProto) -> None:
        ref = attr.ref_attr_name
        if not ref:
            return
        fn = node.graph.function
        if fn is None:
            ctx.report(
                self.code,
                f"attribute '{attr.name}' refers to '@{ref}' outside a function",
                node.path,
                token=("attribute", index),
            )
            return
        names = function_attribute_names(fn)
        if ref not in names:
            hint = closest(ref, names)
            fix = ctx.replacing(f"write '@{hint}'", node.path, ("attribute_value", index), f"@{hint}") if hint else None
            ctx.report(
                self.code,
                f"function '{fn.name}' has no attribute '{ref}'{did_you_mean(hint)}",
                node.path,
                token=("attribute", index),
                fix=fix,
            )
