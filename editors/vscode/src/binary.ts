// `.onnx` files as text. A file-system provider serves `onnx-model:/path/m.onnx` as the model's
// text (the server prints it) and writes the text back as the binary model (the server parses
// it and replaces the file atomically; a text nobody changed leaves the bytes untouched). A
// model whose whole text would be too large to colour and fold comes with its large tensors
// by reference (digests): still editable, the server copies their bytes back on save. The
// custom editor for `*.onnx` only redirects to that text document, as vscode-mlir does for
// MLIR bytecode, so every language feature works on it.
import * as fs from "fs";
import * as vscode from "vscode";

export const SCHEME = "onnx-model";
export const VIEW_TYPE = "onnxtext.binaryModel";
export const OPEN_BINARY = "onnxtext/openBinary";
export const SAVE_BINARY = "onnxtext/saveBinary";

interface OpenResult {
  text: string;
  editable: boolean;
  note: string | null;
}

interface SaveResult {
  written: boolean;
  unchanged: boolean;
  /** Why the text was not saved, once: `not saved: line N: …` (null when saved). */
  refused?: string | null;
  diagnostics: { message: string; severity?: number; range: { start: { line: number; character: number } } }[];
}

/** What the provider needs of the language client: one request at a time, once it runs. */
export interface Requests {
  request<R>(method: string, params: object): Promise<R>;
}

export function textUri(file: vscode.Uri): vscode.Uri {
  return file.with({ scheme: SCHEME });
}

export function fileUri(text: vscode.Uri): vscode.Uri {
  return text.with({ scheme: "file" });
}

export class ModelFileSystem implements vscode.FileSystemProvider {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  /** The last view of each model: its size as text and whether it may be saved. */
  private readonly views = new Map<string, { size: number; editable: boolean; note: string | null }>();

  constructor(
    private readonly requests: Requests,
    private readonly log: (line: string) => void,
  ) {}

  watch(uri: vscode.Uri): vscode.Disposable {
    const file = fileUri(uri).fsPath;
    let watcher: fs.FSWatcher | undefined;
    try {
      watcher = fs.watch(file, () => this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]));
    } catch {
      watcher = undefined;
    }
    return new vscode.Disposable(() => watcher?.close());
  }

  /** A text fetched by `stat` (to learn whether the view is editable) and not yet read. */
  private readonly fetched = new Map<string, Uint8Array>();

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const file = fileUri(uri).fsPath;
    let info: fs.Stats;
    try {
      info = fs.statSync(file);
    } catch {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    if (info.isDirectory()) {
      return { type: vscode.FileType.Directory, ctime: info.ctimeMs, mtime: info.mtimeMs, size: 0 };
    }
    if (!this.views.has(uri.toString())) {
      // the editor decides at open whether a document is read-only: the server must say first
      this.fetched.set(uri.toString(), await this.fetch(uri));
    }
    const view = this.views.get(uri.toString());
    return {
      type: vscode.FileType.File,
      ctime: info.ctimeMs,
      mtime: info.mtimeMs,
      size: view?.size ?? info.size,
      permissions: view !== undefined && !view.editable ? vscode.FilePermission.Readonly : undefined,
    };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const ready = this.fetched.get(uri.toString());
    this.fetched.delete(uri.toString());
    return ready ?? this.fetch(uri);
  }

  private async fetch(uri: vscode.Uri): Promise<Uint8Array> {
    const file = fileUri(uri);
    let result: OpenResult;
    try {
      result = await this.requests.request<OpenResult>(OPEN_BINARY, { uri: file.toString() });
    } catch (error) {
      // the reason alone: the editor names the file beside it (a FileSystemError would add its code)
      throw new Error(message(error));
    }
    const bytes = new TextEncoder().encode(result.text);
    this.views.set(uri.toString(), { size: bytes.length, editable: result.editable, note: result.note });
    if (result.note) {
      this.log(`${file.fsPath}: ${result.note}`);
      // a view by reference is editable: a note, not a warning; a read-only view is a warning
      const show = result.editable ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
      void show(`${vscode.workspace.asRelativePath(file)}: ${result.note}`);
    }
    return bytes;
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const file = fileUri(uri);
    const text = new TextDecoder().decode(content);
    let result: SaveResult;
    try {
      result = await this.requests.request<SaveResult>(SAVE_BINARY, { uri: file.toString(), text });
    } catch (error) {
      throw new Error(message(error));
    }
    if (!result.written && !result.unchanged) {
      // not a permissions problem: the text is no model (VS Code shows "Failed to save 'm.onnx': <this>")
      throw new Error(result.refused ?? refusal(result));
    }
    this.views.set(uri.toString(), { size: content.length, editable: true, note: null });
    this.log(`${file.fsPath}: ${result.unchanged ? "unchanged, bytes left as they were" : "written"}`);
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
}

/** The editor VS Code picks for `*.onnx`: it opens the model's text and closes itself. */
export class ModelEditorRedirect implements vscode.CustomReadonlyEditorProvider {
  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    panel.webview.html = page(`Opening ${escapeHtml(document.uri.fsPath)} as text…`);
    try {
      await openAsText(document.uri, panel.viewColumn);
      panel.dispose();
    } catch (error) {
      panel.webview.html = page(`${escapeHtml(document.uri.fsPath)} cannot be shown as text: ${escapeHtml(message(error))}`);
    }
  }
}

export async function openAsText(file: vscode.Uri, column?: vscode.ViewColumn): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(textUri(file));
  const typed = document.languageId === "onnxtext" ? document : await vscode.languages.setTextDocumentLanguage(document, "onnxtext");
  return vscode.window.showTextDocument(typed, { viewColumn: column, preview: false });
}

/** `not saved: line N: …` from the diagnostics, for a server that does not say it. */
function refusal(result: SaveResult): string {
  const errors = result.diagnostics.filter((d) => d.severity === undefined || d.severity === 1);
  const first = errors[0] ?? result.diagnostics[0];
  return first ? `not saved: line ${first.range.start.line + 1}: ${first.message.split("\n")[0]}` : "not saved: the text is not a valid model";
}

function page(body: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none';"></head><body><p>${body}</p></body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c);
}

export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
