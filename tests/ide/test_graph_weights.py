"""What a graph node holds (#31): weights and constants as rows inside the nodes that read them,
its attributes in a line (``ide/graph_attributes``), and module scopes boxed only when they group
something; on hand texts and on real torch exports (built with torch, the ``exporters`` extra)."""

from __future__ import annotations

import re

import pytest

from onnxtext.analysis.diagnose import diagnose
from onnxtext.document import Document, parse_document
from onnxtext.ide.graph import GraphModel, GraphNode, graph_json, graph_model
from onnxtext.ide.graph_layout import layout_view
from onnxtext.ide.graph_view import build_view, label_text, node_size, render_svg
from onnxtext.printing.text import to_text
from onnxtext.proto import ModelProto

HEAD = '<ir_version: 10, opset_import: ["": 21]>\n'


def _graph(text: str) -> tuple[Document, GraphModel]:
    doc = parse_document(text, "model", "<test>")
    return doc, graph_model(doc, diagnostics=diagnose(doc))


def _op(graph: GraphModel, op: str, nth: int = 0) -> GraphNode:
    return [n for n in graph.nodes if n.op == op][nth]


def _exported(name: str) -> ModelProto:
    from corpus.exporters import GENERATORS

    gen = GENERATORS[name]
    for module in gen.requires:
        pytest.importorskip(module)
    return ModelProto.FromString(gen.ensure().read_bytes())


# ------------------------------------------------------------ weights as rows


def test_a_weight_is_a_row_of_each_node_reading_it_and_a_shared_one_is_marked() -> None:
    text = HEAD + (
        "g (float[1, 3, 8, 8] x) => (float[1, 4, 6, 6] y, float[4] b)\n"
        "   <float[4, 3, 3, 3] w = {...}, float[4] b = {1, 2, 3, 4}>\n{\n"
        "   c = Conv (x, w, b)\n   d = Conv (x, w)\n   y = Add (c, d)\n}\n"
    ).replace("{...}", "{" + ", ".join(["0.5"] * 108) + "}")
    doc, graph = _graph(text)
    # b is a graph output too: it stays a box (and so the Conv reads it through an edge)
    assert [n.kind for n in graph.nodes if n.kind not in ("op",)] == ["input", "initializer", "output", "output"]
    assert any(e.value == "b" and e.target == _op(graph, "Conv").id for e in graph.edges)
    first, second = _op(graph, "Conv"), _op(graph, "Conv", 1)
    assert [(r.param, r.value, r.type, r.shared) for r in first.rows] == [("W", "w", "float[4, 3, 3, 3]", True)]
    assert [(r.param, r.value, r.shared) for r in second.rows] == [("W", "w", True)]
    w_stmt = text.index("float[4, 3, 3, 3] w")
    assert first.rows[0].span.start <= w_stmt < first.rows[0].span.end
    assert graph.node_at(w_stmt + 3) is first  # the cursor in the weight's statement: its first reader
    assert not any(e.value == "w" for e in graph.edges)


def test_an_initializer_read_by_a_graph_output_stays_a_box_with_its_edges() -> None:
    text = (
        HEAD + "g (float[4] x) => (float[4] y, float[4] b)\n   <float[4] b = {1, 2, 3, 4}>\n{\n   y = Add (x, b)\n}\n"
    )
    _, graph = _graph(text)
    (box,) = [n for n in graph.nodes if n.kind == "initializer"]
    assert box.label == "b" and {e.target for e in graph.edges if e.source == box.id} == {"y", "output:b"}
    assert _op(graph, "Add").rows == ()


def test_constants_and_identities_of_weights_are_rows_small_values_shown() -> None:
    text = HEAD + (
        "g (float[2, 3] x) => (float[2, 3] y, float[3, 2] t)\n   <float[3] w = {1, 2, 3}>\n{\n"
        "   axes = Constant <value = int64[1] {0}> ()\n"
        "   two = Constant <value_float = 2.0> ()\n"
        "   alias = Identity (w)\n"
        "   u = Unsqueeze (x, axes)\n   m = Mul (x, two)\n   y = Add (m, alias)\n"
        "   t = Transpose <perm = [1, 0]> (x)\n}\n"
    )
    _, graph = _graph(text)
    assert sorted(n.op for n in graph.nodes if n.kind == "op") == ["Add", "Mul", "Transpose", "Unsqueeze"]
    (axes,) = _op(graph, "Unsqueeze").rows
    assert (axes.param, axes.kind, axes.data) == ("axes", "Constant", "[0]")
    (two,) = _op(graph, "Mul").rows
    assert (two.kind, two.data) == ("Constant", "2.0")
    (alias,) = _op(graph, "Add").rows
    assert (alias.value, alias.kind, alias.origin) == ("alias", "Identity", "w")
    w = text.index("float[3] w")
    assert alias.origin_span is not None and alias.origin_span.start <= w < alias.origin_span.end
    assert graph.node_at(w + 2) is _op(graph, "Add")  # the aliased weight's statement selects its reader
    assert _op(graph, "Transpose").attrs == "perm [1,0]"


