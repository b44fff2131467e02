// A layered (Sugiyama-style) layout of the view, top to bottom, made for thousands of nodes:
// 1. layers: longest path in a topological order, then every node with more outgoing than
//    incoming edges (sources first), or with sources of its own, pulled down next to its first
//    consumer;
// 2. an edge spanning several layers passes through one small "dummy" box per layer it crosses,
//    so it is routed between the boxes, never over one; an edge against the layers (a cycle, as
//    between two groups feeding each other) goes round by a corridor right of the boxes;
// 3. order in each layer: sweeps down and up sorting by the neighbours' median, then by their
//    barycentre, each order's crossings counted (accumulator tree) and the best kept, then
//    adjacent swaps that remove crossings;
// 4. x: each layer in turn at the weighted mean of its neighbours above and below, then at their
//    weighted median, without overlaps (pool-adjacent-violators, the least-squares placement of
//    an ordered row), long edges weighted most so they run straight; an edge's ends on its
//    boxes' sides, where it heads;
// 5. edge labels placed where they cover no box, no other label and no other value's edge (else
//    over edges; where there is no room at all, shown on hover only).
// An open group is laid out first as a graph of its own and then placed as one box in its
// container; an edge into or out of it runs inside it from a port on its top or bottom edge.
// src/onnxtext/ide/graph_layout.py is the same algorithm for `onnxtext graph -o x.svg`, held to
// the same positions by test/fixtures/layout/expected/layout.json (both test suites read it).
// bench/bench_layout.py measures it against dagre and ELK (crossings, edge length, area, time).
import { HEADER, Item, PAD, View, ViewEdge } from "./model";
import { labelText } from "./render";

export const GAP_X = 24;
export const GAP_Y = 48;
/** Between a long edge's lane and a box, and between two lanes. */
const GAP_EDGE = 12;
const LANE_GAP = 10;
/** The kinds of a group's ports (layered's items: 0, a box). */
const IN = 1;
const OUT = 2;
/** Between a layer of ports only and its neighbour. */
const PORT_GAP = 24;
/** An edge's end stays this far from its box's corners. */
const PORT_MARGIN = 12;
const MAX_SWEEPS = 24;
const PATIENCE = 4;
/** Above this many boxes and lanes, one first order only (the time for 3,000 nodes), else four. */
const MIRROR_UP_TO = 6000;
const PLACE_SWEEPS = 8;
export const LABEL_HEIGHT = 12;
export const LABEL_CHAR = 6.2;
const LABEL_PAD = 4;
/** Edges are obstacles to labels (where there is room elsewhere) as a square every this many
 * pixels down their curves. */
const EDGE_STEP = 6;
const NO_EDGES = -2;
/** Where on a curve a label is tried, as a fraction of its height (the middle first). */
const LABEL_AT = [0.3, 0.5, 0.7, 0.15, 0.85, 0.4, 0.6, 0.2, 0.8];

/** A label's box in the view's coordinates (its text starts at x, baseline near y + h - 3). */
export interface LabelBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Where an edge is drawn: `points` x0, y0, x1, y1, ... from the source's bottom to the target's
 * top (through the lanes of the layers it crosses); `label` where its text goes, or null when
 * there is no room for it (the renderer shows it on hover). */
export interface EdgeRoute {
  points: number[];
  label: LabelBox | null;
}

/** Positions every item (absolute x, y), sizes the open groups and the root (labels included),
 * and sets each edge's `route`. */
