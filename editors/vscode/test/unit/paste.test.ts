// Paste from another model (#32): Copy Nodes remembers the model, Paste Nodes asks the server when
// the clipboard still holds that copy, and pastes plainly otherwise (or when the server refuses).
import assert from "node:assert/strict";
import { test } from "node:test";
import { type Answer, type EditorLike, NodeClipboard, type PasteApi, pasteParams } from "../../src/paste";

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
