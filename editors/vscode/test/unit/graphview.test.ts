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
