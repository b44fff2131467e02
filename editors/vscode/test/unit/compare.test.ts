// "Compare with…" (#33): the sides offered, the comparison in a line, the statements a picked node
// shows in both texts, and the colours of the marked graph (as the offline diff page's).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { Change, Comparison, ValueComparison, ValueDifference, changesOf, deltaHints, deltaLabel, diffTitle, fromA, shortNumber, sidesFor, statementsOf, summary, valuesSummary } from "../../src/comparison";
import { cssString, markStylesheet } from "../../src/graphview/marks";
import { GraphData, GraphNode } from "../../src/graphview/model";

function at(line: number) {
  return { start: { line, character: 2 }, end: { line, character: 12 } };
}

function node(id: string, extra: object = {}, group: string | null = null): GraphNode {
  return { id, kind: "op", label: id, op: "Relu", domain: "", range: at(0), group, calls: null, severity: null, ...extra };
}

function change(sign: string, text: string, a: number | null, b: number | null): Change {
  return { sign, what: "node", text, mark: "", a: a === null ? null : at(a), b: b === null ? null : at(b) };
}

// B's Relu became a Tanh and reads a new Neg; A's Abs is gone (drawn from A, its range A's)
const COMPARED: Comparison = {
  same: false,
  graph: {
    nodes: [
      node("t", { mark: "added", changes: [0], range: at(5) }),
      node("h2", { mark: "changed", changes: [1, 2], range: at(6) }),
      node("removed:k", { mark: "removed", changes: [3], range: at(7) }),
      node("y"),
    ],
    edges: [],
    groups: [],
  },
  changes: [
    change("+", "+ node 't' t = Neg (h)", null, 5),
    change("~", "~ node 'h2' (Relu → Tanh)", 5, 6),
    change("~", "~ node 'h2' (Tanh) input 0: 'h' → 't'", 5, 6),
    change("-", "- node 'k' k = Abs (h2)", 7, null),
  ],
  renamed: [{ a: "h", b: "hh", where: "" }],
};

test("the sides offered: HEAD for a file's text, the disk when it has unsaved changes, another file always", () => {
  assert.deepEqual(sidesFor({ scheme: "file", dirty: false }), ["file", "head"]);
  assert.deepEqual(sidesFor({ scheme: "file", dirty: true }), ["file", "head", "disk"]);
  assert.deepEqual(sidesFor({ scheme: "onnx-model", dirty: true }), ["file"]);
  assert.deepEqual(sidesFor({ scheme: "untitled", dirty: true }), ["file"]);
});

test("a comparison in a line, by sign", () => {
  assert.equal(summary(COMPARED), "4 changes: 1 added, 1 removed, 2 changed; 1 renamed");
  assert.equal(summary({ ...COMPARED, same: true, changes: [], renamed: [] }), "the models are the same");
  assert.equal(summary({ ...COMPARED, changes: [COMPARED.changes[0]], renamed: [] }), "1 change: 1 added, 0 removed, 0 changed");
});

test("a picked node shows the statements of its changes in both texts", () => {
  assert.deepEqual(statementsOf(COMPARED, "h2"), { a: at(5), b: at(6) });
  assert.deepEqual(statementsOf(COMPARED, "t"), { a: null, b: at(5) });
  assert.deepEqual(statementsOf(COMPARED, "removed:k"), { a: at(7), b: null });
  assert.equal(statementsOf(COMPARED, "y"), undefined);
  assert.equal(statementsOf(COMPARED, "nowhere"), undefined);
  assert.deepEqual(
    changesOf(COMPARED, "h2").map((c) => c.text),
    ["~ node 'h2' (Relu → Tanh)", "~ node 'h2' (Tanh) input 0: 'h' → 't'"],
  );
  assert.equal(fromA(COMPARED, "removed:k"), true);
  assert.equal(fromA(COMPARED, "h2"), false);
});

test("the diff editor's title names the other side", () => {
  assert.equal(diffTitle("head", "m.onnxtxt", "m.onnxtxt"), "m.onnxtxt (HEAD) ↔ m.onnxtxt");
  assert.equal(diffTitle("disk", "m.onnxtxt", "m.onnxtxt"), "m.onnxtxt (on disk) ↔ m.onnxtxt");
  assert.equal(diffTitle("file", "old.onnx", "m.onnxtxt"), "old.onnx ↔ m.onnxtxt");
});

