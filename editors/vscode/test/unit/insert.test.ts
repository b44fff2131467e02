// Insert a node on an edge (#32): the palette's order and entries, and the command's steps (the
// palette asked, the choice's edit asked and applied; a stale text, a refusal or a dismissal stop it).
import assert from "node:assert/strict";
import { test } from "node:test";
import { type InsertApi, type Insertion, type Operator, type PaletteItem, hasPlaceholders, insertNode, paletteItems } from "../../src/insert";

const OPS: Operator[] = [
  { domain: "", name: "Abs", since: 13, required: [] },
  { domain: "ai.onnx.ml", name: "Scaler", since: 1, required: [] },
  { domain: "", name: "Concat", since: 13, required: ["axis"] },
  { domain: "", name: "Relu", since: 14, required: [] },
  { domain: "", name: "Cast", since: 21, required: ["to"] },
];

test("the palette lists the default domain first, the common operators first, others qualified", () => {
  const items = paletteItems(OPS);
  assert.deepEqual(
    items.map((i) => i.label),
    ["Relu", "Cast", "Abs", "Concat", "ai.onnx.ml.Scaler"],
  );
  assert.equal(items[0].description, "ai.onnx 14");
  assert.equal(items[0].detail, undefined);
  assert.equal(items[1].detail, "required: to");
  assert.deepEqual(items[4].op, { domain: "ai.onnx.ml", name: "Scaler" });
  assert.equal(items[4].description, "ai.onnx.ml 1");
});

test("placeholders are told from escaped dollars", () => {
  assert.ok(hasPlaceholders("y = Concat <axis = ${1:0}> (x)"));
  assert.ok(hasPlaceholders("y = Gather (x, $1)"));
  assert.ok(!hasPlaceholders("y = Relu (x)"));
  assert.ok(!hasPlaceholders('y = Op <s = "\\${1:0}"> (x)'));
});

const RANGE = { start: { line: 4, character: 0 }, end: { line: 4, character: 0 } };
const MADE: Insertion = {
  title: "Insert Concat on 'a'",
  version: 3,
  name: "a_concat",
  snippet: { range: RANGE, text: "   a_concat = Concat <axis = ${1:0}> (a)\n" },
  edits: [{ range: { start: { line: 5, character: 17 }, end: { line: 5, character: 18 } }, newText: "a_concat" }],
};

/** A fake of VS Code and the server: what was asked, shown, applied and said. */
function fake(options: { version?: () => number; choose?: (items: PaletteItem[]) => PaletteItem | undefined; made?: unknown; listed?: unknown; fail?: boolean } = {}) {
  const log: string[] = [];
  const applied: Insertion[] = [];
  const api: InsertApi = {
    request: async <R>(method: string, params: object): Promise<R> => {
      log.push(`${method} ${JSON.stringify(params)}`);
      if (options.fail) {
        throw new Error("the server is not running");
      }
      const op = (params as { op?: unknown }).op;
      return (op === undefined ? (options.listed ?? { value: "a", version: 3, operators: OPS }) : (options.made ?? MADE)) as R;
    },
    version: () => (options.version ?? (() => 3))(),
    pick: async (items, title) => {
      log.push(`pick ${title} (${items.length})`);
      return (options.choose ?? ((all) => all.find((i) => i.label === "Concat")))(items);
    },
    show: async (uri) => void log.push(`show ${uri}`),
    apply: async (_uri, made) => {
      applied.push(made);
      return true;
    },
    error: (message) => void log.push(`error ${message}`),
  };
  return { api, log, applied };
}

test("the command asks the palette, then the chosen operator's edit, shows the text and applies it", async () => {
  const { api, log, applied } = fake();
  assert.equal(await insertNode(api, "file:///m.onnxtxt", 3, "a"), true);
  assert.deepEqual(log, [
    'onnxtext/insertNode {"textDocument":{"uri":"file:///m.onnxtxt"},"value":"a"}',
    "pick Insert a node on 'a' (5)",
    'onnxtext/insertNode {"textDocument":{"uri":"file:///m.onnxtxt"},"value":"a","op":{"domain":"","name":"Concat"}}',
    "show file:///m.onnxtxt",
  ]);
  assert.deepEqual(applied, [MADE]);
});

test("without placeholders the text is not brought forward", async () => {
  const made = { ...MADE, snippet: { range: RANGE, text: "   a_relu = Relu (a)\n" } };
  const { api, log, applied } = fake({ made, choose: (all) => all[0] });
  assert.equal(await insertNode(api, "file:///m.onnxtxt", 3, "a"), true);
  assert.ok(!log.some((l) => l.startsWith("show")));
  assert.equal(applied.length, 1);
});

test("a dismissed palette, a refusal, a changed text or a failed request apply nothing", async () => {
  const dismissed = fake({ choose: () => undefined });
  assert.equal(await insertNode(dismissed.api, "u", 3, "a"), false);
  assert.equal(dismissed.log.length, 2);

  const refused = fake({ listed: { refused: "no node can be inserted on 'a'" } });
  assert.equal(await insertNode(refused.api, "u", 3, "a"), false);
  assert.equal(refused.log.at(-1), "error onnxtext: no node can be inserted on 'a'");

  let version = 3;
  const changed = fake({ version: () => version, choose: (all) => ((version = 4), all[0]) });
  assert.equal(await insertNode(changed.api, "u", 3, "a"), false);
  assert.match(changed.log.at(-1) ?? "", /the text changed since/);
  assert.equal(changed.applied.length, 0);

  const before = fake({ version: () => 2 });
  assert.equal(await insertNode(before.api, "u", 3, "a"), false);
  assert.equal(before.log.length, 1);

  const failed = fake({ fail: true });
  assert.equal(await insertNode(failed.api, "u", 3, "a"), false);
  assert.match(failed.log.at(-1) ?? "", /error onnxtext: no node was inserted on 'a': the server is not running/);
});
