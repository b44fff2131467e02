// The view as SVG markup: group frames, edges with their labels, nodes coloured by operator
// category with a badge when they have diagnostics. Built as one string (fast for thousands of
// nodes); every class it uses is styled by media/graph.css.
import css from "../../media/graph.css";
import type { EdgeRoute } from "./layout";
import { GraphEdge, GraphNode, Item, LINE, NODE_HEIGHT, View, ViewEdge, category, rowText, shownRows } from "./model";

export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function clip(text: string, max = 48): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The text of an edge's label, as drawn (layout.ts places it by its length). */
export function labelText(edge: ViewEdge): string {
  return clip(edgeLabel(edge.edges), 60);
}

/** The rectangle an edge's route and its label take. */
function routeBox(route: EdgeRoute): Box {
  const p = route.points;
  const box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  for (let k = 0; k < p.length; k += 2) {
    box.x0 = Math.min(box.x0, p[k]);
    box.x1 = Math.max(box.x1, p[k]);
    box.y0 = Math.min(box.y0, p[k + 1]);
    box.y1 = Math.max(box.y1, p[k + 1]);
  }
  const l = route.label;
  if (l !== null) {
    box.x0 = Math.min(box.x0, l.x);
    box.x1 = Math.max(box.x1, l.x + l.w);
    box.y0 = Math.min(box.y0, l.y);
    box.y1 = Math.max(box.y1, l.y + l.h);
  }
  return box;
}

/** An edge's path along its route, and its label where the layout placed it (on hover only,
 * the path's title, where there was no room). */
function edgeMarkup(route: EdgeRoute, edge: ViewEdge): [string, string] {
  const values = escape(edge.edges.map((e) => e.value).join(" "));
  const text = escape(labelText(edge));
  const box = route.label;
  const title = box === null ? `<title>${text}</title>` : "";
  const path = `<path class="edge" data-values="${values}" d="${pathOf(route.points)}">${title}</path>`;
  const label = box === null ? "" : `<text class="edge-label" x="${box.x.toFixed(1)}" y="${(box.y + box.h - 3).toFixed(1)}">${text}</text>`;
  return [path, label];
}

/** The SVG path of a route (layout.ts): straight down a lane, an S-curve between two layers
 * (placeLabels puts labels beside this curve). */
export function pathOf(points: number[]): string {
  const f = (v: number): string => v.toFixed(1);
  let d = `M${f(points[0])},${f(points[1])}`;
  for (let k = 2; k < points.length; k += 2) {
    const [x0, y0, x1, y1] = [points[k - 2], points[k - 1], points[k], points[k + 1]];
    if (x0 === x1) {
      d += ` L${f(x1)},${f(y1)}`;
    } else {
      const ym = (y0 + y1) / 2;
      d += ` C${f(x0)},${f(ym)} ${f(x1)},${f(ym)} ${f(x1)},${f(y1)}`;
    }
  }
  return d;
}

export function edgeLabel(edges: GraphEdge[]): string {
  if (edges.length > 1) {
    return `${edges.length} values`;
  }
  const e = edges[0];
  const typed = e.type ? `${e.value}: ${e.type}` : e.value;
  return e.live ? `${typed} = ${e.live}` : typed;
}

/** A rectangle of the graph's coordinates. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

function meets(box: Box | undefined, x: number, y: number, w: number, h: number): boolean {
  return box === undefined || (x <= box.x1 && x + w >= box.x0 && y <= box.y1 && y + h >= box.y0);
}

/** The view's markup; with `area`, only what meets it (a big graph draws what is on screen). */
export function renderView(view: View, area?: Box): string {
  const frames: string[] = [];
  const nodes: string[] = [];
  const walk = (item: Item): void => {
    for (const child of item.children) {
      if (!meets(area, child.x, child.y, child.width, child.height)) {
        continue;
      }
      if (child.group !== undefined && child.open) {
        frames.push(frame(child));
        walk(child);
      } else if (child.group !== undefined) {
        nodes.push(folded(child));
      } else if (child.node !== undefined) {
        nodes.push(node(child));
      }
    }
  };
  walk(view.root);
  const paths: string[] = [];
  const labels: string[] = [];
  for (const edge of view.edges) {
    if (edge.route === undefined) {
      continue; // a view not laid out (layoutView) has its boxes, no edges yet
    }
    const b = routeBox(edge.route);
    if (!meets(area, b.x0, b.y0, b.x1 - b.x0, b.y1 - b.y0)) {
      continue;
    }
    const [path, label] = edgeMarkup(edge.route, edge);
    paths.push(path);
    labels.push(label);
  }
  return `<g class="frames">${frames.join("")}</g><g class="edges">${paths.join("")}</g><g class="nodes">${nodes.join("")}</g><g class="edge-labels">${labels.join("")}</g>`;
}

