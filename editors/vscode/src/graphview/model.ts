// The graph the server sends (`onnxtext/graph`, src/onnxtext/ide/graph.py) and the view of it
// that folding leaves: which items are drawn in which container, and the edges between them.
import type { EdgeRoute } from "./layout";

export interface Position {
  line: number;
  character: number;
}
export interface Range {
  start: Position;
  end: Position;
}
export interface GraphNode {
  id: string;
  kind: "op" | "input" | "initializer" | "output" | "damaged";
  label: string;
  op: string;
  domain: string;
  range: Range;
  group: string | null;
  calls: string | null;
  severity: string | null;
  /** Where the node is in the model, for a page whose reader never sees the text
   * (`onnxtext graph -o x.html`): `node 'conv1' (Conv), graph 'main_graph', node #12`. */
  place?: string;
  /** Its attributes in a line (`3×3 /2 pad 1`, `axis 1`). */
  attrs?: string;
  /** The weights and constants it reads, drawn inside it. */
  rows?: GraphRow[];
}
/** A weight or constant drawn inside the node it feeds (src/onnxtext/ide/graph.py, GraphRow). */
export interface GraphRow {
  value: string;
  param: string;
  type: string;
  kind: string;
  shared: boolean;
  severity: string | null;
  range: Range;
  /** The weight an Identity row passes on, and its statement. */
  origin?: string;
  originRange?: Range;
  /** The values of a small tensor, as written. */
  data?: string;
}
export interface GraphEdge {
  value: string;
  source: string;
  target: string;
  type: string;
  live: string;
}
export interface GraphGroup {
  id: string;
  kind: "subgraph" | "function" | "scope";
  label: string;
  parent: string | null;
  range: Range | null;
  /** In a folded first answer (`total` set): the nodes inside the group, which are not sent, and
   * how many of the nodes sent come before its first (where the whole graph puts it). */
  count?: number;
  at?: number;
}
export interface GraphData {
  nodes: GraphNode[];
  edges: GraphEdge[];
  groups: GraphGroup[];
  /** A big graph's folded first answer (`onnxtext/graph` with `folded`): its node count. Only the
   * nodes outside every group are here, the outermost groups with their `count`, and the edges
   * between them (an end inside a group is that group's id); the whole graph follows. */
  total?: number;
  /** A page without a server (`onnxtext graph -o x.html`): the properties panel of each
   * statement, keyed `line:character` (its start); see panel.ts's Properties. */
  properties?: Record<string, unknown>;
}

/** One box of the view: a node, a folded group, or an open group holding items of its own. */
export interface Item {
  id: string;
  node?: GraphNode;
  group?: GraphGroup;
  open: boolean;
  children: Item[];
  width: number;
  height: number;
  x: number;
  y: number;
  count: number;
}

/** An edge of the view: one or more values between two visible items. */
export interface ViewEdge {
  source: string;
  target: string;
  edges: GraphEdge[];
  /** Where it is drawn, its label's box included: set by layoutView (layout.ts). */
  route?: EdgeRoute;
}

export interface View {
  root: Item;
  items: Map<string, Item>;
  edges: ViewEdge[];
  /** The visible item standing for each node (itself, or the outermost folded group around it). */
  shownAs: Map<string, string>;
}

const CHAR = 7;
export const NODE_HEIGHT = 36;
export const VALUE_HEIGHT = 26;
export const GROUP_HEIGHT = 40;
export const PAD = 14;
export const HEADER = 22;
/** The height of a node's attribute line and of each of its rows. */
export const LINE = 14;
/** Rows a node draws at most: past them, one line says how many more (the panel lists them all). */
export const MOST_ROWS = 8;

/** The rows a node draws, and how many it leaves to the line "+N more". */
export function shownRows(node: GraphNode): { rows: GraphRow[]; more: number } {
  const rows = node.rows ?? [];
  return rows.length <= MOST_ROWS ? { rows, more: 0 } : { rows: rows.slice(0, MOST_ROWS - 1), more: rows.length - MOST_ROWS + 1 };
}

/** `⟨64×3×7×7⟩` for `float[64, 3, 7, 7]`; `""` when the type says no shape. */
export function shapeText(type: string): string {
  const m = /\[([^\]]*)\]$/.exec(type);
  return m === null ? "" : `⟨${m[1].split(",").map((d) => d.trim()).filter((d) => d !== "").join("×")}⟩`;
}

/** What a row says: `W ⟨64×3×7×7⟩`, `axes = [0]`; a shared weight also names it (`B ⇄ fc.bias ⟨16⟩`). */
export function rowText(row: GraphRow): string {
  const name = row.param || row.value;
  const shared = row.shared ? ` ⇄ ${row.origin ?? row.value}` : "";
  const what = row.data ? ` = ${row.data}` : ` ${shapeText(row.type) || row.type}`;
  return `${name}${shared}${what}`.trim();
}

