// The properties panel of the graph view: what the selected node or weight is. The graph's own
// data gives a first answer at once (operator, attributes line, weights, typed inputs and outputs);
// the server's `onnxtext/graphProperties` (src/onnxtext/ide/graph_properties.py) the whole one:
// the schema's description, every attribute, doc string, metadata, and each weight's statistics
// (with live values on, every value's statistics too, shown as a weight's).
import { GraphData, GraphNode, GraphRow, Range } from "./model";
import { escape } from "./render";

export interface Histogram {
  lo: number | string;
  hi: number | string;
  counts: number[];
}
export interface Stats {
  count: number;
  nonfinite: number;
  min?: number | string;
  max?: number | string;
  mean?: number | string;
  std?: number | string;
  zeros?: number;
  histogram?: Histogram;
}
export interface Weight {
  name: string;
  range: Range;
  dtype?: string;
  shape?: number[];
  storage?: string;
  stats?: Stats;
  problem?: string;
  type?: string;
}
export interface Port {
  param: string;
  name: string;
  type: string;
  live: string;
  /** The value's statistics in the last live run (src/onnxtext/weights/statistics.py). */
  stats?: Stats;
  weight?: Weight;
}
export type Properties =
  | {
      kind: "node";
      name: string;
      op: string;
      domain: string;
      version: number | null;
      description: string | null;
      function: boolean;
      attributes: [string, string][];
      inputs: Port[];
      outputs: Port[];
      doc: string;
      metadata: [string, string][];
    }
  | ({ kind: "weight" } & Weight)
  | { kind: "value"; name: string; type: string; live: string; stats?: Stats };

function table(rows: [string, string][], cls = "kv"): string {
  if (rows.length === 0) {
    return "";
  }
  return `<table class="${cls}">${rows.map(([k, v]) => `<tr><th>${escape(k)}</th><td>${escape(v)}</td></tr>`).join("")}</table>`;
}

function section(title: string, body: string): string {
  return body ? `<h3>${escape(title)}</h3>${body}` : "";
}

/** A small histogram of a weight's values, as bars. */
export function histogramSvg(h: Histogram): string {
  const most = Math.max(1, ...h.counts);
  const w = 240 / h.counts.length;
  const bars = h.counts.map((c, i) => {
    const height = c === 0 ? 0 : Math.max(1, (c / most) * 40);
    return `<rect x="${(i * w).toFixed(1)}" y="${(40 - height).toFixed(1)}" width="${(w - 1).toFixed(1)}" height="${height.toFixed(1)}"><title>${c}</title></rect>`;
  });
  return `<svg class="histogram" viewBox="0 0 240 40" width="240" height="40" role="img" aria-label="histogram of the values from ${escape(String(h.lo))} to ${escape(String(h.hi))}">${bars.join("")}</svg><div class="range"><span>${escape(String(h.lo))}</span><span>${escape(String(h.hi))}</span></div>`;
}

/** The rows of a statistics table: min, max, mean, std, the count of values, zeros and non-finite. */
function statsRows(s: Stats): [string, string][] {
  const rows: [string, string][] = [];
  for (const key of ["min", "max", "mean", "std"] as const) {
    if (s[key] !== undefined) {
      rows.push([key, String(s[key])]);
    }
  }
  rows.push(["values", String(s.count)]);
  if (s.zeros) {
    rows.push(["zeros", String(s.zeros)]);
  }
  if (s.nonfinite) {
    rows.push(["non-finite", String(s.nonfinite)]);
  }
  return rows;
}

/** A weight's facts, statistics and histogram, and its "Save as .npy" button (in the editor). */
export function weightHtml(w: Weight, index: number, canSave: boolean): string {
  const facts: [string, string][] = [];
  if (w.dtype !== undefined) {
    facts.push(["dtype", w.dtype], ["shape", `[${(w.shape ?? []).join(", ")}]`]);
  }
  if (w.storage) {
    facts.push(["data", w.storage]);
  }
  const s = w.stats;
  if (s !== undefined) {
    facts.push(...statsRows(s));
  }
  const problem = w.problem ? `<p class="problem">${escape(w.problem)}</p>` : "";
  const save = canSave && w.problem === undefined ? `<button class="tool save-npy" data-weight="${index}">Save as .npy</button>` : "";
  return `<div class="weight" data-weight="${index}"><h4>${escape(w.name)}</h4>${table(facts, "kv stats")}${s?.histogram ? histogramSvg(s.histogram) : ""}${problem}${save}</div>`;
}

