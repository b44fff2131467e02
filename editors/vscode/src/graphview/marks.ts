// The colours of a compared graph (`onnxtext/compare`, "Compare with…"): nodes whose data carry
// `mark` (added, removed, changed) filled in its colour, the others dimmed, a folded group holding a
// marked node outlined, an edge whose value differs in the removed colour. The same rules as
// `mark_stylesheet(graph, selector="id")` in src/onnxtext/ide/graph_view.py (the offline page's).
import { GraphData, ancestors } from "./model";

export type Mark = "added" | "removed" | "changed";

/** Fill and stroke of each mark (MARK_COLOURS in graph_view.py). */
export const MARK_COLOURS: Record<Mark, [string, string]> = {
  added: ["#c8e6c9", "#2e7d32"],
  removed: ["#ffcdd2", "#c62828"],
  changed: ["#ffe0b2", "#ef8f00"],
};

/** What a compared graph adds to a node and an edge. */
export interface Marked {
  mark?: string;
  /** Indices into the comparison's `changes`. */
  changes?: number[];
}

export function isMark(mark: unknown): mark is Mark {
  return typeof mark === "string" && Object.prototype.hasOwnProperty.call(MARK_COLOURS, mark);
}

/** `text` as a CSS string (quotes, backslashes and line breaks escaped). */
export function cssString(text: string): string {
  return `"${[...text].map((c) => ('"\\\n\r'.includes(c) ? `\\${c.charCodeAt(0).toString(16)} ` : c)).join("")}"`;
}

/** The stylesheet of the marks in `data`: empty when nothing is marked. */
export function markStylesheet(data: GraphData): string {
  const nodes = data.nodes as (GraphData["nodes"][number] & Marked)[];
  const edges = data.edges as (GraphData["edges"][number] & Marked)[];
  const marked = nodes.filter((n) => isMark(n.mark));
  const differs = [...new Set(edges.filter((e) => e.mark === "differs").map((e) => e.value))].sort();
  const rules = differs.map((v) => `.edge[data-values~=${cssString(v)}] { stroke: ${MARK_COLOURS.removed[1]}; stroke-width: 2.5px; }`);
  if (marked.length === 0) {
    return rules.length > 0 ? `${rules.join("\n")}\n` : "";
  }
  rules.push(".node { opacity: 0.45; } .group.folded { opacity: 0.6; }");
  const groups = new Map(data.groups.map((g) => [g.id, g]));
  const holding = new Set<string>();
  marked.forEach((n) => ancestors(groups, n.group).forEach((g) => holding.add(g)));
  const changed = MARK_COLOURS.changed[1];
  for (const id of [...holding].sort()) {
    const key = cssString(id);
    rules.push(`.group.folded[data-group=${key}] { opacity: 1; } .group.folded[data-group=${key}] > rect { stroke: ${changed}; stroke-width: 2.5px; }`);
  }
  for (const n of marked) {
    const [fill, stroke] = MARK_COLOURS[n.mark as Mark];
    const key = cssString(n.id);
    rules.push(`.node[data-id=${key}] { opacity: 1; } .node[data-id=${key}] > rect { fill: ${fill}; stroke: ${stroke}; stroke-width: 2.5px; }`);
  }
  return `${rules.join("\n")}\n`;
}
