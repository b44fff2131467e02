// What the standalone graph page (`onnxtext graph -o x.html`) says of a picked node: its reader
// never sees the model's text, so a node names its place in the model, not a line of that text.
import assert from "node:assert/strict";
import { test } from "node:test";
import { GraphNode, placeOf } from "../../src/graphview/model";

function node(place?: string): GraphNode {
  const range = { start: { line: 3764899, character: 3 }, end: { line: 3764899, character: 40 } };
  const found: GraphNode = { id: "conv1", kind: "op", label: "conv1", op: "Conv", domain: "", range, group: null, calls: null, severity: null };
  return place === undefined ? found : { ...found, place };
}

test("a node with its place in the model is named by it, not by a line of a text never shown", () => {
  const place = "node 'conv1' (Conv), graph 'main_graph', node #12";
  assert.equal(placeOf(node(place)), place);
});

test("a node without a place (a damaged statement of a text file) says its line", () => {
  assert.equal(placeOf(node()), "line 3764900");
});

// ------------------------------------------------------------ weights inside their nodes, attributes, the panel (#31)
import { besideModel } from "../../src/graph";
import { GraphData, GraphRow, Range, buildView, findMatches, nodeSize, placeAt, rowText } from "../../src/graphview/model";
import { Properties, localHtml, panelKey, propertiesHtml } from "../../src/graphview/panel";
import { renderView, standaloneSvg } from "../../src/graphview/render";

function at(line: number, from: number, to: number) {
  return { start: { line, character: from }, end: { line, character: to } };
}

function weight(value: string, param: string, type: string, extra: Partial<GraphRow> = {}): GraphRow {
  return { value, param, type, kind: "initializer", shared: false, severity: null, range: at(2, 3, 30), ...extra };
}

function conv(): GraphData {
  const rows = [weight("conv1.weight", "W", "float[64, 3, 7, 7]"), weight("conv1.bias", "B", "float[64]", { shared: true, range: at(3, 3, 20) })];
  const nodes: GraphNode[] = [
    { id: "x", kind: "input", label: "x", op: "", domain: "", range: at(1, 0, 10), group: null, calls: null, severity: null },
    { id: "y", kind: "op", label: "y", op: "Conv", domain: "", range: at(5, 3, 60), group: null, calls: null, severity: null, attrs: "7×7 /2 pad 3", rows },
  ];
  return { nodes, edges: [{ value: "x", source: "x", target: "y", type: "float[1, 3, 224, 224]", live: "" }], groups: [] };
}

test("a weight's row says its input's name and shape; a shared one names the weight; a small one its values", () => {
  assert.equal(rowText(weight("conv1.weight", "W", "float[64, 3, 7, 7]")), "W ⟨64×3×7×7⟩");
  assert.equal(rowText(weight("fc.bias", "B", "float[16]", { shared: true })), "B ⇄ fc.bias ⟨16⟩");
  assert.equal(rowText(weight("c", "axes", "int64[1]", { data: "[0]" })), "axes = [0]");
  assert.equal(rowText(weight("s", "", "int64[]", { data: "2" })), "s = 2");
});

