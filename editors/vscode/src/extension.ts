// The onnxtext extension: starts `onnxtext lsp` (found as src/server.ts says) over stdio
// and adds what the protocol has no word for: `.onnx` files as text (src/binary.ts), saving a
// text as a model, live values, a status bar item and the server's output channel.
// In an untrusted folder (Restricted Mode) the server is found without the folder's help and
// runs no model (it is told `workspaceTrusted: false`); granting trust restarts it in full.
import * as path from "path";
import * as vscode from "vscode";
import { ExecuteCommandRequest, LanguageClient, LanguageClientOptions, ServerOptions, State, TransportKind } from "vscode-languageclient/node";
import { ModelEditorRedirect, ModelFileSystem, SAVE_BINARY, SCHEME, VIEW_TYPE, message, openAsText } from "./binary";
import { Comparisons } from "./compare";
import { GraphPanels } from "./graph";
import { RENAME_COMMAND, renameValue, vscodeRenameApi } from "./gestures";
import { INSERT_COMMAND, insertNode, vscodeInsertApi } from "./insert";
import { COPY_COMMAND, NodeClipboard, copyNodesAt, editorLike, registerNodePaste, vscodePasteApi } from "./paste";
import { Rechecks } from "./recheck";
import { Discovery, ServerCommand, configuredPath, findServer } from "./server";

const LANGUAGE = "onnxtext";
const TOGGLE_LIVE = "onnxtext.toggleLiveValues";
const MANAGE_TRUST = "workbench.trust.manage";
/** The status bar's text while the folder is untrusted: why live values do not come. */
const WAITING_FOR_TRUST = "onnxtext: live values wait for trust";

let client: LanguageClient | undefined;
let starting: Promise<LanguageClient | undefined> | undefined;
let output: vscode.LogOutputChannel;
let status: vscode.StatusBarItem;
let notFoundShown = false;
let lastProblem = "";
/** The re-checks of `onnxtext.server.path` after a start without a server (cleared on deactivate). */
const rechecks = new Rechecks();

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("onnxtext", { log: true });
  status = vscode.window.createStatusBarItem("onnxtext.server", vscode.StatusBarAlignment.Right, 100);
  status.name = "onnxtext language server";
  status.command = "onnxtext.showOutput";
  context.subscriptions.push(output, status);

  const requests = { request: <R>(method: string, params: object) => request<R>(method, params) };
  const graphs = new GraphPanels(context.extensionUri, requests.request, output);
  context.subscriptions.push(graphs, vscode.commands.registerCommand("onnxtext.showGraph", () => graphs.show(vscode.window.activeTextEditor)));
  context.subscriptions.push(new Comparisons(context.extensionUri, requests.request, output));
  const models = new ModelFileSystem(requests, (l) => output.info(l));
  const nodes = new NodeClipboard(vscodePasteApi(vscode, requests.request));
  // Ctrl+V of nodes copied by Copy Nodes pastes them as Paste Nodes does (VS Code 1.97+: a paste edit)
  context.subscriptions.push(registerNodePaste(vscode, nodes, (m) => output.info(m)) ?? { dispose: () => undefined });
  const redirect = new ModelEditorRedirect();
  context.subscriptions.push(
    models,
    vscode.workspace.registerFileSystemProvider(SCHEME, models, {
      isCaseSensitive: process.platform === "linux",
    }),
    vscode.window.registerCustomEditorProvider(VIEW_TYPE, redirect, {
      supportsMultipleEditorsPerDocument: true,
    }),
    vscode.workspace.onDidOpenTextDocument(typeModelText),
    vscode.commands.registerCommand("onnxtext.restartServer", restart),
    vscode.commands.registerCommand("onnxtext.showOutput", () => output.show(true)),
    vscode.commands.registerCommand("onnxtext.openModelAsText", openModelCommand),
    vscode.commands.registerCommand("onnxtext.saveAsModel", saveAsModel),
    vscode.commands.registerCommand("onnxtext.runModel", runModel),
    vscode.commands.registerCommand("onnxtext.format", () => vscode.commands.executeCommand("editor.action.formatDocument")),
    // the "Insert a node on 'x'…" code actions (the editor's and the graph's menu): palette, then edit
    vscode.commands.registerCommand(INSERT_COMMAND, (uri: string, version: number, value: string) => insertNode(vscodeInsertApi(vscode, requests.request), uri, version, value)),
    // the "Rename value 'x'…" code actions (the graph's menu): the new name asked, then the text's rename
    vscode.commands.registerCommand(RENAME_COMMAND, (uri: string, version: number, value: string, at: { line: number; character: number }) => renameValue(vscodeRenameApi(vscode, requests.request), uri, version, value, at)),
    // Copy Nodes remembers the model copied from; Paste Nodes brings what the nodes need from it
    vscode.commands.registerTextEditorCommand("onnxtext.copyNodes", (editor) => nodes.copy(editorLike(editor))),
    vscode.commands.registerTextEditorCommand("onnxtext.pasteNodes", (editor) => nodes.paste(editorLike(editor))),
    vscode.commands.registerCommand(COPY_COMMAND, copyNodesAt(vscode, nodes)), // the graph's "Copy node 'x'…"
    vscode.workspace.onDidGrantWorkspaceTrust(async () => {
      output.info("the folder is trusted now: restarting the server with the full discovery");
      notFoundShown = false;
      await restart();
      // a model opened before (its page said no server was found) opens as text now
      await redirect.retry();
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("onnxtext.server.path")) {
        notFoundShown = false;
        void restart().then(() => redirect.retry());
      }
    }),
  );
  vscode.workspace.textDocuments.forEach(typeModelText);
  showStatus("starting");
  await start();
}

