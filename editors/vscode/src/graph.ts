// `onnxtext: Show Graph`: a webview beside the text (src/graphview/ draws it), fed by the
// server's `onnxtext/graph` request after every change, synced both ways with the cursor.
import * as path from "path";
import * as vscode from "vscode";
import { Gestures } from "./gestures";

export const GRAPH_REQUEST = "onnxtext/graph";
export const PROPERTIES_REQUEST = "onnxtext/graphProperties";
export const SAVE_TENSOR_REQUEST = "onnxtext/saveTensor";
const VIEW_TYPE = "onnxtext.graph";
/** Quiet time after an edit before the graph is asked for again (ms). */
const REFRESH_MS = 60;

type Request = <R>(method: string, params: object) => Promise<R>;
type Log = { warn(message: string): void };

interface Reveal {
  type: "reveal";
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}
interface ExportSvg {
  type: "exportSvg";
  svg: string;
}
interface AskProperties {
  type: "properties";
  asked: number;
  position: { line: number; character: number };
}
interface AskGestures {
  type: "gestures";
  asked: number;
  range: Reveal["range"];
}
interface ChooseGesture {
  type: "gesture";
  asked: number;
  index: number;
}
interface SaveNpy {
  type: "saveNpy";
  name: string;
  position: { line: number; character: number };
}

/** The file a document's text is of (a `.onnx` shown as text names its model file too), if any. */
export function modelFile(uri: { scheme: string; path: string }): string | undefined {
  return uri.scheme === "file" || uri.scheme === "onnx-model" ? uri.path : undefined;
}

/** Where an export of `document` is proposed: beside its model, named after it (`m.onnx` → `m.svg`);
 * an unsaved text in the first workspace folder, or the home folder. */
export function besideModel(uri: { scheme: string; path: string }, name: string, folders: readonly string[], home: string): string {
  const file = modelFile(uri);
  if (file !== undefined) {
    return path.posix.join(path.posix.dirname(file), name);
  }
  return path.join(folders[0] ?? home, name);
}

/** One graph view per document. */
export class GraphPanels implements vscode.Disposable {
  private readonly panels = new Map<string, GraphPanel>();
  private readonly extent = new Extent();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly request: Request,
    private readonly log: Log,
  ) {
    this.subscriptions = [
      this.extent,
      vscode.workspace.onDidChangeTextDocument((event) => {
        this.panels.get(event.document.uri.toString())?.schedule();
        if (event.contentChanges.length > 0) {
          this.extent.clear(event.document);
        }
      }),
      vscode.languages.onDidChangeDiagnostics((event) => event.uris.forEach((uri) => this.panels.get(uri.toString())?.schedule())),
      vscode.window.onDidChangeTextEditorSelection((event) => {
        this.extent.moved(event.textEditor, event.selections);
        this.panels.get(event.textEditor.document.uri.toString())?.cursor(event.selections[0].active);
      }),
    ];
  }

  async show(editor: vscode.TextEditor | undefined): Promise<void> {
    if (editor === undefined || editor.document.languageId !== "onnxtext") {
      void vscode.window.showInformationMessage("onnxtext: open an onnxtext document first.");
      return;
    }
    const key = editor.document.uri.toString();
    const found = this.panels.get(key);
    if (found !== undefined) {
      found.panel.reveal(vscode.ViewColumn.Beside, true);
      return;
    }
    const panel = new GraphPanel(editor.document, this.extensionUri, this.request, this.log, this.extent);
    this.panels.set(key, panel);
    panel.panel.onDidDispose(() => this.panels.delete(key));
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.panels.forEach((p) => p.panel.dispose());
  }
}

