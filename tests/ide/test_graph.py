"""The graph model (``onnxtext.ide.graph``): every statement a node with its span, every data
dependency an edge, groups for subgraphs, local functions and the exporters' layer hierarchy."""

from __future__ import annotations

from pathlib import Path

import pytest

from onnxtext.analysis.diagnose import diagnose
from onnxtext.document import Document, parse_document
from onnxtext.ide.graph import GraphEdge, GraphModel, graph_json, graph_model, scope_path
from onnxtext.printing.text import to_text
from onnxtext.proto import GraphProto, ModelProto
from onnxtext.syntax import ast as A

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.onnxtxt"))


def _doc(text: str) -> Document:
    return parse_document(text, "model", "<test>")


def _graph(text: str) -> tuple[Document, GraphModel]:
    doc = _doc(text)
    return doc, graph_model(doc, diagnostics=diagnose(doc))


def _expected_edges(g: GraphProto, outer: frozenset[str] = frozenset()) -> set[tuple[str, int]]:
    """(value, consumer index) for every node input a graph input, initializer or earlier node produces."""
    known = set(outer) | {i.name for i in g.input} | {i.name for i in g.initializer}
    found = set()
    for k, node in enumerate(g.node):
        found.update((name, k) for name in node.input if name in known)
        known.update(o for o in node.output if o)
    return found


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_statement_is_a_node_or_a_row_and_every_dependency_an_edge_or_a_row(path: Path) -> None:
    doc, graph = _graph(path.read_text())
    assert isinstance(doc.tree, A.Model) and doc.model is not None
    spans = {(n.span.start, n.span.end): n for n in graph.nodes}
    rows = {(r.span.start, r.span.end) for n in graph.nodes for r in n.rows}
    statements = [n for n in A.walk(doc.tree) if isinstance(n, A.Node)]
    for stmt in statements:
        node = spans.get((stmt.span.start, stmt.span.end))
        if node is None:  # a weight drawn inside its readers
            assert stmt.op_type.value in ("Constant", "Identity") and (stmt.span.start, stmt.span.end) in rows
        else:
            assert node.kind == "op" and node.op == stmt.op_type.value
    main = doc.tree.graph
    for init in [*(main.inputs or []), *(main.initializers or [])]:
        if isinstance(init, A.Initializer) and (init.body is not None or init in (main.inputs or [])):
            where = (init.span.start, init.span.end)
            assert where in spans or (init.body is not None and where in rows)
    ops = _op_ids(graph)
    for n in graph.nodes:  # no weight that only operators read is a box
        out = _out(graph, n.id)
        assert not (n.kind == "initializer" and out and all(e.target in ops for e in out))
    outputs = [n for n in graph.nodes if n.kind == "output" and n.group is None]
    assert [n.label for n in outputs] == [o.name for o in doc.model.graph.output]
    assert len({n.id for n in graph.nodes}) == len(graph.nodes)
    # the main graph's dependencies, from the protobuf: node k's statement is the k-th at top level
    top = [n for n in main.nodes if isinstance(n, A.Node)]
    ids = {id(s): spans[(s.span.start, s.span.end)].id for s in top if (s.span.start, s.span.end) in spans}
    edges = {(e.value, e.target) for e in graph.edges}
    read = {(r.value, n.id) for n in graph.nodes for r in n.rows}
    for value, k in _expected_edges(doc.model.graph):
        if id(top[k]) in ids:
            assert (value, ids[id(top[k])]) in edges | read, (value, k)
    for e in graph.edges:
        assert e.source in {n.id for n in graph.nodes} and e.target in {n.id for n in graph.nodes}


def _op_ids(graph: GraphModel) -> set[str]:
    return {n.id for n in graph.nodes if n.kind == "op"}


def _out(graph: GraphModel, node: str) -> list[GraphEdge]:
    return [e for e in graph.edges if e.source == node]


def test_edges_carry_inferred_types() -> None:
    _, graph = _graph((EXAMPLES[0].parent / "mlp.onnxtxt").read_text())
    types = {(e.value, e.type) for e in graph.edges}
    assert ("X", "float[N, 4]") in types


def test_subgraphs_are_groups_inside_their_owner() -> None:
    text = """<ir_version: 10, opset_import: ["": 21]>
g (bool c, float[2] x) => (float[2] y) {
   y = If (c) <
      then_branch = t () => (float[2] a) { a = Neg (x) },
      else_branch = e () => (float[2] b) { b = Abs (x) }
   >
}
"""
    _, graph = _graph(text)
    groups = {g.label: g for g in graph.groups}
    assert groups["then_branch of If"].kind == "subgraph" and groups["then_branch of If"].parent is None
    neg = next(n for n in graph.nodes if n.op == "Neg")
    assert neg.group == groups["then_branch of If"].id
    owner = next(n for n in graph.nodes if n.op == "If")
    assert {(e.value, e.source) for e in graph.edges if e.target == neg.id} == {("x", "x")}
    assert any(e.target == owner.id and e.value == "c" for e in graph.edges)


