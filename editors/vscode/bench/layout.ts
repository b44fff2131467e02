// Our layout (src/graphview/layout.ts) against dagre (Netron's) and ELK layered, on graphs of
// the view (`onnxtext/graph` JSON files): the same boxes (the view's own node sizes, groups
// flattened, as Netron shows a model) and the same spacing for all three. Per graph and engine:
// edge crossings (of the drawn polylines), total edge length, area of the picture, time.
// `node bench/run.mjs [--check] [--json] [--no-elk] [--repeat=N] FILE...` (times: the best of N
// runs); --check fails when ours has more crossings or
// more total length than dagre on any graph. bench/bench_layout.py makes the files.
import fs from "node:fs";
import path from "node:path";
import * as dagre from "@dagrejs/dagre";
import ELK, { ElkExtendedEdge } from "elkjs/lib/elk.bundled.js";
import { GAP_X, GAP_Y, layoutView } from "../src/graphview/layout";
import { GraphData, Item, buildView } from "../src/graphview/model";
import { labelText } from "../src/graphview/render";

interface Drawing {
  boxes: number[][]; // x, y, w, h
  lines: number[][]; // x0, y0, x1, y1, ...
  ms: number;
  labels?: [number, number];
}

export interface Row {
  graph: string;
  nodes: number;
  edges: number;
  engine: string;
  crossings: number;
  length: number;
  area: number;
  ms: number;
  labels?: [number, number];
}

const LANE_GAP = 10;

function flat(data: GraphData): GraphData {
  return { nodes: data.nodes.map((n) => ({ ...n, group: null })), edges: data.edges, groups: [] };
}

function ours(data: GraphData): Drawing {
  const view = buildView(data, new Set());
  const start = performance.now();
  layoutView(view);
  const ms = performance.now() - start;
  const leaves = [...view.items.values()].filter((i) => i !== view.root);
  // a value read by several boxes has one label (on one of its edges)
  const values = new Set(view.edges.map((e) => `${e.source}\u0000${labelText(e)}`));
  const placed = view.edges.filter((e) => e.route!.label !== null).length;
  return {
    boxes: leaves.map((i) => [i.x, i.y, i.width, i.height]),
    lines: view.edges.map((e) => e.route!.points),
    ms,
    labels: [placed, values.size],
  };
}

function sized(data: GraphData): { items: Item[]; edges: [string, string][] } {
  const view = buildView(data, new Set());
  return {
    items: [...view.items.values()].filter((i) => i !== view.root),
    edges: view.edges.map((e) => [e.source, e.target]),
  };
}

function viaDagre(data: GraphData): Drawing {
  const { items, edges } = sized(data);
  const start = performance.now();
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: "TB", nodesep: GAP_X, ranksep: GAP_Y, edgesep: LANE_GAP });
  g.setDefaultEdgeLabel(() => ({}));
  for (const item of items) {
    g.setNode(item.id, { width: item.width, height: item.height });
  }
  for (const [s, t] of edges) {
    g.setEdge(s, t);
  }
  dagre.layout(g);
  const ms = performance.now() - start;
  const boxes = items.map((item) => {
    const n = g.node(item.id);
    return [n.x - item.width / 2, n.y - item.height / 2, item.width, item.height];
  });
  const lines = g.edges().map((e) => g.edge(e).points!.flatMap((p: { x: number; y: number }) => [p.x, p.y]));
  return { boxes, lines, ms };
}

async function viaElk(data: GraphData): Promise<Drawing> {
  const { items, edges } = sized(data);
  const start = performance.now();
  const elk = new ELK();
  const laid = await elk.layout({
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": "DOWN",
      "elk.spacing.nodeNode": String(GAP_X),
      "elk.spacing.edgeNode": String(GAP_X / 2),
      "elk.spacing.edgeEdge": String(LANE_GAP),
      "elk.layered.spacing.nodeNodeBetweenLayers": String(GAP_Y),
      "elk.layered.spacing.edgeNodeBetweenLayers": String(GAP_Y / 2),
      "elk.layered.spacing.edgeEdgeBetweenLayers": String(LANE_GAP),
    },
    children: items.map((item) => ({ id: item.id, width: item.width, height: item.height })),
    edges: edges.map(([s, t], k) => ({ id: `e${k}`, sources: [s], targets: [t] })),
  });
  const ms = performance.now() - start;
  const boxes = (laid.children ?? []).map((c) => [c.x!, c.y!, c.width!, c.height!]);
  const lines = ((laid.edges ?? []) as ElkExtendedEdge[]).flatMap((e) =>
    (e.sections ?? []).map((s) => [s.startPoint, ...(s.bendPoints ?? []), s.endPoint].flatMap((p) => [p.x, p.y])),
  );
  return { boxes, lines, ms };
}

