// `.onnx` files as text. A file-system provider serves `onnx-model:/path/m.onnx` as the model's
// text (the server prints it) and writes the text back as the binary model (the server parses
// it and replaces the file atomically; a text nobody changed leaves the bytes untouched). A
// model whose whole text would be too large to colour and fold comes with its large tensors
// by reference (digests): still editable, the server copies their bytes back on save. The
// custom editor for `*.onnx` only redirects to that text document, as vscode-mlir does for
// MLIR bytecode, so every language feature works on it.
//
// A read always reflects the files as they are now: a text is served again only while the model
// file and its external-data files are as they were when it was read (the server says which
// files and their size, mtime and inode; the provider adds their change time, which a program
// that puts the mtime back cannot put back), and after a save the saved text is what the disk holds.
// `stat` describes that state, so VS Code reloads an unmodified view when the folder watcher
// says a file changed, and a save over a newer file gets its own conflict choice.
import * as fs from "fs";
import * as path from "path";
import * as vscode from "vscode";

export const SCHEME = "onnx-model";
export const VIEW_TYPE = "onnxtext.binaryModel";
export const OPEN_BINARY = "onnxtext/openBinary";
export const SAVE_BINARY = "onnxtext/saveBinary";

/** One file a view was read from, as the server saw it: `[path, size, mtime_ns, ino]`. */
export type FileStamp = [string, number, string, string];

interface OpenResult {
  text: string;
  editable: boolean;
  note: string | null;
  /** The model file first, then every external-data file it names that exists (absolute paths). */
  files?: string[];
  /** The state of each of `files` the text was read from. */
  stamp?: FileStamp[];
}

interface SaveResult {
  written: boolean;
  unchanged: boolean;
  /** Why the text was not saved, once: `not saved: line N: …` (null when saved). */
  refused?: string | null;
  diagnostics: { message: string; severity?: number; range: { start: { line: number; character: number } } }[];
  /** The files and their state after the save (also when unchanged). */
  files?: string[];
  stamp?: FileStamp[];
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

/** A file as the provider knows it: the server's `[path, size, mtime_ns, ino]` and the inode's change
 * time, which a program that puts the mtime back cannot put back ("" when not known). */
type FileState = [string, number, string, string, string];

/** A model's text as the files were when it was read (`stamp`), and what `stat` says of that state. */
interface View {
  bytes: Uint8Array;
  editable: boolean;
  note: string | null;
  stamp: FileState[];
  /** The files' paths and, for a symbolic link, its target's (a save writes the target): what is watched. */
  paths: string[];
  /** `stat`'s mtime and size for this state of the files (see `Ledger`). */
  mtime: number;
  size: number;
}

/** The states of a model's files met so far, each with the mtime and size `stat` reports for it.
 *
 * VS Code's save sees a file changed on disk only when `stat` says a later mtime *and* another
 * size than at the read (FileService: `etag(mtime_at_read, size_now) !== etag_at_read`), so a
 * change that prints to a text of the same length, or puts the mtime back, would be overwritten.
 * Each new state of the files gets an mtime after every earlier one's and a size no earlier
 * state had: the text's byte length, a few bytes more when that length was taken. A new state
 * whose text is the one before's (a file touched, rewritten the same) keeps the one before's. */
class Ledger {
  private readonly states = new Map<string, { mtime: number; size: number }>();
  private readonly sizes = new Set<number>();
  private latest = 0;

