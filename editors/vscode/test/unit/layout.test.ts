// The view's layout (src/graphview/layout.ts) on small real exports and the examples
// (test/fixtures/layout/, made by bench/bench_layout.py --fixtures): the same positions as
// src/onnxtext/ide/graph_layout.py gave (expected/layout.json, which tests/ide/test_graph_layout.py
// holds the Python to), edge labels that cover neither each other nor a box, inside the picture,
// and edges that pass over no box.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { layoutView } from "../../src/graphview/layout";
import { GraphData, View, buildView } from "../../src/graphview/model";

const FIXTURES = path.join(process.cwd(), "test", "fixtures", "layout"); // npm test runs in editors/vscode
const GRAPHS = fs.readdirSync(FIXTURES).filter((f) => f.endsWith(".json"));
interface Expected {
  items: Record<string, number[]>;
  routes: number[][];
  labels: (number[] | null)[];
}
const EXPECTED = JSON.parse(fs.readFileSync(path.join(FIXTURES, "expected", "layout.json"), "utf-8")) as Record<string, Expected>;

function load(file: string): GraphData {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, file), "utf-8")) as GraphData;
}

function laidOut(data: GraphData, open: Set<string>): View {
  const view = buildView(data, open);
  layoutView(view);
  return view;
}

function close(actual: number[], expected: number[], what: string): void {
  assert.equal(actual.length, expected.length, what);
  actual.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) < 1e-6, `${what}: ${actual.join(",")} != ${expected.join(",")}`));
}

test("the fixtures are there (one per graph in expected/layout.json)", () => {
  assert.deepEqual(GRAPHS.map((f) => f.replace(/\.json$/, "")).sort(), Object.keys(EXPECTED).sort());
  assert.ok(GRAPHS.length >= 5);
});

for (const file of GRAPHS) {
  const name = file.replace(/\.json$/, "");

  test(`${name}: the same boxes, routes and labels as the Python layout`, () => {
    const data = load(file);
    const view = laidOut(data, new Set(data.groups.map((g) => g.id)));
    const expected = EXPECTED[name];
    assert.deepEqual([...view.items.keys()].sort(), Object.keys(expected.items).sort());
    for (const [id, item] of view.items) {
      close([item.x, item.y, item.width, item.height], expected.items[id], `item ${id}`);
    }
    view.edges.forEach((edge, k) => {
      close(edge.route!.points, expected.routes[k], `route ${k}`);
      const box = edge.route!.label;
      if (expected.labels[k] === null) {
        assert.equal(box, null, `label ${k}`);
      } else {
        close(box === null ? [] : [box.x, box.y, box.w, box.h], expected.labels[k]!, `label ${k}`);
      }
    });
  });

  for (const [how, folded] of [["open", false], ["flat", true]] as const) {
    test(`${name} (${how}): no label covers another or a box, and the picture holds them`, () => {
      const data = load(file);
      const view = folded ? laidOut({ ...data, groups: [] }, new Set()) : laidOut(data, new Set(data.groups.map((g) => g.id)));
      const boxes: number[][] = [];
      for (const item of view.items.values()) {
        if (item !== view.root && !item.open) {
          boxes.push([item.x, item.y, item.width, item.height]);
        }
      }
      const labels = view.edges.map((e) => e.route!.label).filter((b) => b !== null);
      assert.ok(labels.length > 0);
      const meet = (a: number[], b: number[]): boolean => a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
      labels.forEach((l, i) => {
        const box = [l.x, l.y, l.w, l.h];
        for (const other of labels.slice(i + 1)) {
          assert.ok(!meet(box, [other.x, other.y, other.w, other.h]), `labels ${box} and ${[other.x, other.y, other.w, other.h]}`);
        }
        for (const b of boxes) {
          assert.ok(!meet(box, b), `label ${box} over box ${b}`);
        }
        assert.ok(l.x >= 0 && l.y >= 0 && l.x + l.w <= view.root.width + 1e-9 && l.y + l.h <= view.root.height + 1e-9, `label ${box} outside the picture`);
      });
      for (const b of boxes) {
        assert.ok(b[0] >= 0 && b[1] >= 0 && b[0] + b[2] <= view.root.width + 1e-9 && b[1] + b[3] <= view.root.height + 1e-9, `box ${b} outside`);
      }
    });

    test(`${name} (${how}): no edge passes over a box but its ends (lanes through layers, ports into groups, corridors round)`, () => {
      const data = load(file);
      const view = folded ? laidOut({ ...data, groups: [] }, new Set()) : laidOut(data, new Set(data.groups.map((g) => g.id)));
      const boxes = [...view.items.values()].filter((i) => i !== view.root && !i.open);
      for (const edge of view.edges) {
        const p = edge.route!.points;
        for (let k = 2; k < p.length; k += 2) {
          const [x0, y0, x1, y1] = [p[k - 2], p[k - 1], p[k], p[k + 1]];
          // the curve render.ts draws: a cubic from (x0, y0) to (x1, y1), control points at mid-height
          for (let i = 1; i < 16; i++) {
            const u = i / 16;
            const x = x0 + (x1 - x0) * u * u * (3 - 2 * u);
            const y = y0 + (y1 - y0) * (1.5 * u * (1 - u) + u * u * u);
            const over = boxes.find((b) => b.id !== edge.source && b.id !== edge.target && x > b.x + 0.5 && x < b.x + b.width - 0.5 && y > b.y + 0.5 && y < b.y + b.height - 0.5);
            assert.equal(over?.id, undefined, `${edge.source} -> ${edge.target} over ${over?.id}`);
          }
        }
      }
    });
  }
}
