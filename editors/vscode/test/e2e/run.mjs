// The extension in a real VS Code, used as a person would: install the packaged .vsix into
// code-server, open texts and a binary model, and check what the page shows.
//
//   node test/e2e/run.mjs [--vsix FILE] [--python-bin DIR] [--out DIR] [--keep] [--only PARTS]
//
// --only runs some parts, comma-separated (while working on them; CI runs all): basics, big, disk,
// steady, graph, compare, restricted; --skip REGEX leaves out the checks whose names match.
//
// Needs: code-server + Node 24 + chromium (test/e2e/setup.sh prints the bin folder; pass it in
// ONNXTEXT_EDITOR_BIN or leave the default ~/.cache/onnxtext-editor/bin), a packaged .vsix
// (`npx @vscode/vsce package`), and a Python environment with onnxtext installed (--python-bin,
// default: the repository's .venv/bin). The test workspace gets a `.venv/bin/onnxtext` linked to
// it: the extension finds the server there, as in a user's project. (Not through PATH: the
// VS Code server replaces the extension host's PATH with the login shell's.)
// Exit code 0: every check passed; 1: a check failed; 2: the set-up failed.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Editor, log } from "./editor.mjs";
import { checkBigModel } from "./big_model.mjs";
import { checkRestrictedMode } from "./restricted.mjs";
import { steadyChecks, writeSteadyFiles } from "./steady.mjs";
import { graphChecks } from "./graph.mjs";
import { onDiskChecks } from "./on_disk.mjs";
import { compareChecks } from "./compare.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const EXTENSION = path.resolve(HERE, "..", "..");
const REPO = path.resolve(EXTENSION, "..", "..");

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

function newestVsix() {
  const found = fs.readdirSync(EXTENSION).filter((f) => /^onnxtext-.*\.vsix$/.test(f));
  found.sort((a, b) => fs.statSync(path.join(EXTENSION, b)).mtimeMs - fs.statSync(path.join(EXTENSION, a)).mtimeMs);
  return found.length ? path.join(EXTENSION, found[0]) : undefined;
}

const bin = process.env.ONNXTEXT_EDITOR_BIN ?? path.join(os.homedir(), ".cache", "onnxtext-editor", "bin");
const codeServer = path.join(bin, "code-server");
const vsix = path.resolve(option("--vsix", newestVsix() ?? "onnxtext.vsix"));
const pythonBin = path.resolve(option("--python-bin", path.join(REPO, ".venv", "bin")));
const out = path.resolve(option("--out", path.join(HERE, "out")));
const keep = process.argv.includes("--keep");
const only = option("--only", "");
const part = (name) => only === "" || only.split(",").includes(name);
const skip = option("--skip", "");
const onnxtext = path.join(pythonBin, "onnxtext");

for (const [what, file] of [["code-server (run test/e2e/setup.sh)", codeServer], ["the .vsix (npx @vscode/vsce package)", vsix], ["onnxtext (--python-bin)", onnxtext]]) {
  if (!fs.existsSync(file)) {
    console.error(`missing ${what}: ${file}`);
    process.exit(2);
  }
}

// ---- the workspace: texts written here, so that the checks know every position ----
const MODEL = `# An onnxtext model used by the editor test.
<
  ir_version: 10,
  opset_import: ["" : 21]
>
block (float[N, 4] x) => (float[N, 4] y)
{
  h = LeakyRelu <alpha = 0.5> (x)
  y = Relu (h)
}
`;
const BROKEN = `<ir_version: 10, opset_import: ["" : 21]>
broken (float[2] x) => (float[2] y)
{
  y = Reluu (x)
}
`;
const MESSY = `<ir_version:10,opset_import:["":21]>
messy(float[2] x)=>(float[2] y){
y=Relu(x)
    }
`;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtext-e2e-ws-"));
fs.writeFileSync(path.join(work, "model.onnxtxt"), MODEL);
fs.writeFileSync(path.join(work, "broken.onnxtxt"), BROKEN);
fs.writeFileSync(path.join(work, "messy.onnxtxt"), MESSY);
const EXAMPLE = fs.readFileSync(path.join(REPO, "examples", "mlp.onnxtxt"), "utf8");
fs.writeFileSync(path.join(work, "mlp.onnxtxt"), EXAMPLE);
writeSteadyFiles(work);
fs.mkdirSync(path.join(work, ".venv", "bin"), { recursive: true });
fs.symlinkSync(onnxtext, path.join(work, ".venv", "bin", "onnxtext"));
const binary = path.join(work, "block.onnx");
execFileSync(onnxtext, ["parse", path.join(work, "model.onnxtxt"), "-o", binary]);
const printedBefore = execFileSync(onnxtext, ["print", binary], { encoding: "utf8" });
// what Format Document must give: the command line's formatter on a copy
const expectedMessy = (() => {
  const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "onnxtext-fmt-")), "messy.onnxtxt");
  fs.writeFileSync(copy, MESSY);
  execFileSync(onnxtext, ["fmt", copy]);
  return fs.readFileSync(copy, "utf8");
})();

