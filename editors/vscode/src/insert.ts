// Insert a node on an edge (#32), the extension's half: the server's code action "Insert a node on
// 'x'…" (src/onnxtext/ide/insert.py) runs the command `onnxtext.insertNode`, which asks the server
// for the palette (the operators of the model's opsets), shows it as a QuickPick, asks for the edit
// of the operator chosen and applies it as one workspace edit: the new statement a snippet (its
// required attributes and inputs placeholders to tab through), the readers rewired; one Undo reverts it.
import type * as vscode from "vscode";
import { type WireRange, toRange } from "./wire";

/** The command the code action runs: `(uri, version, value)`. */
export const INSERT_COMMAND = "onnxtext.insertNode";
/** The server's request: the palette (no `op`), or the edit inserting `op`. */
export const INSERT_REQUEST = "onnxtext/insertNode";

/** An operator of the palette, as the server lists it. */
export interface Operator {
  domain: string;
  name: string;
  since: number;
  required: string[];
}

/** The server's edit: the statement to insert as a snippet, and the readers rewired. */
export interface Insertion {
  title: string;
  version: number;
  name: string;
  snippet: { range: WireRange; text: string };
  edits: { range: WireRange; newText: string }[];
}

export type Listed = { value: string; version: number; operators: Operator[] } | { refused: string };
export type Made = Insertion | { refused: string };

/** One entry of the QuickPick. */
export interface PaletteItem {
  label: string;
  description: string;
  detail?: string;
  op: { domain: string; name: string };
}

/** Operators first used in the QuickPick, in this order, before the rest (by name). */
export const COMMON = ["Relu", "Identity", "Cast", "Sigmoid", "Transpose", "Reshape", "Softmax", "Add", "Mul"];

/** The palette's entries: the default domain's operators (the common ones first, then by name),
 * then the other domains' (qualified, by domain and name); each says its opset and what it needs. */
export function paletteItems(operators: readonly Operator[]): PaletteItem[] {
  const rank = (o: Operator): number => {
    const k = o.domain === "" ? COMMON.indexOf(o.name) : -1;
    return k >= 0 ? k : COMMON.length;
  };
  const sorted = [...operators].sort((a, b) => {
    if ((a.domain === "") !== (b.domain === "")) {
      return a.domain === "" ? -1 : 1;
    }
    return rank(a) - rank(b) || a.domain.localeCompare(b.domain) || a.name.localeCompare(b.name);
  });
  return sorted.map((o) => {
    const item: PaletteItem = {
      label: o.domain === "" ? o.name : `${o.domain}.${o.name}`,
      description: `${o.domain || "ai.onnx"} ${o.since}`,
      op: { domain: o.domain, name: o.name },
    };
    if (o.required.length > 0) {
      item.detail = `required: ${o.required.join(", ")}`;
    }
    return item;
  });
}

/** Whether a snippet has placeholders to tab through. */
export function hasPlaceholders(snippet: string): boolean {
  return /(^|[^\\])\$(\d|\{\d)/.test(snippet);
}

/** What the command needs of VS Code (and of the server), so that it can be tested without them. */
export interface InsertApi {
  request<R>(method: string, params: object): Promise<R>;
  /** The open document's current version, or undefined when it is not open. */
  version(uri: string): number | undefined;
  pick(items: PaletteItem[], title: string): Thenable<PaletteItem | undefined>;
  /** Shows the text (its own editor made active, so that the snippet's placeholders can be tabbed). */
  show(uri: string): Thenable<unknown>;
  /** Applies the insertion as one workspace edit (the statement a snippet edit). */
  apply(uri: string, made: Insertion): Thenable<boolean>;
  error(message: string): void;
}

/** The command: palette, choice, edit. Resolves to whether an edit was applied (a failure said). */
export async function insertNode(api: InsertApi, uri: string, version: number, value: string): Promise<boolean> {
  try {
    return await inserting(api, uri, version, value);
  } catch (error) {
    api.error(`onnxtext: no node was inserted on '${value}': ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

async function inserting(api: InsertApi, uri: string, version: number, value: string): Promise<boolean> {
  const stale = (): boolean => {
    if (api.version(uri) === version) {
      return false;
    }
    api.error(`onnxtext: no node was inserted on '${value}': the text changed since.`);
    return true;
  };
  if (stale()) {
    return false;
  }
  const textDocument = { uri };
  const listed = await api.request<Listed>(INSERT_REQUEST, { textDocument, value });
  if ("refused" in listed) {
    api.error(`onnxtext: ${listed.refused}`);
    return false;
  }
  const picked = await api.pick(paletteItems(listed.operators), `Insert a node on '${value}'`);
  if (picked === undefined || stale()) {
    return false;
  }
  const made = await api.request<Made>(INSERT_REQUEST, { textDocument, value, op: picked.op });
  if ("refused" in made) {
    api.error(`onnxtext: ${made.refused}`);
    return false;
  }
  if (made.version !== version || stale()) {
    api.error(`onnxtext: no node was inserted on '${value}': the text changed since.`);
    return false;
  }
  if (hasPlaceholders(made.snippet.text)) {
    await api.show(uri);
  }
  if (!(await api.apply(uri, made))) {
    api.error(`onnxtext: "${made.title}" could not be applied.`);
    return false;
  }
  return true;
}

/** The VS Code half of {@link InsertApi}: QuickPick, editors, the workspace edit. */
export function vscodeInsertApi(code: typeof vscode, request: <R>(method: string, params: object) => Promise<R>): InsertApi {
  const open = (uri: string): vscode.TextDocument | undefined => code.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  return {
    request,
    version: (uri) => open(uri)?.version,
    pick: (items, title) => code.window.showQuickPick(items, { title, placeHolder: "an operator of the model's opsets", matchOnDescription: true, ignoreFocusOut: true }),
    show: (uri) => {
      const document = open(uri);
      if (document === undefined) {
        return Promise.resolve(undefined);
      }
      const editor = code.window.visibleTextEditors.find((e) => e.document === document);
      return code.window.showTextDocument(document, { viewColumn: editor?.viewColumn, preview: false });
    },
    apply: (uri, made) => {
      const edit = new code.WorkspaceEdit();
      edit.set(code.Uri.parse(uri), [
        new code.SnippetTextEdit(toRange(code, made.snippet.range), new code.SnippetString(made.snippet.text)),
        ...made.edits.map((e) => new code.TextEdit(toRange(code, e.range), e.newText)),
      ]);
      return code.workspace.applyEdit(edit);
    },
    error: (message) => void code.window.showErrorMessage(message),
  };
}