export function layoutView(view: View, labelOf: (edge: ViewEdge) => string = labelText): void {
  const parent = new Map<string, Item>();
  const visit = (item: Item): void => {
    for (const child of item.children) {
      parent.set(child.id, item);
      if (child.open) {
        visit(child);
      }
    }
  };
  visit(view.root);
  // the edges each container lays out: an edge between two containers is laid out in the
  // innermost one holding both (its ends lifted to the items directly inside it), and in every
  // open group it leaves or enters, from its end inside to a port on the group's bottom (out) or
  // top (in) edge: it runs in lanes there too, never over a box inside a group
  const local = new Map<string, [string, string][]>();
  const ports = new Map<string, Map<string, Item>>(); // container → port id → its point (width 0)
  const legs: [string, number][][] = []; // per edge: (container, index in local) from source to target
  const chain = (id: string): string[] => {
    const out = [id];
    for (let p = parent.get(id); p !== undefined; p = parent.get(p.id)) {
      out.push(p.id);
    }
    return out;
  };
  const leg = (container: string, from: string, to: string): [string, number] => {
    const list = local.get(container) ?? [];
    local.set(container, list);
    list.push([from, to]);
    return [container, list.length - 1];
  };
  const portOf = (container: string, kind: "in" | "out", source: string): string => {
    const id = `\u0000${kind}\u0000${source}`;
    const known = ports.get(container) ?? new Map<string, Item>();
    ports.set(container, known);
    if (!known.has(id)) {
      known.set(id, { id, open: false, children: [], width: 0, height: 0, x: 0, y: 0, count: 0 });
    }
    return id;
  };
  for (const edge of view.edges) {
    const a = chain(edge.source);
    const b = chain(edge.target);
    const inB = new Set(b);
    let i = 0;
    while (i < a.length && !inB.has(a[i])) {
      i++;
    }
    const j = i < a.length ? b.indexOf(a[i]) : -1;
    if (i === 0 || i >= a.length || j === 0) {
      legs.push([]); // one end holds the other
      continue;
    }
    const route: [string, number][] = [];
    for (let k = 1; k < i; k++) {
      route.push(leg(a[k], a[k - 1], portOf(a[k], "out", edge.source)));
    }
    route.push(leg(a[i], a[i - 1], b[j - 1]));
    for (let k = j - 1; k >= 1; k--) {
      route.push(leg(b[k], portOf(b[k], "in", edge.source), b[k - 1]));
    }
    legs.push(route);
  }
  const routes = new Map<string, number[][]>();
  const place = (item: Item): void => {
    for (const child of item.children) {
      if (child.open) {
        place(child);
      }
    }
    const own = [...(ports.get(item.id)?.values() ?? [])];
    const laid = layered([...item.children, ...own], local.get(item.id) ?? [], own.length);
    routes.set(item.id, laid.routes);
    if (item === view.root) {
      item.width = laid.width;
      item.height = laid.height;
    } else {
      for (const child of [...item.children, ...own]) {
        child.x += PAD;
        child.y += PAD + HEADER;
      }
      for (const points of laid.routes) {
        for (let k = 0; k < points.length; k += 2) {
          points[k] += PAD;
          points[k + 1] += PAD + HEADER;
        }
      }
      item.width = Math.max(item.width, laid.width + 2 * PAD);
      item.height = laid.height + 2 * PAD + HEADER;
    }
  };
  place(view.root);
  // absolute positions: children are placed relative to their container
  const absolute = (item: Item): void => {
    for (const points of routes.get(item.id) ?? []) {
      for (let k = 0; k < points.length; k += 2) {
        points[k] += item.x;
        points[k + 1] += item.y;
      }
    }
    for (const child of [...item.children, ...(ports.get(item.id)?.values() ?? [])]) {
      child.x += item.x;
      child.y += item.y;
      if (child.open) {
        absolute(child);
      }
    }
  };
  absolute(view.root);
  view.edges.forEach((edge, e) => {
    const s = view.items.get(edge.source)!;
    const t = view.items.get(edge.target)!;
    if (legs[e].length === 0) {
      edge.route = { points: [s.x + s.width / 2, s.y + s.height, t.x + t.width / 2, t.y], label: null };
      return;
    }
    // each leg from where the last one ended: an inner group's own end (its bottom or top centre)
    // is left out, the port inside it stands for it
    const points: number[] = [];
    legs[e].forEach(([container, index], k) => {
      const laid = routes.get(container)![index];
      const [from, to] = local.get(container)![index];
      const first = k === 0 || from.startsWith("\u0000") ? 0 : 2;
      const last = k === legs[e].length - 1 || to.startsWith("\u0000") ? laid.length : laid.length - 2;
      points.push(...laid.slice(first, last));
    });
    edge.route = { points, label: null };
  });
  placeLabels(view, labelOf);
  fitBounds(view);
}

/** The layout of one container: items' x, y (relative), the route of each edge, the size. */
export interface Laid {
  width: number;
  height: number;
  /** Per edge given (in order): x0, y0, ... from the source's bottom to the target's top, each
   * end on its box's side where the edge heads, through a lane in each layer between them (an
   * edge given twice has the same route; one against the layers, in a cycle, goes round by a
   * corridor right of the boxes). */
  routes: number[][];
}

/** Lays out `items` (their x, y) for `edges` between them; returns the size taken and the routes.
 * The last `ports` items are a group's ports (width and height 0, ids `\0in\0...`, `\0out\0...`). */
