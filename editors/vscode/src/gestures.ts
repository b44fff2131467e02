// The graph's context menu (#32), the extension's half: the gestures are the server's code actions
// of kind refactor.rewrite on a node's statement (src/onnxtext/ide/gestures.py), asked of VS Code
// like any code action; the one chosen is applied as one workspace edit, so one Undo reverts it.
import type * as vscode from "vscode";
import type { WirePosition } from "./wire";

/** The kind of every gesture (LSP's `CodeActionKind.RefactorRewrite`). */
export const REWRITE = "refactor.rewrite";

/** What `vscode.executeCodeActionProvider` answers: code actions, and bare commands. */
export type Offered = { title: string; kind?: { value: string }; edit?: unknown; command?: unknown; disabled?: unknown } | { title: string; command: string };

/** The gestures among the code actions offered: of kind refactor.rewrite (or under it), not
 * disabled, doing something (an edit or a command); in the order offered. */
export function rewrites<T extends Offered>(offered: readonly T[] | undefined): Exclude<T, { command: string }>[] {
  const found: Exclude<T, { command: string }>[] = [];
  for (const action of offered ?? []) {
    if (typeof action.command === "string" || !("kind" in action) || action.kind === undefined) {
      continue; // a bare command, or an action of no kind
    }
    const kind = action.kind.value;
    if ((kind === REWRITE || kind.startsWith(`${REWRITE}.`)) && action.disabled === undefined && (action.edit !== undefined || action.command !== undefined)) {
      found.push(action as Exclude<T, { command: string }>);
    }
  }
  return found;
}

/** The gestures offered in one graph view: asked for a statement's range, applied by index. */
export class Gestures {
  private offered: { asked: number; version: number; actions: vscode.CodeAction[] } | undefined;

  constructor(
    private readonly api: {
      codeActions(uri: vscode.Uri, range: vscode.Range): Thenable<(vscode.CodeAction | vscode.Command)[] | undefined>;
      applyEdit(edit: vscode.WorkspaceEdit): Thenable<boolean>;
      execute(command: vscode.Command): Thenable<unknown>;
      /** Shows a file the gesture made or changed besides the text (`Extract to a new model`). */
      show(uri: vscode.Uri): Thenable<unknown>;
      error(message: string): void;
    },
  ) {}

  /** The titles of the gestures on `range` of `document`, remembered under `asked`. */
  async ask(document: vscode.TextDocument, range: vscode.Range, asked: number): Promise<string[]> {
    const actions = rewrites<vscode.CodeAction | vscode.Command>(await this.api.codeActions(document.uri, range)) as vscode.CodeAction[];
    this.offered = { asked, version: document.version, actions };
    return actions.map((a) => a.title);
  }

  /** Applies gesture `index` of the answer `asked`: its edit (one step of Undo), then its command;
   * another file it writes (a new model) is shown.
   * Refused (and said) if the text changed since: the edit was made for the text as it was. */
  async apply(document: vscode.TextDocument, asked: number, index: number): Promise<boolean> {
    const offered = this.offered;
    const action = offered?.asked === asked ? offered.actions[index] : undefined;
    if (offered === undefined || action === undefined) {
      return false;
    }
    this.offered = undefined;
    if (document.version !== offered.version) {
      this.api.error(`onnxtext: "${action.title}" was not applied: the text changed since the menu opened.`);
      return false;
    }
    if (action.edit !== undefined && !(await this.api.applyEdit(action.edit))) {
      this.api.error(`onnxtext: "${action.title}" could not be applied.`);
      return false;
    }
    if (action.command !== undefined) {
      await this.api.execute(action.command);
    }
    const others = new Map<string, vscode.Uri>();
    for (const [uri] of action.edit?.entries() ?? []) {
      if (uri.toString() !== document.uri.toString()) {
        others.set(uri.toString(), uri);
      }
    }
    for (const uri of others.values()) {
      await this.api.show(uri);
    }
    return true;
  }
}

// ------------------------------------------------------------ Rename value… (#32)
/** The command the server's *Rename value 'x'…* code actions run (the graph's menu on a node, a graph
 * input or output): `(uri, version, value, position)`, the position a name of the value. */
export const RENAME_COMMAND = "onnxtext.renameValue";

/** What {@link renameValue} needs of VS Code and of the server, so that it can be tested without them. */
export interface RenameApi {
  /** The open document's current version, or undefined when it is not open. */
  version(uri: string): number | undefined;
  /** Asks the new name (an input box holding `value`); `validate` says what is wrong with one, as typed. */
  ask(value: string, title: string, validate: (name: string) => Promise<string | undefined>): Thenable<string | undefined>;
  /** Why the server refuses renaming to `name` (its textDocument/rename's error), or undefined. */
  problem(uri: string, position: WirePosition, name: string): Promise<string | undefined>;
  /** The rename's workspace edit, as the editor's own rename (F2) makes it. */
  rename(uri: string, position: WirePosition, name: string): Thenable<vscode.WorkspaceEdit | undefined>;
  apply(edit: vscode.WorkspaceEdit): Thenable<boolean>;
  error(message: string): void;
}

/** The command: the new name asked (its problems said as typed), then the same workspace edit as a
 * rename in the text, applied as one (one Undo reverts it). Resolves to whether it was applied. */
export async function renameValue(api: RenameApi, uri: string, version: number, value: string, position: WirePosition): Promise<boolean> {
  const stale = (): boolean => {
    if (api.version(uri) === version) {
      return false;
    }
    api.error(`onnxtext: '${value}' was not renamed: the text changed since.`);
    return true;
  };
  try {
    if (stale()) {
      return false;
    }
    const validate = async (name: string): Promise<string | undefined> => {
      if (name === "") {
        return "a name cannot be empty";
      }
      return name === value || api.version(uri) !== version ? undefined : api.problem(uri, position, name);
    };
    const name = await api.ask(value, `Rename value '${value}'`, validate);
    if (name === undefined || name === value || stale()) {
      return false;
    }
    const edit = await api.rename(uri, position, name);
    if (edit === undefined || edit.size === 0) {
      api.error(`onnxtext: '${value}' cannot be renamed here.`);
      return false;
    }
    if (stale()) {
      return false;
    }
    if (!(await api.apply(edit))) {
      api.error(`onnxtext: renaming '${value}' to '${name}' could not be applied.`);
      return false;
    }
    return true;
  } catch (error) {
    api.error(`onnxtext: '${value}' was not renamed: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

/** The VS Code half of {@link RenameApi}: an input box, the rename provider, the workspace edit. */
export function vscodeRenameApi(code: typeof vscode, request: <R>(method: string, params: object) => Promise<R>): RenameApi {
  const at = (p: WirePosition): vscode.Position => new code.Position(p.line, p.character);
  return {
    version: (uri) => code.workspace.textDocuments.find((d) => d.uri.toString() === uri)?.version,
    ask: (value, title, validate) =>
      code.window.showInputBox({ title, value, prompt: "The value's new name (everywhere it is named)", ignoreFocusOut: true, validateInput: validate }),
    problem: async (uri, position, name) => {
      try {
        await request("textDocument/rename", { textDocument: { uri }, position, newName: name });
        return undefined;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
    rename: (uri, position, name) => code.commands.executeCommand<vscode.WorkspaceEdit | undefined>("vscode.executeDocumentRenameProvider", code.Uri.parse(uri), at(position), name),
    apply: (edit) => code.workspace.applyEdit(edit),
    error: (message) => void code.window.showErrorMessage(message),
  };
}