def test_a_weight_with_a_diagnostic_marks_its_reader() -> None:
    text = HEAD + "g (float[4] x) => (float[4] y)\n   <float[4] w = {1, 2, 3}>\n{\n   y = Add (x, w)\n}\n"
    doc, graph = _graph(text)
    assert any(d.is_error for d in diagnose(doc))
    (row,) = _op(graph, "Add").rows
    assert row.severity is not None and _op(graph, "Add").severity is not None


def test_the_protocol_form_carries_rows_and_attributes() -> None:
    text = (
        HEAD
        + "g (float[2, 3] x) => (float[3, 2] y)\n   <int64[2] p = {1, 0}>\n{\n   y = Transpose <perm = [1, 0]> (x)\n}\n"
    )
    doc, graph = _graph(text)
    (node,) = [n for n in graph_json(graph, doc.source)["nodes"] if n["kind"] == "op"]
    assert node["attrs"] == "perm [1,0]" and "rows" not in node  # p reads nothing: it is a box, unread
    assert [n["label"] for n in graph_json(graph, doc.source)["nodes"] if n["kind"] == "initializer"] == ["p"]


# ------------------------------------------------------------ attribute lines


@pytest.mark.parametrize(
    ("node", "line"),
    [
        ("Conv <kernel_shape = [7, 7], strides = [2, 2], pads = [3, 3, 3, 3]> (x, w)", "7×7 /2 pad 3"),
        ("Conv <strides = [1, 1], pads = [0, 0, 0, 0], dilations = [1, 1], group = 1> (x, w)", "3×3"),
        ("Conv <pads = [0, 1, 0, 1], group = 2, dilations = [2, 2]> (x, w)", "3×3 pad 0×1 dil 2 g 2"),
        ("Conv <pads = [0, 0, 1, 1]> (x, w)", "3×3 pad [0,0,1,1]"),
        ("MaxPool <kernel_shape = [3, 3], strides = [2, 1], ceil_mode = 1> (x)", "3×3 /2×1 ceil"),
        ('Conv <auto_pad = "SAME_UPPER"> (x, w)', "3×3 same upper"),
        ("Transpose <perm = [0, 2, 1, 3]> (x)", "perm [0,2,1,3]"),
        ("Softmax <axis = 1> (x)", "axis 1"),
        ("Softmax <axis = -1> (x)", ""),
        ("Gemm <alpha = 1.0, beta = 1.0, transB = 1> (x, w)", "transB"),
        ("Gemm <alpha = 0.5> (x, w)", "alpha 0.5"),
        ("Cast <to = 10> (x)", "to float16"),
        ("LeakyRelu <alpha = 0.01> (x)", ""),
        ("LeakyRelu <alpha = 0.2> (x)", "alpha 0.2"),
        ("Concat <axis = 1> (x, x)", "axis 1"),
        ("ReduceMean <keepdims = 0, noop_with_empty_axes = 1> (x)", "keepdims 0 noop_with_empty_axes"),
        ("Relu (x)", ""),
    ],
)
def test_a_node_shows_its_telling_attributes_in_a_line(node: str, line: str) -> None:
    text = HEAD + f"g (float[1, 3, 8, 8] x, float[4, 3, 3, 3] w) => (float y) {{\n   y = {node}\n}}\n"
    _, graph = _graph(text)
    (op,) = [n for n in graph.nodes if n.kind == "op"]
    assert op.attrs == line


def test_a_node_box_is_measured_with_its_rows_and_attribute_line() -> None:
    text = HEAD + (
        "g (float[1, 3, 8, 8] x) => (float[1, 4, 6, 6] y)\n   <float[4, 3, 3, 3] a_long_weight_name = {...}>\n{\n"
        "   y = Conv <strides = [2, 2]> (x, a_long_weight_name)\n}\n"
    ).replace("{...}", "{" + ", ".join(["1"] * 108) + "}")
    doc, graph = _graph(text)
    data = graph_json(graph, doc.source)
    (conv,) = [n for n in data["nodes"] if n["kind"] == "op"]
    width, height = node_size(conv)
    bare = node_size({**conv, "attrs": "", "rows": []})
    assert height == bare[1] + 2 * 14 + 4 and width >= bare[0]
    view = build_view(data, set())
    layout_view(view, label_text)
    assert (view.items[conv["id"]].width, view.items[conv["id"]].height) == (width, height)
    svg = render_svg(data)
    assert svg.count('class="node ') == 3  # x, the Conv, y: no box for the weight
    assert "W ⟨4×3×3×3⟩" in svg and ">3×3 /2<" in svg