export function layered(items: Item[], edges: [string, string][], ports = 0): Laid {
  const n = items.length;
  if (n === 0) {
    return { width: 0, height: 0, routes: edges.map(() => []) };
  }
  // the last `ports` items are a group's ports: points where edges enter (top) or leave (bottom)
  const kind = items.map((item, i) => (i < n - ports ? 0 : item.id.startsWith("\u0000in\u0000") ? IN : OUT));
  const index = new Map(items.map((item, i) => [item.id, i]));
  const succ: number[][] = items.map(() => []);
  const pred: number[][] = items.map(() => []);
  const seen = new Set<number>();
  const ends: [number, number][] = [];
  for (const [s, t] of edges) {
    const a = index.get(s) ?? -1;
    const b = index.get(t) ?? -1;
    ends.push([a, b]);
    if (a < 0 || b < 0 || a === b || seen.has(a * n + b)) {
      continue;
    }
    seen.add(a * n + b);
    succ[a].push(b);
    pred[b].push(a);
  }
  const rank = ports === 0 ? rankOf(n, succ, pred) : withPorts(n, succ, pred, kind);
  // the graph of layers: every real item, then a dummy per layer each long edge crosses
  const width: number[] = items.map((item) => item.width);
  const lay: number[] = Array.from(rank);
  const down: number[][] = items.map(() => []);
  const up: number[][] = items.map(() => []);
  // each link's weight beside it: a lane's links pull hardest, so long edges run straight
  const downWeight: number[][] = items.map(() => []);
  const upWeight: number[][] = items.map(() => []);
  const chainOf = new Map<number, number[]>(); // a * n + b → the nodes it passes, a to b
  const lane = (v: number): boolean => v >= n || kind[v] !== 0; // a dummy or a port: a point
  const link = (u: number, v: number, w: number): void => {
    down[u].push(v);
    downWeight[u].push(w);
    up[v].push(u);
    upWeight[v].push(w);
  };
  for (let a = 0; a < n; a++) {
    for (const b of succ[a]) {
      if (rank[b] <= rank[a]) {
        continue; // a cycle's edge going up: it goes round (below)
      }
      const path = [a];
      for (let r = rank[a] + 1; r < rank[b]; r++) {
        const d = width.length;
        width.push(0);
        lay.push(r);
        down.push([]);
        up.push([]);
        downWeight.push([]);
        upWeight.push([]);
        path.push(d);
      }
      path.push(b);
      for (let k = 1; k < path.length; k++) {
        const dummies = (lane(path[k - 1]) ? 1 : 0) + (lane(path[k]) ? 1 : 0);
        link(path[k - 1], path[k], dummies === 2 ? 8 : dummies === 1 ? 2 : 1);
      }
      chainOf.set(a * n + b, path);
    }
  }
  const total = width.length;
  let depth = 0;
  for (let v = 0; v < total; v++) {
    depth = Math.max(depth, lay[v] + 1);
  }
  const layers = orderLayers(total, depth, lay, down, up);
  const separation = (u: number, v: number): number => {
    const dummies = (lane(u) ? 1 : 0) + (lane(v) ? 1 : 0);
    return (width[u] + width[v]) / 2 + (dummies === 0 ? GAP_X : dummies === 1 ? GAP_EDGE : LANE_GAP);
  };
  const x = placeX(total, layers, down, up, downWeight, upWeight, separation);
  let minX = Infinity;
  let maxX = -Infinity;
  for (let v = 0; v < total; v++) {
    minX = Math.min(minX, x[v] - width[v] / 2);
    maxX = Math.max(maxX, x[v] + width[v] / 2);
  }
  const top: number[] = [];
  const tall: number[] = [];
  // a layer of ports only (the top's in-ports, the bottom's out-ports) is nearer its neighbour
  const portsOnly = (l: number): boolean => l >= 0 && l < depth && layers[l].every((v) => v < n && kind[v] !== 0);
  let y = 0;
  layers.forEach((layer, l) => {
    let most = 0;
    for (const v of layer) {
      if (v < n) {
        most = Math.max(most, items[v].height);
      }
    }
    top.push(y);
    tall.push(most);
    for (const v of layer) {
      if (v < n) {
        items[v].x = x[v] - width[v] / 2 - minX;
        // a port on its layer's top (in) or bottom (out); a box in the middle
        items[v].y = kind[v] === IN ? y : kind[v] === OUT ? y + most : y + (most - items[v].height) / 2;
      }
    }
    y += most + (portsOnly(l) || portsOnly(l + 1) ? PORT_GAP : GAP_Y);
  });
  const bottom = depth > 0 && (portsOnly(depth - 1) || portsOnly(depth)) ? PORT_GAP : GAP_Y;
  // an edge against the layers (in a cycle, as between two groups that feed each other) goes
  // round: down out of its source, up a corridor right of everything, down into its target
  const loops = new Map<number, number>(); // a * n + b → its corridor
  for (const [a, b] of ends) {
    if (a >= 0 && b >= 0 && a !== b && rank[b] <= rank[a] && !loops.has(a * n + b)) {
      loops.set(a * n + b, loops.size);
    }
  }
  const right = maxX - minX;
  const routes = ends.map(([a, b]) => {
    if (a < 0 || b < 0) {
      return [];
    }
    const loop = loops.get(a * n + b);
    if (loop !== undefined) {
      const [from, to] = [items[a], items[b]];
      const cx = right + GAP_EDGE + loop * LANE_GAP;
      const [x0, x1] = [port(from, cx), port(to, cx)];
      const below = top[lay[a]] + tall[lay[a]] + GAP_Y / 2;
      const above = top[lay[b]] - GAP_Y / 2;
      return [x0, from.y + from.height, x0, below, cx, below, cx, above, x1, above, x1, to.y];
    }
    const lanes: number[] = [];
    for (const d of (chainOf.get(a * n + b) ?? []).slice(1, -1)) {
      lanes.push(x[d] - minX, top[lay[d]], x[d] - minX, top[lay[d]] + tall[lay[d]]);
    }
    const [from, to] = [items[a], items[b]];
    // the ends: on the boxes' sides where the edge goes (straight down when the boxes overlap)
    let x0 = port(from, lanes.length > 0 ? lanes[0] : to.x + to.width / 2);
    let x1 = port(to, lanes.length > 0 ? lanes[lanes.length - 2] : from.x + from.width / 2);
    if (lanes.length === 0) {
      const lo = Math.max(from.x + margin(from), to.x + margin(to));
      const hi = Math.min(from.x + from.width - margin(from), to.x + to.width - margin(to));
      if (lo <= hi) {
        x0 = x1 = Math.min(hi, Math.max(lo, (from.x + from.width / 2 + to.x + to.width / 2) / 2));
      }
    }
    // a box lower than its layer: straight down to the layer's bottom (up from its top) first,
    // so the curve between two layers stays between them
    const below = top[lay[a]] + tall[lay[a]];
    const start = from.y + from.height < below ? [x0, from.y + from.height, x0, below] : [x0, from.y + from.height];
    const end = to.y > top[lay[b]] ? [x1, top[lay[b]], x1, to.y] : [x1, to.y];
    return [...start, ...lanes, ...end];
  });
  const corridors = loops.size === 0 ? 0 : GAP_EDGE + (loops.size - 1) * LANE_GAP;
  return { width: right + corridors, height: y - bottom, routes };
}

