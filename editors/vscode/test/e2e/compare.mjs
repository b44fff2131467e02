// "Compare with…" (issue 33), checked in the real editor: a text compared with another file opens
// VS Code's diff editor and, beside it, the graph of this version with the changed node coloured
// (amber), the added one green, the others dimmed; a click on the changed node shows its statement
// in both texts of the diff editor. Called from run.mjs.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { highlightedLines } from "./editor.mjs";

const A = `<ir_version: 10, opset_import: ["" : 21]>
pair (float[N, 4] x) => (float[N, 4] y)
{
  h = Relu (x)
  k = Neg (h)
  y = Abs (k)
}
`;
// h's Relu became a Tanh; a Sigmoid was added between k and y
const B = A.replace("h = Relu (x)", "h = Tanh (x)").replace("y = Abs (k)", "s = Sigmoid (k)\n  y = Abs (s)");

/** The frame of a comparison's graph (its page's title is "Compare") with node `id` drawn. */
async function compareFrame(ed, id, timeout = 60_000) {
  return ed.waitFor(
    async () => {
      for (const f of ed.page.frames()) {
        const ok = await f.evaluate((i) => document.title === "Compare" && !!document.querySelector(`svg.graph .node[data-id="${i}"]`), id).catch(() => false);
        if (ok) return f;
      }
      return null;
    },
    { timeout, what: "the comparison's graph view" },
  );
}

/** Each text editor of the first group's diff editor: the lines highlighted as a picked statement. */
async function highlightedInDiff(ed) {
  const group = ".part.editor .editor-group-container";
  return highlightedLines(ed, ["original", "modified"].map((side) => `${group} .monaco-diff-editor .editor.${side} .monaco-editor`));
}

