// Server discovery (src/server.ts) with and without workspace trust, on real programs: each
// fake `onnxtext` answers `--version` and writes its path into a marker file, so a test sees
// what ran, not only what was chosen.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, test } from "node:test";
import { Discovery, candidates, configuredPath, findServer } from "../../src/server";
import { folder, reset, state } from "./vscode-stub";

let root: string;
let work: string;
let marker: string;
let venvServer: string;
let userServer: string;
const savedPath = process.env.PATH;
const savedCwd = process.cwd();

/** An executable that says it is onnxtext (or Python with onnxtext) and leaves its path in the marker. */
function fake(file: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\necho "${file}" >> "${marker}"\necho "onnxtext 0.0.0 (fake)"\n`, { mode: 0o755 });
  return file;
}

/** The programs that ran, in order. */
function ran(): string[] {
  return fs.existsSync(marker) ? fs.readFileSync(marker, "utf8").split("\n").filter(Boolean) : [];
}

async function discover(trusted: boolean): Promise<Discovery> {
  state.trusted = trusted;
  return findServer(configuredPath(trusted), trusted, () => undefined);
}

beforeEach(() => {
  reset();
  root = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtext-discovery-"));
  work = path.join(root, "cloned");
  marker = path.join(root, "ran.txt");
  venvServer = fake(path.join(work, ".venv", "bin", "onnxtext"));
  userServer = fake(path.join(root, "user", "bin", "onnxtext"));
  state.folders = [folder(work)];
  process.env.PATH = "";
});

afterEach(() => {
  process.env.PATH = savedPath;
  process.chdir(savedCwd);
  fs.rmSync(root, { recursive: true, force: true });
});

test("trusted: the workspace's .venv is found and run", async () => {
  const found = await discover(true);
  assert.equal(found.server?.command, venvServer);
  assert.equal(found.server?.source, "the workspace's .venv");
  assert.deepEqual(found.server?.args, ["lsp"]);
  assert.deepEqual(ran(), [venvServer]);
});

test("untrusted: the workspace's .venv is never run; onnxtext on PATH is", async () => {
  const none = await discover(false);
  assert.equal(none.server, undefined);
  assert.deepEqual(none.problems, []);
  process.env.PATH = path.dirname(userServer);
  const found = await discover(false);
  assert.equal(found.server?.command, userServer);
  assert.equal(found.server?.source, "PATH");
  assert.deepEqual(ran(), [userServer]);
});

test("untrusted: the workspace's onnxtext.server.path is ignored, the user's counts", async () => {
  const planted = fake(path.join(work, "tools", "onnxtext"));
  state.serverPath = { user: userServer, workspace: planted };
  assert.equal(configuredPath(true), planted);
  assert.equal(configuredPath(false), userServer);
  const found = await discover(false);
  assert.equal(found.server?.command, userServer);
  assert.equal(found.server?.source, "the onnxtext.server.path setting");
  state.serverPath = { user: undefined, workspace: planted };
  assert.equal(configuredPath(false), "");
  assert.equal((await discover(false)).server, undefined);
  assert.deepEqual(ran(), [userServer]);
});

test("untrusted: a user setting that points into the folder is refused without running it", async () => {
  state.serverPath.user = "${workspaceFolder}/.venv/bin/onnxtext";
  const refused = await discover(false);
  assert.equal(refused.server, undefined);
  assert.equal(refused.problems.length, 1);
  assert.match(refused.problems[0], /inside the workspace and the folder is not trusted \(Restricted Mode\)/);
  assert.deepEqual(ran(), []);
  const trusted = await discover(true);
  assert.equal(trusted.server?.command, venvServer);
  assert.deepEqual(ran(), [venvServer]);
});

test("untrusted: PATH entries inside the folder or relative are not looked in", async () => {
  process.chdir(work);
  process.env.PATH = [path.dirname(venvServer), path.join(".venv", "bin"), path.dirname(userServer)].join(path.delimiter);
  const untrusted = await discover(false);
  assert.equal(untrusted.server?.command, userServer);
  const trusted = await discover(true);
  assert.equal(trusted.server?.command, venvServer);
  assert.equal(trusted.server?.source, "PATH");
  assert.deepEqual(ran(), [userServer, venvServer]);
});

test("the Python extension's interpreter: asked when trusted, never when untrusted", async () => {
  fs.rmSync(path.join(work, ".venv"), { recursive: true });
  state.python = fake(path.join(root, "envs", "py", "bin", "python3"));
  const untrusted = await discover(false);
  assert.equal(untrusted.server, undefined);
  assert.equal(state.pythonAsked, 0);
  const trusted = await discover(true);
  assert.equal(trusted.server?.command, state.python);
  assert.deepEqual(trusted.server?.args, ["-m", "onnxtext", "lsp"]);
  assert.equal(trusted.server?.source, "the Python extension's interpreter");
  assert.deepEqual(ran(), [state.python]);
});

test("a virtual folder is not looked in; a broken candidate is reported with its reason", async () => {
  state.folders = [folder(work, "vscode-vfs")];
  assert.deepEqual(await candidates("", true), []);
  state.folders = [folder(work)];
  fs.writeFileSync(venvServer, "#!/bin/sh\necho 'No module named onnxtext' >&2\nexit 1\n", { mode: 0o755 });
  const found = await discover(true);
  assert.equal(found.server, undefined);
  assert.match(found.problems[0], /--version failed: No module named onnxtext \(from the workspace's \.venv\)/);
});
