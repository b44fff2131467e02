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

/** One matched value of `onnxtext/compareValues` (src/onnxtext/ide/compare.py): its names in B and
 * A, its differences (null: infinite, `note` says why), and where its name ends in B's text. */
export interface ValueDifference {
  a: string;
  b: string;
  op: string;
  max_abs: number | null;
  max_rel: number | null;
  differs: boolean;
  note: string;
  at: { line: number; character: number } | null;
}

/** `onnxtext/compareValues`'s answer: `values` null when the models were not run (`reason` says why). */
export interface ValueComparison {
  values: ValueDifference[] | null;
  reason: string | null;
  first?: string[];
  outputs?: { a: string; b: string; max_abs: number | null; max_rel: number | null; note: string }[];
  compared?: number;
  inputs?: string;
  /** B's graph as `onnxtext/compare` draws it, each edge whose value differs marked `differs`, labelled `Δ 0.146`. */
  graph?: GraphData;
}

/** A number as Python's `format(x, ".3g")` writes it (the server's edge labels): `0.146`, `0.0012`, `1.2e-05`, `3.5e+04`. */
export function shortNumber(x: number): string {
  if (!Number.isFinite(x)) {
    return Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
  }
  if (x === 0) {
    return "0";
  }
  const exponent = Number(x.toExponential(2).split("e")[1]);
  if (exponent < -4 || exponent >= 3) {
    const [mantissa, power] = x.toExponential(2).split("e");
    const trimmed = mantissa.includes(".") ? mantissa.replace(/0+$/, "").replace(/\.$/, "") : mantissa;
    const sign = power.startsWith("-") ? "-" : "+";
    return `${trimmed}e${sign}${power.replace(/^[+-]/, "").padStart(2, "0")}`;
  }
  const fixed = x.toFixed(Math.max(0, 2 - exponent));
  return fixed.includes(".") ? fixed.replace(/0+$/, "").replace(/\.$/, "") : fixed;
}

/** A value's difference in a few characters: `Δ 0.146`, or what is not a number (`Δ shape (2, 3) → (2, 4)`). */
export function deltaLabel(value: ValueDifference): string {
  if (value.max_abs === null || value.note !== "") {
    return `Δ ${value.note || "inf"}`;
  }
  return `Δ ${shortNumber(value.max_abs)}`;
}

/** An inlay hint of B's text: after a value's name, its difference (the first values that differ say so). */
export interface DeltaHint {
  line: number;
  character: number;
  label: string;
  tooltip: string;
  differs: boolean;
}

/** The hints of a value comparison, one per matched value whose place in B's text is known. */
export function deltaHints(result: ValueComparison): DeltaHint[] {
  const first = new Set(result.first ?? []);
  const hints: DeltaHint[] = [];
  for (const value of result.values ?? []) {
    if (value.at === null) {
      continue;
    }
    const label = `${deltaLabel(value)}${first.has(value.b) ? " (first to differ)" : ""}`;
    const names = value.a === value.b ? `'${value.b}'` : `'${value.a}' (A) → '${value.b}' (B)`;
    const numbers = `max abs ${value.max_abs === null ? "inf" : shortNumber(value.max_abs)}, max rel ${value.max_rel === null ? "inf" : shortNumber(value.max_rel)}`;
    const verdict = value.differs ? "differs beyond the tolerance" : "agrees within the tolerance";
    hints.push({
      line: value.at.line,
      character: value.at.character,
      label,
      tooltip: `${names} (${value.op}): ${numbers}${value.note ? ` (${value.note})` : ""}; ${verdict}`,
      differs: value.differs,
    });
  }
  return hints;
}

/** A value comparison in a line: `4 values compared on made-up inputs x (seed 0): 3 differ, first 'h'; outputs differ: 'y'`. */
export function valuesSummary(result: ValueComparison): string {
  if (result.values === null) {
    return `the values were not compared: ${result.reason ?? "no answer"}`;
  }
  const differ = result.values.filter((v) => v.differs).length;
  const first = (result.first ?? []).map((name) => `'${name}'`).join(", ");
  const outputs = result.outputs ?? [];
  const ending = outputs.length > 0 ? `outputs differ: ${outputs.map((o) => `'${o.b || o.a}'`).join(", ")}` : "outputs agree within the tolerance";
  const on = result.inputs ? ` on ${result.inputs}` : "";
  return `${result.compared ?? result.values.length} values compared${on}: ${differ} differ${first ? `, first ${first}` : ""}; ${ending}`;
}
