// The properties panel with live values on (#31): every value that ran has its statistics and
// histogram, shown as a weight's; without a run, the types alone.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Properties, Stats, propertiesHtml } from "../../src/graphview/panel";

const range = { start: { line: 4, character: 3 }, end: { line: 4, character: 20 } };
const stats = (lo: number, hi: number): Stats => ({ count: 6, nonfinite: 1, min: lo, max: hi, mean: 0.5, std: 0.25, zeros: 2, histogram: { lo, hi, counts: [2, 0, 1, 3] } });

function node(live: boolean): Properties {
  return {
    kind: "node",
    name: "",
    op: "Add",
    domain: "ai.onnx",
    version: 14,
    description: null,
    function: false,
    attributes: [],
    inputs: [
      { param: "A", name: "x", type: "float[2, 3]", live: live ? "float32[2, 3] min=-1 max=2 mean=0.5" : "", ...(live ? { stats: stats(-1, 2) } : {}) },
      {
        param: "B",
        name: "w",
        type: "float[3]",
        live: live ? "float32[3] min=1 max=3 mean=2" : "",
        ...(live ? { stats: stats(1, 3) } : {}),
        weight: { name: "w", range, dtype: "float", shape: [3], storage: "in the text", stats: stats(1, 3) },
      },
    ],
    outputs: [{ param: "C", name: "a", type: "float[2, 3]", live: live ? "float32[2, 3] min=0 max=4 mean=1" : "", ...(live ? { stats: stats(0, 4) } : {}) }],
    doc: "",
    metadata: [],
  };
}

test("with live values on, each value that ran shows its statistics and histogram as a weight does", () => {
  const html = propertiesHtml(node(true), true);
  const live = html.slice(html.indexOf("<h3>Live values</h3>"));
  assert.ok(html.includes("<h3>Live values</h3>"), html);
  for (const wanted of ["<h4>A: x</h4>", "<h4>C: a</h4>", "<th>std</th><td>0.25</td>", "<th>non-finite</th><td>1</td>", "<th>zeros</th><td>2</td>", "float32[2, 3] min=0 max=4"]) {
    assert.ok(live.includes(wanted), `${wanted} not among the live values`);
  }
  assert.ok(!live.includes("<h4>B: w</h4>")); // a weight's statistics are its own block's
  assert.equal((html.match(/<svg class="histogram"/g) ?? []).length, 3); // the weight's, x's and a's
  assert.equal((live.match(/<rect /g) ?? []).length, 8);
  assert.ok(live.includes('aria-label="histogram of the values from 0 to 4"'));
});

test("without a run, no live values section", () => {
  const html = propertiesHtml(node(false), true);
  assert.ok(!html.includes("Live values"));
  assert.equal((html.match(/<svg class="histogram"/g) ?? []).length, 1); // the weight's alone
});

test("a graph input that ran is a value with its statistics", () => {
  const html = propertiesHtml({ kind: "value", name: "x", type: "float[2, 3]", live: "float32[2, 3] min=-1 max=2 mean=0.5", stats: stats(-1, 2) }, true);
  assert.ok(html.includes("<th>type</th><td>float[2, 3]</td>") && html.includes("<th>std</th><td>0.25</td>") && html.includes('<svg class="histogram"'));
  const bare = propertiesHtml({ kind: "value", name: "x", type: "float[2, 3]", live: "" }, true);
  assert.ok(!bare.includes("histogram") && !bare.includes("live"));
});