/** Pairs of segments of different edges that cross (not meeting at an end), found in a grid. */
export function crossings(lines: number[][]): number {
  const seg: number[] = []; // x0, y0, x1, y1, line
  lines.forEach((p, line) => {
    for (let k = 2; k < p.length; k += 2) {
      if (p[k - 2] !== p[k] || p[k - 1] !== p[k + 1]) {
        seg.push(p[k - 2], p[k - 1], p[k], p[k + 1], line);
      }
    }
  });
  const CELL = 96;
  const cells = new Map<number, number[]>();
  const cellOf = (i: number, j: number): number => (i + 4096) * 8192 + (j + 4096);
  for (let s = 0; s < seg.length; s += 5) {
    const [x0, y0, x1, y1] = [seg[s], seg[s + 1], seg[s + 2], seg[s + 3]];
    for (let i = Math.floor(Math.min(x0, x1) / CELL); i <= Math.floor(Math.max(x0, x1) / CELL); i++) {
      for (let j = Math.floor(Math.min(y0, y1) / CELL); j <= Math.floor(Math.max(y0, y1) / CELL); j++) {
        const key = cellOf(i, j);
        const cell = cells.get(key);
        if (cell === undefined) {
          cells.set(key, [s]);
        } else {
          cell.push(s);
        }
      }
    }
  }
  const orient = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number =>
    Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
  let count = 0;
  for (const [key, cell] of cells) {
    const ci = Math.floor(key / 8192) - 4096;
    const cj = (key % 8192) - 4096;
    for (let a = 0; a < cell.length; a++) {
      const s = cell[a];
      for (let b = a + 1; b < cell.length; b++) {
        const t = cell[b];
        if (seg[s + 4] === seg[t + 4]) {
          continue;
        }
        const [ax, ay, bx, by] = [seg[s], seg[s + 1], seg[s + 2], seg[s + 3]];
        const [cx, cy, dx, dy] = [seg[t], seg[t + 1], seg[t + 2], seg[t + 3]];
        if (orient(ax, ay, bx, by, cx, cy) * orient(ax, ay, bx, by, dx, dy) >= 0) {
          continue;
        }
        if (orient(cx, cy, dx, dy, ax, ay) * orient(cx, cy, dx, dy, bx, by) >= 0) {
          continue;
        }
        // counted once: in the cell holding the crossing point
        const den = (bx - ax) * (dy - cy) - (by - ay) * (dx - cx);
        const u = ((cx - ax) * (dy - cy) - (cy - ay) * (dx - cx)) / den;
        const px = ax + u * (bx - ax);
        const py = ay + u * (by - ay);
        if (Math.floor(px / CELL) === ci && Math.floor(py / CELL) === cj) {
          count++;
        }
      }
    }
  }
  return count;
}

function measure(graph: string, data: GraphData, engine: string, d: Drawing): Row {
  let length = 0;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const p of d.lines) {
    for (let k = 0; k < p.length; k += 2) {
      if (k > 0) {
        length += Math.hypot(p[k] - p[k - 2], p[k + 1] - p[k - 1]);
      }
      minX = Math.min(minX, p[k]);
      maxX = Math.max(maxX, p[k]);
      minY = Math.min(minY, p[k + 1]);
      maxY = Math.max(maxY, p[k + 1]);
    }
  }
  for (const [x, y, w, h] of d.boxes) {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x + w);
    maxY = Math.max(maxY, y + h);
  }
  return {
    graph,
    nodes: data.nodes.length,
    edges: d.lines.length,
    engine,
    crossings: crossings(d.lines),
    length: Math.round(length),
    area: Math.round((maxX - minX) * (maxY - minY)),
    ms: Math.round(d.ms * 10) / 10,
    labels: d.labels,
  };
}

/** The drawing of the last of `repeat` runs, with the best time of them (the first runs warm
 * the JIT up). */
async function best(repeat: number, run: () => Drawing | Promise<Drawing>): Promise<Drawing> {
  let drawing = await run();
  let ms = drawing.ms;
  for (let k = 1; k < repeat; k++) {
    drawing = await run();
    ms = Math.min(ms, drawing.ms);
  }
  return { ...drawing, ms };
}

export async function compare(file: string, engines: Set<string>, repeat: number): Promise<Row[]> {
  const data = flat(JSON.parse(fs.readFileSync(file, "utf-8")) as GraphData);
  const name = path.basename(file, ".json");
  const rows = [measure(name, data, "ours", await best(repeat, () => ours(data)))];
  if (engines.has("dagre")) {
    rows.push(measure(name, data, "dagre", await best(repeat, () => viaDagre(data))));
  }
  if (engines.has("elk")) {
    rows.push(measure(name, data, "elk", await best(repeat, () => viaElk(data))));
  }
  return rows;
}

async function main(argv: string[]): Promise<number> {
  const check = argv.includes("--check");
  const json = argv.includes("--json");
  const engines = new Set(["dagre", "elk"]);
  if (argv.includes("--no-elk")) {
    engines.delete("elk");
  }
  const repeat = Number(argv.find((a) => a.startsWith("--repeat="))?.slice(9) ?? "1");
  const files = argv.filter((a) => !a.startsWith("--"));
  let failed = 0;
  for (const file of files) {
    const rows = await compare(file, engines, repeat);
    for (const row of rows) {
      const labels = row.labels ? ` labels ${row.labels[0]}/${row.labels[1]}` : "";
      console.log(json ? JSON.stringify(row) : `${row.graph} ${row.engine}: ${row.nodes} nodes, ${row.crossings} crossings, length ${row.length}, area ${row.area}, ${row.ms} ms${labels}`);
    }
    const [mine, theirs] = [rows[0], rows.find((r) => r.engine === "dagre")];
    if (check && theirs !== undefined && (mine.crossings > theirs.crossings || mine.length > theirs.length)) {
      console.error(`[layout] ${mine.graph}: ours ${mine.crossings} crossings, length ${mine.length}; dagre ${theirs.crossings}, ${theirs.length}`);
      failed++;
    }
  }
  if (check) {
    console.log(`layout: ${files.length - failed} passed, ${failed} failed`);
  }
  return failed > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  },
);