test("marked nodes are coloured by id, the others dimmed, a folded group holding one outlined", () => {
  const data: GraphData = {
    nodes: [node("a", { mark: "added" }, "inner"), node('say "x"', { mark: "removed" }), node("plain")],
    edges: [{ value: "v", source: "a", target: "plain", type: "", live: "", mark: "differs" } as GraphData["edges"][number]],
    groups: [
      { id: "outer", kind: "scope", label: "outer", parent: null, range: null },
      { id: "inner", kind: "scope", label: "inner", parent: "outer", range: null },
    ],
  };
  const css = markStylesheet(data);
  assert.match(css, /\.node \{ opacity: 0\.45; \}/);
  assert.ok(css.includes('.node[data-id="a"] > rect { fill: #c8e6c9; stroke: #2e7d32;'));
  assert.ok(css.includes('.node[data-id="say \\22 x\\22 "] > rect { fill: #ffcdd2; stroke: #c62828;'));
  assert.ok(!css.includes('data-id="plain"'));
  assert.ok(css.includes('.group.folded[data-group="inner"] > rect') && css.includes('.group.folded[data-group="outer"] > rect'));
  assert.ok(css.includes('.edge[data-values~="v"] { stroke: #c62828;'));
  assert.equal(markStylesheet({ nodes: [node("plain")], edges: [], groups: [] }), "");
  assert.equal(cssString('a"b\\c'), '"a\\22 b\\5c c"');
});

test("the colours are graph_view.py's MARK_COLOURS (the offline diff page's)", () => {
  const python = fs.readFileSync(path.join(process.cwd(), "..", "..", "src", "onnxtext", "ide", "graph_view.py"), "utf8");
  const line = python.split("\n").find((l) => l.startsWith("MARK_COLOURS = "));
  assert.ok(line !== undefined);
  for (const [mark, colours] of Object.entries({ added: ["#c8e6c9", "#2e7d32"], removed: ["#ffcdd2", "#c62828"], changed: ["#ffe0b2", "#ef8f00"] })) {
    assert.ok(line.includes(`"${mark}": ("${colours[0]}", "${colours[1]}")`), mark);
  }
});

// "Compare Values" (`onnxtext/compareValues`): each matched value's difference as B's inlay hint
function value(b: string, maxAbs: number | null, differs: boolean, extra: Partial<ValueDifference> = {}): ValueDifference {
  return { a: b, b, op: "Mul", max_abs: maxAbs, max_rel: maxAbs, differs, note: "", at: { line: 5, character: 4 }, ...extra };
}

test("numbers are written as the server's edge labels (Python's .3g)", () => {
  const cases: [number, string][] = [
    [0.146, "0.146"],
    [0.0012, "0.0012"],
    [1.2e-5, "1.2e-05"],
    [0, "0"],
    [123.4, "123"],
    [35000, "3.5e+04"],
    [0.9996, "1"],
    [-2.5, "-2.5"],
    [Infinity, "inf"],
  ];
  assert.deepEqual(
    cases.map(([x]) => shortNumber(x)),
    cases.map(([, text]) => text),
  );
});

test("a value's hint says its difference, the first to differ say so, a value without a place has none", () => {
  const found: ValueComparison = {
    values: [
      value("a", 0, false, { at: { line: 4, character: 4 } }),
      value("h", 0.5, true),
      value("s", null, true, { note: "shape (2,) → (3,)", a: "s0" }),
      value("u", 0.25, true, { at: null }),
    ],
    reason: null,
    first: ["h"],
  };
  const hints = deltaHints(found);
  assert.deepEqual(
    hints.map((h) => [h.line, h.character, h.label, h.differs]),
    [
      [4, 4, "Δ 0", false],
      [5, 4, "Δ 0.5 (first to differ)", true],
      [5, 4, "Δ shape (2,) → (3,)", true],
    ],
  );
  assert.equal(hints[1].tooltip, "'h' (Mul): max abs 0.5, max rel 0.5; differs beyond the tolerance");
  assert.match(hints[2].tooltip, /^'s0' \(A\) → 's' \(B\) \(Mul\): max abs inf, max rel inf \(shape/);
  assert.equal(deltaLabel(value("z", 1.2e-3, true)), "Δ 0.0012");
  assert.deepEqual(deltaHints({ values: null, reason: "not run" }), []);
});

test("a value comparison in a line", () => {
  const found: ValueComparison = {
    values: [value("a", 0, false), value("h", 0.5, true), value("y", 0.5, true)],
    reason: null,
    first: ["h"],
    outputs: [{ a: "y", b: "y", max_abs: 0.5, max_rel: 0.5, note: "" }],
    compared: 3,
    inputs: "made-up inputs x (seed 0)",
  };
  assert.equal(valuesSummary(found), "3 values compared on made-up inputs x (seed 0): 2 differ, first 'h'; outputs differ: 'y'");
  assert.equal(valuesSummary({ ...found, values: [value("a", 0, false)], first: [], outputs: [], compared: 1 }), "1 values compared on made-up inputs x (seed 0): 0 differ; outputs agree within the tolerance");
  assert.equal(valuesSummary({ values: null, reason: "A not a valid model" }), "the values were not compared: A not a valid model");
});
