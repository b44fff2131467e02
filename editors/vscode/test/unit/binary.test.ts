// The file-system provider of `.onnx` texts (src/binary.ts) on its own, with a fake server that
// reads the disk at every openBinary as the real one does: a read and a stat always describe the
// files as they are now (a change on disk, a save of ours), concurrent opens share one request,
// and a watched model says when its files change, also after a save replaced the file by a rename.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, test } from "node:test";
import * as vscode from "vscode";
import { FileStamp, ModelFileSystem, OPEN_BINARY, SAVE_BINARY, textUri } from "../../src/binary";

/** A server whose "model" is a text file, printed as `printed: <its content>`, with `.data` beside it
 * as its external data (`printed: <content> with <data>`); `hold` keeps each openBinary's answer (read from the disk when asked) until
 * released, in order. */
class FakeServer {
  opens = 0;
  saves = 0;
  hold = false;
  stamps = true;
  private readonly held: (() => void)[] = [];

  async request<R>(method: string, params: { uri: string; text?: string }): Promise<R> {
    const file = params.uri.replace(/^file:\/\//, "");
    if (method === OPEN_BINARY) {
      this.opens++;
      const data = fs.existsSync(`${file}.data`) ? ` with ${fs.readFileSync(`${file}.data`, "utf8")}` : "";
      const text = `printed: ${fs.readFileSync(file, "utf8")}${data}`;
      const known = this.known(file);
      if (this.hold) {
        await new Promise<void>((resolve) => this.held.push(resolve));
      }
      return { text, editable: true, note: null, ...known } as R;
    }
    if (method === SAVE_BINARY) {
      this.saves++;
      replace(file, params.text!.replace(/^printed: /, ""));
      return { written: true, unchanged: false, diagnostics: [], ...this.known(file) } as R;
    }
    throw new Error(`unexpected ${method}`);
  }

  release(): void {
    this.held.shift()?.();
  }

  private known(file: string): { files?: string[]; stamp?: FileStamp[] } {
    if (!this.stamps) return {};
    const files = [file, `${file}.data`].filter((f) => fs.existsSync(f));
    return { files, stamp: files.map(stampOf) };
  }
}

function stampOf(file: string): FileStamp {
  const st = fs.statSync(file, { bigint: true });
  return [file, Number(st.size), String(st.mtimeNs), String(st.ino)];
}

/** Writes `file` as a save does: a new file renamed over the old one. */
function replace(file: string, content: string): void {
  fs.writeFileSync(`${file}.tmp`, content);
  fs.renameSync(`${file}.tmp`, file);
}

let root: string;
let model: string;
let uri: vscode.Uri;
let server: FakeServer;
let provider: ModelFileSystem;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtext-provider-"));
  model = path.join(root, "m.onnx");
  fs.writeFileSync(model, "A");
  uri = textUri(vscode.Uri.file(model));
  server = new FakeServer();
  provider = new ModelFileSystem(server, () => undefined);
});

afterEach(() => {
  provider.dispose();
  fs.rmSync(root, { recursive: true, force: true });
});

const read = async () => new TextDecoder().decode(await provider.readFile(uri));

test("open: stat then read make one request; a read after a change on disk gives the new text", async () => {
  await provider.stat(uri);
  assert.equal(await read(), "printed: A");
  assert.equal(server.opens, 1);
  assert.equal(await read(), "printed: A");
  assert.equal(server.opens, 1, "the files did not change: the text is served again");
  replace(model, "BB");
  assert.equal(await read(), "printed: BB");
});

test("two concurrent stats at open share one request, and no stale text is read after a save", async () => {
  server.hold = true;
  const first = provider.stat(uri);
  const second = provider.stat(uri);
  server.release();
  await first;
  server.release(); // (a second request, if any, answers now with the text read before the save)
  await second;
  assert.equal(server.opens, 1);
  assert.equal(await read(), "printed: A");
  server.hold = false;
  await provider.writeFile(uri, new TextEncoder().encode("printed: SAVED"));
  assert.equal(fs.readFileSync(model, "utf8"), "SAVED");
  assert.equal(await read(), "printed: SAVED", "Revert after a save shows the saved text");
  assert.equal(server.opens, 1, "the saved text is what the disk holds: no request");
  const after = await provider.stat(uri);
  assert.equal(after.size, "printed: SAVED".length);
});