/** Layers with ports: the items' as without them (ports left out), then the in-ports on a
 * layer of their own above and the out-ports on the last layer (below it when an item that
 * leaves through one is on the last layer). */
function withPorts(n: number, succ: number[][], pred: number[][], kind: number[]): Int32Array {
  const inner = (list: number[]): number[] => list.filter((v) => kind[v] === 0);
  const rank = rankOf(
    n,
    succ.map((next, v) => (kind[v] === 0 ? inner(next) : [])),
    pred.map((prev, v) => (kind[v] === 0 ? inner(prev) : [])),
  );
  const shift = kind.includes(IN) ? 1 : 0;
  let last = 0;
  for (let v = 0; v < n; v++) {
    if (kind[v] === 0) {
      rank[v] += shift;
      last = Math.max(last, rank[v]);
    }
  }
  for (let v = 0; v < n; v++) {
    if (kind[v] === IN) {
      rank[v] = 0;
    } else if (kind[v] === OUT) {
      let below = last;
      for (const p of pred[v]) {
        below = Math.max(below, rank[p] + 1);
      }
      rank[v] = below;
    }
  }
  return rank;
}

/** Where an edge heading for `x` leaves or enters `item`: `x`, kept on its side (off its corners). */
function port(item: Item, x: number): number {
  return Math.min(item.x + item.width - margin(item), Math.max(item.x + margin(item), x));
}

function margin(item: Item): number {
  return Math.min(PORT_MARGIN, item.width / 4);
}

/** Each item's layer: longest path, then items with more edges out than in pulled down. */
function rankOf(n: number, succ: number[][], pred: number[][]): Int32Array {
  // a topological order (Kahn); what a cycle holds comes after, in text order
  const indeg = pred.map((p) => p.length);
  const order: number[] = [];
  const queue: number[] = [];
  for (let i = 0; i < n; i++) {
    if (indeg[i] === 0) {
      queue.push(i);
    }
  }
  const done = new Uint8Array(n);
  let next = 0;
  for (let head = 0; order.length < n; ) {
    if (head === queue.length) {
      while (done[next]) {
        next++;
      }
      queue.push(next); // a cycle: break it at its first item in text order
    }
    const v = queue[head++];
    if (done[v]) {
      continue;
    }
    done[v] = 1;
    order.push(v);
    for (const w of succ[v]) {
      if (--indeg[w] === 0) {
        queue.push(w);
      }
    }
  }
  const rank = new Int32Array(n);
  const position = new Int32Array(n);
  order.forEach((v, i) => (position[v] = i));
  for (const v of order) {
    for (const p of pred[v]) {
      if (position[p] < position[v]) {
        rank[v] = Math.max(rank[v], rank[p] + 1);
      }
    }
  }
  // pulled down to just above its first consumer: an input, an initializer, a node with more
  // edges out than in (fewer layers crossed in all), a node fed by sources (weights, an Identity
  // of a shared weight) that can come down with it (no more layers crossed, often fewer)
  for (let k = order.length - 1; k >= 0; k--) {
    const v = order[k];
    let ins = 0;
    let carried = 0; // sources feeding v: they can come down with it
    for (const p of pred[v]) {
      if (position[p] < position[v]) {
        ins++;
        carried += pred[p].length === 0 ? 1 : 0;
      }
    }
    let outs = 0;
    let low = Infinity;
    for (const w of succ[v]) {
      if (position[w] > position[v]) {
        outs++;
        low = Math.min(low, rank[w]);
      }
    }
    // fewer edges longer than shorter; or, with its sources along, no longer in all
    const pull = outs > ins || (carried > 0 && outs >= ins - carried);
    if (outs > 0 && pull && low - 1 > rank[v]) {
      rank[v] = low - 1;
    }
  }
  return rank;
}