export async function deactivate(): Promise<void> {
  rechecks.clear();
  await stop();
}

/** A model's text gets the language whatever its file name (`m.onnx`) made VS Code guess. */
function typeModelText(document: vscode.TextDocument): void {
  if (document.uri.scheme === SCHEME && document.languageId !== LANGUAGE) {
    void vscode.languages.setTextDocumentLanguage(document, LANGUAGE);
  }
}

function settings(): object {
  const config = vscode.workspace.getConfiguration("onnxtext");
  return JSON.parse(JSON.stringify(config)) as object;
}

async function start(): Promise<LanguageClient | undefined> {
  if (starting === undefined) {
    starting = launch().finally(() => {
      starting = undefined;
    });
  }
  return starting;
}

async function launch(): Promise<LanguageClient | undefined> {
  showStatus("starting");
  const trusted = vscode.workspace.isTrusted;
  const configured = configuredPath(trusted);
  const found = await findServer(configured, trusted, (line) => output.info(line));
  if (found.server === undefined) {
    notFound(configured, found);
    recheckSettings(trusted, configured);
    return undefined;
  }
  // a server found: a later failure is news again (a "not found" said before the user's settings
  // reached the extension host must not silence the one after a restart that finds none)
  notFoundShown = false;
  const server = found.server;
  const executable = { command: server.command, args: server.args, transport: TransportKind.stdio };
  const serverOptions: ServerOptions = { run: executable, debug: executable };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { language: LANGUAGE, scheme: "file" },
      { language: LANGUAGE, scheme: "untitled" },
      { language: LANGUAGE, scheme: SCHEME },
    ],
    // trust is the client's word, outside the settings a workspace can write
    initializationOptions: { onnxtext: settings(), workspaceTrusted: trusted },
    synchronize: { configurationSection: "onnxtext" },
    outputChannel: output,
    traceOutputChannel: output,
  };
  const next = new LanguageClient("onnxtext", "onnxtext", serverOptions, clientOptions);
  next.onDidChangeState((event) => {
    if (client !== next) {
      return;
    }
    if (event.newState === State.Running) {
      showStatus("running", server);
    } else if (event.newState === State.Stopped) {
      showStatus("stopped", server);
    } else {
      showStatus("starting", server);
    }
  });
  client = next;
  try {
    await next.start();
  } catch (error) {
    lastProblem = message(error);
    output.error(`the server did not start: ${lastProblem}`);
    showStatus("stopped", server);
    void vscode.window.showErrorMessage(`onnxtext: the language server did not start (${lastProblem}).`, "Show Output").then((pick) => {
      if (pick !== undefined) {
        output.show(true);
      }
    });
    return undefined;
  }
  showStatus("running", server);
  return next;
}

