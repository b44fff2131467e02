"""E303: A node has as many inputs as its operator (or model-local function) accepts; required ones are not empty.

Its helpers are shared with ``node_output_arity``.
"""

from __future__ import annotations

from collections.abc import Sequence

from onnxtext.analysis.check.context import CheckContext, NodeInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.ir.schemas import UNBOUNDED, FormalParameter


def _range(low: int, high: int) -> str:
    if high >= UNBOUNDED:
        return f"at least {low}"
    return f"{low}" if low == high else f"{low} to {high}"


def check_arity(
    ctx: CheckContext,
    code: str,
    node: NodeInfo,
    kind: str,
    actual: Sequence[str],
    formals: Sequence[FormalParameter],
    low: int,
    high: int,
) -> None:
    op = node.proto.op_type
    n = len(actual)
    if n < low or n > high:
        index = min(n, high) if n > high else None
        token = (kind, index) if index is not None else "op_type"
        plural = "" if low == high == 1 else "s"
        ctx.report(code, f"'{op}' takes {_range(low, high)} {kind}{plural}, got {n}", node.path, token=token)
        return
    for i, name in enumerate(actual):
        if i >= len(formals):
            break
        formal = formals[i]
        if formal.is_variadic:
            if formal.min_arity <= n - i:
                break
            ctx.report(
                code,
                f"'{op}' takes at least {formal.min_arity} values for variadic {kind} '{formal.name}', got {n - i}",
                node.path,
                token="op_type",
            )
            break
        if not name and formal.option == "single":
            ctx.report(
                code,
                f"{kind} {i} ('{formal.name}') of '{op}' is required but is empty",
                node.path,
                token=(kind, i),
            )


def check_node_arity(ctx: CheckContext, code: str, node: NodeInfo, kind: str) -> None:
    """The node's ``kind`` (``input`` or ``output``) count against what its operator or local function takes."""
    res = node.resolution
    actual = node.inputs if kind == "input" else node.outputs
    if res.schema is not None:
        s = res.schema
        if kind == "input":
            check_arity(ctx, code, node, kind, actual, s.inputs, s.min_input, s.max_input)
        else:
            check_arity(ctx, code, node, kind, actual, s.outputs, s.min_output, s.max_output)
        return
    f = res.function
    declared = (f.input if kind == "input" else f.output) if f is not None else None
    if f is None or declared is None:
        return
    if len(actual) > len(declared):
        takes = f"takes at most {len(declared)} inputs" if kind == "input" else f"has {len(declared)} outputs"
        ctx.report(code, f"function '{f.name}' {takes}, got {len(actual)}", node.path, token=(kind, len(declared)))
    elif kind == "output" and len(actual) < len(declared):
        # inputs may be left off (missing optional ones), outputs not: the function's body gives
        # each of them, and onnx's inference and onnxruntime refuse a call with fewer
        ctx.report(
            code,
            f"function '{f.name}' has {len(declared)} outputs, got {len(actual)}: a call names each of them",
            node.path,
            token="op_type",
        )


class InputArity(Rule):
    code = "E303"
    name = "input-arity"
    description = (
        "A node has as many inputs as its operator (or model-local function) accepts; required ones are not empty."
    )

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        check_node_arity(ctx, self.code, node, "input")
