// Positions and ranges as the protocol writes them (the server's requests and code-action commands
// of #32: Rename value…, Insert a node…, Copy/Paste Nodes), and VS Code's range of one.
import type * as vscode from "vscode";

/** A position as the protocol writes it. */
export interface WirePosition {
  line: number;
  character: number;
}

/** A range as the protocol writes it. */
export interface WireRange {
  start: WirePosition;
  end: WirePosition;
}

/** VS Code's range of a protocol range (`code`: the vscode module, or what of it has `Range`). */
export function toRange(code: { Range: typeof vscode.Range }, r: WireRange): vscode.Range {
  return new code.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}
