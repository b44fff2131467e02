"""ir/walk: which graphs the one model walk visits, with which paths, opsets, owners and parents."""

from __future__ import annotations

from onnxtext import parse_model
from onnxtext.ir.paths import ProtoPath
from onnxtext.ir.walk import GraphSite, ModelVisitor, iter_graphs, walk_graph, walk_model
from onnxtext.proto import AttributeProto, ModelProto, NodeProto
from onnxtext.weights.external import iter_tensors

TEXT = """\
<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
main (bool c, int64 n, float[2] x) => (float[2] y, float[2] z)
{
  y = If(c) <then_branch = tb () => (float[2] r) {
      r = Relu(x)
    }, else_branch = eb () => (float[2] r2) {
      r2 = Loop(n, c, x) <body = lb (int64 i, bool k, float[2] acc) => (bool k2, float[2] acc2) {
          k2 = Identity(k)
          acc2 = Neg(acc)
        }>
    }>
  z = local.F(x)
}
<domain: "local", opset_import: ["" : 13]>
F (a) => (b)
{
  b = If(a) <then_branch = ft () => (float[2] o) {
      o = Identity(a)
    }, else_branch = fe () => (float[2] o2) {
      o2 = Neg(a)
    }>
}
"""


def _model() -> ModelProto:
    model = parse_model(TEXT)
    info = model.training_info.add()
    info.initialization.name = "init"
    info.algorithm.name = "algo"
    info.algorithm.node.add(op_type="Identity", input=["x"], output=["x2"])
    return model


def _row(site: GraphSite) -> tuple[str, str, str, dict[str, int], str | None, str | None]:
    owner = site.owner.op_type if site.owner is not None else None
    parent = str(site.parent.path) if site.parent is not None else None
    return str(site.path), site.kind, site.proto.name, site.opsets, owner, parent


def test_graphs_paths_opsets_owners_parents() -> None:
    main_ops = {"": 21, "local": 1}
    fn_ops = {"": 13}
    then = "graph/node[0]/attribute[0]/g"
    other = "graph/node[0]/attribute[1]/g"
    f_then = "functions[0]/node[0]/attribute[0]/g"
    assert [_row(s) for s in iter_graphs(_model())] == [
        ("graph", "main", "main", main_ops, None, None),
        (then, "subgraph", "tb", main_ops, "If", "graph"),
        (other, "subgraph", "eb", main_ops, "If", "graph"),
        (f"{other}/node[0]/attribute[0]/g", "subgraph", "lb", main_ops, "Loop", other),
        ("training_info[0]/initialization", "initialization", "init", main_ops, None, None),
        ("training_info[0]/algorithm", "algorithm", "algo", main_ops, None, "graph"),
        ("functions[0]", "function", "F", fn_ops, None, None),
        (f_then, "subgraph", "ft", fn_ops, "If", "functions[0]"),
        ("functions[0]/node[0]/attribute[1]/g", "subgraph", "fe", fn_ops, "If", "functions[0]"),
    ]


def test_sites_know_their_function_and_training_entry() -> None:
    sites = {str(s.path): s for s in iter_graphs(_model())}
    model = _model()
    assert sites["functions[0]/node[0]/attribute[1]/g"].function is not None
    assert sites["functions[0]/node[0]/attribute[1]/g"].function.name == "F"  # type: ignore[union-attr]
    assert sites["graph/node[0]/attribute[0]/g"].function is None
    assert sites["training_info[0]/algorithm"].training_index == 0
    assert sites["graph/node[0]/attribute[0]/g"].attribute.name == "then_branch"  # type: ignore[union-attr]
    for path, site in sites.items():  # every path names the graph it comes with
        assert ProtoPath.parse(path).resolve(model) == site.proto


class _Events(ModelVisitor):
    def __init__(self) -> None:
        self.events: list[str] = []

    def enter_graph(self, site: GraphSite) -> None:
        self.events.append(f"enter {site.proto.name}")

    def leave_graph(self, site: GraphSite) -> None:
        self.events.append(f"leave {site.proto.name}")

    def enter_node(self, site: GraphSite, index: int, node: NodeProto) -> None:
        self.events.append(f"node {node.op_type}")

    def attribute(self, site: GraphSite, node_index: int, node: NodeProto, index: int, attr: AttributeProto) -> None:
        self.events.append(f"attr {attr.name}")

    def leave_node(self, site: GraphSite, index: int, node: NodeProto) -> None:
        self.events.append(f"done {node.op_type}")


def test_nested_graphs_are_walked_at_their_attribute() -> None:
    events = _Events()
    walk_model(parse_model(TEXT), events)
    assert events.events[:12] == [
        "enter main",
        "node If",
        "attr then_branch",
        "enter tb",
        "node Relu",
        "done Relu",
        "leave tb",
        "attr else_branch",
        "enter eb",
        "node Loop",
        "attr body",
        "enter lb",
    ]
    assert events.events[-6:] == ["enter fe", "node Neg", "done Neg", "leave fe", "done If", "leave F"]


def test_lone_graph_and_graph_lists() -> None:
    model = parse_model(TEXT)
    inner = model.graph.node[0].attribute[1].g
    assert [str(s.path) for s in iter_graphs(inner)] == ["graph", "graph/node[0]/attribute[0]/g"]
    node = model.graph.node.add(op_type="Custom", domain="local")
    attr = node.attribute.add(name="branches", type=AttributeProto.GRAPHS)
    attr.graphs.add(name="g0")
    attr.graphs.add(name="g1")
    paths = [str(s.path) for s in iter_graphs(model) if s.proto.name in ("g0", "g1")]
    assert paths == ["graph/node[2]/attribute[0]/graphs[0]", "graph/node[2]/attribute[0]/graphs[1]"]
    walk_graph(inner, ModelVisitor())  # the default hooks do nothing


def test_iter_tensors_reaches_nested_and_training_graphs() -> None:
    model = _model()
    model.graph.node[0].attribute[0].g.initializer.add(name="w_then", dims=[1], float_data=[1.0])
    model.training_info[0].initialization.initializer.add(name="w_init", dims=[1], float_data=[1.0])
    wheres = [ref.where for ref in iter_tensors(model)]
    assert "node 'y' attribute 'then_branch' initializer 'w_then'" in wheres
    assert "training_info[0] initialization initializer 'w_init'" in wheres
