"""E301 / W301 / E302: a node's operator resolves in an imported opset (or a model-local function)."""

from __future__ import annotations

from onnxtext.diagnostics import Fix
from onnxtext.ir.schemas import known_domains, suggest_operator
from onnxtext.proto import FunctionProto
from onnxtext.analysis.check.context import CheckContext, NodeInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import closest, did_you_mean
from onnxtext.analysis.check.rules.model_versions import latest_opset_for_ir


def _shown(domain: str) -> str:
    return f"'{domain}'" if domain else "'' (ai.onnx)"


class KnownOperator(Rule):
    code = "E301"
    name = "known-operator"
    description = "The operator of a node must exist (and not be deprecated) in the imported version of an ONNX domain."

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        res = node.resolution
        if res.function is not None or res.version is None or res.domain not in known_domains():
            return
        op = node.proto.op_type
        if res.schema is None:
            hint = suggest_operator(op, res.domain, res.version)
            ctx.report(
                self.code,
                f"unknown operator '{op}' in opset {res.version} of domain {_shown(res.domain)}{did_you_mean(hint)}",
                node.path,
                token="op_type",
                fix=ctx.replacing(f"write '{hint}'", node.path, "op_type", hint) if hint else None,
            )
        elif res.schema.deprecated:
            ctx.report(
                self.code,
                f"operator '{op}' is deprecated since opset {res.schema.since_version} of domain "
                f"{_shown(res.domain)} (the model imports {res.version})",
                node.path,
                token="op_type",
            )


class LocalFunctionResolved(Rule):
    code = "W301"
    name = "local-function-resolved"
    description = "A node in a domain of model-local functions should call one of them."

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


class DomainImported(Rule):
    code = "E302"
    name = "domain-imported"
    description = "The domain of a node must be imported by the model (or by the function the node is in)."

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        res = node.resolution
        if res.version is not None:
            return
        fn = node.graph.function
        if fn is None and not ctx.model.opset_import:
            return  # E103 already says there is no opset import at all
        where = f"function '{fn.name}'" if fn is not None else "the model"
        shown = _shown(res.domain)
        # The version of an ONNX domain is the latest the IR version allows; a custom
        # domain's version is the user's to choose, so that fix has no edit.
        version = latest_opset_for_ir(res.domain, ctx.ir_version) if res.domain in known_domains() else None
        entry = f'"{node.proto.domain}" : {version if version is not None else "VERSION"}'
        message = f"add '{entry}' to the opset_import of {where}"
        owner = "header" if fn is None else _function_path(ctx, fn)
        if version is None or owner is None:
            fix = Fix(message)
        else:
            fix = ctx.adding_item(message, owner, "opset_import", entry)
        ctx.report(
            self.code,
            f"domain {shown} of operator '{node.proto.op_type}' is not imported by {where}",
            node.path,
            token="domain",
            fix=fix,
        )


def _function_path(ctx: CheckContext, fn: FunctionProto) -> str | None:
    """The proto path of a model-local function (``functions[2]``)."""
    for i, candidate in enumerate(ctx.model.functions):
        if candidate is fn:
            return f"functions[{i}]"
    return None