/** A node's box: wide enough for its operator, name, attributes and rows; tall enough for them all. */
export function nodeSize(node: GraphNode): { width: number; height: number } {
  const isOp = node.kind === "op";
  const label = isOp ? node.op : node.label;
  const wide = isOp && node.label !== node.op && node.label.length > label.length ? node.label : label;
  let width = textWidth(wide, isOp ? 70 : 50);
  let height = isOp || node.kind === "damaged" ? NODE_HEIGHT : VALUE_HEIGHT;
  if (node.attrs) {
    width = Math.max(width, textWidth(node.attrs, 0));
    height += LINE;
  }
  const { rows, more } = shownRows(node);
  for (const row of rows) {
    width = Math.max(width, textWidth(rowText(row), 0));
    height += LINE;
  }
  height += more > 0 ? LINE : 0;
  return { width, height: rows.length > 0 ? height + 4 : height };
}

export function textWidth(text: string, min: number): number {
  return Math.max(min, Math.min(text.length, 48) * CHAR + 20);
}

/** The groups around `group`, innermost first. */
export function ancestors(groups: Map<string, GraphGroup>, group: string | null): string[] {
  const out: string[] = [];
  for (let g = group; g !== null && !out.includes(g); g = groups.get(g)?.parent ?? null) {
    out.push(g);
  }
  return out;
}

/** The items drawn when the groups in `open` are open and every other group is folded. */
export function buildView(data: GraphData, open: Set<string>): View {
  const groups = new Map(data.groups.map((g) => [g.id, g]));
  // the visible item of each group: itself if every group around it is open, else the outermost folded one
  const shownGroup = new Map<string, string>();
  const shownOf = (gid: string): string => {
    const known = shownGroup.get(gid);
    if (known !== undefined) {
      return known;
    }
    const chain = ancestors(groups, gid).reverse(); // outermost first
    let found = gid;
    for (const g of chain) {
      if (!open.has(g)) {
        found = g;
        break;
      }
    }
    shownGroup.set(gid, found);
    return found;
  };
  const root: Item = { id: "", open: true, children: [], width: 0, height: 0, x: 0, y: 0, count: 0 };
  const items = new Map<string, Item>([["", root]]);
  const containerOf = new Map<string, string>();
  const ensureGroup = (gid: string): Item => {
    let item = items.get(gid);
    if (item === undefined) {
      const group = groups.get(gid)!;
      const isOpen = open.has(gid);
      const width = textWidth(`▸ ${group.label}`, 90);
      item = { id: gid, group, open: isOpen, children: [], width, height: GROUP_HEIGHT, x: 0, y: 0, count: 0 };
      items.set(gid, item);
      const parent = group.parent !== null && groups.has(group.parent) ? ensureGroup(group.parent) : root;
      parent.children.push(item);
      containerOf.set(gid, parent.id);
    }
    return item;
  };
  const shownAs = new Map<string, string>();
  // a folded answer's groups, each drawn where its first node would be (its nodes are not here)
  const counted = data.groups.filter((g) => g.count !== undefined).sort((a, b) => (a.at ?? 0) - (b.at ?? 0));
  let next = 0;
  const countedUpTo = (index: number): void => {
    for (; next < counted.length && (counted[next].at ?? 0) <= index; next++) {
      ensureGroup(shownOf(counted[next].id)).count += counted[next].count!;
    }
  };
  for (const [index, node] of data.nodes.entries()) {
    countedUpTo(index);
    const gid = node.group !== null && groups.has(node.group) ? node.group : null;
    if (gid !== null) {
      const shown = shownOf(gid);
      if (shown !== gid || !open.has(gid)) {
        const g = ensureGroup(shown);
        g.count += 1;
        shownAs.set(node.id, shown);
        continue;
      }
      ensureGroup(gid);
    }
    const container = gid ?? "";
    const { width, height } = nodeSize(node);
    const item: Item = { id: node.id, node, open: false, children: [], width, height, x: 0, y: 0, count: 0 };
    items.set(node.id, item);
    items.get(container)!.children.push(item);
    containerOf.set(node.id, container);
    shownAs.set(node.id, node.id);
  }
  countedUpTo(Infinity);
  for (const item of items.values()) {
    if (item.group !== undefined && item.open && item.children.length === 0) {
      item.open = false; // an open group with nothing left to show is drawn folded
    }
  }
  // an edge's end: a node, or (a folded answer) a group holding the node
  const end = (id: string): string | undefined => shownAs.get(id) ?? (groups.has(id) ? shownOf(id) : undefined);
  const merged = new Map<string, ViewEdge>();
  for (const edge of data.edges) {
    const s = end(edge.source);
    const t = end(edge.target);
    if (s === undefined || t === undefined || s === t) {
      continue;
    }
    const key = `${s}\u0000${t}`;
    const found = merged.get(key);
    if (found === undefined) {
      merged.set(key, { source: s, target: t, edges: [edge] });
    } else {
      found.edges.push(edge);
    }
  }
  return { root, items, edges: [...merged.values()], shownAs };
}