/** The order of each layer's nodes: from a first order (depth-first from the sources), median
 * and barycentre sweeps, the order with fewest crossings kept, then adjacent swaps that remove
 * crossings; when the graph is small enough, done again from the mirrored first order (sources
 * and children right to left) and with the sweeps starting upwards, the best of the four kept. */
function orderLayers(total: number, depth: number, lay: number[], down: number[][], up: number[][]): number[][] {
  const slot = new Float64Array(total);
  let best = orderFrom(total, depth, lay, down, up, slot, 0);
  const tries = total > MIRROR_UP_TO ? 1 : 4;
  for (let variant = 1; variant < tries && best.crossings > 0; variant++) {
    const next = orderFrom(total, depth, lay, down, up, slot, variant);
    if (next.crossings < best.crossings) {
      best = next;
    }
  }
  best.layers.forEach((layer) => layer.forEach((v, i) => (slot[v] = i)));
  return best.layers;
}

function orderFrom(
  total: number,
  depth: number,
  lay: number[],
  down: number[][],
  up: number[][],
  slot: Float64Array,
  variant: number,
): { layers: number[][]; crossings: number } {
  const mirrored = variant === 1 || variant === 3;
  const upFirst = variant === 1 || variant === 2;
  const layers: number[][] = Array.from({ length: depth }, () => []);
  const visited = new Uint8Array(total);
  const stack: number[] = [];
  for (let k = 0; k < total; k++) {
    const s = mirrored ? total - 1 - k : k;
    if (visited[s] || up[s].length > 0) {
      continue;
    }
    stack.push(s);
    while (stack.length > 0) {
      const v = stack.pop()!;
      if (visited[v]) {
        continue;
      }
      visited[v] = 1;
      layers[lay[v]].push(v);
      const next = down[v];
      for (let j = 0; j < next.length; j++) {
        const w = mirrored ? next[j] : next[next.length - 1 - j];
        if (!visited[w]) {
          stack.push(w);
        }
      }
    }
  }
  for (let v = 0; v < total; v++) {
    if (!visited[v]) {
      layers[lay[v]].push(v); // only in a cycle's leftovers
    }
  }
  const renumber = (layer: number[]): void => layer.forEach((v, i) => (slot[v] = i));
  layers.forEach(renumber);
  let widest = 1;
  for (const layer of layers) {
    widest = Math.max(widest, layer.length);
  }
  const tree = new Float64Array(4 * widest);
  const crossings = (): number => {
    let sum = 0;
    for (let l = 0; l + 1 < depth; l++) {
      sum += layerCrossings(layers[l], layers[l + 1], down, slot, tree);
    }
    return sum;
  };
  let useMedian = true;
  const sweep = (layer: number[], near: number[][]): void => {
    if (layer.length < 2) {
      return;
    }
    const key = new Float64Array(layer.length);
    let movable = false;
    layer.forEach((v, i) => {
      const around = near[v];
      if (around.length === 0) {
        key[i] = -1;
        return;
      }
      movable = true;
      if (useMedian) {
        const at = around.map((u) => slot[u]).sort((a, b) => a - b);
        const mid = at.length >> 1;
        key[i] = at.length % 2 === 1 ? at[mid] : (at[mid - 1] + at[mid]) / 2;
        return;
      }
      let sum = 0;
      for (const u of around) {
        sum += slot[u];
      }
      key[i] = sum / around.length;
    });
    if (!movable) {
      return;
    }
    // a node with no neighbour on that side keeps its place; the others are sorted around it
    const fixed: number[] = [];
    const free: number[] = [];
    layer.forEach((_, i) => (key[i] < 0 ? fixed : free).push(i));
    free.sort((a, b) => key[a] - key[b] || a - b);
    const out: number[] = [];
    let f = 0;
    for (let i = 0, j = 0; i < layer.length; i++) {
      if (f < fixed.length && fixed[f] === i) {
        out.push(layer[fixed[f++]]);
      } else {
        out.push(layer[free[j++]]);
      }
    }
    layer.splice(0, layer.length, ...out);
    renumber(layer);
  };
  let best = crossings();
  let bestLayers = layers.map((layer) => layer.slice());
  for (let s = 0, stale = 0; s < MAX_SWEEPS && stale < PATIENCE && best > 0; s++) {
    useMedian = s % 4 < 2; // two rounds of medians, two of barycentres, ...
    if ((s % 2 === 0) !== upFirst) {
      for (let l = 1; l < depth; l++) {
        sweep(layers[l], up);
      }
    } else {
      for (let l = depth - 2; l >= 0; l--) {
        sweep(layers[l], down);
      }
    }
    const now = crossings();
    if (now < best) {
      best = now;
      bestLayers = layers.map((layer) => layer.slice());
      stale = 0;
    } else {
      stale++;
    }
  }
  bestLayers.forEach((layer, l) => {
    layers[l] = layer;
    renumber(layer);
  });
  transpose(layers, down, up, slot);
  return { layers, crossings: crossings() };
}