/** 1-based line and column of the first `needle` in `text` (after `after` when given). */
function at(text, needle, after = "") {
  const start = after ? text.indexOf(after) : 0;
  const offset = text.indexOf(needle, start);
  if (offset < 0) throw new Error(`"${needle}" not in the text`);
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, col: before[before.length - 1].length + 1 };
}

// ---- checks ----
let passed = 0;
const failed = [];
async function check(name, fn) {
  if (skip !== "" && new RegExp(skip).test(name)) return log(`skip ${name}`);
  const t = Date.now();
  try {
    const detail = await fn();
    passed++;
    log(`PASS ${name} (${Date.now() - t} ms)${detail === undefined ? "" : ` -> ${typeof detail === "string" ? detail : JSON.stringify(detail)}`}`);
  } catch (error) {
    failed.push(name);
    log(`FAIL ${name} (${Date.now() - t} ms): ${error instanceof Error ? error.message : error}`);
    await ed?.screenshot(path.join(out, `failure-${failed.length}.png`)).catch(() => {});
  }
}
function expect(condition, message) {
  if (!condition) throw new Error(message);
}
/** Each module of checks starts with no editor open, whatever the checks before it left (tabs, unsaved edits). */
const startFresh = (what) => check(`every editor closes before ${what}`, () => ed.closeAllEditors());
/** The checks of the basics part (skipped by --only without it). */
const basic = (name, fn) => (part("basics") ? check(name, fn) : undefined);
const hasScope = (found, prefixes) => found.scopes.some((s) => prefixes.some((p) => s.startsWith(p)));

let ed;
try {
  ed = await Editor.launch({
    codeServer,
    vsix,
    folder: work,
    file: path.join(work, "model.onnxtxt"),
  });
} catch (error) {
  console.error(`set-up failed: ${error instanceof Error ? error.stack : error}`);
  process.exit(2);
}

await check("the text opens as ONNX Text", async () => {
  const mode = await ed.waitFor(async () => ((await ed.languageMode()) === "ONNX Text" ? "ONNX Text" : null), { what: "language mode ONNX Text" });
  return mode;
});

