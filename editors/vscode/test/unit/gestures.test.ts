// The graph's context menu (#32): which code actions are gestures, applying the one chosen (and
// refusing a stale one), and the menu's keys and placement.
import assert from "node:assert/strict";
import { test } from "node:test";
import type * as vscode from "vscode";
import { Gestures, REWRITE, type RenameApi, renameValue, rewrites } from "../../src/gestures";
import { deleteIndex, deletes, gestureTarget, menuPlace, moveIndex, opensMenu, producerOf } from "../../src/graphview/menu";
import type { GraphData, GraphNode } from "../../src/graphview/model";

const TITLES = [
  "Delete node 'hidden' and what only fed it (2 nodes, 2 initializers)",
  "Delete node 'hidden'",
  "Make 'hidden' a graph output (float[N, 8])",
  "Extract 1 node to a new model",
  "Extract 1 node to a local function (local.Extracted)",
];

/** A workspace edit (as much of it as Gestures reads): its title, the files it changes. */
function edit(title: string, files: string[] = ["file:///m.onnxtxt"]) {
  return { title, entries: () => files.map((f) => [{ toString: () => f }, []]) };
}

function action(title: string, kind: string, extra: Record<string, unknown> = { edit: edit(title) }): vscode.CodeAction {
  return { title, kind: { value: kind }, ...extra } as unknown as vscode.CodeAction;
}

test("the gestures are the refactor.rewrite code actions that do something, in the order offered", () => {
  const offered = [
    action("Fix: Reluu → Relu", "quickfix"),
    action(TITLES[1], REWRITE),
    { title: "a bare command", command: "x.y" } as vscode.Command,
    action("disabled", REWRITE, { edit: {}, disabled: { reason: "no" } }),
    action("nothing to do", REWRITE, {}),
    action(TITLES[2], `${REWRITE}.output`),
    action("refactor.rewriteish", "refactor.rewriteish"),
    action("by command", REWRITE, { command: { title: "c", command: "c" } }),
  ];
  assert.deepEqual(
    rewrites(offered).map((a) => a.title),
    [TITLES[1], TITLES[2], "by command"],
  );
  assert.deepEqual(rewrites(undefined), []);
});

function document(version: number): vscode.TextDocument {
  return { uri: { toString: () => "file:///m.onnxtxt" }, version } as unknown as vscode.TextDocument;
}

function fake(actions: (vscode.CodeAction | vscode.Command)[], applies = true) {
  const log: string[] = [];
  const gestures = new Gestures({
    codeActions: async () => actions,
    applyEdit: async (edit) => {
      log.push(`edit ${(edit as unknown as { title: string }).title}`);
      return applies;
    },
    execute: async (command) => log.push(`command ${command.command}`),
    show: async (uri) => log.push(`show ${uri.toString()}`),
    error: (message) => log.push(`error ${message}`),
  });
  return { gestures, log };
}

const RANGE = {} as vscode.Range;

test("the gesture chosen is applied: its edit, then its command; once", async () => {
  const { gestures, log } = fake([action("quick", "quickfix"), action("a", REWRITE), action("b", REWRITE, { edit: edit("b"), command: { title: "c", command: "then" } })]);
  assert.deepEqual(await gestures.ask(document(3), RANGE, 7), ["a", "b"]);
  assert.equal(await gestures.apply(document(3), 7, 1), true);
  assert.deepEqual(log, ["edit b", "command then"]);
  assert.equal(await gestures.apply(document(3), 7, 0), false, "an answer is used once");
  assert.deepEqual(log, ["edit b", "command then"]);
});

test("a file the gesture writes besides the text (a new model) is shown, once", async () => {
  const extract = action("Extract 1 node to a new model", REWRITE, { edit: edit("x", ["file:///m.extract.onnxtxt", "file:///m.extract.onnxtxt"]) });
  const { gestures, log } = fake([action("a", REWRITE), extract]);
  await gestures.ask(document(1), RANGE, 1);
  assert.equal(await gestures.apply(document(1), 1, 0), true);
  assert.deepEqual(log, ["edit a"], "the text itself is not shown again");
  await gestures.ask(document(1), RANGE, 2);
  assert.equal(await gestures.apply(document(1), 2, 1), true);
  assert.deepEqual(log, ["edit a", "edit x", "show file:///m.extract.onnxtxt"]);
});

