"""One walk over a model: every graph and function body, with its path, its opsets and its owner.

The order is the model's: the main graph, the graphs of ``training_info`` (for each
entry its ``initialization`` then its ``algorithm``), then the model-local functions; a
graph held by a node attribute (``g``, or each of ``graphs``) is walked where that
attribute is, between the node's :meth:`ModelVisitor.enter_node` and
:meth:`ModelVisitor.leave_node`, so a visitor sees the names its enclosing graph
defined before that node.

Scoping (IR spec, ``ir/scoping.outer_scope``): a nested graph sees the values of its
enclosing graph (``parent``); a function body sees nothing outside it and uses its own
``opset_import``; an algorithm graph runs as the concatenation of the main graph and
itself (its ``parent`` is the main graph); an initialization graph sees no graph (it may
bind the state variables, which is the checker's business).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from onnxtext.ir.paths import ProtoPath
from onnxtext.ir.resolve import Resolver
from onnxtext.ir.scoping import GraphKind, outer_scope
from onnxtext.proto import AttributeProto, FunctionProto, GraphProto, ModelProto, NodeProto

__all__ = ["GraphKind", "GraphSite", "ModelVisitor", "iter_graphs", "walk_graph", "walk_model"]

_GRAPH = ProtoPath.parse("graph")


@dataclass(frozen=True, slots=True, eq=False)
class GraphSite:
    """A graph or a function body as the walk reaches it."""

    proto: GraphProto | FunctionProto
    path: ProtoPath
    """``graph``, ``graph/node[3]/attribute[0]/g``, ``training_info[0]/algorithm``, ``functions[1]``..."""
    opsets: dict[str, int]
    """The imports in effect (domain, ``""`` for ``ai.onnx`` → version)."""
    kind: GraphKind
    parent: GraphSite | None = None
    """The graph whose values this one sees (see the module docstring)."""
    owner: NodeProto | None = None
    """The node whose attribute holds this graph (``kind == "subgraph"`` only)."""
    attribute: AttributeProto | None = None
    """That attribute."""
    function: FunctionProto | None = None
    """The function whose body holds this graph (also for graphs nested in its nodes)."""
    training_index: int | None = None
    """The ``training_info`` entry of an initialization or algorithm graph."""

    @property
    def is_function(self) -> bool:
        return self.kind == "function"


class ModelVisitor:
    """Hooks of :func:`walk_model`; override those you need (each does nothing here)."""

    def enter_graph(self, site: GraphSite) -> None:
        """Before the nodes of a graph (or function body)."""

    def leave_graph(self, site: GraphSite) -> None:
        """After the nodes of a graph, and the graphs nested in them."""

    def nodes(self, site: GraphSite) -> Iterable[tuple[int, NodeProto]]:
        """The nodes of ``site`` to walk, with their indices: all of them unless the visitor knows better
        (an incremental check walks only what changed)."""
        return enumerate(site.proto.node)

    def enter_node(self, site: GraphSite, index: int, node: NodeProto) -> None:
        """Before the attributes (and nested graphs) of node ``index`` of ``site``."""

    def attribute(self, site: GraphSite, node_index: int, node: NodeProto, index: int, attr: AttributeProto) -> None:
        """Before the graphs attribute ``index`` of a node holds."""

    def leave_node(self, site: GraphSite, index: int, node: NodeProto) -> None:
        """After the attributes (and nested graphs) of a node."""


class _Walk:
    __slots__ = ("visitor",)

    def __init__(self, visitor: ModelVisitor) -> None:
        self.visitor = visitor

    def model(self, model: ModelProto, resolver: Resolver) -> None:
        main = GraphSite(model.graph, _GRAPH, resolver.opsets, "main")
        self.graph(main)
        for i, info in enumerate(model.training_info):
            path = ProtoPath().child("training_info", i)
            if info.HasField("initialization"):
                self.graph(
                    GraphSite(
                        info.initialization,
                        path / "initialization",
                        resolver.opsets,
                        "initialization",
                        training_index=i,
                    )
                )
            if info.HasField("algorithm"):
                self.graph(
                    GraphSite(
                        info.algorithm,
                        path / "algorithm",
                        resolver.opsets,
                        "algorithm",
                        parent=outer_scope("algorithm", main=main),
                        training_index=i,
                    )
                )
        for i, fn in enumerate(model.functions):
            self.graph(
                GraphSite(fn, ProtoPath().child("functions", i), resolver.opsets_of(fn), "function", function=fn)
            )

    def graph(self, site: GraphSite) -> None:
        visitor = self.visitor
        visitor.enter_graph(site)
        for k, node in visitor.nodes(site):
            visitor.enter_node(site, k, node)
            for i, attr in enumerate(node.attribute):
                visitor.attribute(site, k, node, i, attr)
                if attr.HasField("g"):
                    self.graph(self.nested(site, k, node, i, attr, attr.g, "g"))
                for j, g in enumerate(attr.graphs):
                    self.graph(self.nested(site, k, node, i, attr, g, ("graphs", j)))
            visitor.leave_node(site, k, node)
        visitor.leave_graph(site)

    @staticmethod
    def nested(
        site: GraphSite,
        k: int,
        node: NodeProto,
        i: int,
        attr: AttributeProto,
        g: GraphProto,
        step: str | tuple[str, int],
    ) -> GraphSite:
        path = site.path.child("node", k).child("attribute", i) / step
        return GraphSite(
            g,
            path,
            site.opsets,
            "subgraph",
            parent=outer_scope("subgraph", enclosing=site),
            owner=node,
            attribute=attr,
            function=site.function,
        )


def walk_model(model: ModelProto, visitor: ModelVisitor, resolver: Resolver | None = None) -> None:
    """Walk every graph and function body of ``model`` (see the module docstring for order and scopes)."""
    _Walk(visitor).model(model, resolver if resolver is not None else Resolver(model))


def walk_graph(graph: GraphProto, visitor: ModelVisitor, opsets: dict[str, int] | None = None) -> None:
    """Walk a graph that is not in a model (``graph``, then its nested graphs)."""
    _Walk(visitor).graph(GraphSite(graph, _GRAPH, opsets if opsets is not None else {}, "main"))


class _Collect(ModelVisitor):
    def __init__(self) -> None:
        self.sites: list[GraphSite] = []

    def enter_graph(self, site: GraphSite) -> None:
        self.sites.append(site)


def iter_graphs(model: ModelProto | GraphProto, resolver: Resolver | None = None) -> Iterator[GraphSite]:
    """Every graph and function body of ``model`` (or of a lone graph), in walk order (parents first)."""
    collect = _Collect()
    if isinstance(model, ModelProto):
        walk_model(model, collect, resolver)
    else:
        walk_graph(model, collect)
    return iter(collect.sites)
