"""E305: Every attribute of a node is one its operator declares (a model-local function's: W302).

Its helpers are shared with ``node_attribute_ref``, ``node_attribute_single_value``, ``node_attribute_type``.
"""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, NodeInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import closest, did_you_mean
from onnxtext.proto import AttributeProto, FunctionProto

VALUE_FIELDS = ("f", "i", "s", "t", "g", "sparse_tensor", "tp")
LIST_FIELDS = ("floats", "ints", "strings", "tensors", "graphs", "sparse_tensors", "type_protos")


def function_attribute_names(fn: FunctionProto) -> list[str]:
    return list(fn.attribute) + [a.name for a in fn.attribute_proto]


def internal_attribute(name: str) -> bool:
    return name.startswith("__")  # onnx lets internal attributes through unchecked


class KnownAttribute(Rule):
    code = "E305"
    name = "known-attribute"
    description = "Every attribute of a node is one its operator declares."

    def attribute(self, ctx: CheckContext, node: NodeInfo, index: int, attr: AttributeProto) -> None:
        res = node.resolution
        if res.schema is None:
            return  # a model-local function's attributes: W302
        known = [a.name for a in res.schema.attributes]
        owner = f"operator '{node.proto.op_type}' (opset {res.version})"
        if attr.name in known or internal_attribute(attr.name):
            return
        hint = closest(attr.name, known)
        fix = ctx.replacing(f"write '{hint}'", node.path, ("attribute_name", index), hint) if hint else None
        ctx.report(
            self.code,
            f"{owner} has no attribute '{attr.name}'{did_you_mean(hint)}",
            node.path,
            token=("attribute", index),
            fix=fix,
        )


INTEGER_FORM = {"FLOAT": "INT", "FLOATS": "INTS"}
"""The attribute type integer literals give where a float (list) is declared."""


def as_floats(attr: AttributeProto) -> str:
    """An INT or INTS attribute's value written as floats: ``2.0``, ``[1.0, 2.0]``."""
    if attr.type == AttributeProto.INT:
        return repr(float(attr.i))
    return "[" + ", ".join(repr(float(i)) for i in attr.ints) + "]"