test("a node's box holds its attribute line and every row: the layout is given its drawn size", () => {
  const data = conv();
  const bare = nodeSize({ ...data.nodes[1], attrs: undefined, rows: undefined });
  const full = nodeSize(data.nodes[1]);
  assert.equal(full.height, bare.height + 3 * 14 + 4);
  assert.ok(full.width >= "W ⟨64×3×7×7⟩".length * 7);
  const view = buildView(data, new Set());
  assert.equal(view.items.get("y")!.height, full.height);
  const markup = renderView(view);
  assert.match(markup, /<text class="attrs"[^>]*>7×7 \/2 pad 3<\/text>/);
  assert.match(markup, /data-row="0"[^]*W ⟨64×3×7×7⟩/);
  assert.match(markup, /class="row shared" data-row="1"/);
  assert.equal((markup.match(/class="node /g) ?? []).length, 2); // no weight is a box of its own
});

test("the cursor in a weight's statement selects the node that draws it, and that row", () => {
  const data = conv();
  assert.deepEqual(placeAt(data, { line: 3, character: 5 }), { node: data.nodes[1], row: 1 });
  assert.deepEqual(placeAt(data, { line: 5, character: 10 }), { node: data.nodes[1] });
  assert.equal(placeAt(data, { line: 9, character: 0 }), undefined);
  // torch's legacy alias of a weight (an Identity): the weight's own statement selects the row too
  data.nodes[1].rows![0] = { ...data.nodes[1].rows![0], kind: "Identity", origin: "fc.weight", originRange: at(7, 3, 30) };
  assert.deepEqual(placeAt(data, { line: 7, character: 4 }), { node: data.nodes[1], row: 0 });
});

test("the panel says a node's attributes, typed ports and its weights' statistics", () => {
  const props: Properties = {
    kind: "node",
    name: "/conv1/Conv",
    op: "Conv",
    domain: "ai.onnx",
    version: 11,
    description: "The convolution operator consumes an input tensor and a filter, and computes the output.",
    function: false,
    attributes: [["kernel_shape", "[7,7]"], ["strides", "[2,2]"], ["pads", "[3,3,3,3]"]],
    inputs: [
      { param: "X", name: "x", type: "float[1, 3, 224, 224]", live: "" },
      {
        param: "W",
        name: "conv1.weight",
        type: "float[64, 3, 7, 7]",
        live: "",
        weight: { name: "conv1.weight", range: at(2, 3, 30), dtype: "float", shape: [64, 3, 7, 7], storage: "in the text", stats: { count: 9408, nonfinite: 0, min: -1.5, max: 2, mean: 0.01, std: 0.3, histogram: { lo: -1.5, hi: 2, counts: [1, 0, 5, 9] } } },
      },
    ],
    outputs: [{ param: "Y", name: "y", type: "float[1, 64, 112, 112]", live: "float32[1, 64, 112, 112] min=0 max=3 mean=1" }],
    doc: "",
    metadata: [["namespace", "conv1"]],
  };
  const html = propertiesHtml(props, true);
  for (const wanted of ["strides", "[2,2]", "pads", "[3,3,3,3]", "W: conv1.weight", "float[64, 3, 7, 7]", "<th>std</th><td>0.3</td>", "Save as .npy", "The convolution operator", "namespace", "= float32[1, 64, 112, 112] min=0"]) {
    assert.ok(html.includes(wanted), `${wanted} not in the panel`);
  }
  assert.equal((html.match(/<rect /g) ?? []).length, 4); // the histogram's bars
  assert.ok(!propertiesHtml(props, false).includes("Save as .npy")); // the offline page writes no file
  const local = localHtml(conv(), conv().nodes[1]);
  assert.ok(local.includes("7×7 /2 pad 3") && local.includes("W: conv1.weight") && local.includes("float[1, 3, 224, 224]"));
});

test("an exported picture holds what runs past the nodes' left edge (an edge's label)", () => {
  const svg = standaloneSvg("<g/>", { x0: -120, y0: 0, x1: 300, y1: 200 });
  const [x, y, w, h] = /viewBox="([^"]+)"/.exec(svg)![1].split(" ").map(Number);
  assert.ok(x <= -120 && x + w >= 300 && y <= 0 && y + h >= 200, svg.slice(0, 120));
});

test("an export is proposed beside the model, named after it, for a .onnx shown as text too", () => {
  assert.equal(besideModel({ scheme: "onnx-model", path: "/models/resnet18.onnx" }, "resnet18.svg", [], "/home/u"), "/models/resnet18.svg");
  assert.equal(besideModel({ scheme: "file", path: "/w/m.onnxtxt" }, "m.svg", ["/w"], "/home/u"), "/w/m.svg");
  assert.equal(besideModel({ scheme: "untitled", path: "Untitled-1" }, "Untitled-1.svg", ["/w"], "/home/u"), "/w/Untitled-1.svg");
});

test("search finds nodes and the weights drawn inside them (a weight's row is a match of its own)", () => {
  const data = conv();
  assert.deepEqual(findMatches(data, "conv1.b"), [{ id: "y", row: 1 }]);
  assert.deepEqual(findMatches(data, "CONV"), [{ id: "y", row: null }, { id: "y", row: 0 }, { id: "y", row: 1 }]);
  assert.deepEqual(findMatches(data, "  "), []);
});

test("a node reading many weights draws the first ones and says how many more (its box sized so)", () => {
  const data = conv();
  const many = { ...data.nodes[1], rows: Array.from({ length: 12 }, (_, i) => weight(`c${i}`, "inputs", "int64[1]", { data: `[${i}]` })) };
  assert.equal(nodeSize(many).height, nodeSize({ ...many, rows: many.rows.slice(0, 8) }).height);
  const markup = renderView(buildView({ ...data, nodes: [data.nodes[0], many] }, new Set()));
  assert.equal((markup.match(/data-row=/g) ?? []).length, 7);
  assert.match(markup, /<text class="more"[^>]*>\+5 more<\/text>/);
});

test("the panel is asked again when its node changes, not when an edit above only moves it", () => {
  const data = conv();
  const key = panelKey(data, data.nodes[1], null);
  const shift = (r: Range, by: number): Range => ({ start: { ...r.start, line: r.start.line + by }, end: { ...r.end, line: r.end.line + by } });
  const moved: GraphNode = { ...data.nodes[1], range: shift(data.nodes[1].range, 3), rows: data.nodes[1].rows!.map((r) => ({ ...r, range: shift(r.range, 3) })) };
  assert.equal(panelKey({ ...data, nodes: [data.nodes[0], moved] }, moved, null), key);
  const retyped = { ...data, edges: [{ ...data.edges[0], type: "float[2, 3, 224, 224]" }] };
  assert.notEqual(panelKey(retyped, data.nodes[1], null), key);
  const reattributed: GraphNode = { ...data.nodes[1], attrs: "7×7 pad 3" };
  assert.notEqual(panelKey(data, reattributed, null), key);
  assert.notEqual(panelKey(data, data.nodes[1], 0), key);
});

// ------------------------------------------------------------ a big graph's folded first answer (#31)
function scoped(): { whole: GraphData; folded: GraphData } {
  const n = (id: string, group: string | null, kind: GraphNode["kind"] = "op"): GraphNode => ({ id, kind, label: id, op: kind === "op" ? "Relu" : "", domain: "", range: at(1, 0, 1), group, calls: null, severity: null });
  const e = (value: string, source: string, target: string) => ({ value, source, target, type: "float[1]", live: "" });
  const g = (id: string, parent: string | null) => ({ id, kind: "scope" as const, label: id, parent, range: null });
  const whole: GraphData = {
    nodes: [n("x", null, "input"), n("a", "L0"), n("b", "L1"), n("c", "L1"), n("d", "E"), n("y", null), n("out", null, "output")],
    edges: [e("x", "x", "a"), e("a", "a", "b"), e("b", "b", "c"), e("b", "b", "d"), e("c", "c", "y"), e("d", "d", "y"), e("y", "y", "out")],
    groups: [g("E", null), g("L0", "E"), g("L1", "E")],
  };
  // as the server sends it (ide/graph.folded_json): the nodes outside every group, the outermost
  // groups with their counts, an edge's end inside a group named by that group (once per value)
  const folded: GraphData = {
    nodes: whole.nodes.filter((m) => m.group === null),
    edges: [e("x", "x", "E"), e("c", "E", "y"), e("d", "E", "y"), e("y", "y", "out")],
    groups: [{ ...g("E", null), count: 4, at: 1 }],
    total: 7,
  };
  return { whole, folded };
}

test("a folded first answer draws the picture the whole graph draws folded", () => {
  const { whole, folded } = scoped();
  const shape = (data: GraphData, open: Set<string>) => {
    const view = buildView(data, open);
    const items = [...view.items.values()].map((i) => `${i.id}:${i.open}:${i.count}:${i.children.map((c) => c.id).join(",")}`).sort();
    const edges = view.edges.map((v) => `${v.source}>${v.target}:${[...new Set(v.edges.map((x) => x.value))].sort().join(",")}`).sort();
    return { items, edges };
  };
  assert.deepEqual(shape(folded, new Set()), shape(whole, new Set()));
  assert.deepEqual(shape(folded, new Set()).edges, ["E>y:c,d", "x>E:x", "y>out:y"]);
  // a view whose saved state has the group open shows it folded until the whole graph comes
  assert.deepEqual(shape(folded, new Set(["E"])), shape(whole, new Set()));
});
