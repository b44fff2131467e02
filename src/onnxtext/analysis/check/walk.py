"""The checker's visitor of the model walk (:mod:`onnxtext.ir.walk`): scopes, and every rule's hooks."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from onnxtext.analysis.check.context import CheckContext, Definition, GraphInfo, NodeInfo, Resolution, Scope, Token
from onnxtext.analysis.check.rule import Rule
from onnxtext.ir.scoping import outer_scope
from onnxtext.ir.walk import GraphSite, ModelVisitor, walk_model
from onnxtext.proto import AttributeProto, FunctionProto, ModelProto, NodeProto

__all__ = ["walk"]

_HOOKS = ("model", "graph", "graph_end", "node", "attribute", "tensor", "function", "finish")


class _Checker(ModelVisitor):
    def __init__(self, ctx: CheckContext, rules: Sequence[Rule]) -> None:
        self.ctx = ctx
        # Only the rules that override a hook are called for it.
        self.hooks = {hook: [r for r in rules if getattr(type(r), hook) is not getattr(Rule, hook)] for hook in _HOOKS}
        self.node_rules = self.hooks["node"]
        self.node_hooks: dict[int, tuple[Resolution, list[Callable[[CheckContext, NodeInfo], None]]]] = {}
        """id(resolution) → (it, the node hooks of the rules that apply to it): resolutions
        are shared by the nodes that call one operator."""
        self.attribute_hooks = [r.attribute for r in self.hooks["attribute"]]
        self.tensor_hooks = [r.tensor for r in self.hooks["tensor"]]
        self.outputs: dict[int, list[list[str]]] = {}
        """id(site) → the output names of each of its nodes (read once, for the scopes and the rules)."""
        self.infos: dict[int, GraphInfo] = {}
        """id(site) → its GraphInfo, while the site is being walked (and the main graph's, for training)."""
        self.current: dict[int, NodeInfo] = {}
        """id(site) → the node of it being walked (the owner of graphs nested in it)."""
        self.main: GraphInfo | None = None
        self.state: Scope | None = None

    def model(self, model: ModelProto) -> None:
        for rule in self.hooks["model"]:
            rule.model(self.ctx, model)
        walk_model(model, self, self.ctx.resolver)
        for rule in self.hooks["finish"]:
            rule.finish(self.ctx)

    def state_scope(self, model: ModelProto) -> Scope:
        """The state variables an initialization graph sees (and whose names its outputs may bind):
        the initializers of the main graph and of the algorithm graphs."""
        if self.state is None:
            self.state = Scope(None)
            for k, t in enumerate(model.graph.initializer):
                self.state.define(Definition(t.name, f"graph/initializer[{k}]", "name", "state"))
            for i, info in enumerate(model.training_info):
                for k, t in enumerate(info.algorithm.initializer):
                    path = f"training_info[{i}]/algorithm/initializer[{k}]"
                    self.state.define(Definition(t.name, path, "name", "state"))
        return self.state

    def _damage(self, info: GraphInfo, inherited: bool) -> None:
        """Names defined by statements damaged in the text count as defined (of unknown type)."""
        damage = self.ctx.damage.get(info.path)
        info.incomplete = inherited or (damage is not None and not damage.complete)
        if damage is not None:
            for name in sorted(damage.names):
                info.scope.define(Definition(name, info.path, None, "damaged"))

    def enter_graph(self, site: GraphSite) -> None:
        path = str(site.path)
        proto = site.proto
        if isinstance(proto, FunctionProto):
            for rule in self.hooks["function"]:
                rule.function(self.ctx, proto, path)
            scope = Scope(outer_scope("function"))
            for i, name in enumerate(proto.input):
                scope.define(Definition(name, path, ("input", i), "function-input"))
            info = GraphInfo(path, scope, site.opsets, proto, function=proto)
            self._damage(info, False)
        else:
            outer = self.infos[id(site.parent)].scope if site.parent is not None else None  # the walk's outer_scope
            state = self.state_scope(self.ctx.model) if site.kind == "initialization" else None
            scope = Scope(outer_scope(site.kind, enclosing=outer, main=outer, state=state))
            for i, vi in enumerate(proto.input):
                scope.define(Definition(vi.name, f"{path}/input[{i}]", "name", "input"))
            initializers = list(proto.initializer)
            initializer_paths = [f"{path}/initializer[{i}]" for i in range(len(initializers))]
            for t, where in zip(initializers, initializer_paths, strict=True):
                scope.define(Definition(t.name, where, "name", "initializer"))
            owner = self.current[id(site.parent)] if site.kind == "subgraph" and site.parent is not None else None
            training = site.kind if site.kind in ("initialization", "algorithm") else None
            info = GraphInfo(
                path,
                scope,
                site.opsets,
                proto,
                is_main=site.kind == "main",
                function=site.function,
                owner=owner,
                training=training,
            )
            self._damage(info, owner.graph.incomplete if owner is not None else False)
            for t, where in zip(initializers, initializer_paths, strict=True):
                self.tensor(t, where, None)
        self.infos[id(site)] = info
        outputs = self.outputs[id(site)] = [list(node.output) for node in proto.node]
        later = info.later
        for k, names in enumerate(outputs):
            for j, out in enumerate(names):
                if out and out not in later:
                    later[out] = Definition(out, f"{path}/node[{k}]", ("output", j), "node")
        for rule in self.hooks["graph"]:
            rule.graph(self.ctx, info)

    def leave_graph(self, site: GraphSite) -> None:
        info = self.infos[id(site)]
        for rule in self.hooks["graph_end"]:
            rule.graph_end(self.ctx, info)
        del self.outputs[id(site)]
        if site.kind != "main":  # the main graph's scope is the algorithm graphs' parent
            del self.infos[id(site)]

    def enter_node(self, site: GraphSite, index: int, node: NodeProto) -> None:
        info = self.infos[id(site)]
        ctx = self.ctx
        res = ctx.resolve(node, info.opsets)
        n = NodeInfo(node, f"{info.path}/node[{index}]", info, res, list(node.input), self.outputs[id(site)][index])
        self.current[id(site)] = n
        found = self.node_hooks.get(id(res))
        if found is None:
            found = self.node_hooks[id(res)] = (res, [r.node for r in self.node_rules if r.applies_to(res)])
        for hook in found[1]:
            hook(ctx, n)

    def attribute(self, site: GraphSite, node_index: int, node: NodeProto, index: int, attr: AttributeProto) -> None:
        n = self.current[id(site)]
        ctx = self.ctx
        for hook in self.attribute_hooks:
            hook(ctx, n, index, attr)
        path = f"{n.path}/attribute[{index}]"
        if attr.HasField("t"):
            self.tensor(attr.t, path, None)
        for k, t in enumerate(attr.tensors):
            self.tensor(t, path, ("tensors", k))

    def leave_node(self, site: GraphSite, index: int, node: NodeProto) -> None:
        n = self.current.pop(id(site))
        info = n.graph
        later, scope = info.later, info.scope
        for j, out in enumerate(n.outputs):
            if out:
                d = later.pop(out, None)
                if d is None or d.path != n.path or d.token != ("output", j):  # else it is this one's, made ahead
                    d = Definition(out, n.path, ("output", j), "node")
                scope.define(d)

    def tensor(self, tensor: object, path: str, token: Token) -> None:
        ctx = self.ctx
        for hook in self.tensor_hooks:
            hook(ctx, tensor, path, token)  # type: ignore[arg-type]


def walk(ctx: CheckContext, rules: Sequence[Rule]) -> None:
    """Run ``rules`` over ``ctx.model``; diagnostics accumulate in ``ctx.diagnostics``."""
    _Checker(ctx, rules).model(ctx.model)