/** The innermost node whose statement holds `pos`; in a weight's statement, the first node
 * drawing it as a row (and that row's index). */
export function nodeAt(data: GraphData, pos: Position): GraphNode | undefined {
  return placeAt(data, pos)?.node;
}

export function placeAt(data: GraphData, pos: Position): { node: GraphNode; row?: number } | undefined {
  let best: GraphNode | undefined;
  for (const node of data.nodes) {
    if (before(node.range.start, pos) && before(pos, node.range.end)) {
      if (best === undefined || before(best.range.start, node.range.start)) {
        best = node;
      }
    }
  }
  if (best !== undefined) {
    return { node: best };
  }
  for (const node of data.nodes) {
    const holds = (range: Range | undefined): boolean => range !== undefined && before(range.start, pos) && before(pos, range.end);
    const row = (node.rows ?? []).findIndex((r) => holds(r.range) || holds(r.originRange));
    if (row >= 0) {
      return { node, row };
    }
  }
  return undefined;
}

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character <= b.character);
}

/** The operator's category, for its colour. */
export function category(node: GraphNode): string {
  if (node.kind !== "op") {
    return node.kind;
  }
  const op = node.op;
  for (const [name, test] of CATEGORIES) {
    if (test.test(op)) {
      return name;
    }
  }
  return node.calls !== null ? "function" : "other";
}

const CATEGORIES: [string, RegExp][] = [
  ["control", /^(If|Loop|Scan|SequenceMap)$/],
  ["conv", /^(Conv|ConvTranspose|ConvInteger|QLinearConv|DeformConv|.*Pool|Col2Im|Im2Col)$/],
  ["matmul", /^(MatMul|Gemm|MatMulInteger|QLinearMatMul|Einsum|Attention|MultiHeadAttention|FusedMatMul)$/],
  ["norm", /Normalization$|^(LRN|LpNormalization|MeanVarianceNormalization|SkipLayerNormalization)$/],
  ["activation", /^(Relu|LeakyRelu|PRelu|Sigmoid|HardSigmoid|Tanh|Gelu|FastGelu|Elu|Selu|Celu|Softplus|Softsign|Softmax|LogSoftmax|Hardmax|HardSwish|Mish|ThresholdedRelu|Swish|QuickGelu)$/],
  ["reduce", /^(Reduce.*|ArgMax|ArgMin|TopK|CumSum|CumProd)$/],
  ["quant", /Quantize/],
  ["constant", /^(Constant|ConstantOfShape|EyeLike|Range|RandomNormal|RandomUniform|RandomNormalLike|RandomUniformLike|Multinomial|Bernoulli)$/],
  ["shape", /^(Reshape|Transpose|Shape|Size|Gather|GatherElements|GatherND|Scatter|ScatterElements|ScatterND|Concat|Split|SplitToSequence|Slice|Squeeze|Unsqueeze|Flatten|Expand|Tile|Pad|Cast|CastLike|Identity|DepthToSpace|SpaceToDepth|Resize|Upsample|Trilu|Compress|NonZero|Where|OneHot)$/],
  ["math", /^(Add|Sub|Mul|Div|Pow|Sqrt|Exp|Log|Neg|Abs|Reciprocal|Floor|Ceil|Round|Sign|Min|Max|Mean|Sum|Mod|Erf|Sin|Cos|Tan|Asin|Acos|Atan|Sinh|Cosh|Asinh|Acosh|Atanh|Clip|Equal|Less|LessOrEqual|Greater|GreaterOrEqual|And|Or|Xor|Not|IsNaN|IsInf|BitShift|Bitwise.*|Det)$/],
];

/** What the standalone page says of a picked node: its place in the model, else its line. */
export function placeOf(node: GraphNode): string {
  return node.place ?? `line ${node.range.start.line + 1}`;
}

/** A search match: a node, or one of its weights' rows. */
export interface Match {
  id: string;
  row: number | null;
}

/** The nodes whose name, operator or id holds `query` (lower case), and the rows whose weight's name does, in order. */
export function findMatches(data: GraphData, query: string): Match[] {
  const q = query.trim().toLowerCase();
  const out: Match[] = [];
  if (q === "") {
    return out;
  }
  for (const n of data.nodes) {
    if (n.label.toLowerCase().includes(q) || n.op.toLowerCase().includes(q) || n.id.toLowerCase().includes(q)) {
      out.push({ id: n.id, row: null });
    }
    (n.rows ?? []).forEach((r, i) => {
      if (r.value.toLowerCase().includes(q) || (r.origin ?? "").toLowerCase().includes(q)) {
        out.push({ id: n.id, row: i });
      }
    });
  }
  return out;
}