def test_a_node_reading_many_constants_draws_the_first_and_says_how_many_more() -> None:
    consts = "".join(f"   c{i} = Constant <value = int64[1] {{{i}}}> ()\n" for i in range(12))
    names = ", ".join(f"c{i}" for i in range(12))
    text = HEAD + f"g (int64[1] x) => (int64[13] y) {{\n{consts}   y = Concat <axis = 0> (x, {names})\n}}\n"
    doc, graph = _graph(text)
    data = graph_json(graph, doc.source)
    (concat,) = [n for n in data["nodes"] if n["kind"] == "op"]
    assert len(concat["rows"]) == 12 and concat["rows"][11]["data"] == "[11]"
    assert node_size(concat)[1] == node_size({**concat, "rows": concat["rows"][:8]})[1]
    svg = render_svg(data)
    assert svg.count('class="row"') == 7 and ">+5 more</text>" in svg
    from onnxtext.ide.graph_export import to_dot

    assert "inputs = [6]\\n+5 more" in to_dot(data)


def test_the_svg_holds_an_edge_label_that_runs_left_of_every_node() -> None:
    text = HEAD + (
        "g (float[4] a_value_with_a_long_name_indeed, float[4] b) => (float[4] y) {\n"
        "   l = Relu (a_value_with_a_long_name_indeed)\n   r = Relu (b)\n   y = Add (r, l)\n}\n"
    )
    doc, graph = _graph(text)
    svg = render_svg(graph_json(graph, doc.source))
    x0, _, w, _ = (float(v) for v in re.search(r'viewBox="([^"]+)"', svg).group(1).split())  # type: ignore[union-attr]
    for m in re.finditer(r'<text class="edge-label( left)?" x="([-\d.]+)" y="[-\d.]+">([^<]*)</text>', svg):
        left, x, label = m.group(1), float(m.group(2)), m.group(3)
        reach = 6.2 * len(label)
        assert x0 <= (x - reach if left else x) and (x if left else x + reach) <= x0 + w, label


# ------------------------------------------------------------ scopes


def test_single_node_scopes_are_not_boxed_and_torch_internals_are_not_groups() -> None:
    def node(name: str, scopes: str, inp: str) -> str:
        meta = f'@{{metadata_props: ["pkg.torch.onnx.name_scopes": "{scopes}"]}}'
        return f"   {name} = Relu ({inp}) {meta}\n"

    text = (
        HEAD
        + "g (float[2] x) => (float[2] d) {\n"
        + node("a", "['', 'encoder', 'encoder.0', 'relu']", "x")
        + node("b", "['', 'encoder', 'encoder.1', 'relu']", "a")
        + node("c", "['', 'encoder', 'encoder.1', 'relu_1']", "b")
        + node("d", "['', '_empty_nn_module_stack_from_metadata_hook', 'relu']", "c")
        + "}\n"
    )
    _, graph = _graph(text)
    groups = {g.id: g for g in graph.groups}
    assert sorted(g.label for g in groups.values()) == ["1", "encoder"]
    by_label = {n.label: n.group for n in graph.nodes if n.kind == "op"}
    assert by_label["a"] == next(g.id for g in groups.values() if g.label == "encoder")  # encoder.0 held only a
    assert groups[by_label["b"]].label == "1" and by_label["b"] == by_label["c"]
    assert by_label["d"] is None


# ------------------------------------------------------------ real exports


@pytest.mark.slow
@pytest.mark.parametrize("name", ["torch_script_cnn_bn", "torch_dynamo_cnn_bn"])
def test_a_torch_export_draws_no_weight_as_a_box_and_its_convs_say_their_window(name: str) -> None:
    model = _exported(name)
    doc, graph = _graph(to_text(model))
    assert not [n for n in graph.nodes if n.kind == "initializer"]
    convs = [n for n in graph.nodes if n.op == "Conv"]
    assert [c.attrs for c in convs] == ["3×3 pad 1", "3×3 /2"]  # nn.Conv2d(3, 8, 3, padding=1), (8, 4, 3, stride=2)
    assert [[(r.param, r.type) for r in c.rows] for c in convs] == [
        [("W", "float[8, 3, 3, 3]"), ("B", "float[8]")],
        [("W", "float[4, 8, 3, 3]"), ("B", "float[4]")],
    ]
    assert _op(graph, "MaxPool").attrs == "2×2 /2"
    (gemm,) = [n for n in graph.nodes if n.op == "Gemm"]
    assert gemm.attrs == "transB" and [r.param for r in gemm.rows] == ["B", "C"]
    # each layer of the Sequential holds one node: no box around a single node
    assert graph.groups == []
    initializers = {i.name for i in model.graph.initializer}
    drawn = {r.origin or r.value for n in graph.nodes for r in n.rows}
    assert initializers <= drawn | {r.value for n in graph.nodes for r in n.rows}


@pytest.mark.slow
def test_a_legacy_torch_export_draws_its_identity_aliases_inside_their_readers() -> None:
    model = _exported("torch_script_transformer")
    _, graph = _graph(to_text(model))
    identities = [n for n in model.graph.node if n.op_type == "Identity"]
    assert identities  # torch's legacy exporter aliases weights with Identity nodes
    assert not [n for n in graph.nodes if n.op == "Identity"]
    rows = [r for n in graph.nodes for r in n.rows if r.kind == "Identity"]
    assert {r.value for r in rows} == {i.output[0] for i in identities}
    assert all(r.origin in {i.name for i in model.graph.initializer} for r in rows)
