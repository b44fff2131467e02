"""E401-E404: model-local functions are unique, well-formed, and agree with the model's opsets."""

from __future__ import annotations

from onnxtext.proto import FunctionProto
from onnxtext.ir.resolve import function_key
from onnxtext.ir.schemas import get_schema
from onnxtext.analysis.check.context import CheckContext, NodeInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import attr_type_name


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


class FunctionOpsetCompatible(Rule):
    code = "E404"
    name = "function-opset-compatible"
    description = "An operator a function uses means the same at the function's and the model's version of its domain."

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        fn = node.graph.function
        res = node.resolution
        if fn is None or node.graph.owner is not None or res.schema is None or res.version is None:
            return
        model_version = ctx.opset_version(res.domain)
        if model_version is None or model_version == res.version:
            return
        theirs = get_schema(node.proto.op_type, res.domain, model_version)
        if theirs is not None and theirs.since_version == res.schema.since_version:
            return
        shown = res.domain or "''"
        ctx.report(
            self.code,
            f"'{node.proto.op_type}' differs between opset {res.version} of domain {shown} "
            f"(imported by function '{fn.name}') and opset {model_version} (imported by the model)",
            node.path,
            token="op_type",
        )
