// Paste from another model (#32), the extension's half: "Copy Nodes" copies the selection as any
// copy does and remembers the model it came from (its text then); "Paste Nodes" pastes what was so
// copied with what the nodes need from that model: the server's request onnxtext/pasteNodes
// (src/onnxtext/ide/paste.py) gives the edits (the statements, their initializers, local functions
// and opset imports, clashes renamed), applied as one workspace edit, so one Undo reverts it. What
// the clipboard holds otherwise (another copy since, a copy of no node) is pasted as it is.
import type * as vscode from "vscode";
import { type WirePosition, type WireRange, toRange } from "./wire";

/** The server's request. */
export const PASTE_REQUEST = "onnxtext/pasteNodes";


/** What a Copy Nodes remembers: the source model's text when copied, the range copied, its text. */
export interface Copied {
  uri: string;
  text: string;
  range: WireRange;
  copied: string;
}

/** The server's answer; `notes` (what another opset version changes, also in the title) absent from an older server. */
export type Answer = { title: string; version: number; edits: { range: WireRange; newText: string }[]; notes?: string[] } | { refused: string };

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
  /** Said when the paste has notes: the pasted nodes may not check as they did in their model. */
  warn(message: string): void;
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
    let answer: Pasting | undefined;
    try {
      answer = await this.pasting(editor.uri, editor.version, editor.selection.start, clipboard);
    } catch (error) {
      this.api.error(`onnxtext: the nodes were not pasted: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
    if (answer === undefined) {
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
    if ((answer.notes ?? []).length > 0) {
      this.api.warn(`onnxtext: ${answer.title}`);
    } else {
      this.api.info(`onnxtext: ${answer.title}`);
    }
    return true;
  }

  /** The server's edits pasting the copied nodes into `uri` at `position` when `clipboard` holds
   * what Copy Nodes copied (Paste Nodes, and a plain paste: {@link registerNodePaste}); undefined
   * when it holds something else or the server refuses (the clipboard is pasted as it is). Throws
   * when the server fails. */
  async pasting(uri: string, version: number, position: WirePosition, clipboard: string): Promise<Pasting | undefined> {
    const params = pasteParams(this.copied, clipboard, uri, position);
    if (params === undefined) {
      return undefined;
    }
    const answer = await this.api.request<Answer>(PASTE_REQUEST, params);
    return "refused" in answer ? undefined : answer;
  }
}

/** The server's edits for a paste it can make. */
export type Pasting = Exclude<Answer, { refused: string }>;

// ------------------------------------------------------------ a plain paste (Ctrl+V) of copied nodes
/** The kind of the paste edit offered (`DocumentDropOrPasteEditKind`'s value). */
export const PASTE_KIND = "onnxtext.nodes";

/** The paste-edit API of VS Code 1.97 and later, as much of it as {@link registerNodePaste} uses;
 * found at run time (the extension's minimum, 1.91, has no such API: a plain paste is then plain). */
interface PasteEditCode {
  languages: {
    registerDocumentPasteEditProvider?(
      selector: vscode.DocumentSelector,
      provider: {
        provideDocumentPasteEdits(
          document: vscode.TextDocument,
          ranges: readonly vscode.Range[],
          dataTransfer: vscode.DataTransfer,
          context: unknown,
          token: vscode.CancellationToken,
        ): Promise<PasteEdit[] | undefined>;
      },
      metadata: { providedPasteEditKinds: readonly EditKind[]; pasteMimeTypes: readonly string[] },
    ): vscode.Disposable;
  };
  DocumentPasteEdit?: new (insertText: string, title: string, kind: EditKind) => PasteEdit;
  DocumentDropOrPasteEditKind?: { Empty: EditKind };
  WorkspaceEdit: typeof vscode.WorkspaceEdit;
  TextEdit: typeof vscode.TextEdit;
  Range: typeof vscode.Range;
}
interface EditKind {
  readonly value: string;
  append(...parts: string[]): EditKind;
}
interface PasteEdit {
  title: string;
  insertText: string;
  additionalEdit?: vscode.WorkspaceEdit;
}

/** Ctrl+V in an onnxtext text: when the clipboard holds nodes copied by Copy Nodes, the paste edit
 * offered first (the default) is the nodes with what they need, as Paste Nodes pastes them (one
 * edit, one Undo); plain text stays the alternative in the paste widget. Undefined (nothing
 * registered) when VS Code has no paste-edit API. */
export function registerNodePaste(code: typeof vscode, nodes: NodeClipboard, log: (message: string) => void = () => undefined): vscode.Disposable | undefined {
  const api = code as unknown as PasteEditCode;
  const register = api.languages.registerDocumentPasteEditProvider;
  const Edit = api.DocumentPasteEdit;
  if (typeof register !== "function" || Edit === undefined || api.DocumentDropOrPasteEditKind === undefined) {
    return undefined;
  }
  const kind = api.DocumentDropOrPasteEditKind.Empty.append(...PASTE_KIND.split("."));
  const provider = {
    async provideDocumentPasteEdits(document: vscode.TextDocument, ranges: readonly vscode.Range[], dataTransfer: vscode.DataTransfer, _context: unknown, token: vscode.CancellationToken): Promise<PasteEdit[] | undefined> {
      const clipboard = await dataTransfer.get("text/plain")?.asString();
      if (clipboard === undefined || clipboard === "" || ranges.length !== 1) {
        return undefined; // nothing copied by Copy Nodes can be pasted at several cursors
      }
      const version = document.version;
      const start = ranges[0].start;
      let answer: Pasting | undefined;
      try {
        answer = await nodes.pasting(document.uri.toString(), version, { line: start.line, character: start.character }, clipboard);
      } catch (error) {
        log(`the nodes copied were pasted as plain text: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      }
      if (answer === undefined || token.isCancellationRequested || answer.version !== version || document.version !== version) {
        return undefined;
      }
      const additional = new api.WorkspaceEdit();
      additional.set(
        document.uri,
        answer.edits.map((e) => new api.TextEdit(toRange(api, e.range), e.newText)),
      );
      // nothing inserted at the cursor itself: the statements go where the server says (the line's start)
      const edit = new Edit("", answer.title, kind);
      edit.additionalEdit = additional;
      if ((answer.notes ?? []).length > 0) {
        void code.window.showWarningMessage(`onnxtext: ${answer.title}`); // another opset version: said as Paste Nodes says it
      }
      return [edit];
    },
  };
  return register.call(api.languages, { language: "onnxtext" }, provider, { providedPasteEditKinds: [kind], pasteMimeTypes: ["text/plain"] });
}

/** The command the server's *Copy node 'x'…* code actions run (the graph's menu): `(uri, range)`. */
export const COPY_COMMAND = "onnxtext.copyNodesAt";

/** The command {@link COPY_COMMAND}: Copy Nodes of the lines `range` of the open document `uri` (the
 * graph's menu has no editor, no selection). Resolves to whether it copied. */
export function copyNodesAt(code: typeof vscode, nodes: NodeClipboard): (uri: string, range: WireRange) => Promise<boolean> {
  return async (uri, range) => {
    const document = code.workspace.textDocuments.find((d) => d.uri.toString() === uri);
    if (document === undefined) {
      return false;
    }
    await nodes.copy({ uri, text: document.getText(), version: document.version, selection: range, selected: document.getText(toRange(code, range)) });
    return true;
  };
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
      edit.set(
        code.Uri.parse(uri),
        edits.map((e) => new code.TextEdit(toRange(code, e.range), e.newText)),
      );
      return code.workspace.applyEdit(edit);
    },
    info: (message) => void code.window.setStatusBarMessage(message, 8000),
    warn: (message) => void code.window.showWarningMessage(message),
    error: (message) => void code.window.showErrorMessage(message),
  };
}