def test_local_function_calls_name_their_group() -> None:
    doc, graph = _graph((EXAMPLES[0].parent / "local_function.onnxtxt").read_text())
    functions = [g for g in graph.groups if g.kind == "function"]
    assert [g.label for g in functions] == ["ScaledLeakyRelu"]
    calls = [n for n in graph.nodes if n.calls is not None]
    assert calls and all(n.calls == functions[0].id for n in calls)
    body = [n for n in graph.nodes if n.group == functions[0].id and n.kind == "op"]
    assert [n.op for n in body] == ["LeakyRelu", "Mul"]  # the Constant is a row of the Mul it feeds
    assert [(r.kind, r.param) for r in body[1].rows] == [("Constant", "B")]


def test_broken_text_keeps_the_neighbours() -> None:
    text = """<ir_version: 10, opset_import: ["": 21]>
g (float[2] x) => (float[2] z) {
   a = Relu (x)
   b = Add (a x
   z = Neg (b)
}
"""
    doc, graph = _graph(text)
    assert not doc.ok
    kinds = [(n.kind, n.op, n.label) for n in graph.nodes]
    assert ("op", "Relu", "a") in kinds and ("op", "Neg", "z") in kinds
    damaged = next(n for n in graph.nodes if n.kind == "damaged")
    assert damaged.severity == "error" and damaged.label == "b"
    neg = next(n for n in graph.nodes if n.op == "Neg")
    assert any(e.source == damaged.id and e.target == neg.id for e in graph.edges)


def test_diagnostics_mark_the_innermost_statement() -> None:
    text = """<ir_version: 10, opset_import: ["": 21]>
g (float[2] x) => (float[2] y) {
   y = Relu <alpha = 1.0> (x)
}
"""
    _, graph = _graph(text)
    relu = next(n for n in graph.nodes if n.op == "Relu")
    assert relu.severity is not None
    assert all(n.severity is None for n in graph.nodes if n is not relu)


def test_json_has_lsp_ranges() -> None:
    doc, graph = _graph((EXAMPLES[0].parent / "mlp.onnxtxt").read_text())
    data = graph_json(graph, doc.source)
    first = next(n for n in data["nodes"] if n["kind"] == "op")
    line = doc.source.text.splitlines()[first["range"]["start"]["line"]]
    assert line[first["range"]["start"]["character"] :].startswith("hidden_pre") or first["op"] in line
    assert set(data) == {"nodes", "edges", "groups"}
    assert graph.node_at(doc.source.text.index("= Relu") + 2).op == "Relu"


def _node(text: str) -> A.Node:
    doc = parse_document(text, "node")
    assert isinstance(doc.tree, A.Node)
    return doc.tree


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('[ "/encoder/layer.0/attention/MatMul" ] y = MatMul (a, b)', ["encoder", "layer.0", "attention"]),
        ('[ "/MatMul" ] y = MatMul (a, b)', []),
        ("[n] y = MatMul (a, b)", []),
        (
            'y = Gemm (a, b) @{metadata_props: ["pkg.torch.onnx.name_scopes": '
            """"['', 'encoder', 'encoder.0', 'encoder.0.fc', 'linear']"]}""",
            ["encoder", "0", "fc"],
        ),
        (
            'y = Gemm (a, b) @{metadata_props: ["namespace": '
            '": M/encoder: Sequential/encoder.0: Blk/linear: aten.linear.default"]}',
            ["encoder", "0"],
        ),
        ("""y = Gemm (a, b) @{metadata_props: ["pkg.torch.onnx.name_scopes": "not a list ["]}""", []),
    ],
)
def test_scope_path(text: str, path: list[str]) -> None:
    assert scope_path(_node(text)) == path


def _exported(name: str) -> ModelProto:
    from corpus.exporters import GENERATORS

    gen = GENERATORS[name]
    for module in gen.requires:
        pytest.importorskip(module)
    return ModelProto.FromString(gen.ensure().read_bytes())


@pytest.mark.slow
@pytest.mark.parametrize("name", ["torch_script_transformer", "torch_dynamo_transformer"])
def test_torch_exports_fold_into_their_modules(name: str) -> None:
    model = _exported(name)
    doc, graph = _graph(to_text(model))
    ops = [n for n in graph.nodes if n.kind == "op"]
    inside = {(r.span.start, r.span.end) for n in ops for r in n.rows if r.kind != "initializer"}
    assert len(ops) + len(inside) == len(model.graph.node)  # every node a box, or a weight's row
    tops = {g.label for g in graph.groups if g.kind == "scope" and g.parent is None}
    assert "layer" in tops
    grouped = [n for n in ops if n.group is not None]
    assert len(grouped) >= 0.8 * len(ops)
    labels = {g.label for g in graph.groups if g.kind == "scope"}
    assert {"self_attn", "linear1"} <= labels
    # every data dependency of the export is an edge, or a weight's row in its reader
    boxes = {(n.span.start, n.span.end): n.id for n in ops}
    statements = [s for s in doc.tree.graph.nodes if isinstance(s, A.Node)] if isinstance(doc.tree, A.Model) else []
    edges = {(e.value, e.target) for e in graph.edges} | {(r.value, n.id) for n in ops for r in n.rows}
    for value, k in _expected_edges(doc.model.graph if doc.model else model.graph):
        box = boxes.get((statements[k].span.start, statements[k].span.end))
        assert box is None or (value, box) in edges