await check("the status bar shows the server running (found in the workspace's .venv)", async () => {
  const item = await ed.waitFor(
    async () => (await ed.statusItems()).find((i) => i.id.includes("onnxtext") && /onnxtext/.test(i.text) && !/no server|stopped/.test(i.text)),
    { timeout: 60_000, what: "the onnxtext status bar item" },
  );
  const logText = await ed.waitFor(() => (/server: .*onnxtext.*from the workspace's .venv/.test(ed.outputLog()) ? ed.outputLog() : null), { what: "the server found in the workspace's .venv (output channel)" });
  return `${item.text}; ${logText.split("\n").find((l) => /from the workspace/.test(l)).trim()}`;
});

const relu = at(MODEL, "Relu (h)");
const leaky = at(MODEL, "LeakyRelu");
await basic("TextMate scopes: comment, header key, dtype, operator, number", async () => {
  const comment = await ed.scopes(1, 3);
  expect(hasScope(comment, ["comment.line.number-sign"]), `comment: ${comment.scopes} (${comment.raw})`);
  const key = await ed.scopes(at(MODEL, "ir_version").line, at(MODEL, "ir_version").col + 1);
  expect(hasScope(key, ["keyword"]), `header key: ${key.scopes}`);
  const dtype = await ed.scopes(at(MODEL, "float[N").line, at(MODEL, "float[N").col + 1);
  expect(hasScope(dtype, ["storage.type", "support.type"]), `dtype: ${dtype.scopes}`);
  const op = await ed.scopes(relu.line, relu.col + 1);
  expect(hasScope(op, ["support.function", "entity.name.function"]), `operator: ${op.scopes}`);
  const number = await ed.scopes(at(MODEL, "0.5").line, at(MODEL, "0.5").col + 1);
  expect(hasScope(number, ["constant.numeric"]), `number: ${number.scopes}`);
  expect(/semantic token type\s*function/i.test(op.raw), `the server's semantic token on the operator: ${op.raw}`);
  return { operator: op.scopes, dtype: dtype.scopes };
});

await basic("token colours: the operator is coloured unlike plain text", async () => {
  await ed.goto(relu.line, 1);
  const spans = await ed.page.evaluate(() => {
    const views = [...document.querySelectorAll(".part.editor .editor-group-container.active .monaco-editor .view-lines .view-line")];
    return views.map((v) => [...v.querySelectorAll('span[class*="mtk"]')].map((s) => [s.textContent.trim(), getComputedStyle(s).color]));
  });
  const line = spans.find((l) => l.some(([t]) => t === "Relu"));
  expect(line, "the operator's line is not rendered");
  const opColour = line.find(([t]) => t === "Relu")[1];
  const eqColour = line.find(([t]) => t === "=")?.[1];
  expect(opColour !== "rgb(59, 59, 59)" && opColour !== eqColour, `operator colour ${opColour}`);
  return opColour;
});

await basic("hover on an operator shows its schema", async () => {
  const text = await ed.hover(leaky.line, leaky.col + 2);
  expect(/LeakyRelu/.test(text) && /alpha/i.test(text), `hover: ${JSON.stringify(text)}`);
  return text.split("\n")[0];
});

await basic("hover on a value shows its type", async () => {
  const h = at(MODEL, "(h)");
  const text = await ed.hover(h.line, h.col + 1);
  expect(/float/.test(text) && /N/.test(text), `hover: ${JSON.stringify(text)}`);
  return text.split("\n").slice(0, 2).join(" | ");
});

await basic("completion after typing an operator prefix", async () => {
  await ed.goto(relu.line, MODEL.split("\n")[relu.line - 1].length + 1);
  await ed.press("Enter");
  await ed.type("z = Soft");
  const labels = await ed.completions();
  expect(labels.includes("Softmax") && labels.includes("Softplus"), `suggestions: ${labels}`);
  for (let i = 0; i < 10; i++) await ed.press("Control+Z");
  const restored = await ed.waitFor(async () => !Object.values(await ed.lines()).some((l) => l.includes("z = Soft")), { what: "undo" });
  return labels.slice(0, 6).join(", ");
});

await basic("live values after Run", async () => {
  await ed.command("onnxtext: Run Model (Live Values)");
  const lens = await ed.waitFor(async () => (await ed.codeLenses()).find((t) => /Live values: \d+ values/.test(t)), { timeout: 60_000, what: "the live-values code lens" });
  const shown = await ed.waitFor(async () => Object.values(await ed.lines()).find((l) => /y\s*=\s*Relu.*= .*float/.test(l) || /= float32/.test(l)), {
    timeout: 30_000,
    what: "a live value as an inlay hint",
  });
  await ed.screenshot(path.join(out, "onnxtext-vscode.png"));
  return `${lens}; ${shown.trim()}`;
});

await basic("a deliberate error: squiggle and Problems entry", async () => {
  await ed.quickOpen(path.join(work, "broken.onnxtxt"));
  await ed.waitForTab("broken.onnxtxt");
  const squiggle = await ed.waitFor(async () => (await ed.squiggles()).find((s) => s.severity === "error" && s.text.includes("Reluu")), { timeout: 60_000, what: "an error squiggle under Reluu" });
  const problems = await ed.problems();
  const row = problems.find((p) => /Reluu/.test(p.message) && p.line === at(BROKEN, "Reluu").line && p.col === at(BROKEN, "Reluu").col);
  expect(row, `Problems: ${JSON.stringify(problems)}`);
  return `${JSON.stringify(squiggle)}; ${row.message}`;
});

await basic("Format Document gives what onnxtext fmt gives", async () => {
  await ed.quickOpen(path.join(work, "messy.onnxtxt"));
  await ed.waitForTab("messy.onnxtxt");
  await ed.waitFor(async () => (await ed.languageMode()) === "ONNX Text", { what: "language mode" });
  await ed.focusEditor();
  await ed.command("onnxtext: Format Document");
  const want = expectedMessy.replace(/\n$/, "").split("\n");
  await ed.waitFor(
    async () => {
      const lines = await ed.lines();
      return want.every((l, i) => (lines[i + 1] ?? "").replace(/\s?: float\[[^\]]*\]/g, "") === l); // type hints stay shown while the edit is analysed
    },
    { timeout: 30_000, what: `the formatted text:\n${want.join("\n")}` },
  );
  // what is shown is the text less its hints; the saved file is the text itself, byte for byte
  await ed.press("Control+S");
  const saved = await ed.waitFor(() => {
    const now = fs.readFileSync(path.join(work, "messy.onnxtxt"), "utf8");
    return now !== MESSY ? now : null;
  }, { timeout: 15_000, what: "messy.onnxtxt saved" });
  expect(saved === expectedMessy, `saved:\n${saved}\nonnxtext fmt:\n${expectedMessy}`);
  return `${want.length} lines`;
});

await basic("a .onnx opens as text with the language's features", async () => {
  await ed.quickOpen(binary);
  await ed.waitForTab("block.onnx");
  const lines = await ed.waitFor(async () => {
    const l = await ed.lines();
    return Object.values(l).some((t) => t.includes("LeakyRelu")) ? l : null;
  }, { what: "the model's text" });
  await ed.waitFor(async () => (await ed.languageMode()) === "ONNX Text", { what: "language mode ONNX Text on the model" });
  const text = Object.values(lines).join("\n");
  expect(text.includes("ir_version"), `text: ${text}`);
  return (await ed.activeTab()) ?? "";
});

await basic("editing the .onnx text and saving writes the binary (onnxtext print shows the edit)", async () => {
  const printed = printedBefore;
  const where = at(printed, "0.5", "alpha");
  await ed.goto(where.line, where.col);
  for (let i = 0; i < 3; i++) await ed.press("Shift+ArrowRight");
  await ed.type("0.25");
  await ed.press("Control+S");
  const after = await ed.waitFor(() => {
    const now = execFileSync(onnxtext, ["print", binary], { encoding: "utf8" });
    return now.includes("0.25") ? now : null;
  }, { timeout: 30_000, what: "block.onnx to hold alpha = 0.25" });
  const line = after.split("\n").find((l) => l.includes("LeakyRelu"));
  expect(!after.includes("alpha = 0.5"), "the old value is still there");
  return line.trim();
});

if (part("big")) {
  await startFresh("the big model's checks");
  await checkBigModel({ ed, check, expect, work, pythonBin });
}

await basic("no error notification, nothing sent off the machine", async () => {
  const notes = await ed.notifications();
  expect(!notes.some((n) => /onnxtext.*(not found|did not start|cannot)/i.test(n)), `notifications: ${notes}`);
  expect(ed.blocked.length === 0, `requests to other hosts: ${ed.blocked.slice(0, 3)}`);
  return notes.length ? notes : "none";
});

await basic("the README's screenshot: an example with live values and a hover", async () => {
  await ed.quickOpen(path.join(work, "mlp.onnxtxt"));
  await ed.waitForTab("mlp.onnxtxt");
  await ed.command("onnxtext: Run Model (Live Values)");
  await ed.waitFor(async () => (await ed.codeLenses()).find((t) => /Live values: \d+ values/.test(t)), { timeout: 60_000, what: "live values on the example" });
  const softmax = at(EXAMPLE, "Softmax <");
  const shot = path.join(out, "vscode.png");
  const text = await ed.hover(softmax.line, softmax.col + 2, { screenshot: shot });
  expect(/Softmax/.test(text), `hover: ${JSON.stringify(text)}`);
  return shot;
});

if (part("disk")) {
  await startFresh("the checks of models changed on disk (#29)");
  await onDiskChecks({ ed, check, expect, at, work, pythonBin, onnxtext });
}
if (part("steady")) {
  await startFresh("the steady checks (#25)");
  await steadyChecks({ ed, check, expect, work, at });
}
if (part("graph")) {
  await startFresh("the graph checks (#22)");
  await graphChecks({ ed, check, expect, at, work, out, repo: REPO, onnxtext, pythonBin });
}
if (part("compare")) {
  await startFresh("the checks of Compare with… (#33)");
  await compareChecks({ ed, check, expect, work, onnxtext });
}

await ed.close({ keep: keep || failed.length > 0 });
if (failed.length > 0) log(`run dir kept: ${ed.server.runDir}; screenshots in ${out}`);
fs.rmSync(work, { recursive: true, force: true });
if (part("restricted")) await checkRestrictedMode({ check, codeServer, vsix, onnxtext, out, keep });
log(`${passed} passed, ${failed.length} failed${failed.length ? `: ${failed.join("; ")}` : ""}`);
process.exit(failed.length ? 1 : 0);