/** Just after start-up the user's settings can reach the extension host after it activated,
 * without a change event (seen in code-server with Restricted Mode): when no server was found,
 * look at `onnxtext.server.path` again a little later and start if it now names one. */
function recheckSettings(trusted: boolean, configured: string): void {
  rechecks.schedule(() => {
    if (client === undefined && starting === undefined && configuredPath(trusted) !== configured) {
      output.info("onnxtext.server.path is set now: starting the server");
      void start();
    }
  });
}

function notFound(configured: string, found: Discovery): void {
  lastProblem = found.problems.join("; ") || "no onnxtext found";
  showStatus("missing");
  if (notFoundShown) {
    return;
  }
  notFoundShown = true;
  const text =
    configured.trim() !== ""
      ? `onnxtext: the server set in onnxtext.server.path does not work (${found.problems[0] ?? configured}). ` +
        "Point it at the onnxtext executable of an environment where `pip install onnxtext` ran."
      : "onnxtext: the language server was not found. Install it with `pip install onnxtext` (Python 3.10 or newer) " +
        "into the environment on your PATH, the workspace's .venv or the Python extension's interpreter, " +
        "or set onnxtext.server.path to the onnxtext executable." +
        (vscode.workspace.isTrusted ? "" : " In Restricted Mode the folder's .venv and settings are not used until you trust it.");
  const buttons = vscode.workspace.isTrusted ? ["Open Settings", "Show Output"] : ["Manage Workspace Trust", "Open Settings", "Show Output"];
  void vscode.window.showErrorMessage(text, ...buttons).then((pick) => {
    if (pick === "Manage Workspace Trust") {
      void vscode.commands.executeCommand(MANAGE_TRUST);
    } else if (pick === "Open Settings") {
      void vscode.commands.executeCommand("workbench.action.openSettings", "onnxtext.server.path");
    } else if (pick === "Show Output") {
      output.show(true);
    }
  });
}

async function stop(): Promise<void> {
  const current = client;
  client = undefined;
  if (current !== undefined) {
    try {
      await current.stop(5000);
    } catch (error) {
      output.warn(`stopping the server: ${message(error)}`);
    }
  }
}

/** A restart that has not read the settings yet: a second request (trust granted also changes the
 * restricted settings' values) joins it instead of restarting twice. */
let restartPending: Promise<void> | undefined;

async function restart(): Promise<void> {
  if (restartPending !== undefined) {
    return restartPending;
  }
  restartPending = (async () => {
    output.info("restarting the server");
    await starting?.catch(() => undefined);
    await stop();
    restartPending = undefined;
    await start();
  })();
  return restartPending;
}

function showStatus(state: "starting" | "running" | "stopped" | "missing", server?: ServerCommand): void {
  const where = server ? `\n\n${server.command} ${server.args.join(" ")}\n(${server.version}, from ${server.source})` : "";
  status.command = "onnxtext.showOutput";
  if (state === "running" && !vscode.workspace.isTrusted) {
    status.text = `$(workspace-untrusted) ${WAITING_FOR_TRUST}`;
    status.tooltip =
      `onnxtext language server: running in Restricted Mode${where}\n\n` +
      "This folder is not trusted: highlighting, diagnostics, hover, completion and formatting work, " +
      "but the model is not run (live values, evaluation diagnostics, evaluate.inputs files) and no program " +
      "from the folder (.venv, its settings) is used until you trust it.\n\nClick to manage workspace trust.";
    status.command = MANAGE_TRUST;
    status.backgroundColor = undefined;
  } else if (state === "running") {
    status.text = "$(check) onnxtext";
    status.tooltip = `onnxtext language server: running${where}`;
    status.backgroundColor = undefined;
  } else if (state === "starting") {
    status.text = "$(loading~spin) onnxtext";
    status.tooltip = `onnxtext language server: starting${where}`;
    status.backgroundColor = undefined;
  } else {
    status.text = state === "missing" ? "$(error) onnxtext: no server" : "$(error) onnxtext: stopped";
    status.tooltip = `onnxtext language server: ${state === "missing" ? "not found" : "stopped"} (${lastProblem})${where}\n\nClick for the output.`;
    status.backgroundColor = new vscode.ThemeColor("statusBarItem.errorBackground");
  }
  status.show();
}

