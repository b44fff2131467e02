// Paste from another model (#32): Copy Nodes remembers the model, Paste Nodes asks the server when
// the clipboard still holds that copy, and pastes plainly otherwise (or when the server refuses).
import assert from "node:assert/strict";
import { test } from "node:test";
import type * as vscode from "vscode";
import { type Answer, type EditorLike, NodeClipboard, PASTE_KIND, type PasteApi, copyNodesAt, pasteParams, registerNodePaste } from "../../src/paste";

const RANGE = { start: { line: 4, character: 3 }, end: { line: 4, character: 17 } };
const SOURCE: EditorLike = { uri: "file:///a.onnxtxt", text: "<model a>", version: 7, selection: RANGE, selected: "h = Add (x, w)" };
const TARGET: EditorLike = { uri: "file:///b.onnxtxt", text: "<model b>", version: 2, selection: { start: { line: 5, character: 0 }, end: { line: 5, character: 0 } }, selected: "" };
const EDITS = [{ range: TARGET.selection, newText: "   h_2 = Add (x, w_2)\n" }];

function fake(answer: Answer | Error = { title: "Pasted 1 node", version: 2, edits: EDITS }) {
  let clipboard = "";
  const log: string[] = [];
  const api: PasteApi = {
    request: async <R>(method: string, params: object): Promise<R> => {
      log.push(`${method} ${JSON.stringify(params)}`);
      if (answer instanceof Error) throw answer;
      return answer as R;
    },
    readClipboard: async () => clipboard,
    writeClipboard: async (text) => void (clipboard = text),
    plainPaste: async () => void log.push(`plain ${clipboard}`),
    version: () => 2,
    apply: async (uri, edits) => (log.push(`apply ${uri} ${edits.length}`), true),
    info: (m) => void log.push(`info ${m}`),
    warn: (m) => void log.push(`warn ${m}`),
    error: (m) => void log.push(`error ${m}`),
  };
  return { api, log, set: (text: string) => (clipboard = text), get: () => clipboard };
}

test("the request names the source's text and range when the clipboard holds the copy", () => {
  const copied = { uri: SOURCE.uri, text: SOURCE.text, range: RANGE, copied: SOURCE.selected };
  assert.deepEqual(pasteParams(copied, "h = Add (x, w)", TARGET.uri, { line: 5, character: 0 }), {
    textDocument: { uri: TARGET.uri },
    position: { line: 5, character: 0 },
    source: { uri: SOURCE.uri, text: "<model a>", range: RANGE },
  });
  assert.equal(pasteParams(copied, "something else", TARGET.uri, { line: 5, character: 0 }), undefined);
  assert.equal(pasteParams(undefined, "h = Add (x, w)", TARGET.uri, { line: 5, character: 0 }), undefined);
  assert.notEqual(pasteParams(copied, "", TARGET.uri, { line: 5, character: 0 }), undefined); // a clipboard not readable
  assert.equal(pasteParams({ ...copied, copied: "  " }, "  ", TARGET.uri, { line: 5, character: 0 }), undefined);
});

