// The graph view: a webview beside the text in VS Code (messages from src/graph.ts), or a
// standalone page (`onnxtext graph -o model.html`: the graph in <script id="graph-data">).
// Folding, zoom and pan, search, selection synced with the cursor, SVG export.
import css from "../../media/graph.css";
import { layoutView } from "./layout";
import { GestureMenu, deleteIndex, deletes, gestureTarget, opensMenu, producerOf } from "./menu";
import { GraphData, GraphNode, Match, Position, Range, View, ancestors, buildView, findMatches, placeAt, placeOf } from "./model";
import { markStylesheet } from "./marks";
import { Properties, localHtml, panelKey, propertiesHtml } from "./panel";
import { Box, renderView, standaloneSvg } from "./render";

interface Host {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): Host;

interface Saved {
  open: string[];
  known: string[];
  t: { x: number; y: number; k: number };
}

/** Above this many nodes, groups start folded (as Model Explorer opens a big model). */
const FOLD_ABOVE = 400;
const SVG_NS = "http://www.w3.org/2000/svg";
/** The zoom the view opens at when the whole graph would be smaller: node text at least 10 px. */
const READABLE = 1;
/** Quiet time after the last event of a zoom (or a pan past what is drawn) before the picture is
 * drawn again at its new place and scale (ms); until then the drawn layer is moved as a whole. */
const SETTLE_MS = 250;

class GraphApp {
  private data: GraphData = { nodes: [], edges: [], groups: [] };
  private open = new Set<string>();
  private known = new Set<string>();
  private t = { x: 16, y: 16, k: 1 };
  private view: View | undefined;
  private selected: string | null = null;
  /** The row (weight) of the selected node picked, if one was. */
  private selectedRow: number | null = null;
  /** The properties asked of the host last (answers to older questions are dropped). */
  private asked = 0;
  private elements = new Map<string, Element>();
  /** What is drawn (graph coordinates): the screen and a screen around it; undefined: everything. */
  private drawn: Box | undefined;
  /** The graph's rectangle on screen, kept by a ResizeObserver: a pan or zoom reads no layout. */
  private area: DOMRect | undefined;
  /** A transform waiting for the next frame (pans and zooms set it at most once a frame). */
  private pending = false;
  /** The transform the picture is drawn at (the viewport's attribute); a pan or zoom moves the drawn
   * layer from it to `t` as a whole (a CSS transform: no repaint). A pan stays so until the screen
   * reaches past what is drawn; a zoom, until it settles (the text drawn sharp at its new size). */
  private drawnAt = { x: 16, y: 16, k: 1 };
  private settling: ReturnType<typeof setTimeout> | undefined;
  /** "Unfold all" was asked last (the groups of a whole graph that follows its folded top level open too). */
  private allOpen = false;
  /** The folded first answer is drawn: the whole graph is asked for once its picture is painted. */
  private restWanted = false;
  private matches: Match[] = [];
  private match = -1;
  private fitted = false;
  private renders = 0;
  private readonly svg: SVGSVGElement;
  /** The svg's box, clipping the drawn layer (the svg, its overflow visible) as it moves. */
  private readonly stage: HTMLElement;
  private readonly viewport: SVGGElement;
  private readonly search: HTMLInputElement;
  private readonly count: HTMLElement;
  private readonly status: HTMLElement;
  private readonly panel: HTMLElement;
  private readonly menu = new GestureMenu();
  /** The gestures asked of the host last: for the menu at `at`, or to delete the node at once. */
  private gestureAsks = 0;
  private gesturesAsked: { asked: number; label: string; at: { x: number; y: number }; intent: "menu" | "delete" } | undefined;
  /** The colours of a compared graph's marks (marks.ts). */
  private readonly marks = new CSSStyleSheet();