/** Waits (a turn of the event loop at a time) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  for (let turns = 0; !condition(); turns++) {
    assert.ok(turns < 10_000, "the condition never held");
    await new Promise((resolve) => setImmediate(resolve));
  }
}

test("a fetch under way when the file changes is followed by another: the read gives the new text", async () => {
  server.hold = true;
  const reading = read(); // the server has read "A" and answers later
  replace(model, "NEW");
  server.release();
  await until(() => server.opens === 2);
  server.release();
  assert.equal(await reading, "printed: NEW");
});

test("a read under way when our save lands does not replace the saved text", async () => {
  await provider.stat(uri);
  fs.writeFileSync(model, "B"); // the next read fetches
  server.hold = true;
  const reading = read(); // the server has read "B" and answers later
  server.hold = false;
  await provider.writeFile(uri, new TextEncoder().encode("printed: SAVED"));
  server.release();
  assert.equal(await reading, "printed: SAVED");
  assert.equal(await read(), "printed: SAVED");
  assert.equal(server.opens, 2);
});

test("a stat after an outside change reports a later mtime and another size, even for a text of the same length", async () => {
  const before = await provider.stat(uri);
  assert.equal(before.size, "printed: A".length);
  const old = fs.statSync(model);
  replace(model, "Z"); // the same length, and the time put back
  fs.utimesSync(model, old.atime, old.mtime);
  const after = await provider.stat(uri);
  assert.ok(after.mtime > before.mtime, `mtime ${before.mtime} -> ${after.mtime}`);
  assert.notEqual(after.size, before.size);
  assert.equal(await read(), "printed: Z");
  assert.equal(server.opens, 2);
  const again = await provider.stat(uri);
  assert.deepEqual([again.mtime, again.size], [after.mtime, after.size], "the same state of the files: the same answer");
});

test("a rewrite in place of the same size with its time put back is seen (the inode's change time moved)", async () => {
  const before = await provider.stat(uri);
  const old = fs.statSync(model);
  fs.writeFileSync(model, "Z"); // the same inode, the same size
  fs.utimesSync(model, old.atime, old.mtime);
  const after = await provider.stat(uri);
  assert.equal(await read(), "printed: Z");
  assert.ok(after.mtime > before.mtime && after.size !== before.size, `${JSON.stringify(before)} -> ${JSON.stringify(after)}`);
});

test("a file touched (its text as it was) keeps what stat says: no conflict for a save over it", async () => {
  const before = await provider.stat(uri);
  const later = new Date(Date.now() + 60_000);
  fs.utimesSync(model, later, later);
  const after = await provider.stat(uri);
  assert.equal(server.opens, 2, "the file changed: read again");
  assert.deepEqual([after.mtime, after.size], [before.mtime, before.size]);
});

test("a change of an external-data file makes a new text (the model file untouched)", async () => {
  fs.writeFileSync(`${model}.data`, "weights");
  const before = await provider.stat(uri);
  fs.writeFileSync(`${model}.data`, "other weights");
  const after = await provider.stat(uri);
  assert.equal(server.opens, 2);
  assert.ok(after.mtime >= before.mtime && after.size !== before.size);
  assert.equal(await read(), "printed: A with other weights");
});

test("a server that does not say what it read: the model file's state before the request stands for it", async () => {
  server.stamps = false;
  assert.equal(await read(), "printed: A");
  assert.equal(await read(), "printed: A");
  assert.equal(server.opens, 1);
  replace(model, "C");
  assert.equal(await read(), "printed: C");
  await provider.writeFile(uri, new TextEncoder().encode("printed: D"));
  assert.equal(await read(), "printed: D");
  assert.equal(server.opens, 2);
});

/** The type of the next change event for `uri` (rejects after `ms`: the event never came). */
function nextChange(ms = 5000): Promise<vscode.FileChangeType> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      listener.dispose();
      reject(new Error(`no change event within ${ms} ms`));
    }, ms);
    const listener = provider.onDidChangeFile((events) => {
      const event = events.find((e) => e.uri.toString() === uri.toString());
      if (event !== undefined) {
        clearTimeout(timer);
        listener.dispose();
        resolve(event.type);
      }
    });
  });
}

test("a watched model that is a symbolic link: a change of its target in another folder is a change", async () => {
  const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtext-provider-target-"));
  const target = path.join(elsewhere, "real.onnx");
  fs.writeFileSync(target, "T");
  fs.rmSync(model);
  fs.symlinkSync(target, model);
  const watch = provider.watch(uri);
  try {
    assert.equal(await read(), "printed: T");
    const changed = nextChange();
    replace(target, "U");
    assert.equal(await changed, vscode.FileChangeType.Changed);
    assert.equal(await read(), "printed: U");
  } finally {
    watch.dispose();
    fs.rmSync(elsewhere, { recursive: true, force: true });
  }
});

test("a watched model: each outside replacement by rename is a change (a watch on the file would see only the first), a removal a deletion", async () => {
  const watch = provider.watch(uri);
  try {
    await provider.stat(uri);
    for (const content of ["B", "C"]) {
      const changed = nextChange();
      replace(model, content);
      assert.equal(await changed, vscode.FileChangeType.Changed);
      assert.equal(await read(), `printed: ${content}`);
    }
    const deleted = nextChange();
    fs.rmSync(model);
    assert.equal(await deleted, vscode.FileChangeType.Deleted);
  } finally {
    watch.dispose();
  }
});