export async function compareChecks({ ed, check, expect, work, onnxtext }) {
  const a = path.join(work, "pair_a.onnxtxt");
  const b = path.join(work, "pair_b.onnxtxt");
  fs.writeFileSync(a, A);
  fs.writeFileSync(b, B);
  // the diff editor side by side in the test's window (VS Code makes a narrow one inline)
  const settings = path.join(work, ".vscode", "settings.json");
  fs.mkdirSync(path.dirname(settings), { recursive: true });
  // git on here (off in the test's user settings): HEAD is read through VS Code's Git extension
  fs.writeFileSync(settings, JSON.stringify({ "diffEditor.useInlineViewWhenSpaceIsLimited": false, "git.enabled": true }));
  let frame;

  await check("Compare with… another file: the diff editor, and the graph with the changed node amber, the added green, the rest dimmed (#33)", async () => {
    await ed.waitFor(() => ed.quickOpen(b).then(() => true), { timeout: 60_000, interval: 1000, what: "pair_b.onnxtxt in Quick Open" });
    await ed.waitForTab("pair_b.onnxtxt");
    await ed.command("onnxtext: Compare with…");
    const input = ed.page.locator(".quick-input-widget input").first();
    await input.waitFor({ state: "visible", timeout: 10_000 });
    await ed.page.locator(".quick-input-list .monaco-list-row", { hasText: "Another File…" }).first().click();
    // code-server's open dialog is a quick input holding a path: the other file's, then Enter
    await ed.waitFor(async () => (await input.isVisible()) && (await input.inputValue()).startsWith("/"), { what: "the open dialog's path" });
    await input.fill(a);
    await ed.page.keyboard.press("Enter");
    frame = await compareFrame(ed, "s");
    const style = (id) => frame.$eval(`svg.graph .node[data-id="${id}"]`, (g) => ({ fill: getComputedStyle(g.querySelector("rect")).fill, opacity: getComputedStyle(g).opacity }));
    const [changed, added, plain] = [await style("h"), await style("s"), await style("k")];
    expect(changed.fill === "rgb(255, 224, 178)" && changed.opacity === "1", `the changed Tanh: ${JSON.stringify(changed)}`);
    expect(added.fill === "rgb(200, 230, 201)" && added.opacity === "1", `the added Sigmoid: ${JSON.stringify(added)}`);
    expect(plain.opacity === "0.45", `the unchanged Neg: ${JSON.stringify(plain)}`);
    const tabs = await ed.page.$$eval(".part.editor .tab", (els) => els.map((e) => e.getAttribute("aria-label") ?? ""));
    expect(tabs.some((t) => t.includes("pair_a.onnxtxt ↔ pair_b.onnxtxt")), `the diff editor's tab: ${tabs}`);
    const notes = await ed.notifications();
    expect(notes.some((n) => /3 changes: 1 added, 0 removed, 2 changed/.test(n)), `the summary: ${notes}`);
    return `changed ${changed.fill}, added ${added.fill}, unchanged opacity ${plain.opacity}; ${notes.find((n) => /changes/.test(n))}`;
  });

  await check("clicking the changed node shows its statement in both texts of the diff editor (#33)", async () => {
    await frame.click('svg.graph .node[data-id="h"]');
    let found = [];
    const lines = await ed
      .waitFor(
        async () => {
          found = await highlightedInDiff(ed);
          return found.length === 2 && found[0].includes(4) && found[1].includes(4) ? found : null;
        },
        { what: "line 4 (h's statement) highlighted in both texts" },
      )
      .catch((error) => {
        throw new Error(`${error.message}; highlighted: ${JSON.stringify(found)}`);
      });
    return `highlighted: A ${lines[0]}, B ${lines[1]}`;
  });
  await check("an edit of this version re-colours the comparison: Tanh typed back to Relu, h is unchanged again (#33)", async () => {
    await ed.page.locator(".part.editor .monaco-diff-editor .editor.modified .view-lines").first().click({ position: { x: 40, y: 5 } });
    await ed.page.keyboard.press("Control+G");
    const input = ed.page.locator(".quick-input-widget input").first();
    await input.waitFor({ state: "visible", timeout: 10_000 });
    await input.fill(":4:7");
    await ed.page.keyboard.press("Enter");
    await input.waitFor({ state: "hidden", timeout: 10_000 });
    for (let i = 0; i < 4; i++) await ed.page.keyboard.press("Shift+ArrowRight");
    await ed.type("Relu");
    const style = (id) => frame.$eval(`svg.graph .node[data-id="${id}"]`, (g) => `${getComputedStyle(g.querySelector("rect")).fill} ${getComputedStyle(g).opacity}`);
    const now = await ed.waitFor(async () => ((await style("h")).endsWith(" 0.45") ? style("h") : null), { what: "h dimmed (unchanged) after the edit" });
    const added = await style("s");
    expect(added.startsWith("rgb(200, 230, 201)"), `the added Sigmoid after the edit: ${added}`);
    return `h: ${now}; s: ${added}`;
  });

  await check("Compare Values: both models run, the differing edges red and labelled Δ, B's text with each value's Δ as an inlay hint (#33)", async () => {
    // after the edit B is A with a Sigmoid before y: h and k agree, y (Abs of s, not of k) is the first to differ
    await ed.command("onnxtext: Compare Values of the Comparison (run both models)");
    const red = await ed.waitFor(
      async () => {
        const edges = await frame.$$eval("svg.graph path.edge", (ps) => ps.map((p) => ({ values: p.getAttribute("data-values") ?? "", stroke: getComputedStyle(p).stroke })));
        const found = edges.filter((e) => e.stroke === "rgb(198, 40, 40)").map((e) => e.values);
        return found.some((v) => v.split(" ").includes("y")) && !found.some((v) => v.split(" ").includes("k")) ? found : null;
      },
      { timeout: 60_000, what: "the edge of y in red, not k's" },
    );
    const labels = await frame.$$eval("svg.graph text", (ts) => ts.map((t) => t.textContent ?? "").filter((t) => t.includes("Δ")));
    expect(labels.length > 0, `no edge label says Δ: ${JSON.stringify(labels)}`);
    const modified = ".part.editor .monaco-diff-editor .editor.modified .view-lines .view-line";
    const hinted = await ed.waitFor(
      async () => {
        const lines = await ed.page.$$eval(modified, (els) => els.map((e) => e.textContent ?? ""));
        return lines.find((l) => /^\s*y\b.*Δ [0-9.e+-]+ \(first to differ\).*Abs/.test(l.replace(/\u00a0/g, " "))) ?? null;
      },
      { timeout: 30_000, what: "y's Δ as an inlay hint in B's text" },
    );
    const note = await ed.waitFor(async () => (await ed.notifications()).find((n) => /values compared on made-up inputs x .*first 'y'/.test(n)) ?? null, { what: "the summary of the values compared" });
    return `${note}; red edges ${red.join(" | ")}; labels ${labels.slice(0, 2).join(" | ")}; hint: ${hinted.trim()}`;
  });
  await check("Compare with… an .onnx file: its printed text on the left, the same changes coloured (#33)", async () => {
    const model = path.join(work, "pair_a.onnx");
    execFileSync(onnxtext, ["parse", a, "-o", model]);
    await ed.closeAllEditors();
    await ed.quickOpen(b);
    await ed.waitForTab("pair_b.onnxtxt");
    await ed.command("onnxtext: Compare with…");
    await ed.page.locator(".quick-input-list .monaco-list-row", { hasText: "Another File…" }).first().click();
    const input = ed.page.locator(".quick-input-widget input").first();
    await ed.waitFor(async () => (await input.isVisible()) && (await input.inputValue()).startsWith("/"), { what: "the open dialog's path" });
    await input.fill(model);
    await ed.page.keyboard.press("Enter");
    frame = await compareFrame(ed, "s");
    const fills = await frame.$$eval('svg.graph .node[data-id="h"] > rect, svg.graph .node[data-id="s"] > rect', (rs) => rs.map((r) => getComputedStyle(r).fill));
    expect(fills.join() === "rgb(255, 224, 178),rgb(200, 230, 201)", `the changed Tanh and the added Sigmoid: ${fills}`);
    const tabs = await ed.page.$$eval(".part.editor .tab", (els) => els.map((e) => e.getAttribute("aria-label") ?? ""));
    expect(tabs.some((t) => t.includes("pair_a.onnx ↔ pair_b.onnxtxt")), `the diff editor's tab: ${tabs}`);
    return fills.join("; ");
  });

  await check("Compare with… HEAD (git): the version committed beside the text, its changes coloured (#33)", async () => {
    const c = path.join(work, "pair_c.onnxtxt");
    const git = (...args) => execFileSync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.com", ...args], { cwd: work });
    fs.writeFileSync(c, A);
    git("init", "-q");
    git("add", "pair_c.onnxtxt");
    git("commit", "-qm", "A");
    fs.writeFileSync(c, B);
    await ed.closeAllEditors();
    await ed.waitFor(() => ed.quickOpen(c).then(() => true), { timeout: 60_000, interval: 1000, what: "pair_c.onnxtxt in Quick Open" });
    await ed.waitForTab("pair_c.onnxtxt");
    // the Git extension finds the repository a moment after git is turned on: until then the command says so
    const refusals = [];
    frame = await ed.waitFor(
      async () => {
        await ed.command("onnxtext: Compare with…");
        await ed.page.locator(".quick-input-list .monaco-list-row", { hasText: "HEAD (git)" }).first().click();
        const shown = await compareFrame(ed, "s", 3000).catch(() => null);
        if (shown === null) refusals.push((await ed.notifications()).find((n) => /git|HEAD/.test(n)) ?? "no view, no note");
        return shown;
      },
      { timeout: 60_000, interval: 1000, what: "the comparison with HEAD" },
    );
    const fill = await frame.$eval('svg.graph .node[data-id="h"] > rect', (r) => getComputedStyle(r).fill);
    expect(fill === "rgb(255, 224, 178)", `the changed Tanh: ${fill}`);
    const tabs = await ed.page.$$eval(".part.editor .tab", (els) => els.map((e) => e.getAttribute("aria-label") ?? ""));
    expect(tabs.some((t) => t.includes("pair_c.onnxtxt (HEAD) ↔ pair_c.onnxtxt")), `the diff editor's tab: ${tabs}`);
    return `HEAD's text compared${refusals.length ? ` after ${refusals.length} refusal(s): ${refusals[0]}` : ""}`;
  });
  fs.rmSync(settings, { force: true });
}