  constructor(private readonly host: Host | undefined) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet, this.marks];
    const bar = el("div", "toolbar");
    this.search = el("input", "search") as HTMLInputElement;
    this.search.type = "search";
    this.search.placeholder = "Search names and operators";
    this.search.setAttribute("aria-label", "Search names and operators");
    this.count = el("span", "count");
    this.status = el("span", "status");
    bar.append(this.search, this.count, button("Fit", () => this.fit()), button("Unfold all", () => this.setAll(true)), button("Fold all", () => this.setAll(false)), button("Export SVG", () => this.exportSvg()), this.status);
    this.svg = document.createElementNS(SVG_NS, "svg");
    this.svg.classList.add("graph");
    this.svg.setAttribute("role", "listbox");
    this.svg.setAttribute("aria-label", "Model graph");
    this.svg.tabIndex = 0; // the keys on the selected node: the context menu, Delete
    this.viewport = document.createElementNS(SVG_NS, "g");
    this.svg.append(this.viewport);
    this.panel = el("aside", "props");
    this.panel.setAttribute("aria-label", "Properties");
    this.panel.hidden = true;
    // the svg is a layer of its own (will-change): a pan or zoom moves it on the compositor, and
    // what is drawn around the screen shows as it comes in (its overflow visible, the stage clips)
    this.stage = el("div", "stage");
    this.stage.style.cssText = "flex: 1; min-width: 0; display: flex; overflow: hidden; position: relative; cursor: grab;";
    this.svg.style.cssText = "overflow: visible; will-change: transform; transform-origin: 0 0;";
    this.stage.append(this.svg);
    const main = el("div", "main");
    main.append(this.stage, this.panel);
    document.body.append(bar, main);
    const saved = host?.getState() as Saved | undefined;
    if (saved !== undefined && saved !== null && Array.isArray(saved.open)) {
      this.open = new Set(saved.open);
      this.known = new Set(saved.known);
      this.t = saved.t;
      this.fitted = true;
    }
    this.listen();
  }

  /** The graph to show; `rest`: the whole graph after its folded first answer (the same picture). */
  setData(data: GraphData, rest = false): void {
    const wasPart = this.data.total !== undefined;
    this.data = data;
    this.restWanted = data.total !== undefined;
    this.marks.replaceSync(markStylesheet(data));
    const small = (data.total ?? data.nodes.length) <= FOLD_ABOVE;
    for (const g of data.groups) {
      if (!this.known.has(g.id)) {
        this.known.add(g.id);
        if (small || this.allOpen) {
          this.open.add(g.id);
        }
      }
    }
    this.render(!rest);
    if (rest) {
      document.body.dataset.wholeAt = String(Date.now()); // for a test timing the whole graph's arrival
    }
    if (wasPart && this.search.value.trim() !== "") {
      this.find(this.search.value); // searched in the folded answer: now in the whole graph
    }
    const node = this.selected !== null ? data.nodes.find((n) => n.id === this.selected) : undefined;
    if (!this.panel.hidden && (node === undefined || panelKey(data, node, this.selectedRow) !== this.shownKey)) {
      this.showProperties(); // the text changed what the panel says
    }
  }

  /** Lays out and draws the view; `picture`: a new picture, whose painting is timed (paintedAt). */
  private render(picture = true): void {
    const start = performance.now();
    const view = buildView(this.data, this.open);
    layoutView(view);
    const laid = performance.now();
    this.view = view;
    if (!this.fitted) {
      this.fitted = true;
      this.openReadable();
    }
    this.draw();
    this.applyTransform();
    this.renders++;
    document.body.dataset.renderMs = (performance.now() - start).toFixed(1);
    document.body.dataset.layoutMs = (laid - start).toFixed(1);
    document.body.dataset.renders = String(this.renders);
    document.body.dataset.shown = String(view.items.size - 1);
    // when the picture of this render is on screen (the frame after it painted): the clock of the
    // machine, for a test timing Show Graph to the picture
    const renders = this.renders;
    requestAnimationFrame(() =>
      setTimeout(() => {
        if (this.renders === renders && picture) {
          document.body.dataset.paintedAt = String(Date.now());
        }
        if (this.restWanted && this.host !== undefined) {
          this.restWanted = false;
          this.host.postMessage({ type: "rest" }); // the folded picture is on screen: now the whole graph
        }
      }),
    );
    this.persist();
  }

  /** The graph's rectangle on screen, and as much again on every side. */
  private onScreen(): Box | undefined {
    const box = this.svgBox();
    if (box.width === 0 || box.height === 0) {
      return undefined; // not laid out yet (a hidden panel): draw everything
    }
    const { x, y, k } = this.t;
    const w = box.width / k;
    const h = box.height / k;
    return { x0: -x / k - w, y0: -y / k - h, x1: -x / k + 2 * w, y1: -y / k + 2 * h };
  }

  private draw(): void {
    if (this.view === undefined) {
      return;
    }
    this.drawn = this.onScreen();
    this.viewport.innerHTML = renderView(this.view, this.drawn);
    this.elements.clear();
    for (const e of this.viewport.querySelectorAll("[data-id],[data-group]")) {
      this.elements.set(e.getAttribute("data-id") ?? e.getAttribute("data-group")!, e);
    }
    document.body.dataset.drawn = String(this.elements.size);
    document.body.dataset.draws = String(Number(document.body.dataset.draws ?? 0) + 1);
    this.showSelection(false);
    this.markMatches();
  }

  // ------------------------------------------------------------ selection
  /** Select node `id` (or the folded group that shows it) and its weight `row`; `scroll` brings it into view. */
  select(id: string | null, scroll: boolean, row: number | null = null): void {
    const changed = id !== this.selected || row !== this.selectedRow;
    this.selected = id;
    this.selectedRow = row;
    this.showSelection(scroll);
    if (changed) {
      this.showProperties();
    }
  }

  /** The panel for the selection: the graph's own facts at once, the server's when they come. */
  private showProperties(): void {
    const node = this.selected !== null ? this.data.nodes.find((n) => n.id === this.selected) : undefined;
    if (node === undefined || !this.panelWanted) {
      this.keepCentre(() => (this.panel.hidden = true));
      return;
    }
    this.keepCentre(() => (this.panel.hidden = false));
    this.panel.innerHTML = closer() + localHtml(this.data, node);
    this.shownKey = panelKey(this.data, node, this.selectedRow);
    const row = this.selectedRow !== null ? node.rows?.[this.selectedRow] : undefined;
    const range: Range = row?.range ?? node.range;
    const asked = ++this.asked;
    if (this.host !== undefined) {
      this.host.postMessage({ type: "properties", asked, position: range.start });
    } else {
      const found = this.data.properties?.[`${range.start.line}:${range.start.character}`];
      if (found !== undefined) {
        this.properties(asked, found as Properties);
      }
    }
  }

  /** `change` the panel, the picture's centre kept where it was (the panel takes its width from the picture's). */
  private keepCentre(change: () => void): void {
    const before = this.svg.clientWidth;
    change();
    const after = this.svg.clientWidth;
    if (before !== after && before > 0 && after > 0) {
      this.t.x += (after - before) / 2;
      this.applyTransform();
      this.persist();
    }
  }

  private properties(asked: number, found: Properties | null): void {
    if (asked === this.asked && found !== null && !this.panel.hidden) {
      this.panel.innerHTML = closer() + propertiesHtml(found, this.host !== undefined);
      this.panel.dataset.loaded = String(asked);
      this.current = found;
    }
  }

  private current: Properties | undefined;
  /** What the panel shown depends on (panelKey). */
  private shownKey = "";
  /** The panel shows the selection until closed, and again once a node is picked in the view. */
  private panelWanted = true;

  private showSelection(scroll: boolean): void {
    for (const e of this.viewport.querySelectorAll('[aria-selected="true"]')) {
      e.setAttribute("aria-selected", "false");
    }
    for (const r of this.viewport.querySelectorAll(".row.chosen")) {
      r.classList.remove("chosen");
    }
    if (this.selected === null || this.view === undefined) {
      return;
    }
    const shown = this.view.shownAs.get(this.selected);
    const element = shown !== undefined ? (scroll ? this.elementOf(shown) : this.elements.get(shown)) : undefined;
    if (element === undefined || shown === undefined) {
      return;
    }
    element.setAttribute("aria-selected", "true");
    if (this.selectedRow !== null && shown === this.selected) {
      element.querySelector(`[data-row="${this.selectedRow}"]`)?.classList.add("chosen");
    }
    if (scroll) {
      this.reveal(shown);
    }
  }

  /** The element of a visible item, drawn first if it is off what is drawn. */
  private elementOf(id: string): Element | undefined {
    if (!this.elements.has(id) && this.view?.items.has(id)) {
      this.reveal(id);
    }
    return this.elements.get(id);
  }

  /** Pan so that item `id` is on screen (centred if it was not). */
  private reveal(id: string): void {
    const item = this.view?.items.get(id);
    if (item === undefined) {
      return;
    }
    const box = this.svgBox();
    const left = item.x * this.t.k + this.t.x;
    const top = item.y * this.t.k + this.t.y;
    const inside = left >= 0 && top >= 0 && left + item.width * this.t.k <= box.width && top + item.height * this.t.k <= box.height;
    if (!inside) {
      this.t.x = box.width / 2 - (item.x + item.width / 2) * this.t.k;
      this.t.y = box.height / 2 - (item.y + item.height / 2) * this.t.k;
      this.applyTransform();
      this.persist();
    }
  }

  cursor(position: Position): void {
    const found = placeAt(this.data, position);
    this.select(found?.node.id ?? null, true, found?.row ?? null);
  }

  // ------------------------------------------------------------ folding, zoom, search
  private toggle(group: string, open: boolean): void {
    if (open && this.data.total !== undefined) {
      // a folded first answer has not the group's nodes: it opens when the whole graph comes
      this.open.add(group);
      const element = this.elements.get(group);
      element?.classList.add("opening");
      element?.setAttribute("aria-busy", "true");
      const name = element?.querySelector("text.name");
      if (name) {
        name.textContent = "opening…";
      }
      return;
    }
    if (open) {
      this.open.add(group);
    } else {
      this.open.delete(group);
    }
    this.render();
  }

  private setAll(open: boolean): void {
    this.allOpen = open;
    this.open = open ? new Set(this.data.groups.map((g) => g.id)) : new Set();
    this.render();
    if (!open) {
      this.fit();
    }
  }

  /** The first view of a graph: all of it if it fits with its text readable, else at a readable
   * zoom on the graph's inputs (the node under the cursor is brought into view when it comes). */
  private openReadable(): void {
    const root = this.view?.root;
    const box = this.svgBox();
    if (root === undefined || root.width === 0 || box.width === 0) {
      this.fitted = false; // not laid out yet (a hidden panel): the next render tries again
      return;
    }
    const k = Math.min((box.width - 32) / root.width, (box.height - 32) / root.height);
    if (k >= READABLE) {
      this.fit();
      return;
    }
    const inputs = [...this.view!.items.values()].filter((i) => i.node?.kind === "input" && i.node.group === null);
    const first = inputs.length > 0 ? inputs : [...this.view!.items.values()].filter((i) => i.id !== "").slice(0, 1);
    const left = Math.min(...first.map((i) => i.x));
    const right = Math.max(...first.map((i) => i.x + i.width));
    const top = Math.min(...first.map((i) => i.y));
    this.t = { k: READABLE, x: box.width / 2 - ((left + right) / 2) * READABLE, y: 16 - top * READABLE };
    this.applyTransform();
    this.persist();
  }

  private fit(): void {
    const root = this.view?.root;
    const box = this.svgBox();
    if (root === undefined || root.width === 0 || box.width === 0) {
      return;
    }
    const k = Math.min(1.5, Math.max(0.05, Math.min((box.width - 32) / root.width, (box.height - 32) / root.height)));
    this.t = { k, x: (box.width - root.width * k) / 2, y: 16 };
    this.applyTransform();
    this.persist();
  }

  /** The graph's rectangle on screen (the stage's, as last observed; read when not observed yet):
   * the svg's, unmoved by a pan in progress. */
  private svgBox(): DOMRect {
    return this.area !== undefined && this.area.width > 0 ? this.area : this.stage.getBoundingClientRect();
  }

  /** A pan's or zoom's transform, at the next frame (its events between two frames move the
   * picture once): the drawn layer moved as a whole, drawn again at its place once the gesture
   * settles if it zoomed or went past what is drawn. */
  private applySoon(): void {
    if (!this.pending) {
      this.pending = true;
      requestAnimationFrame(() => {
        this.pending = false;
        this.moveLayer();
      });
    }
  }

  private moveLayer(): void {
    const box = this.svgBox();
    const { x, y, k } = this.t;
    const d = this.drawnAt;
    const s = k / d.k;
    this.svg.style.transform = `translate(${(x - s * d.x).toFixed(1)}px, ${(y - s * d.y).toFixed(1)}px) scale(${s.toFixed(4)})`;
    // drawn again once the gesture settles: after a zoom (sharp at its new size), or when the
    // screen shows past what is drawn (a screen's worth around it: a long drag or a far zoom out)
    const have = this.drawn;
    const past = have !== undefined && box.width > 0 && !within({ x0: -x / k, y0: -y / k, x1: (box.width - x) / k, y1: (box.height - y) / k }, have);
    clearTimeout(this.settling);
    this.settling = k !== d.k || past ? setTimeout(() => this.applyTransform(), SETTLE_MS) : undefined;
  }

  /** The picture drawn at the transform `t` (the layer back in place). */
  private applyTransform(): void {
    clearTimeout(this.settling);
    this.settling = undefined;
    this.drawnAt = { ...this.t };
    this.viewport.setAttribute("transform", `translate(${this.t.x.toFixed(1)},${this.t.y.toFixed(1)}) scale(${this.t.k.toFixed(4)})`);
    this.svg.style.transform = "";
    this.svg.classList.toggle("far", this.t.k < 0.45);
    const want = this.onScreen();
    const have = this.drawn;
    if (have !== undefined && (want === undefined || !within(want, have))) {
      this.draw(); // panned or zoomed out past what is drawn
    }
  }

  private find(query: string): void {
    const q = query.trim().toLowerCase();
    this.matches = findMatches(this.data, q);
    this.match = -1;
    this.markMatches();
    this.count.textContent = q === "" ? "" : `${this.matches.length} found`;
  }

  private markMatches(): void {
    for (const e of this.viewport.querySelectorAll(".match")) {
      e.classList.remove("match");
    }
    for (const { id } of this.matches) {
      const shown = this.view?.shownAs.get(id);
      const element = shown !== undefined ? this.elements.get(shown) : undefined;
      element?.classList.add("match");
    }
  }

  private nextMatch(step: number): void {
    if (this.matches.length === 0) {
      return;
    }
    this.match = (this.match + step + this.matches.length) % this.matches.length;
    const { id, row } = this.matches[this.match];
    const node = this.data.nodes.find((n) => n.id === id)!;
    const groups = new Map(this.data.groups.map((g) => [g.id, g]));
    const closed = ancestors(groups, node.group).filter((g) => !this.open.has(g));
    if (closed.length > 0) {
      closed.forEach((g) => this.open.add(g));
      this.render();
    }
    this.count.textContent = `${this.match + 1}/${this.matches.length}`;
    this.choose(id, row);
  }

  /** A node (or one of its weights' rows) picked in the view: selected here, its statement in the text. */
  private choose(id: string, row: number | null = null): void {
    if (!this.panelWanted) {
      this.panelWanted = true;
      this.selected = null; // shown again, even for the node already selected
    }
    this.select(id, true, row);
    const node = this.data.nodes.find((n) => n.id === id);
    if (node !== undefined) {
      this.goTo(node, row !== null ? node.rows?.[row]?.range : undefined);
    }
  }

  private goTo(node: GraphNode, range?: Range): void {
    if (this.host !== undefined) {
      this.host.postMessage({ type: "reveal", range: range ?? node.range, id: node.id });
    } else {
      this.status.textContent = range !== undefined ? `weight ${node.rows?.[this.selectedRow ?? 0]?.value ?? ""}` : placeOf(node);
    }
  }

  // ------------------------------------------------------------ gestures (#32)
  /** Asks the host for the gestures on node `id`'s statement (its weight `row`'s): a menu at `at`,
   * or (`delete`) the node's deletion. */
  private askGestures(id: string, row: number | null, at: { x: number; y: number }, intent: "menu" | "delete"): void {
    const node = this.data.nodes.find((n) => n.id === id);
    if (this.host === undefined || node === undefined) {
      return;
    }
    const asked = ++this.gestureAsks;
    const { label, range } = gestureTarget(node, intent === "menu" ? row : null);
    this.gesturesAsked = { asked, label, at, intent };
    this.host.postMessage({ type: "gestures", asked, range });
  }

  private gestures(asked: number, titles: string[]): void {
    const wanted = this.gesturesAsked;
    if (wanted === undefined || wanted.asked !== asked) {
      return;
    }
    this.gesturesAsked = undefined;
    const choose = (index: number): void => this.host?.postMessage({ type: "gesture", asked, index });
    if (wanted.intent === "delete") {
      const index = deleteIndex(titles);
      if (index >= 0) {
        choose(index);
      } else {
        this.status.textContent = `${wanted.label}: nothing to delete here`;
      }
      return;
    }
    this.menu.open(wanted.at, wanted.label, titles, choose, this.svg);
  }

  /** Where the menu of the selected node opens from the keyboard: below its box's left. */
  private selectedCorner(): { x: number; y: number } | undefined {
    const shown = this.selected !== null ? this.view?.shownAs.get(this.selected) : undefined;
    if (shown !== this.selected || shown === null || shown === undefined) {
      return undefined; // folded away: no node to act on
    }
    const box = this.elementOf(shown)?.getBoundingClientRect();
    return box === undefined ? undefined : { x: box.left + Math.min(12, box.width / 2), y: box.bottom - Math.min(8, box.height / 2) };
  }

  private exportSvg(): void {
    const root = this.view?.root;
    if (root === undefined) {
      return;
    }
    const content = renderView(this.view!);
    // the picture's extent as drawn, labels included (an edge label may run past the nodes)
    const probe = document.createElementNS(SVG_NS, "g");
    probe.setAttribute("visibility", "hidden");
    probe.innerHTML = content;
    this.svg.append(probe);
    const b = probe.getBBox();
    probe.remove();
    const box = b.width > 0 ? { x0: Math.min(0, b.x), y0: Math.min(0, b.y), x1: Math.max(root.width, b.x + b.width), y1: Math.max(root.height, b.y + b.height) } : { x0: 0, y0: 0, x1: root.width, y1: root.height };
    const svg = standaloneSvg(content, box);
    if (this.host !== undefined) {
      this.host.postMessage({ type: "exportSvg", svg });
      return;
    }
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
    link.download = `${document.title.replace(/ \(onnxtext graph\)$/, "") || "graph"}.svg`;
    link.click();
  }

  private persist(): void {
    this.host?.setState({ open: [...this.open], known: [...this.known], t: this.t } satisfies Saved);
  }

  // ------------------------------------------------------------ events
  private listen(): void {
    new ResizeObserver(() => (this.area = this.stage.getBoundingClientRect())).observe(this.stage);
    this.svg.addEventListener("click", (event) => {
      const target = event.target as Element;
      const node = target.closest("[data-id]");
      if (node !== null) {
        const row = target.closest("[data-row]");
        this.choose(node.getAttribute("data-id")!, row !== null ? Number(row.getAttribute("data-row")) : null);
        return;
      }
      const group = target.closest("[data-group]");
      if (group !== null) {
        const id = group.getAttribute("data-group")!;
        const folded = group.getAttribute("aria-expanded") === "false";
        if (folded || target.closest(".frame-label") !== null) {
          this.toggle(id, folded);
        }
      }
    });
    this.svg.addEventListener("contextmenu", (event) => {
      if (this.host === undefined) {
        return;
      }
      const target = event.target as Element;
      const node = target.closest("[data-id]");
      let id: string | undefined;
      let row: number | null = null;
      if (node === null) {
        // an edge: the menu of the node that makes its value (Rename value…, make it an output…)
        const edge = target.closest("path.edge") ?? edgeNear(event.clientX, event.clientY);
        id = producerOf(this.data, edge?.getAttribute("data-values") ?? null);
      } else {
        id = node.getAttribute("data-id")!;
        const picked = target.closest("[data-row]");
        row = picked !== null ? Number(picked.getAttribute("data-row")) : null;
      }
      if (id === undefined) {
        return;
      }
      event.preventDefault(); // ours, not the webview's
      this.choose(id, row);
      this.svg.focus();
      this.askGestures(id, row, { x: event.clientX, y: event.clientY }, "menu");
    });
    this.svg.addEventListener("keydown", (event) => {
      const menu = opensMenu(event);
      if ((!menu && !deletes(event)) || this.selected === null) {
        return;
      }
      const at = this.selectedCorner();
      if (at !== undefined) {
        event.preventDefault();
        this.askGestures(this.selected, this.selectedRow, at, menu ? "menu" : "delete");
      }
    });
    this.svg.addEventListener("dblclick", (event) => {
      const calls = (event.target as Element).closest("[data-calls]")?.getAttribute("data-calls");
      if (calls) {
        this.open.add(calls);
        this.render();
        const first = this.data.nodes.find((n) => n.group === calls);
        if (first !== undefined) {
          this.select(first.id, true);
        }
      }
    });
    // a pan or zoom anywhere on the stage (a panned svg leaves part of it uncovered)
    this.stage.addEventListener(
      "wheel",
      (event) => {
        event.preventDefault();
        const box = this.svgBox();
        const px = event.clientX - box.left;
        const py = event.clientY - box.top;
        const k = Math.min(4, Math.max(0.02, this.t.k * Math.exp(-event.deltaY * 0.0015)));
        this.t = { k, x: px - ((px - this.t.x) * k) / this.t.k, y: py - ((py - this.t.y) * k) / this.t.k };
        this.applySoon();
        this.persist();
      },
      { passive: false },
    );
    let drag: { x: number; y: number; tx: number; ty: number } | undefined;
    this.stage.addEventListener("pointerdown", (event) => {
      if ((event.target as Element).closest("[data-id],[data-group]") === null || event.button === 1) {
        drag = { x: event.clientX, y: event.clientY, tx: this.t.x, ty: this.t.y };
        this.stage.setPointerCapture(event.pointerId);
      }
    });
    this.stage.addEventListener("pointermove", (event) => {
      if (drag !== undefined) {
        this.t.x = drag.tx + event.clientX - drag.x;
        this.t.y = drag.ty + event.clientY - drag.y;
        this.applySoon();
      }
    });
    this.stage.addEventListener("pointerup", () => {
      if (drag !== undefined) {
        drag = undefined;
        this.persist();
      }
    });
    this.panel.addEventListener("click", (event) => {
      const target = event.target as Element;
      if (target.closest(".close") !== null) {
        this.keepCentre(() => (this.panel.hidden = true));
        this.panelWanted = false;
        return;
      }
      const save = target.closest(".save-npy");
      const found = this.current;
      if (save !== null && found !== undefined) {
        const index = Number(save.getAttribute("data-weight"));
        const weight = found.kind === "node" ? found.inputs[index]?.weight : found.kind === "weight" ? found : undefined;
        if (weight !== undefined) {
          // where the weight is now: an edit above it since the panel was made moved it
          const node = this.data.nodes.find((n) => n.id === this.selected);
          const row = node?.rows?.find((r) => r.value === weight.name || r.origin === weight.name);
          const range = row === undefined ? weight.range : row.origin === weight.name && row.originRange !== undefined ? row.originRange : row.range;
          this.host?.postMessage({ type: "saveNpy", name: weight.name, position: range.start });
        }
      }
    });
    this.search.addEventListener("input", () => this.find(this.search.value));
    this.search.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        this.nextMatch(event.shiftKey ? -1 : 1);
      } else if (event.key === "Escape") {
        this.search.value = "";
        this.find("");
      }
    });
    window.addEventListener("message", (event: MessageEvent) => {
      const message = event.data as { type?: string; data?: GraphData; rest?: boolean; answeredAt?: number; position?: Position; asked?: number; properties?: Properties | null; titles?: string[] };
      if (message.type === "graph" && message.data !== undefined) {
        if (message.rest !== true) {
          document.body.dataset.receivedAt = String(Date.now()); // for a test timing Show Graph to the picture
          document.body.dataset.answeredAt = String(message.answeredAt ?? "");
        }
        this.setData(message.data, message.rest === true);
      } else if (message.type === "properties" && message.asked !== undefined) {
        this.properties(message.asked, message.properties ?? null);
      } else if (message.type === "gestures" && message.asked !== undefined && message.titles !== undefined) {
        this.gestures(message.asked, message.titles);
      } else if (message.type === "cursor" && message.position !== undefined) {
        this.cursor(message.position);
      }
    });
  }
}