function node(item: Item): string {
  const n = item.node!;
  const cat = category(n);
  const severity = n.severity ? ` sev-${n.severity}` : "";
  const top = n.kind === "op" ? n.op : n.label;
  const name = n.kind === "op" && n.label !== n.op ? n.label : n.kind === "op" ? "" : n.kind;
  const aria = escape(`${n.kind === "op" ? n.op : n.kind} ${n.label}`);
  const badge = n.severity ? `<circle class="badge${severity}" cx="${item.width - 2}" cy="2" r="6"><title>${escape(n.severity)}</title></circle>` : "";
  const calls = n.calls !== null ? ` data-calls="${escape(n.calls)}"` : "";
  const lines =
    n.kind === "op" || n.kind === "damaged"
      ? `<text class="op" x="${item.width / 2}" y="15">${escape(clip(top))}</text><text class="name" x="${item.width / 2}" y="29">${escape(clip(name))}</text>`
      : `<text class="value" x="${item.width / 2}" y="17">${escape(clip(top))}</text>`;
  return (
    `<g class="node cat-${cat} kind-${n.kind}${severity}" data-id="${escape(n.id)}"${calls} role="option" aria-selected="false" aria-label="${aria}" ` +
    `transform="translate(${item.x.toFixed(1)},${item.y.toFixed(1)})"><rect width="${item.width}" height="${item.height}" rx="5"/>${lines}${inside(n, item.width)}${badge}</g>`
  );
}

/** A node's attribute line and its weights' rows, below its name. */
export function inside(n: GraphNode, width: number): string {
  let y = NODE_HEIGHT;
  let out = "";
  if (n.attrs) {
    out += `<text class="attrs" x="${width / 2}" y="${y + 6}">${escape(n.attrs)}</text>`;
    y += LINE;
  }
  const { rows, more } = shownRows(n);
  if (rows.length > 0) {
    out += `<line class="rows-rule" x1="0" x2="${width}" y1="${y - 3}" y2="${y - 3}"/>`;
  }
  rows.forEach((row, i) => {
    const tip = `${row.origin ?? row.value}${row.type ? `: ${row.type}` : ""}${row.shared ? " (shared)" : ""}`;
    const classes = `row${row.shared ? " shared" : ""}${row.severity ? ` sev-${row.severity}` : ""}`;
    out +=
      `<g class="${classes}" data-row="${i}" aria-label="${escape(`weight ${row.value}`)}">` +
      `<rect class="row-hit" x="2" y="${y - 2}" width="${width - 4}" height="${LINE}"/>` +
      `<text x="8" y="${y + 8}">${escape(clip(rowText(row), 60))}<title>${escape(tip)}</title></text></g>`;
    y += LINE;
  });
  if (more > 0) {
    out += `<text class="more" x="8" y="${y + 8}">+${more} more</text>`;
  }
  return out;
}

function folded(item: Item): string {
  const g = item.group!;
  return (
    `<g class="group folded kind-${g.kind}" data-group="${escape(g.id)}" role="option" aria-selected="false" aria-expanded="false" ` +
    `aria-label="${escape(`${g.kind} ${g.label}, ${item.count} nodes, folded`)}" transform="translate(${item.x.toFixed(1)},${item.y.toFixed(1)})">` +
    `<rect width="${item.width}" height="${item.height}" rx="8"/><text class="op" x="${item.width / 2}" y="17">▸ ${escape(clip(g.label))}</text>` +
    `<text class="name" x="${item.width / 2}" y="31">${item.count} nodes</text></g>`
  );
}

function frame(item: Item): string {
  const g = item.group!;
  return (
    `<g class="frame kind-${g.kind}" data-group="${escape(g.id)}" aria-expanded="true" transform="translate(${item.x.toFixed(1)},${item.y.toFixed(1)})">` +
    `<rect width="${item.width}" height="${item.height}" rx="8"/><text class="frame-label" x="10" y="16">▾ ${escape(clip(g.label, 80))}</text></g>`
  );
}

/** The drawn view as a standalone SVG document (the stylesheet inside it) showing all of `box`. */
export function standaloneSvg(content: string, box: Box): string {
  const x = Math.floor(box.x0 - 16);
  const y = Math.floor(box.y0 - 16);
  const w = Math.ceil(box.x1 + 16) - x;
  const h = Math.ceil(box.y1 + 16) - y;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="graph" viewBox="${x} ${y} ${w} ${h}" width="${w}" height="${h}">` +
    `<style><![CDATA[${css}]]></style><g>${content}</g></svg>\n`
  );
}