test("copy then paste: the clipboard written, the server's edits applied and said", async () => {
  const { api, log, get } = fake();
  const nodes = new NodeClipboard(api);
  await nodes.copy(SOURCE);
  assert.equal(get(), "h = Add (x, w)");
  assert.equal(await nodes.paste(TARGET), true);
  assert.equal(log.length, 3);
  assert.match(log[0], /^onnxtext\/pasteNodes .*"source":\{"uri":"file:\/\/\/a.onnxtxt","text":"<model a>"/);
  assert.deepEqual(log.slice(1), ["apply file:///b.onnxtxt 1", "info onnxtext: Pasted 1 node"]);
});

test("another copy since, or a refusal, pastes the clipboard as it is; a failure or a changed text is said", async () => {
  const other = fake();
  const nodes = new NodeClipboard(other.api);
  await nodes.copy(SOURCE);
  other.set("copied elsewhere");
  assert.equal(await nodes.paste(TARGET), false);
  assert.deepEqual(other.log, ["plain copied elsewhere"]);

  const refused = fake({ refused: "no node statement copied" });
  const r = new NodeClipboard(refused.api);
  await r.copy(SOURCE);
  assert.equal(await r.paste(TARGET), false);
  assert.equal(refused.log.at(-1), "plain h = Add (x, w)");

  const failed = fake(new Error("no server"));
  const f = new NodeClipboard(failed.api);
  await f.copy(SOURCE);
  assert.equal(await f.paste(TARGET), false);
  assert.equal(failed.log.at(-1), "error onnxtext: the nodes were not pasted: no server");

  const stale = fake({ title: "Pasted 1 node", version: 1, edits: EDITS });
  const s = new NodeClipboard(stale.api);
  await s.copy(SOURCE);
  assert.equal(await s.paste(TARGET), false);
  assert.match(stale.log.at(-1) ?? "", /the text changed since/);
});

/** A VS Code with the paste-edit API (1.97+), as much of it as registerNodePaste uses; what it registered. */
function pasteCode(withApi = true) {
  const registered: { selector: unknown; provider: any; metadata: any }[] = [];
  class Kind {
    static Empty = new Kind("");
    constructor(readonly value: string) {}
    append(...parts: string[]): Kind {
      return new Kind([this.value, ...parts].filter((p) => p).join("."));
    }
  }
  class Range {
    constructor(readonly sl: number, readonly sc: number, readonly el: number, readonly ec: number) {}
  }
  class WorkspaceEdit {
    set_: [unknown, unknown[]][] = [];
    set(uri: unknown, edits: unknown[]): void {
      this.set_.push([uri, edits]);
    }
  }
  const code = {
    languages: withApi
      ? {
          registerDocumentPasteEditProvider: (selector: unknown, provider: unknown, metadata: unknown) => {
            registered.push({ selector, provider, metadata });
            return { dispose: () => undefined };
          },
        }
      : {},
    DocumentPasteEdit: withApi
      ? class {
          additionalEdit: unknown;
          constructor(
            public insertText: string,
            public title: string,
            public kind: Kind,
          ) {}
        }
      : undefined,
    DocumentDropOrPasteEditKind: withApi ? Kind : undefined,
    WorkspaceEdit,
    TextEdit: class {
      constructor(
        public range: Range,
        public newText: string,
      ) {}
    },
    Range,
  };
  return { code: code as unknown as typeof vscode, registered };
}

function pasteAt(version: number) {
  const document = { uri: { toString: () => TARGET.uri }, version };
  const ranges = [{ start: { line: 5, character: 0 }, end: { line: 5, character: 0 } }];
  const token = { isCancellationRequested: false };
  const transfer = (text: string | undefined) => ({ get: (mime: string) => (mime === "text/plain" && text !== undefined ? { asString: async () => text } : undefined) });
  return { document, ranges, token, transfer };
}

test("Ctrl+V: the nodes copied by Copy Nodes are the default paste edit, their edits additional (nothing at the cursor itself)", async () => {
  const { api, log } = fake();
  const nodes = new NodeClipboard(api);
  await nodes.copy(SOURCE);
  const { code, registered } = pasteCode();
  assert.notEqual(registerNodePaste(code, nodes), undefined);
  const [{ selector, provider, metadata }] = registered;
  assert.deepEqual(selector, { language: "onnxtext" });
  assert.deepEqual([metadata.providedPasteEditKinds.map((k: { value: string }) => k.value), metadata.pasteMimeTypes], [[PASTE_KIND], ["text/plain"]]);
  const { document, ranges, token, transfer } = pasteAt(2);
  const [edit] = await provider.provideDocumentPasteEdits(document, ranges, transfer("h = Add (x, w)"), {}, token);
  assert.deepEqual([edit.insertText, edit.title, edit.kind.value], ["", "Pasted 1 node", PASTE_KIND]);
  const [[uri, edits]] = edit.additionalEdit.set_;
  assert.equal(uri, document.uri);
  assert.deepEqual(JSON.parse(JSON.stringify(edits)), [{ range: { sl: 5, sc: 0, el: 5, ec: 0 }, newText: "   h_2 = Add (x, w_2)\n" }]);
  assert.match(log[0], /"position":\{"line":5,"character":0\}/);
});

test("Ctrl+V: anything else on the clipboard, several cursors, a refusal, a failure or a changed text leave the plain paste", async () => {
  for (const answer of [{ refused: "no" } as Answer, new Error("no server"), { title: "Pasted 1 node", version: 1, edits: EDITS }]) {
    const { api } = fake(answer);
    const nodes = new NodeClipboard(api);
    await nodes.copy(SOURCE);
    const { code, registered } = pasteCode();
    const logged: string[] = [];
    registerNodePaste(code, nodes, (m) => logged.push(m));
    const { document, ranges, token, transfer } = pasteAt(2);
    assert.equal(await registered[0].provider.provideDocumentPasteEdits(document, ranges, transfer("h = Add (x, w)"), {}, token), undefined);
    assert.equal(logged.length, answer instanceof Error ? 1 : 0);
  }
  const { api, log } = fake();
  const nodes = new NodeClipboard(api);
  await nodes.copy(SOURCE);
  const { code, registered } = pasteCode();
  registerNodePaste(code, nodes);
  const { document, ranges, token, transfer } = pasteAt(2);
  const provide = registered[0].provider.provideDocumentPasteEdits;
  assert.equal(await provide(document, ranges, transfer("copied elsewhere"), {}, token), undefined);
  assert.equal(await provide(document, ranges, transfer(undefined), {}, token), undefined);
  assert.equal(await provide(document, [...ranges, ...ranges], transfer("h = Add (x, w)"), {}, token), undefined);
  assert.equal(log.length, 0, "the server asked for no paste of nodes");
});

test("Ctrl+V: without the paste-edit API (VS Code before 1.97) nothing is registered", () => {
  const { code, registered } = pasteCode(false);
  assert.equal(registerNodePaste(code, new NodeClipboard(fake().api)), undefined);
  assert.equal(registered.length, 0);
});

test("Copy node from the graph's menu: the statement's lines of the open document copied as Copy Nodes does", async () => {
  const text = "line 0\n   h = Add (x, w)\nline 2\n";
  const lines = text.split("\n");
  const document = {
    uri: { toString: () => SOURCE.uri },
    version: 7,
    getText: (r?: { start: { line: number }; end: { line: number } }) => (r === undefined ? text : lines.slice(r.start.line, r.end.line).map((l) => `${l}\n`).join("")),
  };
  const code = {
    workspace: { textDocuments: [document] },
    Range: class {
      start: { line: number; character: number };
      end: { line: number; character: number };
      constructor(sl: number, sc: number, el: number, ec: number) {
        this.start = { line: sl, character: sc };
        this.end = { line: el, character: ec };
      }
    },
  } as unknown as typeof vscode;
  const { api, log, get } = fake();
  const nodes = new NodeClipboard(api);
  const range = { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } };
  assert.equal(await copyNodesAt(code, nodes)("file:///closed.onnxtxt", range), false);
  assert.equal(await copyNodesAt(code, nodes)(SOURCE.uri, range), true);
  assert.equal(get(), "   h = Add (x, w)\n");
  assert.equal(await nodes.paste(TARGET), true); // the clipboard holds the copy: pasted with its model
  assert.match(log[0], /"source":\{"uri":"file:\/\/\/a.onnxtxt","text":"line 0\\n   h = Add \(x, w\)\\nline 2\\n","range":\{"start":\{"line":1,"character":0\}/);
});

test("a paste with notes (another opset version) is said as a warning, by Paste Nodes and by Ctrl+V", async () => {
  const title = "Pasted 1 node; ai.onnx 18 → 21 (this model's): the schema differs for Cast since 13 → since 21";
  const { api, log } = fake({ title, version: 2, edits: EDITS, notes: ["ai.onnx 18 → 21 (this model's): the schema differs for Cast since 13 → since 21"] });
  const nodes = new NodeClipboard(api);
  await nodes.copy(SOURCE);
  assert.equal(await nodes.paste(TARGET), true);
  assert.equal(log.at(-1), `warn onnxtext: ${title}`);
  const { code, registered } = pasteCode();
  const warned: string[] = [];
  (code as unknown as { window: object }).window = { showWarningMessage: async (m: string) => void warned.push(m) };
  registerNodePaste(code, nodes);
  const { document, ranges, token, transfer } = pasteAt(2);
  const [edit] = await registered[0].provider.provideDocumentPasteEdits(document, ranges, transfer("h = Add (x, w)"), {}, token);
  assert.equal(edit.title, title);
  assert.deepEqual(warned, [`onnxtext: ${title}`]);
});