function within(inner: Box, outer: Box): boolean {
  return inner.x0 >= outer.x0 && inner.y0 >= outer.y0 && inner.x1 <= outer.x1 && inner.y1 <= outer.y1;
}

function closer(): string {
  return `<button class="tool close" aria-label="Close the properties">×</button>`;
}

function el(tag: string, className: string): HTMLElement {
  const e = document.createElement(tag);
  e.className = className;
  return e;
}

function button(label: string, action: () => void): HTMLButtonElement {
  const b = el("button", "tool") as HTMLButtonElement;
  b.textContent = label;
  b.addEventListener("click", action);
  return b;
}

const host = typeof acquireVsCodeApi === "function" ? acquireVsCodeApi() : undefined;
const app = new GraphApp(host);
const embedded = document.getElementById("graph-data");
if (embedded?.textContent) {
  app.setData(JSON.parse(embedded.textContent) as GraphData);
}
document.body.dataset.readyAt = String(Date.now()); // for a test timing Show Graph to the picture
host?.postMessage({ type: "ready" });

/** The edge drawn within a few pixels of a point (a line of 1.2 px is hard to hit exactly): the
 * nearest of the points around it, half a pixel apart along 8 rays, that lands on one. */
function edgeNear(x: number, y: number): Element | null {
  for (let r = 0.5; r <= 6; r += 0.5) {
    for (const [dx, dy] of [[r, 0], [-r, 0], [0, r], [0, -r], [r, r], [-r, -r], [r, -r], [-r, r]]) {
      const hit = document.elementFromPoint(x + dx, y + dy)?.closest("path.edge");
      if (hit) {
        return hit;
      }
    }
  }
  return null;
}
