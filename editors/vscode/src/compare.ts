// "Compare with…" (onnxtext.compareWith): the model beside another version of it (another file,
// git's HEAD, the file as saved) in VS Code's diff editor, and beside them the graph view
// (src/graphview/) of this version with the nodes the structural diff adds, removes or changes
// coloured (`onnxtext/compare`, src/onnxtext/ide/compare.py). A node picked in the graph shows its
// statement in both texts; the comparison follows the edits of both texts. "Compare Values"
// (onnxtext.compareValues) runs both models on the same inputs (`onnxtext/compareValues`):
// the edges whose values differ are coloured and say by how much, and B's text has an inlay hint after
// each matched value (`Δ 0.0012`) while the comparison is open.
import * as path from "path";
import * as vscode from "vscode";
import { textUri } from "./binary";
import { Comparison, DeltaHint, Side, ValueComparison, deltaHints, diffTitle, fromA, sidesFor, statementsOf, summary, valuesSummary } from "./comparison";
import { PROPERTIES_REQUEST, nonce, page } from "./graph";
import type { Range } from "./graphview/model";

export const COMPARE_REQUEST = "onnxtext/compare";
export const COMPARE_VALUES_REQUEST = "onnxtext/compareValues";
/** The read-only texts of the other side that are no file (HEAD's, the disk's): `onnxtext-compare:/path?key`. */
export const SNAPSHOT_SCHEME = "onnxtext-compare";
const VIEW_TYPE = "onnxtext.compare";
const REFRESH_MS = 150;
/** The values are compared again this long after the last edit (each time both models run). */
const VALUES_REFRESH_MS = 1000;

type Request = <R>(method: string, params: object) => Promise<R>;
type Log = { warn(message: string): void };

/** The part of the built-in git extension's API (`vscode.git`, version 1) used here. */
interface GitApi {
  getRepository(uri: vscode.Uri): { show(ref: string, path: string): Promise<string> } | null;
}
interface GitExtension {
  getAPI(version: 1): GitApi;
}

/** The other side of a comparison: the URI the diff editor shows on the left and its text. */
interface Other {
  side: Side;
  uri: vscode.Uri;
  text: string;
}

