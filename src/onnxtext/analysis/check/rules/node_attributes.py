"""E305 / E306 / E307 / E308 / E310: node attributes fit the operator's attribute list."""

from __future__ import annotations

from onnxtext.diagnostics import Fix
from onnxtext.proto import AttributeProto, FunctionProto
from onnxtext.analysis.check.context import CheckContext, NodeInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import attr_type_name, closest, did_you_mean

_VALUE_FIELDS = ("f", "i", "s", "t", "g", "sparse_tensor", "tp")
_LIST_FIELDS = ("floats", "ints", "strings", "tensors", "graphs", "sparse_tensors", "type_protos")


def function_attribute_names(fn: FunctionProto) -> list[str]:
    return list(fn.attribute) + [a.name for a in fn.attribute_proto]


def _internal(name: str) -> bool:
    return name.startswith("__")  # onnx lets internal attributes through unchecked


class KnownAttribute(Rule):
    code = "E305"
    name = "known-attribute"
    description = "Every attribute of a node is one its operator (or model-local function) declares."

    def attribute(self, ctx: CheckContext, node: NodeInfo, index: int, attr: AttributeProto) -> None:
        res = node.resolution
        if res.schema is not None:
            known = [a.name for a in res.schema.attributes]
            owner = f"operator '{node.proto.op_type}' (opset {res.version})"
        elif res.function is not None:
            known = function_attribute_names(res.function)
            owner = f"function '{res.function.name}'"
        else:
            return
        if attr.name in known or _internal(attr.name):
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


class AttributeType(Rule):
    code = "E306"
    name = "attribute-type"
    description = "An attribute has the type its operator declares."

    def attribute(self, ctx: CheckContext, node: NodeInfo, index: int, attr: AttributeProto) -> None:
        schema = node.resolution.schema
        if not attr.type:
            ctx.report(self.code, f"attribute '{attr.name}' has no type", node.path, token=("attribute", index))
            return
        spec = schema.attribute(attr.name) if schema is not None else None
        if spec is None or attr_type_name(attr.type) == spec.type:
            return
        if _INTEGER_FORM.get(spec.type) == attr_type_name(attr.type):
            # An integer literal where a float is declared lowers to an INT attribute,
            # which runtimes refuse: say how to write it as a float.
            kind = "a float" if spec.type == "FLOAT" else "a list of floats"
            written = _as_floats(attr)
            # An explicit ``alpha: int = 2`` also needs its declared type changed.
            edits = (
                ctx.edit(node.path, ("attribute_value", index), written),
                ctx.edit(node.path, ("attribute_type", index), spec.type.lower()),
            )
            ctx.report(
                self.code,
                f"attribute '{attr.name}' of {node.proto.op_type} is {kind}; write {written}",
                node.path,
                token=("attribute", index),
                fix=Fix(f"write {written}", tuple(e for e in edits if e is not None)),
            )
            return
        ctx.report(
            self.code,
            f"attribute '{attr.name}' of '{node.proto.op_type}' must be of type {spec.type}, "
            f"not {attr_type_name(attr.type)}",
            node.path,
            token=("attribute", index),
        )


_INTEGER_FORM = {"FLOAT": "INT", "FLOATS": "INTS"}
"""The attribute type integer literals give where a float (list) is declared."""


def _as_floats(attr: AttributeProto) -> str:
    """An INT or INTS attribute's value written as floats: ``2.0``, ``[1.0, 2.0]``."""
    if attr.type == AttributeProto.INT:
        return repr(float(attr.i))
    return "[" + ", ".join(repr(float(i)) for i in attr.ints) + "]"


class RequiredAttribute(Rule):
    code = "E307"
    name = "required-attribute"
    description = "Every required attribute of the operator is given."

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        schema = node.resolution.schema
        if schema is None:
            return
        given = {a.name for a in node.proto.attribute}
        for spec in schema.required_attributes:
            if spec.name not in given:
                ctx.report(
                    self.code,
                    f"'{node.proto.op_type}' needs attribute '{spec.name}' ({spec.type})",
                    node.path,
                    token="op_type",
                )


class UniqueAttributes(Rule):
    code = "E308"
    name = "unique-attributes"
    description = "An attribute name appears at most once per node."

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        seen: dict[str, int] = {}
        for i, attr in enumerate(node.proto.attribute):
            if not attr.name:
                ctx.report(self.code, "attribute has no name", node.path, token=("attribute", i))
            elif attr.name in seen:
                ctx.report(
                    self.code,
                    f"attribute '{attr.name}' is given more than once",
                    node.path,
                    token=("attribute", i),
                    related=(("first given here", node.path, ("attribute", seen[attr.name])),),
                )
            else:
                seen[attr.name] = i


class AttributeSingleValue(Rule):
    code = "E310"
    name = "attribute-single-value"
    description = "An attribute holds one value field, and none when it is a reference (@name)."

    def attribute(self, ctx: CheckContext, node: NodeInfo, index: int, attr: AttributeProto) -> None:
        used = [f for f in _VALUE_FIELDS if attr.HasField(f)]
        used += [f for f in _LIST_FIELDS if len(getattr(attr, f))]
        if len(used) > 1:
            ctx.report(
                self.code,
                f"attribute '{attr.name}' holds several values ({', '.join(used)})",
                node.path,
                token=("attribute", index),
            )
        elif used and attr.ref_attr_name and node.graph.function is not None:
            ctx.report(
                self.code,
                f"attribute '{attr.name}' refers to '@{attr.ref_attr_name}' and also holds a value",
                node.path,
                token=("attribute", index),
            )
