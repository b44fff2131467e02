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
}
export interface GraphData {
  nodes: GraphNode[];
  edges: GraphEdge[];
  groups: GraphGroup[];
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
  for (const node of data.nodes) {
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
    const label = node.kind === "op" ? node.op : node.label;
    const width = textWidth(node.kind === "op" && node.label !== node.op ? (node.label.length > label.length ? node.label : label) : label, node.kind === "op" ? 70 : 50);
    const item: Item = { id: node.id, node, open: false, children: [], width, height: node.kind === "op" || node.kind === "damaged" ? NODE_HEIGHT : VALUE_HEIGHT, x: 0, y: 0, count: 0 };
    items.set(node.id, item);
    items.get(container)!.children.push(item);
    containerOf.set(node.id, container);
    shownAs.set(node.id, node.id);
  }
  for (const item of items.values()) {
    if (item.group !== undefined && item.open && item.children.length === 0) {
      item.open = false; // an open group with nothing left to show is drawn folded
    }
  }
  const merged = new Map<string, ViewEdge>();
  for (const edge of data.edges) {
    const s = shownAs.get(edge.source);
    const t = shownAs.get(edge.target);
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

/** The innermost node whose statement holds `pos`. */
export function nodeAt(data: GraphData, pos: Position): GraphNode | undefined {
  let best: GraphNode | undefined;
  for (const node of data.nodes) {
    if (before(node.range.start, pos) && before(pos, node.range.end)) {
      if (best === undefined || before(best.range.start, node.range.start)) {
        best = node;
      }
    }
  }
  return best;
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
