"""One walk over a model that maintains scopes and calls every rule's hooks."""

from __future__ import annotations

from collections.abc import Sequence

from onnxtext.proto import AttributeProto, FunctionProto, GraphProto, ModelProto
from onnxtext.analysis.check.context import CheckContext, Definition, GraphInfo, NodeInfo, Scope, Token
from onnxtext.analysis.check.rule import Rule

__all__ = ["walk"]

_HOOKS = ("model", "graph", "graph_end", "node", "attribute", "tensor", "function")


class _Walker:
    def __init__(self, ctx: CheckContext, rules: Sequence[Rule]) -> None:
        self.ctx = ctx
        # Only the rules that override a hook are called for it.
        self.hooks = {
            hook: [r for r in rules if getattr(type(r), hook) is not getattr(Rule, hook)] for hook in _HOOKS
        }

    def model(self, model: ModelProto) -> None:
        for rule in self.hooks["model"]:
            rule.model(self.ctx, model)
        main = self.graph(model.graph, "graph", None, self.ctx.opsets, is_main=True)
        self.training(model, main.scope)
        for i, fn in enumerate(model.functions):
            self.function(fn, f"functions[{i}]")

    def training(self, model: ModelProto, main: Scope) -> None:
        """The graphs of ``training_info``, in the scopes the IR spec gives them.

        An algorithm graph runs as the concatenation of the main graph and itself, so it
        sees every value of the main graph. An initialization graph has no inputs; it sees
        the state variables (initializers of the main and the algorithm graphs), and its
        outputs may carry their names, as they are bound to them.
        """
        if not len(model.training_info):
            return
        state = Scope(None)
        for k, t in enumerate(model.graph.initializer):
            state.define(Definition(t.name, f"graph/initializer[{k}]", "name", "state"))
        for i, info in enumerate(model.training_info):
            for k, t in enumerate(info.algorithm.initializer):
                state.define(Definition(t.name, f"training_info[{i}]/algorithm/initializer[{k}]", "name", "state"))
        for i, info in enumerate(model.training_info):
            path = f"training_info[{i}]"
            if info.HasField("initialization"):
                self.graph(info.initialization, f"{path}/initialization", state, self.ctx.opsets, training="initialization")
            if info.HasField("algorithm"):
                self.graph(info.algorithm, f"{path}/algorithm", main, self.ctx.opsets, training="algorithm")

    def graph(
        self,
        proto: GraphProto,
        path: str,
        parent: Scope | None,
        opsets: dict[str, int],
        *,
        is_main: bool = False,
        function: FunctionProto | None = None,
        owner: NodeInfo | None = None,
        training: str | None = None,
    ) -> GraphInfo:
        scope = Scope(parent)
        for i, vi in enumerate(proto.input):
            scope.define(Definition(vi.name, f"{path}/input[{i}]", "name", "input"))
        for i, t in enumerate(proto.initializer):
            scope.define(Definition(t.name, f"{path}/initializer[{i}]", "name", "initializer"))
        info = GraphInfo(path, scope, opsets, proto, is_main=is_main, function=function, owner=owner, training=training)
        self._damage(info, owner.graph.incomplete if owner is not None else False)
        for i, t in enumerate(proto.initializer):
            self.tensor(t, f"{path}/initializer[{i}]", None)
        self.body(info)
        return info

    def function(self, fn: FunctionProto, path: str) -> None:
        for rule in self.hooks["function"]:
            rule.function(self.ctx, fn, path)
        scope = Scope(None)
        for i, name in enumerate(fn.input):
            scope.define(Definition(name, path, ("input", i), "function-input"))
        info = GraphInfo(path, scope, self.ctx.function_opsets(fn), fn, function=fn)
        self._damage(info, False)
        self.body(info)

    def _damage(self, info: GraphInfo, inherited: bool) -> None:
        """Names defined by statements damaged in the text count as defined (of unknown type)."""
        damage = self.ctx.damage.get(info.path)
        info.incomplete = inherited or (damage is not None and not damage.complete)
        if damage is not None:
            for name in sorted(damage.names):
                info.scope.define(Definition(name, info.path, None, "damaged"))

    def body(self, info: GraphInfo) -> None:
        nodes = info.proto.node
        for k, node in enumerate(nodes):
            for j, out in enumerate(node.output):
                if out and out not in info.later:
                    info.later[out] = Definition(out, f"{info.path}/node[{k}]", ("output", j), "node")
        for rule in self.hooks["graph"]:
            rule.graph(self.ctx, info)
        for k, node in enumerate(nodes):
            path = f"{info.path}/node[{k}]"
            n = NodeInfo(node, path, info, self.ctx.resolve(node, info.opsets))
            for rule in self.hooks["node"]:
                rule.node(self.ctx, n)
            for i, attr in enumerate(node.attribute):
                self.attribute(n, i, attr)
            for j, out in enumerate(node.output):
                if out:
                    info.later.pop(out, None)
                    info.scope.define(Definition(out, path, ("output", j), "node"))
        for rule in self.hooks["graph_end"]:
            rule.graph_end(self.ctx, info)

    def attribute(self, n: NodeInfo, index: int, attr: AttributeProto) -> None:
        for rule in self.hooks["attribute"]:
            rule.attribute(self.ctx, n, index, attr)
        path = f"{n.path}/attribute[{index}]"
        if attr.HasField("t"):
            self.tensor(attr.t, path, None)
        for k, t in enumerate(attr.tensors):
            self.tensor(t, path, ("tensors", k))
        graphs = [(attr.g, f"{path}/g")] if attr.HasField("g") else []
        graphs += [(g, f"{path}/graphs[{k}]") for k, g in enumerate(attr.graphs)]
        for g, gpath in graphs:
            self.graph(g, gpath, n.scope, n.graph.opsets, function=n.graph.function, owner=n)

    def tensor(self, tensor: object, path: str, token: Token) -> None:
        for rule in self.hooks["tensor"]:
            rule.tensor(self.ctx, tensor, path, token)  # type: ignore[arg-type]


def walk(ctx: CheckContext, rules: Sequence[Rule]) -> None:
    """Run ``rules`` over ``ctx.model``; diagnostics accumulate in ``ctx.diagnostics``."""
    _Walker(ctx, rules).model(ctx.model)