/** Crossings between two adjacent layers (Barth, Jünger and Mutzel's accumulator tree, kept in
 * `tree`, zeros at least twice the lower layer's length rounded up to a power of two). */
function layerCrossings(upper: number[], lower: number[], down: number[][], slot: Float64Array, tree: Float64Array): number {
  if (lower.length < 2 || upper.length < 2) {
    return 0; // the edges of one box never cross each other
  }
  let size = 1;
  while (size < lower.length) {
    size *= 2;
  }
  let count = 0;
  const ends: number[] = [];
  const add = (t: number): void => {
    let i = t + size;
    tree[i]++;
    while (i > 1) {
      if (i % 2 === 0) {
        count += tree[i + 1];
      }
      i = Math.floor(i / 2);
      tree[i]++;
    }
  };
  for (const u of upper) {
    const next = down[u];
    if (next.length === 1) {
      add(slot[next[0]]);
      continue;
    }
    ends.length = 0;
    for (const v of next) {
      ends.push(slot[v]);
    }
    ends.sort((a, b) => a - b);
    for (const t of ends) {
      add(t);
    }
  }
  tree.fill(0, 0, 2 * size);
  return count;
}

/** Crossings of the edges from `a` and from `b` to one side when `a` is left of `b`. */
function pairCrossings(a: number[], b: number[], slot: Float64Array): number {
  let count = 0;
  for (const u of a) {
    for (const v of b) {
      if (slot[u] > slot[v]) {
        count++;
      }
    }
  }
  return count;
}

/** Swaps neighbours in a layer while that removes crossings (a few passes at most). */
function transpose(layers: number[][], down: number[][], up: number[][], slot: Float64Array): void {
  for (let pass = 0; pass < 4; pass++) {
    let improved = false;
    for (const layer of layers) {
      for (let i = 0; i + 1 < layer.length; i++) {
        const a = layer[i];
        const b = layer[i + 1];
        const now = pairCrossings(up[a], up[b], slot) + pairCrossings(down[a], down[b], slot);
        const swapped = pairCrossings(up[b], up[a], slot) + pairCrossings(down[b], down[a], slot);
        if (swapped < now) {
          layer[i] = b;
          layer[i + 1] = a;
          slot[a] = i + 1;
          slot[b] = i;
          improved = true;
        }
      }
    }
    if (!improved) {
      return;
    }
  }
}

/** x of every node's centre: each layer in turn at its neighbours' weighted mean, kept in order
 * and apart (a weighted least-squares fit of the row: pool adjacent violators). */