/** A value's statistics in the last live run, as a weight's: its summary, the same table and histogram. */
export function liveHtml(name: string, live: string, s: Stats): string {
  return `<div class="weight live-value"><h4>${escape(name)}</h4>${table([["live", live], ...statsRows(s)], "kv stats")}${s.histogram ? histogramSvg(s.histogram) : ""}</div>`;
}

function port(p: Port): [string, string] {
  const name = p.param ? `${p.param}: ${p.name}` : p.name;
  return [name, [p.type, p.live ? `= ${p.live}` : ""].filter((x) => x).join(" ")];
}

/** The panel from the server's answer; `canSave`: the editor can write a .npy. */
export function propertiesHtml(p: Properties, canSave: boolean): string {
  if (p.kind === "value") {
    if (p.stats !== undefined) {
      return `<h2>${escape(p.name)}</h2>${table([["type", p.type]])}${liveHtml(p.name, p.live, p.stats)}`;
    }
    return `<h2>${escape(p.name)}</h2>${table([["type", p.type], ...(p.live ? ([["live", p.live]] as [string, string][]) : [])])}`;
  }
  if (p.kind === "weight") {
    return `<h2>weight</h2>${weightHtml(p, 0, canSave)}`;
  }
  const head = `<h2>${escape(p.op)}</h2><p class="domain">${escape(p.domain)}${p.version !== null ? ` · opset ${p.version}` : ""}${p.function ? " · local function" : ""}</p>`;
  const description = p.description ? `<p class="description">${escape(p.description)}</p>` : "";
  const weights = p.inputs.map((i, k) => (i.weight !== undefined ? weightHtml(i.weight, k, canSave) : "")).join("");
  const seen = new Set<string>();
  const live = [...p.inputs, ...p.outputs]
    .filter((q) => q.stats !== undefined && q.weight === undefined && !seen.has(q.name) && seen.add(q.name))
    .map((q) => liveHtml(q.param ? `${q.param}: ${q.name}` : q.name, q.live, q.stats as Stats))
    .join("");
  return (
    head +
    description +
    table(p.name ? [["name", p.name]] : []) +
    section("Attributes", table(p.attributes)) +
    section("Inputs", table(p.inputs.map(port))) +
    section("Outputs", table(p.outputs.map(port))) +
    section("Weights", weights) +
    section("Live values", live) +
    section("Doc", p.doc ? `<p class="doc">${escape(p.doc)}</p>` : "") +
    section("Metadata", table(p.metadata))
  );
}

/** The panel from the graph alone (the offline page, or before the server answers). */
export function localHtml(data: GraphData, node: GraphNode): string {
  const inputs: [string, string][] = [];
  const outputs: [string, string][] = [];
  for (const e of data.edges) {
    if (e.target === node.id) {
      inputs.push([e.value, [e.type, e.live ? `= ${e.live}` : ""].filter((x) => x).join(" ")]);
    } else if (e.source === node.id && !outputs.some(([v]) => v === e.value)) {
      outputs.push([e.value, [e.type, e.live ? `= ${e.live}` : ""].filter((x) => x).join(" ")]);
    }
  }
  const rows = (node.rows ?? []).map((r: GraphRow): [string, string] => [r.param ? `${r.param}: ${r.value}` : r.value, `${r.type}${r.data ? ` = ${r.data}` : ""}${r.shared ? " (shared)" : ""}`]);
  const title = node.kind === "op" ? node.op : node.kind;
  return (
    `<h2>${escape(title)}</h2>` +
    (node.kind === "op" ? `<p class="domain">${escape(node.domain || "ai.onnx")}</p>` : "") +
    table([["name", node.label], ...(node.attrs ? ([["attributes", node.attrs]] as [string, string][]) : [])]) +
    section("Inputs", table(inputs)) +
    section("Weights", table(rows)) +
    section("Outputs", table(outputs))
  );
}

/** What the panel of `node` (and its `row`) depends on, positions left out: an edit elsewhere in
 * the text (which moves every statement after it) leaves it equal, so the panel is not asked
 * again, nor its weights' statistics computed again, at each key press. */
export function panelKey(data: GraphData, node: GraphNode, row: number | null): string {
  const extent = (r: Range): [number, number] => [r.end.line - r.start.line, r.end.line === r.start.line ? r.end.character - r.start.character : r.end.character];
  const rows = (node.rows ?? []).map((r) => [r.value, r.param, r.type, r.kind, r.shared, r.data ?? "", r.origin ?? "", r.severity, extent(r.range)]);
  const edges = data.edges.filter((e) => e.source === node.id || e.target === node.id).map((e) => [e.value, e.source === node.id, e.type, e.live]);
  return JSON.stringify([node.kind, node.op, node.domain, node.label, node.attrs ?? "", node.severity, extent(node.range), rows, edges, row]);
}