  report(stamp: FileState[], bytes: Uint8Array, before: View | undefined): { mtime: number; size: number } {
    const key = JSON.stringify(stamp);
    let found = this.states.get(key);
    if (found === undefined && before !== undefined && Buffer.from(before.bytes.buffer, before.bytes.byteOffset, before.bytes.byteLength).equals(bytes)) {
      found = { mtime: before.mtime, size: before.size };
      this.states.set(key, found);
    }
    if (found === undefined) {
      let size = bytes.length;
      while (this.sizes.has(size)) {
        size++;
      }
      const newest = Math.max(...stamp.map(([, , mtimeNs]) => Number(BigInt(mtimeNs) / 1_000_000n)));
      found = { mtime: Math.max(newest, this.latest + 1), size };
      this.latest = found.mtime;
      this.sizes.add(size);
      this.states.set(key, found);
    }
    return found;
  }
}

/** A file as it is now (undefined: it does not exist). */
function stateOf(file: string): FileState | undefined {
  const st = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  return st === undefined ? undefined : [file, Number(st.size), String(st.mtimeNs), String(st.ino), String(st.ctimeNs)];
}

function same(now: FileState | undefined, was: FileState): boolean {
  return now !== undefined && now[1] === was[1] && now[2] === was[2] && now[3] === was[3] && (was[4] === "" || now[4] === was[4]);
}

/** The server's stamp with each file's change time, when the file is still what the server read. */
function confirmed(stamp: FileStamp[]): FileState[] {
  return stamp.map(([file, size, mtimeNs, ino]) => {
    const was: FileState = [file, size, mtimeNs, ino, ""];
    const now = stateOf(file);
    return same(now, was) ? now! : was;
  });
}

/** `files` and the targets of those that are symbolic links. */
function withTargets(files: string[]): string[] {
  const out = new Set(files);
  for (const file of files) {
    try {
      out.add(fs.realpathSync(file));
    } catch {
      // gone: its folder is watched for its return
    }
  }
  return [...out];
}

/** Whether every file of `stamp` is still as it was. */
function onDisk(stamp: FileState[]): boolean {
  return stamp.every((was) => same(stateOf(was[0]), was));
}

/** How long the watcher waits for a burst of writes to end before it says a model changed (ms). */
const SETTLE_MS = 50;

export class ModelFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  /** The last text of each model, served only while its files stay as they were when it was read. */
  private readonly views = new Map<string, View>();
  /** The fetch under way for a model: every stat and read meanwhile waits for this one. */
  private readonly pending = new Map<string, Promise<View>>();
  private readonly ledgers = new Map<string, Ledger>();
  /** The note last shown for a model (shown again only when it says something else). */
  private readonly notes = new Map<string, string>();
  /** The models VS Code watches (how many times each), and the folders watched for them. */
  private readonly watched = new Map<string, { uri: vscode.Uri; count: number }>();
  private readonly folders = new Map<string, fs.FSWatcher>();
  private readonly settling = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly requests: Requests,
    private readonly log: (line: string) => void,
  ) {}

  // ------------------------------------------------------------ reading
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
    // the editor decides at open whether a document is read-only, and at save whether the file
    // changed since it was read: both are about the text of the files as they are now
    const view = await this.current(uri);
    return {
      type: vscode.FileType.File,
      ctime: info.ctimeMs,
      mtime: view.mtime,
      size: view.size,
      permissions: view.editable ? undefined : vscode.FilePermission.Readonly,
    };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return (await this.current(uri)).bytes;
  }

  /** The view of the files as they are now: the last one while they have not changed, else a new one. */
  private async current(uri: vscode.Uri): Promise<View> {
    const key = uri.toString();
    for (let attempt = 0; ; attempt++) {
      const known = this.views.get(key);
      if (known !== undefined && onDisk(known.stamp)) {
        return known;
      }
      // (a view no longer on disk is never served: it stays only to be compared with the next)
      const view = await this.fetchOnce(uri);
      // a fetch that was under way when the files changed again is not the state now: once more
      if (onDisk(view.stamp) || attempt >= 2) {
        return view;
      }
    }
  }

  private fetchOnce(uri: vscode.Uri): Promise<View> {
    const key = uri.toString();
    let pending = this.pending.get(key);
    if (pending === undefined) {
      pending = this.fetch(uri).finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    return pending;
  }

  private async fetch(uri: vscode.Uri): Promise<View> {
    const file = fileUri(uri);
    // a server that does not say what it read: the model file as it was before the request
    const before = stateOf(file.fsPath);
    let result: OpenResult;
    try {
      result = await this.requests.request<OpenResult>(OPEN_BINARY, { uri: file.toString() });
    } catch (error) {
      // the reason alone: the editor names the file beside it (a FileSystemError would add its code)
      throw new Error(message(error));
    }
    const stamp = result.stamp ? confirmed(result.stamp) : before !== undefined ? [before] : [];
    const known = this.views.get(uri.toString());
    if (known !== undefined && onDisk(known.stamp) && !onDisk(stamp)) {
      return known; // a save answered while this read was under way: its text is the files' now
    }
    const view = this.remember(uri, new TextEncoder().encode(result.text), result.editable, result.note, stamp);
    if (result.note) {
      this.log(`${file.fsPath}: ${result.note}`);
      if (this.notes.get(uri.toString()) !== result.note) {
        this.notes.set(uri.toString(), result.note);
        // a view by reference is editable: a note, not a warning; a read-only view is a warning
        const show = result.editable ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
        void show(`${vscode.workspace.asRelativePath(file)}: ${result.note}`);
      }
    }
    return view;
  }

  private remember(uri: vscode.Uri, bytes: Uint8Array, editable: boolean, note: string | null, stamp: FileState[]): View {
    const key = uri.toString();
    let ledger = this.ledgers.get(key);
    if (ledger === undefined) {
      ledger = new Ledger();
      this.ledgers.set(key, ledger);
    }
    const paths = withTargets(stamp.map(([file]) => file));
    const view = { bytes, editable, note, stamp, paths, ...ledger.report(stamp, bytes, this.views.get(key)) };
    this.views.set(key, view);
    this.rewatch();
    return view;
  }

  // ------------------------------------------------------------ writing
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
    // what the disk holds now is this text: a read (Revert, a reopened tab) serves it while the files stay so
    const after = stateOf(file.fsPath);
    const stamp = result.stamp ? confirmed(result.stamp) : after !== undefined ? [after] : [];
    this.remember(uri, content, true, this.views.get(uri.toString())?.note ?? null, stamp);
    this.log(`${file.fsPath}: ${result.unchanged ? "unchanged, bytes left as they were" : "written"}`);
  }

  // ------------------------------------------------------------ watching
  /** Watches the folders of the model's files (a watch on a file ends when a save replaces it by a
   * rename): a change to one of them says the model changed, and VS Code reloads an unmodified view. */
  watch(uri: vscode.Uri): vscode.Disposable {
    const key = uri.toString();
    const entry = this.watched.get(key) ?? { uri, count: 0 };
    entry.count++;
    this.watched.set(key, entry);
    this.rewatch();
    return new vscode.Disposable(() => {
      if (--entry.count === 0) {
        this.watched.delete(key);
        clearTimeout(this.settling.get(key));
        this.settling.delete(key);
      }
      this.rewatch();
    });
  }

  /** The files a watched model was read from (its file alone before the first read). */
  private filesOf(key: string, uri: vscode.Uri): string[] {
    return this.views.get(key)?.paths ?? withTargets([fileUri(uri).fsPath]);
  }

  private rewatch(): void {
    const wanted = new Set<string>();
    for (const [key, { uri }] of this.watched) {
      this.filesOf(key, uri).forEach((file) => wanted.add(path.dirname(file)));
    }
    for (const [folder, watcher] of this.folders) {
      if (!wanted.has(folder)) {
        watcher.close();
        this.folders.delete(folder);
      }
    }
    for (const folder of wanted) {
      if (!this.folders.has(folder)) {
        try {
          const watcher = fs.watch(folder, (_event, name) => this.touched(folder, name === null ? null : String(name)));
          watcher.on("error", () => {
            watcher.close();
            this.folders.delete(folder);
          });
          this.folders.set(folder, watcher);
        } catch {
          // a folder that cannot be watched: the model is still read fresh at every stat and read
        }
      }
    }
  }

  private touched(folder: string, name: string | null): void {
    const file = name === null ? null : path.join(folder, name);
    for (const [key, { uri }] of this.watched) {
      const files = this.filesOf(key, uri);
      if (file === null ? files.some((f) => path.dirname(f) === folder) : files.includes(file)) {
        clearTimeout(this.settling.get(key));
        this.settling.set(key, setTimeout(() => this.settled(key, uri), SETTLE_MS));
      }
    }
  }

  /** The writes to a model's files are over: a change when they are not what its last text was read from. */
  private settled(key: string, uri: vscode.Uri): void {
    this.settling.delete(key);
    const known = this.views.get(key);
    if (known === undefined || !onDisk(known.stamp)) {
      const gone = !fs.existsSync(fileUri(uri).fsPath);
      this.changed.fire([{ type: gone ? vscode.FileChangeType.Deleted : vscode.FileChangeType.Changed, uri }]);
    }
  }

  dispose(): void {
    this.folders.forEach((w) => w.close());
    this.folders.clear();
    this.settling.forEach((t) => clearTimeout(t));
    this.settling.clear();
    this.changed.dispose();
  }

  // ------------------------------------------------------------ the rest: a model is one file
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