function placeX(
  total: number,
  layers: number[][],
  down: number[][],
  up: number[][],
  downWeight: number[][],
  upWeight: number[][],
  separation: (u: number, v: number) => number,
): Float64Array {
  const x = new Float64Array(total);
  let widest = 0;
  for (const layer of layers) {
    widest = Math.max(widest, layer.length);
    let at = 0;
    layer.forEach((v, i) => {
      if (i > 0) {
        at += separation(layer[i - 1], v);
      }
      x[v] = at;
    });
  }
  // buffers shared by every layer's fit (thousands of layers, eight sweeps)
  const want = new Float64Array(widest);
  const mass = new Float64Array(widest);
  const offset = new Float64Array(widest);
  const blockValue = new Float64Array(widest);
  const blockMass = new Float64Array(widest);
  const blockEnd = new Int32Array(widest);
  const near: number[] = []; // x, weight, ...
  const fit = (layer: number[], median: boolean): void => {
    const m = layer.length;
    for (let i = 0; i < m; i++) {
      const v = layer[i];
      near.length = 0;
      const ups = up[v];
      for (let k = 0; k < ups.length; k++) {
        near.push(x[ups[k]], upWeight[v][k]);
      }
      const downs = down[v];
      for (let k = 0; k < downs.length; k++) {
        near.push(x[downs[k]], downWeight[v][k]);
      }
      offset[i] = i === 0 ? 0 : offset[i - 1] + separation(layer[i - 1], v);
      let w = 0;
      let sum = 0;
      for (let k = 0; k < near.length; k += 2) {
        sum += near[k] * near[k + 1];
        w += near[k + 1];
      }
      if (w === 0) {
        want[i] = x[v] - offset[i];
        mass[i] = 1e-3; // nothing pulls it: it stays unless pushed
        continue;
      }
      want[i] = (median ? weightedMedian(near, w) : sum / w) - offset[i];
      mass[i] = w;
    }
    // pool adjacent violators: blocks of equal shifted position, each at its weighted mean
    let blocks = 0;
    for (let i = 0; i < m; i++) {
      let value = want[i];
      let w = mass[i];
      while (blocks > 0 && blockValue[blocks - 1] >= value) {
        blocks--;
        const pv = blockValue[blocks];
        const pw = blockMass[blocks];
        value = (value * w + pv * pw) / (w + pw);
        w += pw;
      }
      blockValue[blocks] = value;
      blockMass[blocks] = w;
      blockEnd[blocks] = i;
      blocks++;
    }
    let start = 0;
    for (let b = 0; b < blocks; b++) {
      for (let i = start; i <= blockEnd[b]; i++) {
        x[layer[i]] = blockValue[b] + offset[i];
      }
      start = blockEnd[b] + 1;
    }
  };
  // least squares first (everything near its neighbours), then medians (as many edges straight
  // as can be: the total length is a sum of distances, not of squares)
  for (let s = 0; s < PLACE_SWEEPS; s++) {
    const median = s >= PLACE_SWEEPS / 2;
    if (s % 2 === 0) {
      for (let l = 0; l < layers.length; l++) {
        fit(layers[l], median);
      }
    } else {
      for (let l = layers.length - 1; l >= 0; l--) {
        fit(layers[l], median);
      }
    }
  }
  return x;
}

/** The weighted median of `near` (x, weight, ...) of total weight `total`: the middle of the
 * two middle values when they split the weight in halves. */
function weightedMedian(near: number[], total: number): number {
  if (near.length === 2) {
    return near[0];
  }
  const order: number[] = [];
  for (let k = 0; k < near.length; k += 2) {
    order.push(k);
  }
  order.sort((a, b) => near[a] - near[b] || a - b);
  let below = 0;
  for (let i = 0; i < order.length; i++) {
    below += near[order[i] + 1];
    if (below * 2 > total) {
      return near[order[i]];
    }
    if (below * 2 === total) {
      return (near[order[i]] + near[order[i + 1]]) / 2;
    }
  }
  return near[order[order.length - 1]];
}

/** Places each edge's label beside its route where it covers no box, no label placed before and
 * no other value's edge; one label per value leaving a box (the edges to its other consumers
 * share it). */
