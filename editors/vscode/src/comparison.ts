// The pure part of "Compare with…" (src/compare.ts): what the server's `onnxtext/compare` answers,
// which other sides a text can be compared with, what a comparison says in a line, and which
// statements a node of the compared graph is about in both texts.
import type { GraphData, Range } from "./graphview/model";

/** One difference (src/onnxtext/ide/compare.py): `a` and `b` its statement's range in each text. */
export interface Change {
  sign: string;
  what: string;
  text: string;
  mark: string;
  a: Range | null;
  b: Range | null;
}

/** `onnxtext/compare`'s answer: B's graph, its nodes marked (`mark`, `changes`: indices into `changes`). */
export interface Comparison {
  same: boolean;
  graph: GraphData;
  changes: Change[];
  renamed: { a: string; b: string; where: string }[];
}

/** What the text is compared with: another model file, git's HEAD, the file as saved. */
export type Side = "file" | "head" | "disk";

/** The sides offered for a document: git's HEAD for a text file (a binary `.onnx`'s HEAD is bytes),
 * the file on disk when the editor has unsaved changes. */
export function sidesFor(document: { scheme: string; dirty: boolean }): Side[] {
  const sides: Side[] = ["file"];
  if (document.scheme === "file") {
    sides.push("head");
    if (document.dirty) {
      sides.push("disk");
    }
  }
  return sides;
}

/** A comparison in a line: `3 changes: 1 added, 1 removed, 1 changed` (by the nodes they mark;
 * a change of a weight, an input or an output counts as changed). */
export function summary(comparison: Comparison): string {
  if (comparison.same) {
    return "the models are the same";
  }
  const count = (sign: string) => comparison.changes.filter((c) => c.sign === sign).length;
  const n = comparison.changes.length;
  const renamed = comparison.renamed.length > 0 ? `; ${comparison.renamed.length} renamed` : "";
  return `${n} change${n === 1 ? "" : "s"}: ${count("+")} added, ${count("-")} removed, ${count("~")} changed${renamed}`;
}

/** The changes a node of the compared graph is about (none for an unmarked node or an unknown id). */
export function changesOf(comparison: Comparison, id: string): Change[] {
  const node = comparison.graph.nodes.find((n) => n.id === id) as { changes?: number[] } | undefined;
  return (node?.changes ?? []).map((k) => comparison.changes[k]).filter((c): c is Change => c !== undefined);
}

/** The statements to reveal when a node is picked: in A and in B, each the first range the node's
 * changes give there; undefined when the node is not about a change. */
export function statementsOf(comparison: Comparison, id: string): { a: Range | null; b: Range | null } | undefined {
  const changes = changesOf(comparison, id);
  if (changes.length === 0) {
    return undefined;
  }
  return { a: changes.find((c) => c.a !== null)?.a ?? null, b: changes.find((c) => c.b !== null)?.b ?? null };
}

/** Whether a node is drawn from A (removed in B): its range is one of A's text, not B's. */
export function fromA(comparison: Comparison, id: string): boolean {
  return (comparison.graph.nodes.find((n) => n.id === id) as { mark?: string } | undefined)?.mark === "removed";
}

/** The label of the other side in the diff editor's title (`m.onnxtxt (HEAD) ↔ m.onnxtxt`). */
export function diffTitle(side: Side, a: string, b: string): string {
  const left = side === "head" ? `${b} (HEAD)` : side === "disk" ? `${b} (on disk)` : a;
  return `${left} ↔ ${b}`;
}
