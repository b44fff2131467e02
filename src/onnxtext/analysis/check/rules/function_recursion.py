"""E405: A model-local function never calls itself, directly or through other functions.

A runtime without a kernel for a function expands its body in place of the call (IR spec,
"Functions"); a function reached again from its own body has no finite expansion.
``onnx.checker`` refuses such a model ("Model-local functions must not be recursive").
"""

from __future__ import annotations

from collections.abc import Iterable

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.ir.resolve import Resolver
from onnxtext.ir.walk import GraphSite, ModelVisitor, walk_model
from onnxtext.proto import FunctionProto, ModelProto, NodeProto

__all__ = ["FunctionRecursion", "function_calls"]

Call = tuple[int, str]
"""A call of a model-local function: its index in ``model.functions`` and the calling node's proto path."""


class _Calls(ModelVisitor):
    """The model-local functions each function's body calls (graphs nested in its nodes included)."""

    def __init__(self, model: ModelProto, resolver: Resolver) -> None:
        self.resolver = resolver
        self.index = {id(fn): i for i, fn in enumerate(model.functions)}
        self.calls: dict[int, list[Call]] = {}

    def nodes(self, site: GraphSite) -> Iterable[tuple[int, NodeProto]]:
        return enumerate(site.proto.node) if site.function is not None else ()

    def enter_node(self, site: GraphSite, index: int, node: NodeProto) -> None:
        assert site.function is not None
        callee = self.resolver.resolve(node, site.opsets).function_index
        if callee is None:
            return
        fn = site.function
        caller = self.index.get(id(fn))
        if caller is None:  # a copy of the function (an incremental check's): found by its key
            found = self.resolver.function(fn.domain, fn.name, fn.overload)
            if found is None:
                return
            caller = found[1]
        self.calls.setdefault(caller, []).append((callee, str(site.path.child("node", index))))


def function_calls(model: ModelProto, resolver: Resolver | None = None) -> dict[int, list[Call]]:
    """For each model-local function (by index) that calls others, the calls its body makes, in order."""
    resolver = resolver if resolver is not None else Resolver(model)
    calls = _Calls(model, resolver)
    walk_model(model, calls, resolver)
    return calls.calls


def _cycles(calls: dict[int, list[Call]]) -> list[list[Call]]:
    """One cycle through each group of functions that reach one another (its first function the
    group's first in the model): the calls from that function back to it, in order."""
    found: list[list[Call]] = []
    done: set[int] = set()
    for start in sorted(calls):
        if start in done:
            continue
        # breadth first from ``start``: the shortest way back to it, through the first calls made
        came: dict[int, tuple[int, Call] | None] = {start: None}
        queue = [start]
        back: tuple[int, Call] | None = None
        for fn in queue:
            for call in calls.get(fn, ()):
                if call[0] == start:
                    back = (fn, call)
                    break
                if call[0] not in came:
                    came[call[0]] = (fn, call)
                    queue.append(call[0])
            if back is not None:
                break
        if back is None:
            continue
        cycle = [back[1]]
        at = back[0]
        while at != start:
            step = came[at]
            assert step is not None
            cycle.append(step[1])
            at = step[0]
        cycle.reverse()
        found.append(cycle)
        done.update(call[0] for call in cycle)
    return found


class FunctionRecursion(Rule):
    code = "E405"
    name = "function-recursion"
    description = "A model-local function never calls itself, directly or through other functions."

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        if not model.functions:
            return
        functions = model.functions
        for cycle in _cycles(function_calls(model, ctx.resolver)):
            start = cycle[-1][0]
            names = [_name(functions[start])] + [_name(functions[callee]) for callee, _ in cycle]
            ctx.report(
                self.code,
                f"model-local function {names[0]} calls itself"
                + (f" through {' -> '.join(names[1:-1])}" if len(cycle) > 1 else "")
                + f" ({' -> '.join(names)}): a function's body is expanded in place of its calls, and a "
                "recursive one has no end",
                f"functions[{start}]",
                token="name",
                related=tuple((f"calls {_name(functions[callee])} here", path, "op_type") for callee, path in cycle),
            )


def _name(fn: FunctionProto) -> str:
    domain = f"{fn.domain}." if fn.domain else ""
    overload = f":{fn.overload}" if fn.overload else ""
    return f"'{domain}{fn.name}{overload}'"