class GraphPanel {
  readonly panel: vscode.WebviewPanel;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private ready = false;
  private disposed = false;
  private asked = 0;
  /** The graph asked for at the view's creation, for its first picture (if the text is unchanged):
   * a big one's folded top level, the whole graph following when the view has painted it. */
  private early: { version: number; data: Promise<object> } | undefined;
  private readonly gestures = new Gestures({
    codeActions: (uri, range) =>
      vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[] | undefined>("vscode.executeCodeActionProvider", uri, range, vscode.CodeActionKind.RefactorRewrite.value),
    applyEdit: (edit) => vscode.workspace.applyEdit(edit),
    execute: (command) => vscode.commands.executeCommand(command.command, ...(command.arguments ?? [])),
    error: (message) => void vscode.window.showErrorMessage(message),
    show: (uri) => vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.One, preview: false }),
  });

  constructor(
    private readonly document: vscode.TextDocument,
    extensionUri: vscode.Uri,
    private readonly request: Request,
    private readonly log: Log,
    private readonly extent: Extent,
  ) {
    // the graph asked for first, while the view's page loads (a big model's takes the server as long)
    this.early = { version: document.version, data: this.ask(true) };
    this.early.data.catch(() => undefined); // its failure is said when it is used
    const dist = vscode.Uri.joinPath(extensionUri, "dist");
    this.panel = vscode.window.createWebviewPanel(
      VIEW_TYPE,
      `Graph: ${path.basename(document.uri.path)}`,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [dist] },
    );
    const script = this.panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, "graphview.js"));
    this.panel.webview.html = page(this.panel.webview.cspSource, script.toString(), nonce());
    this.panel.onDidDispose(() => (this.disposed = true));
    this.panel.webview.onDidReceiveMessage((message: { type?: string }) => {
      if (message.type === "ready") {
        this.ready = true;
        void this.update();
      } else if (message.type === "rest") {
        void this.update(true);
      } else if (message.type === "reveal") {
        void this.reveal(message as Reveal);
      } else if (message.type === "exportSvg") {
        void this.exportSvg(message as ExportSvg);
      } else if (message.type === "properties") {
        void this.properties(message as AskProperties);
      } else if (message.type === "saveNpy") {
        void this.saveNpy(message as SaveNpy);
      } else if (message.type === "gestures") {
        void this.askGestures(message as AskGestures);
      } else if (message.type === "gesture") {
        const { asked, index } = message as ChooseGesture;
        void this.gestures.apply(this.document, asked, index);
      }
    });
  }

  schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.update(), REFRESH_MS);
  }

  cursor(position: vscode.Position): void {
    if (this.ready) {
      void this.panel.webview.postMessage({ type: "cursor", position: { line: position.line, character: position.character } });
    }
  }

  /** The view's graph asked for and sent to it; `rest`: the whole graph after the folded first answer. */
  private async update(rest = false): Promise<void> {
    if (!this.ready) {
      return;
    }
    const asked = ++this.asked;
    const early = this.early?.version === this.document.version ? this.early.data : undefined;
    this.early = undefined;
    try {
      const data = await (early ?? this.ask(false));
      if (asked === this.asked && !this.disposed) {
        await this.panel.webview.postMessage({ type: "graph", data, rest, answeredAt: Date.now() });
        const editor = vscode.window.visibleTextEditors.find((e) => e.document === this.document);
        if (editor !== undefined) {
          this.cursor(editor.selection.active);
        }
      }
    } catch (error) {
      this.log.warn(`the graph of ${this.document.uri.toString()}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The graph of the text; `folded`: a big graph's folded top level only (the view's first picture). */
  private ask(folded: boolean): Promise<object> {
    return this.request<object>(GRAPH_REQUEST, { textDocument: { uri: this.document.uri.toString() }, folded });
  }

  /** A node picked in the view (clicked, or a search match): the cursor at its statement's start and
   * the statement's extent highlighted, the keyboard left in the view. Nothing is selected in the text,
   * so no key pressed next (Enter in the search box) replaces the statement. */
  private async reveal(message: Reveal): Promise<void> {
    const { start, end } = message.range;
    const range = new vscode.Range(start.line, start.character, end.line, end.character);
    const visible = vscode.window.visibleTextEditors.find((e) => e.document === this.document);
    const editor =
      visible ??
      (await vscode.window.showTextDocument(this.document, { viewColumn: vscode.ViewColumn.One, preserveFocus: true, preview: false }));
    this.extent.show(editor, range);
    editor.selection = new vscode.Selection(range.start, range.start);
    editor.revealRange(range.with({ end: range.start }), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private proposed(name: string): vscode.Uri {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    return vscode.Uri.file(besideModel(this.document.uri, name, folders, process.env.HOME ?? process.env.USERPROFILE ?? "/"));
  }

  private async exportSvg(message: ExportSvg): Promise<void> {
    const stem = path.posix.basename(this.document.uri.path).replace(/\.[^.]+$/, "") || "graph";
    const target = await vscode.window.showSaveDialog({ defaultUri: this.proposed(`${stem}.svg`), filters: { SVG: ["svg"] }, saveLabel: "Export SVG" });
    if (target === undefined) {
      return;
    }
    try {
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(message.svg));
    } catch (error) {
      void vscode.window.showErrorMessage(`onnxtext: the graph was not written to ${target.fsPath}: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    void vscode.window.showInformationMessage(`onnxtext: the graph was written to ${target.fsPath}`);
  }

  private async properties(message: AskProperties): Promise<void> {
    try {
      const properties = await this.request<object | null>(PROPERTIES_REQUEST, { textDocument: { uri: this.document.uri.toString() }, position: message.position });
      await this.panel.webview.postMessage({ type: "properties", asked: message.asked, properties });
    } catch (error) {
      this.log.warn(`the properties in the graph of ${this.document.uri.toString()}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The context menu on a node: the server's gestures on its statement (code actions), by title. */
  private async askGestures(message: AskGestures): Promise<void> {
    const { start, end } = message.range;
    let titles: string[] = [];
    try {
      titles = await this.gestures.ask(this.document, new vscode.Range(start.line, start.character, end.line, end.character), message.asked);
    } catch (error) {
      this.log.warn(`the gestures in the graph of ${this.document.uri.toString()}: ${error instanceof Error ? error.message : String(error)}`);
    }
    await this.panel.webview.postMessage({ type: "gestures", asked: message.asked, titles });
  }

  /** "Save as .npy" in the properties panel: asks where (beside the model, named after the weight). */
  private async saveNpy(message: SaveNpy): Promise<void> {
    const name = `${message.name.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._]+/, "") || "weight"}.npy`;
    const target = await vscode.window.showSaveDialog({ defaultUri: this.proposed(name), filters: { NumPy: ["npy"] }, saveLabel: "Save as .npy" });
    if (target === undefined) {
      return;
    }
    const answer = await this.request<{ written?: string; refused?: string }>(SAVE_TENSOR_REQUEST, {
      textDocument: { uri: this.document.uri.toString() },
      position: message.position,
      path: target.fsPath,
    });
    if (answer.written !== undefined) {
      void vscode.window.showInformationMessage(`onnxtext: saved ${answer.written}`);
    } else {
      void vscode.window.showErrorMessage(`onnxtext: ${message.name} was not saved: ${answer.refused ?? "no answer"}`);
    }
  }
}

/** The extent of the statement last picked in a graph view, highlighted in its text until the cursor
 * moves elsewhere or the text changes. */
class Extent implements vscode.Disposable {
  private readonly decoration = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor("editor.rangeHighlightBackground"),
    overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.rangeHighlightForeground"),
    overviewRulerLane: vscode.OverviewRulerLane.Full,
  });
  private shown: { editor: vscode.TextEditor; at: vscode.Position } | undefined;

  show(editor: vscode.TextEditor, range: vscode.Range): void {
    if (this.shown !== undefined && this.shown.editor !== editor) {
      this.shown.editor.setDecorations(this.decoration, []);
    }
    editor.setDecorations(this.decoration, [range]);
    this.shown = { editor, at: range.start };
  }

  /** The cursor moved: the highlight goes unless the cursor is where the view put it. */
  moved(editor: vscode.TextEditor, selections: readonly vscode.Selection[]): void {
    if (this.shown?.editor === editor && !(selections.length === 1 && selections[0].isEmpty && selections[0].active.isEqual(this.shown.at))) {
      this.hide();
    }
  }

  clear(document: vscode.TextDocument): void {
    if (this.shown?.editor.document === document) {
      this.hide();
    }
  }

  private hide(): void {
    this.shown?.editor.setDecorations(this.decoration, []);
    this.shown = undefined;
  }

  dispose(): void {
    this.decoration.dispose();
  }
}

/** A webview's page running the extension's own `script` (the graph view, the comparison), titled `title`. */
export function page(cspSource: string, script: string, nonceValue: string, title = "Graph"): string {
  // Nothing from the network: the script is the extension's own file; styles are set from it.
  const csp = `default-src 'none'; img-src ${cspSource} data:; style-src ${cspSource}; script-src 'nonce-${nonceValue}';`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${title}</title>
</head>
<body>
<script nonce="${nonceValue}" src="${script}"></script>
</body>
</html>`;
}

export function nonce(): string {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let out = "";
  for (let i = 0; i < 32; i++) {
    out += chars.charAt(Math.floor(Math.random() * chars.length));
  }
  return out;
}
