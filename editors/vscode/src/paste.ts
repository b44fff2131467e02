// Paste from another model (#32), the extension's half: "Copy Nodes" copies the selection as any
// copy does and remembers the model it came from (its text then); "Paste Nodes" pastes what was so
// copied with what the nodes need from that model: the server's request onnxtext/pasteNodes
// (src/onnxtext/ide/paste.py) gives the edits (the statements, their initializers, local functions
// and opset imports, clashes renamed), applied as one workspace edit, so one Undo reverts it. What
// the clipboard holds otherwise (another copy since, a copy of no node) is pasted as it is.
import type * as vscode from "vscode";

/** The server's request. */
export const PASTE_REQUEST = "onnxtext/pasteNodes";

/** A position or range as the protocol writes it. */
export interface WirePosition {
  line: number;
  character: number;
}
export interface WireRange {
  start: WirePosition;
  end: WirePosition;
}

/** What a Copy Nodes remembers: the source model's text when copied, the range copied, its text. */
export interface Copied {
  uri: string;
  text: string;
  range: WireRange;
  copied: string;
}

export type Answer = { title: string; version: number; edits: { range: WireRange; newText: string }[] } | { refused: string };

/** The request's parameters when the clipboard still holds what was copied by Copy Nodes (or reads
 * empty); else undefined (the clipboard is pasted as it is). */
export function pasteParams(copied: Copied | undefined, clipboard: string, target: string, position: WirePosition): object | undefined {
  // (an empty clipboard is one the page may not read: a browser's code-server asks for permission)
  if (copied === undefined || (clipboard !== copied.copied && clipboard !== "") || copied.copied.trim() === "") {
    return undefined;
  }
  return { textDocument: { uri: target }, position, source: { uri: copied.uri, text: copied.text, range: copied.range } };
}

/** What the commands need of VS Code and of the server. */
export interface PasteApi {
  request<R>(method: string, params: object): Promise<R>;
  readClipboard(): Thenable<string>;
  writeClipboard(text: string): Thenable<void>;
  /** The plain paste (the editor's own). */
  plainPaste(): Thenable<unknown>;
  /** The target's current version. */
  version(uri: string): number | undefined;
  apply(uri: string, edits: { range: WireRange; newText: string }[]): Thenable<boolean>;
  info(message: string): void;
  error(message: string): void;
}

/** The editor the commands act on, as much of it as they read. */
export interface EditorLike {
  uri: string;
  text: string;
  version: number;
  selection: WireRange;
  selected: string;
}

/** Copy Nodes and Paste Nodes. */
export class NodeClipboard {
  private copied: Copied | undefined;

  constructor(private readonly api: PasteApi) {}

  /** Copies the selection (to the clipboard, as a copy does) and remembers its model. */
  async copy(editor: EditorLike): Promise<void> {
    await this.api.writeClipboard(editor.selected);
    this.copied = { uri: editor.uri, text: editor.text, range: editor.selection, copied: editor.selected };
  }

  /** Pastes at the cursor: the nodes with what they need when the clipboard holds what Copy Nodes
   * copied and the server can paste it; else the clipboard as it is. Resolves to whether the
   * nodes were pasted with their context. */
  async paste(editor: EditorLike): Promise<boolean> {
    const clipboard = await this.api.readClipboard();
    const params = pasteParams(this.copied, clipboard, editor.uri, editor.selection.start);
    if (params === undefined) {
      await this.api.plainPaste();
      return false;
    }
    let answer: Answer;
    try {
      answer = await this.api.request<Answer>(PASTE_REQUEST, params);
    } catch (error) {
      this.api.error(`onnxtext: the nodes were not pasted: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
    if ("refused" in answer) {
      await this.api.plainPaste();
      return false;
    }
    if (answer.version !== editor.version || this.api.version(editor.uri) !== editor.version) {
      this.api.error("onnxtext: the nodes were not pasted: the text changed since.");
      return false;
    }
    if (!(await this.api.apply(editor.uri, answer.edits))) {
      this.api.error(`onnxtext: "${answer.title}" could not be applied.`);
      return false;
    }
    this.api.info(`onnxtext: ${answer.title}`);
    return true;
  }
}

/** The editor's state for the commands; an empty selection is its line (as a copy takes it). */
export function editorLike(editor: vscode.TextEditor): EditorLike {
  const s = editor.selection.isEmpty ? editor.document.lineAt(editor.selection.active.line).rangeIncludingLineBreak : editor.selection;
  return {
    uri: editor.document.uri.toString(),
    text: editor.document.getText(),
    version: editor.document.version,
    selection: { start: { line: s.start.line, character: s.start.character }, end: { line: s.end.line, character: s.end.character } },
    selected: editor.document.getText(s),
  };
}

/** The VS Code half of {@link PasteApi}. */
export function vscodePasteApi(code: typeof vscode, request: <R>(method: string, params: object) => Promise<R>): PasteApi {
  return {
    request,
    readClipboard: () => code.env.clipboard.readText(),
    writeClipboard: (text) => code.env.clipboard.writeText(text),
    plainPaste: () => code.commands.executeCommand("editor.action.clipboardPasteAction"),
    version: (uri) => code.workspace.textDocuments.find((d) => d.uri.toString() === uri)?.version,
    apply: (uri, edits) => {
      const edit = new code.WorkspaceEdit();
      const range = (r: WireRange) => new code.Range(r.start.line, r.start.character, r.end.line, r.end.character);
      edit.set(
        code.Uri.parse(uri),
        edits.map((e) => new code.TextEdit(range(e.range), e.newText)),
      );
      return code.workspace.applyEdit(edit);
    },
    info: (message) => void code.window.setStatusBarMessage(message, 8000),
    error: (message) => void code.window.showErrorMessage(message),
  };
}