test("a gesture of an older answer, or past the list, is not applied", async () => {
  const { gestures, log } = fake([action("a", REWRITE)]);
  await gestures.ask(document(1), RANGE, 1);
  await gestures.ask(document(1), RANGE, 2);
  assert.equal(await gestures.apply(document(1), 1, 0), false);
  assert.equal(await gestures.apply(document(1), 2, 5), false);
  assert.deepEqual(log, []);
});

test("a gesture asked before the text changed is refused, and said", async () => {
  const { gestures, log } = fake([action("a", REWRITE)]);
  await gestures.ask(document(1), RANGE, 1);
  assert.equal(await gestures.apply(document(2), 1, 0), false);
  assert.equal(log.length, 1);
  assert.match(log[0], /^error onnxtext: "a" was not applied: the text changed/);
});

test("an edit VS Code refuses is said, and its command not run", async () => {
  const { gestures, log } = fake([action("a", REWRITE, { edit: edit("a"), command: { title: "c", command: "then" } })], false);
  await gestures.ask(document(1), RANGE, 1);
  assert.equal(await gestures.apply(document(1), 1, 0), false);
  assert.deepEqual(log, ["edit a", 'error onnxtext: "a" could not be applied.']);
});

function key(k: string, mods: Partial<{ shiftKey: boolean; ctrlKey: boolean; altKey: boolean; metaKey: boolean }> = {}) {
  return { key: k, shiftKey: false, ctrlKey: false, altKey: false, metaKey: false, ...mods };
}

test("the context-menu key and Shift+F10 open the menu; Delete alone deletes", () => {
  assert.equal(opensMenu(key("ContextMenu")), true);
  assert.equal(opensMenu(key("F10", { shiftKey: true })), true);
  assert.equal(opensMenu(key("F10")), false);
  assert.equal(opensMenu(key("F10", { shiftKey: true, ctrlKey: true })), false);
  assert.equal(opensMenu(key("Delete")), false);
  assert.equal(deletes(key("Delete")), true);
  assert.equal(deletes(key("Delete", { shiftKey: true })), false);
  assert.equal(deletes(key("Backspace")), false);
});

test("Delete picks the plain delete gesture, not the one with the feeders", () => {
  assert.equal(deleteIndex(TITLES), 1);
  assert.equal(deleteIndex(["Delete node 'b' (its readers read 'a')", "Delete node 'b' and what only fed it (1 node)"]), 0);
  // a node named like the other title is still the plain one
  assert.equal(deleteIndex(["Delete node 'x and what only fed it (1 node)'"]), 0);
  assert.equal(deleteIndex(["Make 'y' a graph output", "Stop exporting 'y'"]), -1);
});

test("arrows, Home and End move through the menu, wrapping around", () => {
  assert.equal(moveIndex(0, "ArrowDown", 3), 1);
  assert.equal(moveIndex(2, "ArrowDown", 3), 0);
  assert.equal(moveIndex(0, "ArrowUp", 3), 2);
  assert.equal(moveIndex(1, "Home", 3), 0);
  assert.equal(moveIndex(0, "End", 3), 2);
  assert.equal(moveIndex(0, "Enter", 3), undefined);
  assert.equal(moveIndex(0, "ArrowDown", 0), undefined);
});

test("the menu opens where asked, moved in to fit the window", () => {
  const size = { width: 200, height: 100 };
  const room = { width: 500, height: 400 };
  assert.deepEqual(menuPlace({ x: 10, y: 20 }, size, room), { x: 10, y: 20 });
  assert.deepEqual(menuPlace({ x: 450, y: 380 }, size, room), { x: 300, y: 300 });
  assert.deepEqual(menuPlace({ x: 50, y: 50 }, { width: 600, height: 500 }, room), { x: 0, y: 0 });
});

test("a menu is on a node's statement, or on the statement of its weight's row", () => {
  const at = (line: number) => ({ start: { line, character: 3 }, end: { line, character: 30 } });
  const row = { value: "W1", param: "B", type: "float[4, 8]", kind: "initializer", shared: false, severity: null, range: at(2) };
  const node: GraphNode = { id: "n", kind: "op", label: "hidden_mm", op: "MatMul", domain: "", range: at(9), group: null, calls: null, severity: null, rows: [row] };
  assert.deepEqual(gestureTarget(node, null), { label: "MatMul hidden_mm", range: at(9) });
  assert.deepEqual(gestureTarget(node, 0), { label: "weight W1", range: at(2) });
  assert.deepEqual(gestureTarget(node, 4), { label: "MatMul hidden_mm", range: at(9) }, "a row gone with an edit: the node");
  assert.deepEqual(gestureTarget({ ...node, kind: "input", label: "X", rows: undefined }, null).label, "input X");
});

