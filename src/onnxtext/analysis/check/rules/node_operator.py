"""E301: The operator of a node must exist (and not be deprecated) in the imported version of an ONNX domain.

Its helpers are shared with ``node_domain_imported``.
"""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, NodeInfo, Resolution
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import did_you_mean
from onnxtext.ir.schemas import known_domains, schema_versions, suggest_operator
from onnxtext.proto import FunctionProto


def shown_domain(domain: str) -> str:
    return f"'{domain}'" if domain else "'' (ai.onnx)"


class KnownOperator(Rule):
    code = "E301"
    name = "known-operator"
    description = "The operator of a node must exist (and not be deprecated) in the imported version of an ONNX domain."

    def applies_to(self, resolution: Resolution) -> bool:
        schema = resolution.schema
        return (
            resolution.function is None
            and resolution.version is not None
            and resolution.domain in known_domains()
            and (schema is None or schema.deprecated)
        )

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        res = node.resolution
        if res.function is not None or res.version is None or res.domain not in known_domains():
            return
        op = node.proto.op_type
        if res.schema is not None:
            if res.schema.deprecated:
                ctx.report(
                    self.code,
                    f"operator '{op}' is deprecated since opset {res.schema.since_version} of domain "
                    f"{shown_domain(res.domain)} (the model imports {res.version})",
                    node.path,
                    token="op_type",
                )
            return
        later = [s.since_version for s in schema_versions(op, res.domain) if s.since_version > res.version]
        if later:
            owner = "header" if node.graph.function is None else (function_path(ctx, node.graph.function) or "header")
            ctx.report(
                self.code,
                f"operator '{op}' exists from opset {later[0]} of domain {shown_domain(res.domain)}; "
                f"this {'model' if owner == 'header' else 'function'} imports {res.version}",
                node.path,
                token="op_type",
                fix=ctx.raising_opset(f"import opset {later[0]}", owner, res.domain, later[0]),
            )
        else:
            hint = suggest_operator(op, res.domain, res.version)
            ctx.report(
                self.code,
                f"unknown operator '{op}' in opset {res.version} of domain "
                f"{shown_domain(res.domain)}{did_you_mean(hint)}",
                node.path,
                token="op_type",
                fix=ctx.replacing(f"write '{hint}'", node.path, "op_type", hint) if hint else None,
            )


def function_path(ctx: CheckContext, fn: FunctionProto) -> str | None:
    """The proto path of a model-local function (``functions[2]``)."""
    for i, candidate in enumerate(ctx.model.functions):
        if candidate is fn:
            return f"functions[{i}]"
    return None
