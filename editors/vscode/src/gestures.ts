// The graph's context menu (#32), the extension's half: the gestures are the server's code actions
// of kind refactor.rewrite on a node's statement (src/onnxtext/ide/gestures.py), asked of VS Code
// like any code action; the one chosen is applied as one workspace edit, so one Undo reverts it.
import type * as vscode from "vscode";

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