def test_live_values_label_their_edges() -> None:
    from onnxtext.evaluate.live import LiveResult, LiveValue
    from onnxtext.evaluate.summary import Stats

    doc = _doc((EXAMPLES[0].parent / "mlp.onnxtxt").read_text())
    live = LiveResult(values=[LiveValue("hidden", 2, Stats("float32", (2, 8), 0.0, 1.5, 0.5))])
    graph = graph_model(doc, live=live)
    (edge,) = [e for e in graph.edges if e.value == "hidden"]
    assert edge.live == Stats("float32", (2, 8), 0.0, 1.5, 0.5).text() and edge.type == "float[N, 8]"
    assert all(e.live == "" for e in graph.edges if e.value != "hidden")


def _layered(nodes: int, layers: int) -> str:
    """``nodes`` operators in ``layers`` torch scopes of 7 blocks each, an If (its branches a group
    of its own) and a graph output outside every scope."""
    head = "big (float[1, 16] x0, bool c) => (float[1, 16] y, float[1, 16] z) {"
    lines = ['<ir_version: 10, opset_import: ["": 21]>', head]
    for i in range(nodes):
        op = ("Relu", "Neg", "Abs", "Sigmoid")[i % 4]
        lines.append(f'   ["/encoder/layer.{i * layers // nodes}/block{i % 7}/{op}_{i}"] x{i + 1} = {op} (x{i})')
    lines.append(f"   s = Add (x{nodes // 2}, x{nodes})")  # a value read across the layers
    lines.append("   y = If (c) <then_branch = g1 () => (float[1, 16] t) { t = Relu (s) }, else_branch = g2 () => ")
    lines.append("      (float[1, 16] e) { e = Neg (s) }>")
    lines.append("   z = Identity (x1)")
    return "\n".join([*lines, "}", ""])


def test_folded_answer_draws_what_the_whole_graph_draws_folded() -> None:
    from onnxtext.ide.graph import FOLD_ABOVE, folded_json
    from onnxtext.ide.graph_view import build_view

    doc, graph = _graph(_layered(600, 3))
    whole = graph_json(graph, doc.source)
    part = folded_json(graph, doc.source)
    assert part["total"] == len(whole["nodes"]) > FOLD_ABOVE
    view = build_view(whole, set())  # every group folded: the view's first picture
    boxes = {i.id: i.count for i in view.items.values() if i.group is not None}
    assert boxes == {g["id"]: g["count"] for g in part["groups"]} and len(boxes) == 3  # the encoder, the branches
    assert all(g["parent"] is None for g in part["groups"])
    drawn = {i.id for i in view.items.values() if i.node is not None}
    assert {n["id"] for n in part["nodes"]} == drawn and {"x0", "c", "s", "y", "output:z"} <= drawn
    order = [n["id"] for n in part["nodes"]]  # the groups among the nodes, where their first node is
    for placed, g in enumerate(sorted(part["groups"], key=lambda g: g["at"])):
        order.insert(g["at"] + placed, g["id"])
    assert [i.id for i in view.root.children] == order
    merged = {(s, t): {e["value"] for e in es} for s, t, es in view.edges}
    sent: dict[tuple[str, str], set[str]] = {}
    for e in part["edges"]:
        sent.setdefault((e["source"], e["target"]), set()).add(e["value"])
    assert sent == merged and ("group:scope:/encoder", "s") in sent
    assert len({(e["value"], e["source"], e["target"]) for e in part["edges"]}) == len(part["edges"])
    assert len(str(part)) < len(str(whole)) / 20


def test_the_cache_builds_a_graph_once_per_analysis() -> None:
    from onnxtext.ide.graph import GraphCache

    doc, graph = _graph(_layered(600, 3))
    cache, built = GraphCache(size=1), []

    def build() -> GraphModel:
        built.append(1)
        return graph

    class Analysis:  # an analysis object, held weakly
        pass

    first, second = Analysis(), Analysis()
    folded = cache.answer("a", first, 0, build, doc.source, folded=True)
    whole = cache.answer("a", first, 0, build, doc.source)
    assert "total" in folded and "total" not in whole and len(whole["nodes"]) == len(graph.nodes)
    assert cache.answer("a", first, 0, build, doc.source, folded=True) is folded and len(built) == 1
    cache.answer("a", first, 1, build, doc.source)  # other marks (live values on): built again
    cache.answer("a", second, 1, build, doc.source)  # another analysis
    cache.answer("b", second, 1, build, doc.source)
    cache.answer("a", second, 1, build, doc.source)  # the cache held one document: "a" went for "b"
    assert len(built) == 5
    small_doc, small = _graph(TEXT_SMALL)
    assert "total" not in cache.answer("c", first, 0, lambda: small, small_doc.source, folded=True)


TEXT_SMALL = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) {
   ["/a/Relu"] h = Relu (x)
   ["/a/Neg"] y = Neg (h)
}
"""