/** The editor VS Code picks for `*.onnx`: it opens the model's text and closes itself. When the
 * text cannot be shown (no server yet, in a folder not trusted) it says why and stays, until
 * `retry` (trust granted, the server started) opens the text after all. */
export class ModelEditorRedirect implements vscode.CustomReadonlyEditorProvider {
  private readonly waiting = new Set<{ uri: vscode.Uri; panel: vscode.WebviewPanel }>();

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    panel.webview.html = page(`Opening ${escapeHtml(document.uri.fsPath)} as text…`);
    const entry = { uri: document.uri, panel };
    panel.onDidDispose(() => this.waiting.delete(entry));
    await this.open(entry);
  }

  /** Opens the text of every model whose page says it could not. */
  async retry(): Promise<void> {
    await Promise.all([...this.waiting].map((entry) => this.open(entry)));
  }

  private async open(entry: { uri: vscode.Uri; panel: vscode.WebviewPanel }): Promise<void> {
    try {
      await openAsText(entry.uri, entry.panel.viewColumn);
      this.waiting.delete(entry);
      entry.panel.dispose();
    } catch (error) {
      this.waiting.add(entry);
      entry.panel.webview.html = page(`${escapeHtml(entry.uri.fsPath)} cannot be shown as text: ${escapeHtml(message(error))}`);
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
