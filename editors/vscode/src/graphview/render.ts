// The view as SVG markup: group frames, edges with their labels, nodes coloured by operator
// category with a badge when they have diagnostics. Built as one string (fast for thousands of
// nodes); every class it uses is styled by media/graph.css.
import css from "../../media/graph.css";
import { GraphEdge, GraphNode, Item, LINE, NODE_HEIGHT, View, category, rowText, shownRows } from "./model";

export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function clip(text: string, max = 48): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
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
    const s = view.items.get(edge.source)!;
    const t = view.items.get(edge.target)!;
    const x1 = s.x + s.width / 2;
    const y1 = s.y + s.height;
    const x2 = t.x + t.width / 2;
    const y2 = t.y;
    if (!meets(area, Math.min(x1, x2), Math.min(y1, y2), Math.abs(x2 - x1) + 200, Math.abs(y2 - y1))) {
      continue;
    }
    const bend = Math.max(20, Math.abs(y2 - y1) / 2);
    const values = escape(edge.edges.map((e) => e.value).join(" "));
    paths.push(`<path class="edge" data-values="${values}" d="M${x1.toFixed(1)},${y1.toFixed(1)} C${x1.toFixed(1)},${(y1 + bend).toFixed(1)} ${x2.toFixed(1)},${(y2 - bend).toFixed(1)} ${x2.toFixed(1)},${y2.toFixed(1)}"/>`);
    const label = escape(clip(edgeLabel(edge.edges), 60));
    // on the curve a third of the way down: edges meeting at one node part before that
    const lx = 0.741 * x1 + 0.259 * x2;
    const ly = y1 + 0.259 * (y2 - y1) + 0.222 * bend;
    // an edge coming from the left says its value to the left: labels of edges meeting at a node part
    const left = x1 < x2 - 1;
    labels.push(`<text class="edge-label${left ? " left" : ""}" x="${(lx + (left ? -4 : 4)).toFixed(1)}" y="${(ly + 4).toFixed(1)}">${label}</text>`);
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