function placeLabels(view: View, labelOf: (edge: ViewEdge) => string): void {
  const grid = new Grid(64);
  const boxes = (item: Item): void => {
    for (const child of item.children) {
      if (child.open) {
        grid.add(child.x, child.y, child.width, HEADER, -1); // its frame's title
        boxes(child);
      } else {
        grid.add(child.x, child.y, child.width, child.height, -1);
      }
    }
  };
  boxes(view.root);
  // every edge, as small squares along its curves and a thin box along its lanes, owned by its
  // source (a value's label may lie over the value's own edges)
  const owner = new Map<string, number>();
  for (const edge of view.edges) {
    if (!owner.has(edge.source)) {
      owner.set(edge.source, owner.size);
    }
    const by = owner.get(edge.source)!;
    const p = edge.route!.points;
    for (let k = 2; k < p.length; k += 2) {
      const [x0, y0, x1, y1] = [p[k - 2], p[k - 1], p[k], p[k + 1]];
      if (x0 === x1) {
        grid.add(x0 - 1, y0, 2, y1 - y0, by);
        continue;
      }
      const steps = Math.max(2, Math.ceil(Math.abs(y1 - y0) / EDGE_STEP));
      for (let i = 0; i <= steps; i++) {
        const u = i / steps;
        const x = x0 + (x1 - x0) * u * u * (3 - 2 * u);
        const y = y0 + (y1 - y0) * (1.5 * u * (1 - u) + u * u * u);
        grid.add(x - 1, y - 1, 2, 2, by);
      }
    }
  }
  const said = new Set<string>();
  for (const edge of view.edges) {
    const route = edge.route!;
    const text = labelOf(edge);
    const key = `${edge.source}\u0000${text}`;
    if (text === "" || said.has(key)) {
      continue;
    }
    const mine = owner.get(edge.source)!;
    const w = text.length * LABEL_CHAR + LABEL_PAD;
    const h = LABEL_HEIGHT;
    const p = route.points;
    // the curve between two layers (not a lane), nearest the source first; right of it, then
    // left; a place over no other edge first, else one over edges (never over a box or a label)
    for (const clear of [true, false]) {
      for (let k = 2; k < p.length && route.label === null; k += 2) {
        const [x0, y0, x1, y1] = [p[k - 2], p[k - 1], p[k], p[k + 1]];
        if (x0 === x1 && k > 2 && k < p.length - 2) {
          continue;
        }
        for (const t of LABEL_AT) {
          // the S-curve's x at height t (its control points share the middle height)
          const s = t * t * (3 - 2 * t);
          const cx = x0 + (x1 - x0) * s;
          const cy = y0 + (y1 - y0) * t - h / 2;
          const found = [cx + 3, cx - 3 - w].find((lx) => !grid.hits(lx, cy, w, h, clear ? mine : NO_EDGES));
          if (found !== undefined) {
            route.label = { x: found, y: cy, w, h };
            grid.add(found, cy, w, h, -1);
            said.add(key);
            break;
          }
        }
      }
    }
  }
}

/** Moves everything so the picture starts at (0, 0), and sizes the root to hold every box,
 * route and label: nothing is cut at the border. */
function fitBounds(view: View): void {
  let minX = 0;
  let minY = 0;
  let maxX = view.root.width;
  let maxY = view.root.height;
  for (const edge of view.edges) {
    const p = edge.route!.points;
    for (let k = 0; k < p.length; k += 2) {
      minX = Math.min(minX, p[k]);
      maxX = Math.max(maxX, p[k]);
      minY = Math.min(minY, p[k + 1]);
      maxY = Math.max(maxY, p[k + 1]);
    }
    const b = edge.route!.label;
    if (b !== null) {
      minX = Math.min(minX, b.x);
      minY = Math.min(minY, b.y);
      maxX = Math.max(maxX, b.x + b.w);
      maxY = Math.max(maxY, b.y + b.h);
    }
  }
  if (minX < 0 || minY < 0) {
    for (const item of view.items.values()) {
      if (item !== view.root) {
        item.x -= minX;
        item.y -= minY;
      }
    }
    for (const edge of view.edges) {
      const p = edge.route!.points;
      for (let k = 0; k < p.length; k += 2) {
        p[k] -= minX;
        p[k + 1] -= minY;
      }
      const b = edge.route!.label;
      if (b !== null) {
        b.x -= minX;
        b.y -= minY;
      }
    }
  }
  view.root.width = maxX - minX;
  view.root.height = maxY - minY;
}

/** Rectangles hashed in square cells, each with its owner, to ask "does this rectangle meet any
 * not owned by ...?" fast. */
class Grid {
  private readonly cells = new Map<number, number[]>();
  private readonly rects: number[] = []; // x, y, w, h, owner, ...
  constructor(private readonly size: number) {}

  private keys(x: number, y: number, w: number, h: number, each: (key: number) => boolean): boolean {
    const s = this.size;
    for (let i = Math.floor(x / s); i <= Math.floor((x + w) / s); i++) {
      for (let j = Math.floor(y / s); j <= Math.floor((y + h) / s); j++) {
        if (each(i * 1048576 + j)) {
          return true;
        }
      }
    }
    return false;
  }

  add(x: number, y: number, w: number, h: number, owner: number): void {
    const id = this.rects.length;
    this.rects.push(x, y, w, h, owner);
    this.keys(x, y, w, h, (key) => {
      const cell = this.cells.get(key);
      if (cell === undefined) {
        this.cells.set(key, [id]);
      } else {
        cell.push(id);
      }
      return false;
    });
  }

  /** Whether (x, y, w, h) meets a rectangle owned by none (-1) or by another owner than `except`
   * (NO_EDGES: by none only). */
  hits(x: number, y: number, w: number, h: number, except: number): boolean {
    const r = this.rects;
    return this.keys(x, y, w, h, (key) => {
      for (const id of this.cells.get(key) ?? []) {
        const by = r[id + 4];
        if (x < r[id] + r[id + 2] && r[id] < x + w && y < r[id + 1] + r[id + 3] && r[id + 1] < y + h && (by < 0 || (except !== NO_EDGES && by !== except))) {
          return true;
        }
      }
      return false;
    });
  }
}