export class Comparisons implements vscode.Disposable {
  private readonly snapshots = new Map<string, string>();
  private readonly panels = new Set<ComparePanel>();
  private last: ComparePanel | undefined;
  private counter = 0;
  private readonly subscriptions: vscode.Disposable[];
  private readonly hintsChanged = new vscode.EventEmitter<void>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly request: Request,
    private readonly log: Log,
  ) {
    this.subscriptions = [
      vscode.workspace.registerTextDocumentContentProvider(SNAPSHOT_SCHEME, { provideTextDocumentContent: (uri) => this.snapshots.get(uri.toString()) ?? "" }),
      vscode.commands.registerCommand("onnxtext.compareWith", (uri?: vscode.Uri) => this.compareWith(uri)),
      vscode.commands.registerCommand("onnxtext.compareChanges", () => this.listChanges(this.last)),
      vscode.commands.registerCommand("onnxtext.compareValues", () => this.compareValues(this.last)),
      this.hintsChanged,
      vscode.languages.registerInlayHintsProvider(
        { language: "onnxtext" },
        { onDidChangeInlayHints: this.hintsChanged.event, provideInlayHints: (document, range) => this.hints(document, range) },
      ),
      vscode.workspace.onDidChangeTextDocument((event) => this.panels.forEach((p) => p.changed(event.document))),
    ];
  }

  /** The command: asks for the other side, opens the diff editor and the marked graph. */
  async compareWith(uri?: vscode.Uri): Promise<void> {
    const document = this.documentOf(uri);
    if (document === undefined) {
      void vscode.window.showInformationMessage("onnxtext: Compare with… needs an onnxtext text (an .onnxtxt file, or an .onnx model opened as text).");
      return;
    }
    const side = await this.pickSide(document);
    if (side === undefined) {
      return;
    }
    let other: Other | undefined;
    try {
      other = await this.otherSide(side, document);
    } catch (error) {
      void vscode.window.showErrorMessage(`onnxtext: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (other === undefined) {
      return;
    }
    const title = diffTitle(side, path.posix.basename(other.uri.path), path.posix.basename(document.uri.path));
    await vscode.commands.executeCommand("vscode.diff", other.uri, document.uri, title, { viewColumn: vscode.ViewColumn.One, preview: false });
    const panel = new ComparePanel(this.extensionUri, this.request, this.log, other, document, title, () => this.hintsChanged.fire());
    this.panels.add(panel);
    this.last = panel;
    panel.panel.onDidDispose(() => {
      this.panels.delete(panel);
      if (this.last === panel) {
        this.last = undefined;
      }
      this.hintsChanged.fire();
    });
    const first = await panel.update();
    if (first === null) {
      void vscode.window.showWarningMessage("onnxtext: the texts were not compared: one of them is not a valid model (its diagnostics say why).");
    } else if (first !== undefined) {
      const list = first.same ? ["Compare Values"] : ["List Changes", "Compare Values"];
      void vscode.window
        .showInformationMessage(`onnxtext: ${summary(first)}`, ...list)
        .then((chosen) => (chosen === "List Changes" ? this.listChanges(panel) : chosen === "Compare Values" ? this.compareValues(panel) : undefined));
    }
  }

  private documentOf(uri?: vscode.Uri): vscode.TextDocument | undefined {
    const found = uri !== undefined ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) : undefined;
    const document = found ?? vscode.window.activeTextEditor?.document;
    return document?.languageId === "onnxtext" ? document : undefined;
  }

  private async pickSide(document: vscode.TextDocument): Promise<Side | undefined> {
    const labels: Record<Side, { label: string; detail: string }> = {
      file: { label: "Another File…", detail: "an .onnxtxt text or an .onnx model" },
      head: { label: "HEAD (git)", detail: "the version of the last commit" },
      disk: { label: "File on Disk", detail: "the version last saved (this editor has unsaved changes)" },
    };
    const items = sidesFor({ scheme: document.uri.scheme, dirty: document.isDirty }).map((side) => ({ ...labels[side], side }));
    const picked = await vscode.window.showQuickPick(items, { title: `Compare ${path.posix.basename(document.uri.path)} with…` });
    return picked?.side;
  }

  private async otherSide(side: Side, document: vscode.TextDocument): Promise<Other | undefined> {
    if (side === "file") {
      const picked = await vscode.window.showOpenDialog({
        canSelectMany: false,
        defaultUri: vscode.Uri.file(path.dirname(document.uri.fsPath)),
        filters: { "ONNX models": ["onnxtxt", "onnxtext", "onnx"] },
        openLabel: "Compare",
      });
      if (picked === undefined || picked.length === 0) {
        return undefined;
      }
      // an .onnx is compared by its printed text (the model file's text, src/binary.ts)
      const uri = picked[0].path.endsWith(".onnx") ? textUri(picked[0]) : picked[0];
      const text = (await vscode.workspace.openTextDocument(uri)).getText();
      return { side, uri, text };
    }
    const text = side === "head" ? await this.headText(document.uri) : new TextDecoder().decode(await vscode.workspace.fs.readFile(document.uri));
    const uri = vscode.Uri.from({ scheme: SNAPSHOT_SCHEME, path: document.uri.path, query: `${side}-${++this.counter}` });
    this.snapshots.set(uri.toString(), text);
    return { side, uri, text };
  }

  private async headText(uri: vscode.Uri): Promise<string> {
    const extension = vscode.extensions.getExtension<GitExtension>("vscode.git");
    if (vscode.workspace.getConfiguration("git", uri).get<boolean>("enabled") === false) {
      throw new Error("comparing with HEAD needs git, which is turned off in VS Code (the git.enabled setting).");
    }
    if (extension === undefined) {
      throw new Error("comparing with HEAD needs VS Code's Git extension (vscode.git), which is disabled or absent.");
    }
    const api = (extension.isActive ? extension.exports : await extension.activate()).getAPI(1);
    const repository = api.getRepository(uri);
    if (repository === null) {
      throw new Error(`${path.basename(uri.fsPath)} is not in a git repository that VS Code has opened.`);
    }
    try {
      return await repository.show("HEAD", uri.fsPath);
    } catch (error) {
      throw new Error(`${path.basename(uri.fsPath)} has no version in HEAD (${error instanceof Error ? error.message.split("\n")[0] : String(error)}).`);
    }
  }

  private async listChanges(panel: ComparePanel | undefined): Promise<void> {
    const comparison = panel?.comparison;
    if (panel === undefined || comparison === undefined) {
      void vscode.window.showInformationMessage("onnxtext: no comparison is open (Compare with… opens one).");
      return;
    }
    const items = comparison.changes.map((change, index) => ({ label: change.text, index }));
    const picked = await vscode.window.showQuickPick(items, { title: summary(comparison), matchOnDescription: true });
    if (picked !== undefined) {
      const change = comparison.changes[picked.index];
      await panel.reveal({ a: change.a, b: change.b });
    }
  }

  /** The command: the values of the comparison's two models compared (again: turned off). */
  async compareValues(panel: ComparePanel | undefined): Promise<void> {
    if (panel === undefined || panel.comparison === undefined) {
      void vscode.window.showInformationMessage("onnxtext: no comparison is open (Compare with… opens one).");
      return;
    }
    if (panel.valuesOn) {
      panel.valuesOff();
      return;
    }
    const found = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: "onnxtext: running both models on the same inputs…" },
      () => panel.valuesOnNow(),
    );
    if (found !== undefined) {
      const show = found.values === null ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
      void show(`onnxtext: ${valuesSummary(found)}`);
    }
  }

  /** The differences of the open comparisons of `document` as inlay hints (none of a text no comparison shows). */
  private hints(document: vscode.TextDocument, range: vscode.Range): vscode.InlayHint[] {
    const hints: vscode.InlayHint[] = [];
    for (const panel of this.panels) {
      for (const h of panel.hintsOf(document)) {
        const at = new vscode.Position(h.line, h.character);
        if (range.contains(at)) {
          const hint = new vscode.InlayHint(at, h.label);
          hint.tooltip = h.tooltip;
          hint.paddingLeft = true;
          hints.push(hint);
        }
      }
    }
    return hints;
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.panels.forEach((p) => p.panel.dispose());
  }
}

class ComparePanel {
  readonly panel: vscode.WebviewPanel;
  comparison: Comparison | undefined;
  private ready = false;
  private asked = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Whether the values are compared (Compare Values), and the last answer with the texts it is of. */
  valuesOn = false;
  private values: { found: ValueComparison; version: number; a: string } | undefined;
  private askedValues = 0;
  private valuesTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly decoration = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor("editor.rangeHighlightBackground"),
    isWholeLine: true,
  });

  constructor(
    extensionUri: vscode.Uri,
    private readonly request: Request,
    private readonly log: Log,
    private readonly other: Other,
    private readonly document: vscode.TextDocument,
    title: string,
    private readonly hintsChanged: () => void,
  ) {
    const dist = vscode.Uri.joinPath(extensionUri, "dist");
    this.panel = vscode.window.createWebviewPanel(
      VIEW_TYPE,
      `Compare: ${title}`,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [dist] },
    );
    const script = this.panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, "graphview.js"));
    this.panel.webview.html = page(this.panel.webview.cspSource, script.toString(), nonce(), "Compare");
    this.panel.onDidDispose(() => {
      clearTimeout(this.timer);
      clearTimeout(this.valuesTimer);
      this.decoration.dispose();
    });
    this.panel.webview.onDidReceiveMessage((message: { type?: string; id?: string; asked?: number; position?: { line: number; character: number } }) => {
      if (message.type === "ready") {
        this.ready = true;
        void this.post();
      } else if (message.type === "reveal" && typeof message.id === "string") {
        void this.picked(message.id);
      } else if (message.type === "properties" && message.asked !== undefined && message.position !== undefined) {
        void this.properties(message.asked, message.position);
      }
    });
  }

  /** An edit of this version, or of the other file's text (both texts are followed; HEAD's and the disk's do not change). */
  changed(document: vscode.TextDocument): void {
    const other = this.other.side === "file" && document.uri.toString() === this.other.uri.toString();
    if (other) {
      this.other.text = document.getText();
    }
    if (document === this.document || other) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.update(), REFRESH_MS);
      if (this.valuesOn) {
        this.hintsChanged(); // of another version now: hidden until compared again
        clearTimeout(this.valuesTimer);
        this.valuesTimer = setTimeout(() => void this.updateValues(), VALUES_REFRESH_MS);
      }
    }
  }

  /** Asks the server again; the answer (null: a text is not a valid model; undefined: no answer). */
  async update(): Promise<Comparison | null | undefined> {
    const asked = ++this.asked;
    try {
      const found = await this.request<Comparison | null>(COMPARE_REQUEST, {
        textDocument: { uri: this.document.uri.toString() },
        a: { uri: this.other.uri.toString(), text: this.other.text },
      });
      if (asked === this.asked && found !== null) {
        this.comparison = found;
        await this.post();
      }
      return found;
    } catch (error) {
      this.log.warn(`the comparison of ${this.document.uri.toString()}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  /** Turns the comparison of values on and asks for it: the answer (undefined: none came). */
  async valuesOnNow(): Promise<ValueComparison | undefined> {
    this.valuesOn = true;
    return this.updateValues();
  }

  valuesOff(): void {
    this.valuesOn = false;
    this.values = undefined;
    ++this.askedValues;
    clearTimeout(this.valuesTimer);
    this.hintsChanged();
    void this.post();
  }

  private async updateValues(): Promise<ValueComparison | undefined> {
    const asked = ++this.askedValues;
    const version = this.document.version;
    const a = this.other.text;
    try {
      const found = await this.request<ValueComparison>(COMPARE_VALUES_REQUEST, {
        textDocument: { uri: this.document.uri.toString() },
        a: { uri: this.other.uri.toString(), text: a },
      });
      if (asked === this.askedValues && this.valuesOn) {
        this.values = { found, version, a };
        this.hintsChanged();
        await this.post();
      }
      return found;
    } catch (error) {
      this.log.warn(`the values compared of ${this.document.uri.toString()}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  /** The last value comparison if it is of both texts as they are now. */
  private currentValues(): ValueComparison | undefined {
    const values = this.values;
    return values !== undefined && values.version === this.document.version && values.a === this.other.text ? values.found : undefined;
  }

  /** The inlay hints of `document` (B's text) while the values compared are current. */
  hintsOf(document: vscode.TextDocument): DeltaHint[] {
    const found = document.uri.toString() === this.document.uri.toString() ? this.currentValues() : undefined;
    return found !== undefined ? deltaHints(found) : [];
  }

  private async post(): Promise<void> {
    if (this.ready && this.comparison !== undefined) {
      // with the values compared (of these texts), their graph: the same one, its differing edges marked
      const data = this.currentValues()?.graph ?? this.comparison.graph;
      await this.panel.webview.postMessage({ type: "graph", data });
    }
  }

  /** A node picked in the graph: its statements in both texts (a node no change is about: its own, in B). */
  private async picked(id: string): Promise<void> {
    const comparison = this.comparison;
    if (comparison === undefined) {
      return;
    }
    const found = statementsOf(comparison, id);
    const node = comparison.graph.nodes.find((n) => n.id === id);
    await this.reveal(found ?? { a: null, b: node !== undefined && !fromA(comparison, id) ? node.range : null });
  }

  /** Shows `a` in the diff editor's left text and `b` in its right one (the diff editor opened again if
   * closed or hidden). */
  async reveal(where: { a: Range | null; b: Range | null }): Promise<void> {
    const find = (uri: vscode.Uri) => vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
    const shown = vscode.window.tabGroups.all.some((group) =>
      group.tabs.some(
        (tab) =>
          tab.isActive &&
          tab.input instanceof vscode.TabInputTextDiff &&
          tab.input.original.toString() === this.other.uri.toString() &&
          tab.input.modified.toString() === this.document.uri.toString(),
      ),
    );
    // (a narrow diff editor is inline: the left text is no editor of its own, B's statement is shown)
    if (!shown) {
      const title = diffTitle(this.other.side, path.posix.basename(this.other.uri.path), path.posix.basename(this.document.uri.path));
      await vscode.commands.executeCommand("vscode.diff", this.other.uri, this.document.uri, title, { viewColumn: vscode.ViewColumn.One, preserveFocus: true });
    }
    for (const [uri, range] of [
      [this.other.uri, where.a],
      [this.document.uri, where.b],
    ] as const) {
      const editor = find(uri);
      if (editor === undefined) {
        continue;
      }
      if (range === null) {
        editor.setDecorations(this.decoration, []);
        continue;
      }
      const shown = new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
      editor.setDecorations(this.decoration, [shown]);
      editor.selection = new vscode.Selection(shown.start, shown.start);
      editor.revealRange(shown.with({ end: shown.start }), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
  }

  /** The properties panel of a node of B (a node drawn from A has none here: its statement is A's). */
  private async properties(asked: number, position: { line: number; character: number }): Promise<void> {
    const comparison = this.comparison;
    const node = comparison?.graph.nodes.find((n) => n.range.start.line === position.line && n.range.start.character === position.character);
    const ofB = comparison !== undefined && node !== undefined && !fromA(comparison, node.id);
    let properties: object | null = null;
    try {
      properties = ofB ? await this.request<object | null>(PROPERTIES_REQUEST, { textDocument: { uri: this.document.uri.toString() }, position }) : null;
    } catch (error) {
      this.log.warn(`the properties in the comparison of ${this.document.uri.toString()}: ${error instanceof Error ? error.message : String(error)}`);
    }
    await this.panel.webview.postMessage({ type: "properties", asked, properties });
  }
}
