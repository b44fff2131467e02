"""The checker's visitor of the model walk (:mod:`onnxtext.ir.walk`): scopes, and every rule's hooks."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from onnxtext.analysis.check.context import CheckContext, Definition, GraphInfo, NodeInfo, Resolution, Scope, Token
from onnxtext.analysis.check.reuse import C90Entry, Later, Plan
from onnxtext.analysis.check.rule import Rule
from onnxtext.ir.scoping import outer_scope
from onnxtext.ir.walk import GraphSite, ModelVisitor, walk_model
from onnxtext.proto import AttributeProto, FunctionProto, ModelProto, NodeProto

__all__ = ["walk"]

_HOOKS = ("model", "graph", "graph_end", "node", "attribute", "tensor", "function", "finish")


class _Checker(ModelVisitor):
    def __init__(self, ctx: CheckContext, rules: Sequence[Rule], plan: Plan | None = None) -> None:
        self.ctx = ctx
        collectors = [c for c in (r.collected() for r in rules) if c is not None]
        self.plan = plan if len(collectors) <= 1 else None
        """The main graph's nodes checked anew and those taken from the previous version (``None``: all checked)."""
        self.collected: list[C90Entry] = collectors[0] if collectors else []
        self.main_site: GraphSite | None = None
        self.pending: tuple[int, int, bool] | None = None
        """While a main-graph node is checked anew: where its findings start, and whether it is volatile."""
        # Only the rules that override a hook are called for it.
        self.hooks = {hook: [r for r in rules if getattr(type(r), hook) is not getattr(Rule, hook)] for hook in _HOOKS}
        self.node_rules = self.hooks["node"]
        self.node_hooks: dict[int, tuple[Resolution, list[Callable[[CheckContext, NodeInfo], None]], list[Rule]]] = {}
        """id(resolution) → (it, the node hooks of the rules that apply to it, those of them that may
        read types): resolutions are shared by the nodes that call one operator."""
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
        if self.plan is not None and site.kind == "main":
            self.main_site = site
            self.plan.prepare(proto, info.scope.names)
            info.later = self.plan.later(proto)
        else:
            later = info.later
            outputs = self.outputs[id(site)] = [list(node.output) for node in proto.node]
            for k, names in enumerate(outputs):
                for j, out in enumerate(names):
                    if out and out not in later:
                        later[out] = Definition(out, f"{path}/node[{k}]", ("output", j), "node")
        for rule in self.hooks["graph"]:
            rule.graph(self.ctx, info)

    def nodes(self, site: GraphSite) -> Iterable[tuple[int, NodeProto]]:
        if site is not self.main_site:
            return enumerate(site.proto.node)
        assert self.plan is not None
        nodes = site.proto.node
        return ((k, nodes[k]) for k in self.plan.checked)

    def catch_up(self, info: GraphInfo, end: int) -> None:
        """The main graph's nodes before ``end`` not checked anew: taken from the previous version."""
        plan = self.plan
        assert plan is not None
        assert isinstance(info.later, Later)
        info.later.at = end
        for k, found in plan.catch_up(end, info.scope.names):
            self.ctx.diagnostics.extend(plan.reported(found, k))
            self.collected.extend(found.c90)

    def leave_graph(self, site: GraphSite) -> None:
        info = self.infos[id(site)]
        if site is self.main_site:
            assert self.plan is not None
            self.catch_up(info, len(self.plan.nodes))
        for rule in self.hooks["graph_end"]:
            rule.graph_end(self.ctx, info)
        self.outputs.pop(id(site), None)
        if site.kind != "main":  # the main graph's scope is the algorithm graphs' parent
            del self.infos[id(site)]

    def enter_node(self, site: GraphSite, index: int, node: NodeProto) -> None:
        info = self.infos[id(site)]
        ctx = self.ctx
        res = ctx.resolve(node, info.opsets)
        found = self.node_hooks.get(id(res))
        if found is None:
            rules = [r for r in self.node_rules if r.applies_to(res)]
            typed = [r for r in rules if type(r).reads_types is not Rule.reads_types]
            found = self.node_hooks[id(res)] = (res, [r.node for r in rules], typed)
        if site is self.main_site:
            n = NodeInfo(node, f"{info.path}/node[{index}]", info, res, list(node.input), list(node.output))
            assert self.plan is not None
            if self.plan.done < index:
                self.catch_up(info, index)
            info.later.at = index  # type: ignore[attr-defined]  # the plan's Later
            volatile = self._volatile(n) or any(r.reads_types(node) for r in found[2])
            self.pending = (len(ctx.diagnostics), len(self.collected), volatile)
        else:
            n = NodeInfo(node, f"{info.path}/node[{index}]", info, res, list(node.input), self.outputs[id(site)][index])
        self.current[id(site)] = n
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
        if site is self.main_site:
            self._leave_main(n, index)
            return
        info = n.graph
        later, scope = info.later, info.scope
        for j, out in enumerate(n.outputs):
            if out:
                d = later.pop(out, None)
                if d is None or d.path != n.path or d.token != ("output", j):  # else it is this one's, made ahead
                    d = Definition(out, n.path, ("output", j), "node")
                scope.define(d)

    def _leave_main(self, n: NodeInfo, index: int) -> None:
        """A main-graph node checked anew: its findings recorded, its outputs defined (as the plan made them)."""
        assert self.plan is not None and self.pending is not None
        diags, collected, volatile = self.pending
        ctx = self.ctx
        found = ctx.diagnostics[diags:] if len(ctx.diagnostics) > diags else []
        names = self.collected[collected:] if len(self.collected) > collected else []
        define = n.graph.scope.names.setdefault
        for d in self.plan.record(index, n.path, n.inputs, n.outputs, found, names, volatile):
            define(d.name, d)

    def _volatile(self, n: NodeInfo) -> bool:
        """Whether a main-graph node's findings may depend on more than its inputs' and outputs' being defined."""
        scope = n.scope
        find = scope.names.get if scope.parent is None else scope.lookup  # the main graph's: no outer scope
        for name in n.inputs:
            if name and find(name) is None:
                return True  # undefined, or used before its definition: the rules read the whole scope
        for name in n.outputs:
            if name and find(name) is not None:
                return True  # defined twice: the rules point at the first definition
        files = self.ctx.model_dir is not None
        for attr in n.proto.attribute:
            if attr.HasField("g") or len(attr.graphs):
                return True  # a subgraph sees the whole enclosing scope
            if files and (
                attr.HasField("t") or len(attr.tensors) or attr.HasField("sparse_tensor") or len(attr.sparse_tensors)
            ):
                return True  # the rules may read a tensor's external file
        return False

    def tensor(self, tensor: object, path: str, token: Token) -> None:
        ctx = self.ctx
        for hook in self.tensor_hooks:
            hook(ctx, tensor, path, token)  # type: ignore[arg-type]


def walk(ctx: CheckContext, rules: Sequence[Rule], plan: Plan | None = None) -> None:
    """Run ``rules`` over ``ctx.model``; diagnostics accumulate in ``ctx.diagnostics``.

    With a ``plan`` the main graph's nodes an earlier version checked alike are taken from it
    (the result is the same); ``plan.memo()`` is then this version's, for the next one.
    """
    _Checker(ctx, rules, plan).model(ctx.model)