/** A request to the running server (started on demand); fails with a reason when there is none. */
async function request<R>(method: string, params: object): Promise<R> {
  const current = client !== undefined && client.isRunning() ? client : await start();
  if (current === undefined || !current.isRunning()) {
    throw new Error(`the onnxtext language server is not running (${lastProblem || "see the onnxtext output"})`);
  }
  return current.sendRequest<R>(method, params);
}

async function openModelCommand(target?: vscode.Uri): Promise<void> {
  let file = target;
  if (file === undefined) {
    const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { "ONNX model": ["onnx"] }, openLabel: "Open as Text" });
    file = picked?.[0];
  }
  if (file === undefined) {
    return;
  }
  try {
    await openAsText(file.with({ scheme: "file" }));
  } catch (error) {
    void vscode.window.showErrorMessage(`onnxtext: ${file.fsPath} cannot be opened as text: ${message(error)}`);
  }
}

function activeText(): vscode.TextEditor | undefined {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined || editor.document.languageId !== LANGUAGE) {
    void vscode.window.showInformationMessage("onnxtext: open an onnxtext document first.");
    return undefined;
  }
  return editor;
}

interface SaveResult {
  written: boolean;
  unchanged: boolean;
  diagnostics: { message: string; severity?: number; range: { start: { line: number } } }[];
}

async function saveAsModel(target?: vscode.Uri): Promise<void> {
  const editor = activeText();
  if (editor === undefined) {
    return;
  }
  const document = editor.document;
  let destination = target;
  if (destination === undefined) {
    const base = document.uri.scheme === "file" ? document.uri.fsPath : path.join(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? "", "model.onnxtxt");
    const suggested = vscode.Uri.file(base.replace(/\.(onnxtxt|onnxtext)$/i, "") + ".onnx");
    destination = await vscode.window.showSaveDialog({ defaultUri: suggested, filters: { "ONNX model": ["onnx"] }, saveLabel: "Save Model" });
  }
  if (destination === undefined) {
    return;
  }
  try {
    const result = await request<SaveResult>(SAVE_BINARY, { uri: destination.with({ scheme: "file" }).toString(), text: document.getText() });
    if (!result.written) {
      const first = result.diagnostics.find((d) => d.severity === undefined || d.severity === 1) ?? result.diagnostics[0];
      const where = first ? ` (line ${first.range.start.line + 1}: ${first.message})` : "";
      void vscode.window.showErrorMessage(`onnxtext: not saved, the text is not a valid model${where}.`);
      return;
    }
    void vscode.window.showInformationMessage(`onnxtext: saved ${vscode.workspace.asRelativePath(destination)}.`);
  } catch (error) {
    void vscode.window.showErrorMessage(`onnxtext: not saved: ${message(error)}`);
  }
}

async function runModel(): Promise<void> {
  const editor = activeText();
  if (editor === undefined) {
    return;
  }
  if (!vscode.workspace.isTrusted) {
    const text = "onnxtext: live values run the model, which waits until you trust this folder (Restricted Mode).";
    void vscode.window.showInformationMessage(text, "Manage Workspace Trust").then((pick) => {
      if (pick !== undefined) {
        void vscode.commands.executeCommand(MANAGE_TRUST);
      }
    });
    return;
  }
  try {
    const live = await request<boolean>(ExecuteCommandRequest.method, {
      command: TOGGLE_LIVE,
      arguments: [editor.document.uri.toString()],
    });
    void vscode.window.setStatusBarMessage(live ? "onnxtext: live values on (the model runs after each change)" : "onnxtext: live values off", 4000);
  } catch (error) {
    void vscode.window.showErrorMessage(`onnxtext: cannot run the model: ${message(error)}`);
  }
}