test("an edge's menu is the menu of the node that makes its value (names may hold spaces)", () => {
  const at = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
  const node = (id: string): GraphNode => ({ id, kind: "op", label: id, op: "Relu", domain: "", range: at, group: null, calls: null, severity: null });
  const edge = (value: string, source: string, target: string) => ({ value, source, target, type: "", live: "" });
  const data: GraphData = {
    nodes: [node("in:X"), node("n1"), node("n2")],
    edges: [edge("X", "in:X", "n1"), edge("my value", "n1", "n2"), edge("value", "n2", "out:Y"), edge("gone", "elsewhere", "n2")],
    groups: [],
  };
  assert.equal(producerOf(data, "X"), "in:X");
  assert.equal(producerOf(data, "my value"), "n1", "a name with a space is not its last word");
  assert.equal(producerOf(data, "value"), "n2");
  assert.equal(producerOf(data, "my value X"), "n1", "an edge of several values: its first");
  assert.equal(producerOf(data, "gone"), undefined, "a producer not in the picture");
  assert.equal(producerOf(data, null), undefined);
  assert.equal(producerOf(data, ""), undefined);
});

/** A RenameApi recording what the command did; the document at `version`, the user typing `typed`. */
function renameApi(typed: string | undefined, problems: Record<string, string> = {}) {
  const seen = { errors: [] as string[], validated: [] as (string | undefined)[], renamed: [] as string[], applied: 0, version: 3 };
  const api: RenameApi = {
    version: () => seen.version,
    ask: async (value, _title, validate) => {
      for (const name of ["", value, "taken", typed ?? ""]) {
        seen.validated.push(await validate(name));
      }
      return typed;
    },
    problem: async (_uri, _position, name) => problems[name],
    rename: async (_uri, position, name) => {
      seen.renamed.push(`${name}@${position.line}:${position.character}`);
      return { size: 1 } as unknown as vscode.WorkspaceEdit;
    },
    apply: async () => {
      seen.applied += 1;
      return true;
    },
    error: (message) => seen.errors.push(message),
  };
  return { api, seen };
}

test("Rename value…: the new name asked (its problems said as typed), then the text's rename applied once", async () => {
  const { api, seen } = renameApi("hidden", { taken: "'taken' is already a value (line 5)" });
  assert.equal(await renameValue(api, "file:///m.onnxtxt", 3, "b", { line: 4, character: 3 }), true);
  assert.deepEqual(seen.validated, ["a name cannot be empty", undefined, "'taken' is already a value (line 5)", undefined]);
  assert.deepEqual(seen.renamed, ["hidden@4:3"]);
  assert.equal(seen.applied, 1);
  assert.deepEqual(seen.errors, []);
});

test("Rename value…: nothing done when cancelled, when the name is the same, or when the text changed", async () => {
  for (const typed of [undefined, "b"]) {
    const { api, seen } = renameApi(typed);
    assert.equal(await renameValue(api, "file:///m.onnxtxt", 3, "b", { line: 4, character: 3 }), false);
    assert.deepEqual([seen.renamed, seen.applied, seen.errors], [[], 0, []]);
  }
  const { api, seen } = renameApi("hidden");
  api.ask = async () => {
    seen.version = 4; // an edit while the box is open
    return "hidden";
  };
  assert.equal(await renameValue(api, "file:///m.onnxtxt", 3, "b", { line: 4, character: 3 }), false);
  assert.equal(seen.applied, 0);
  assert.match(seen.errors[0], /the text changed since/);
});

test("Rename value…: the server's refusal at the end is said, nothing applied", async () => {
  const { api, seen } = renameApi("a");
  api.rename = async () => {
    throw new Error("'a' is already a value (line 4): the same graph would define it twice");
  };
  assert.equal(await renameValue(api, "file:///m.onnxtxt", 3, "b", { line: 4, character: 3 }), false);
  assert.equal(seen.applied, 0);
  assert.match(seen.errors[0], /^onnxtext: 'b' was not renamed: 'a' is already a value/);
});
