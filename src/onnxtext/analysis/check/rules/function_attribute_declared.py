"""W302: A model-local function declares the attributes its calls pass and its body refers to.

A runtime that expands a function looks a reference ``@name`` up by name among the call's
attributes, declared or not (``onnx.checker`` and onnxruntime accept such models, and
``onnx.inliner`` substitutes the call's value), so an undeclared one is no error; but the
function's signature no longer says what it takes, and a misspelt name silently reads nothing.
"""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, NodeInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import closest, did_you_mean
from onnxtext.analysis.check.rules.node_attributes import function_attribute_names, internal_attribute
from onnxtext.proto import AttributeProto


class FunctionAttributeDeclared(Rule):
    code = "W302"
    name = "function-attribute-declared"
    description = "A model-local function declares the attributes its calls pass and its body refers to."

    def attribute(self, ctx: CheckContext, node: NodeInfo, index: int, attr: AttributeProto) -> None:
        called = node.resolution.function
        if called is not None and not internal_attribute(attr.name):
            known = function_attribute_names(called)
            if attr.name not in known:
                hint = closest(attr.name, known)
                ctx.report(
                    self.code,
                    f"function '{called.name}' declares no attribute '{attr.name}'{did_you_mean(hint)}"
                    " (its body reads it only if it refers to it by that name)",
                    node.path,
                    token=("attribute", index),
                    fix=ctx.replacing(f"write '{hint}'", node.path, ("attribute_name", index), hint) if hint else None,
                )
        ref = attr.ref_attr_name
        body = node.graph.function
        if ref and body is not None:
            known = function_attribute_names(body)
            if ref not in known:
                hint = closest(ref, known)
                ctx.report(
                    self.code,
                    f"function '{body.name}' declares no attribute '{ref}'{did_you_mean(hint)}"
                    " (the reference takes the call's attribute of that name, or nothing)",
                    node.path,
                    token=("attribute", index),
                    fix=ctx.replacing(f"write '@{hint}'", node.path, ("attribute_value", index), f"@{hint}")
                    if hint
                    else None,
                )
