// The graph's context menu (#32): the surgery gestures the server offers as code actions on a
// node's statement (src/onnxtext/ide/gestures.py), listed by their titles; the extension
// (src/graph.ts) asks for them and applies the one chosen as one workspace edit.
import type { GraphData, GraphNode, Range } from "./model";

export interface KeyLike {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

/** The keys that open the context menu on the selected node: the context-menu key, Shift+F10. */
export function opensMenu(e: KeyLike): boolean {
  const plain = !e.ctrlKey && !e.altKey && !e.metaKey;
  return plain && (e.key === "ContextMenu" || (e.key === "F10" && e.shiftKey));
}

/** The Delete key alone (Shift+Delete, Ctrl+Delete are someone else's). */
export function deletes(e: KeyLike): boolean {
  return e.key === "Delete" && !e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey;
}

/** Which of the gestures' titles is the plain *Delete node* (not *… and what only fed it*), or -1.
 * The server's titles: `Delete node 'n'`, `Delete node 'n' (its readers read 'x')`,
 * `Delete node 'n' and what only fed it (2 nodes, 1 initializer)`. */
export function deleteIndex(titles: readonly string[]): number {
  return titles.findIndex((t) => t.startsWith("Delete node ") && !/' and what only fed it \([^']*\)$/.test(t));
}

/** What a menu is on: node `node`, or its weight `row` (a row drawn inside it: the weight's own
 * statement, where an initializer is made a graph input); its name in the menu's label. */
export function gestureTarget(node: GraphNode, row: number | null): { label: string; range: Range } {
  const weight = row !== null ? node.rows?.[row] : undefined;
  if (weight !== undefined) {
    return { label: `weight ${weight.value}`, range: weight.range };
  }
  return { label: node.kind === "op" ? `${node.op} ${node.label}` : `${node.kind} ${node.label}`, range: node.range };
}

/** The menu item a key moves to from `index` among `count`; undefined for any other key. */
export function moveIndex(index: number, key: string, count: number): number | undefined {
  if (count === 0) {
    return undefined;
  }
  switch (key) {
    case "ArrowDown":
      return (index + 1) % count;
    case "ArrowUp":
      return (index - 1 + count) % count;
    case "Home":
    case "PageUp":
      return 0;
    case "End":
    case "PageDown":
      return count - 1;
    default:
      return undefined;
  }
}

/** Where a menu of `size` goes, asked at `at` in a window of `room`: there if it fits, else moved
 * left or up to fit, never past the top-left corner. */
export function menuPlace(at: { x: number; y: number }, size: { width: number; height: number }, room: { width: number; height: number }): { x: number; y: number } {
  const x = at.x + size.width > room.width ? room.width - size.width : at.x;
  const y = at.y + size.height > room.height ? room.height - size.height : at.y;
  return { x: Math.max(0, x), y: Math.max(0, y) };
}

/** What the menu says when the server offers nothing (a node of a function body or subgraph, or
 * the text changed and is being analysed again). */
export const NOTHING = "No gestures here";

/** The menu itself: a `role="menu"` list of buttons, keyboard navigable (arrows, Home, End, Enter,
 * Escape or Tab closes), closed by a click elsewhere; the keyboard goes back where it was. */
export class GestureMenu {
  private element: HTMLElement | undefined;
  private back: HTMLElement | SVGElement | undefined;
  private readonly outside = (event: Event): void => {
    if (this.element !== undefined && !this.element.contains(event.target as Node)) {
      this.close(false);
    }
  };

  get isOpen(): boolean {
    return this.element !== undefined;
  }

  /** Opens at `at` (window coordinates) listing `titles` for `label`; `choose` gets the index picked. */
  open(at: { x: number; y: number }, label: string, titles: readonly string[], choose: (index: number) => void, back: HTMLElement | SVGElement): void {
    this.close(false);
    const menu = document.createElement("div");
    menu.className = "gesture-menu";
    menu.setAttribute("role", "menu");
    menu.setAttribute("aria-label", `Gestures on ${label}`);
    const items: HTMLButtonElement[] = [];
    if (titles.length === 0) {
      const none = document.createElement("div");
      none.className = "none";
      none.setAttribute("role", "menuitem");
      none.setAttribute("aria-disabled", "true");
      none.tabIndex = -1;
      none.textContent = NOTHING;
      menu.append(none);
    }
    titles.forEach((title, index) => {
      const item = document.createElement("button");
      item.setAttribute("role", "menuitem");
      item.tabIndex = -1;
      item.textContent = title;
      item.dataset.index = String(index);
      item.addEventListener("click", () => {
        this.close(true);
        choose(index);
      });
      items.push(item);
      menu.append(item);
    });
    menu.addEventListener("keydown", (event) => {
      const focusable = items.length > 0 ? items : [...menu.querySelectorAll<HTMLElement>("[role=menuitem]")];
      const index = focusable.findIndex((i) => i === document.activeElement);
      const next = moveIndex(index < 0 ? 0 : index, event.key, focusable.length);
      if (next !== undefined) {
        focusable[next].focus();
      } else if (event.key === "Escape" || event.key === "Tab") {
        this.close(true);
      } else if (event.key !== "Enter" && event.key !== " ") {
        return; // a button's own Enter and Space click it
      }
      if (event.key !== "Enter" && event.key !== " ") {
        event.preventDefault();
      }
      event.stopPropagation();
    });
    document.body.append(menu);
    const box = menu.getBoundingClientRect();
    const place = menuPlace(at, { width: box.width, height: box.height }, { width: window.innerWidth, height: window.innerHeight });
    menu.style.left = `${place.x}px`;
    menu.style.top = `${place.y}px`;
    this.element = menu;
    this.back = back;
    document.addEventListener("pointerdown", this.outside, true);
    (items[0] ?? menu.querySelector<HTMLElement>("[role=menuitem]"))?.focus();
  }

  /** Closes the menu; `refocus`: the keyboard goes back where it was before. */
  close(refocus: boolean): void {
    if (this.element === undefined) {
      return;
    }
    document.removeEventListener("pointerdown", this.outside, true);
    this.element.remove();
    this.element = undefined;
    if (refocus) {
      this.back?.focus();
    }
    this.back = undefined;
  }
}

/** The node that makes the first value of an edge's `data-values` (names joined by spaces; a name
 * may hold spaces itself), if it is a node of the graph. */
export function producerOf(data: GraphData, values: string | null): string | undefined {
  if (values === null || values === "") {
    return undefined;
  }
  const padded = ` ${values} `;
  const edge = data.edges.find((e) => padded.startsWith(` ${e.value} `)) ?? data.edges.find((e) => padded.includes(` ${e.value} `));
  return edge !== undefined && data.nodes.some((n) => n.id === edge.source) ? edge.source : undefined;
}
