// A layered (Sugiyama-style) layout of the view, top to bottom, made for thousands of nodes:
// longest-path layers (sources pulled down next to their first consumer), barycentre ordering
// sweeps, then each layer placed at its parents' barycentres without overlaps. An open group is
// laid out first as a graph of its own and then placed as one box in its container.
// src/onnxtext/ide/graph_layout.py is the same algorithm for `onnxtext graph -o x.svg`.
import { HEADER, Item, PAD, View } from "./model";

export const GAP_X = 24;
export const GAP_Y = 48;
const SWEEPS = 4;

export function layoutView(view: View): void {
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
  // the edges each container lays out: both ends lifted to the items directly inside it
  const local = new Map<string, [string, string][]>();
  const chain = (id: string): string[] => {
    const out = [id];
    for (let p = parent.get(id); p !== undefined; p = parent.get(p.id)) {
      out.push(p.id);
    }
    return out;
  };
  for (const edge of view.edges) {
    const a = chain(edge.source);
    const b = chain(edge.target);
    const inB = new Set(b);
    let i = 0;
    while (i < a.length && !inB.has(a[i])) {
      i++;
    }
    if (i === 0 || i >= a.length) {
      continue; // one end holds the other
    }
    const container = a[i];
    const j = b.indexOf(container);
    if (j === 0) {
      continue;
    }
    const list = local.get(container) ?? [];
    list.push([a[i - 1], b[j - 1]]);
    local.set(container, list);
  }
  const place = (item: Item): void => {
    for (const child of item.children) {
      if (child.open) {
        place(child);
      }
    }
    const size = layered(item.children, local.get(item.id) ?? []);
    if (item === view.root) {
      item.width = size.width;
      item.height = size.height;
    } else {
      for (const child of item.children) {
        child.x += PAD;
        child.y += PAD + HEADER;
      }
      item.width = Math.max(item.width, size.width + 2 * PAD);
      item.height = size.height + 2 * PAD + HEADER;
    }
  };
  place(view.root);
  // absolute positions: children are placed relative to their container
  const absolute = (item: Item): void => {
    for (const child of item.children) {
      child.x += item.x;
      child.y += item.y;
      if (child.open) {
        absolute(child);
      }
    }
  };
  absolute(view.root);
}

/** Lays out `items` (their x, y) for `edges` between them; returns the size taken. */
export function layered(items: Item[], edges: [string, string][]): { width: number; height: number } {
  const n = items.length;
  if (n === 0) {
    return { width: 0, height: 0 };
  }
  const index = new Map(items.map((item, i) => [item.id, i]));
  const succ: number[][] = items.map(() => []);
  const pred: number[][] = items.map(() => []);
  const seen = new Set<number>();
  for (const [s, t] of edges) {
    const a = index.get(s);
    const b = index.get(t);
    if (a === undefined || b === undefined || a === b || seen.has(a * n + b)) {
      continue;
    }
    seen.add(a * n + b);
    succ[a].push(b);
    pred[b].push(a);
  }
  // layers: longest path in a topological order (Kahn); what a cycle holds comes after, in text order
  const indeg = pred.map((p) => p.length);
  const order: number[] = [];
  const queue: number[] = [];
  for (let i = 0; i < n; i++) {
    if (indeg[i] === 0) {
      queue.push(i);
    }
  }
  const done = new Uint8Array(n);
  for (let head = 0; order.length < n; ) {
    if (head === queue.length) {
      let next = 0;
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
  for (let k = order.length - 1; k >= 0; k--) {
    const v = order[k];
    if (pred[v].length === 0 && succ[v].length > 0) {
      let low = Infinity;
      for (const w of succ[v]) {
        low = Math.min(low, rank[w]);
      }
      rank[v] = Math.max(0, low - 1); // an input or initializer sits just above its first consumer
    }
  }
  let depth = 0;
  for (let i = 0; i < n; i++) {
    depth = Math.max(depth, rank[i] + 1);
  }
  const layers: number[][] = Array.from({ length: depth }, () => []);
  for (let i = 0; i < n; i++) {
    layers[rank[i]].push(i);
  }
  // ordering: barycentre sweeps down and up
  const slot = new Float64Array(n);
  const renumber = (layer: number[]): void => layer.forEach((v, i) => (slot[v] = i));
  layers.forEach(renumber);
  const sweep = (layer: number[], near: number[][]): void => {
    const key = new Float64Array(layer.length);
    layer.forEach((v, i) => {
      const around = near[v];
      if (around.length === 0) {
        key[i] = slot[v];
        return;
      }
      let sum = 0;
      for (const u of around) {
        sum += slot[u];
      }
      key[i] = sum / around.length;
    });
    const idx = layer.map((_, i) => i).sort((a, b) => key[a] - key[b] || a - b);
    const sorted = idx.map((i) => layer[i]);
    layer.splice(0, layer.length, ...sorted);
    renumber(layer);
  };
  for (let s = 0; s < SWEEPS; s++) {
    for (let l = 1; l < depth; l++) {
      sweep(layers[l], pred);
    }
    for (let l = depth - 2; l >= 0; l--) {
      sweep(layers[l], succ);
    }
  }
  // coordinates: each layer at its parents' barycentres (then sources at their consumers')
  const cx = new Float64Array(n);
  const placeLayer = (layer: number[], near: (v: number) => number[]): void => {
    const want = layer.map((v) => {
      const around = near(v);
      if (around.length === 0) {
        return NaN;
      }
      let sum = 0;
      for (const u of around) {
        sum += cx[u];
      }
      return sum / around.length;
    });
    let right = -Infinity;
    let shift = 0;
    let counted = 0;
    layer.forEach((v, i) => {
      const w = items[v].width;
      const first = right === -Infinity;
      const desired = Number.isNaN(want[i]) ? (first ? 0 : right + GAP_X) + w / 2 : want[i];
      const x = first ? desired : Math.max(desired, right + GAP_X + w / 2);
      cx[v] = x;
      right = x + w / 2;
      if (!Number.isNaN(want[i])) {
        shift += x - want[i];
        counted++;
      }
    });
    if (counted > 0) {
      const by = shift / counted;
      for (const v of layer) {
        cx[v] -= by;
      }
    }
  };
  const placed = new Uint8Array(n);
  for (let l = 0; l < depth; l++) {
    const layer = layers[l];
    if (l === 0) {
      let x = 0;
      for (const v of layer) {
        cx[v] = x + items[v].width / 2;
        x += items[v].width + GAP_X;
      }
    } else {
      placeLayer(layer, (v) => pred[v].filter((u) => placed[u]));
    }
    layer.forEach((v) => (placed[v] = 1));
  }
  for (let l = depth - 2; l >= 0; l--) {
    const layer = layers[l];
    if (layer.some((v) => pred[v].length === 0 && succ[v].length > 0)) {
      placeLayer(layer, (v) => (pred[v].length === 0 ? succ[v] : pred[v]));
    }
  }
  let minX = Infinity;
  let maxX = -Infinity;
  for (let i = 0; i < n; i++) {
    minX = Math.min(minX, cx[i] - items[i].width / 2);
    maxX = Math.max(maxX, cx[i] + items[i].width / 2);
  }
  let y = 0;
  for (const layer of layers) {
    let tall = 0;
    for (const v of layer) {
      tall = Math.max(tall, items[v].height);
    }
    for (const v of layer) {
      items[v].x = cx[v] - items[v].width / 2 - minX;
      items[v].y = y + (tall - items[v].height) / 2;
    }
    y += tall + GAP_Y;
  }
  return { width: maxX - minX, height: y - GAP_Y };
}
