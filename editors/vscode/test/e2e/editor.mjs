// A real VS Code (code-server) driven by Debian's chromium through playwright-core, used as a
// person uses it: keyboard, Command Palette, mouse; checks read what the page shows.
// Only loopback is used: code-server binds 127.0.0.1, every other request is aborted.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

const T0 = Date.now();
export const log = (...args) => console.log(`[e2e ${((Date.now() - T0) / 1000).toFixed(1).padStart(5)}s]`, ...args);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const CHROMIUM = process.env.CHROMIUM ?? "/usr/lib/chromium/chromium";

// A quiet, offline, deterministic workbench: no welcome page, chat, updates or gallery; a fixed
// theme (token colours) and a solid cursor (its box is measured to aim the mouse).
const SETTINGS = {
  "workbench.startupEditor": "none",
  "workbench.colorTheme": "Light Modern",
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "extensions.ignoreRecommendations": true,
  "security.workspace.trust.enabled": false,
  "chat.disableAIFeatures": true,
  "git.enabled": false,
  "editor.minimap.enabled": false,
  "editor.cursorBlinking": "solid",
  "editor.hover.delay": 300,
  "files.autoSave": "off",
  "files.simpleDialog.enable": true,
};

const EDITOR = ".part.editor .editor-group-container.active .editor-instance .monaco-editor";
const GROUPS = new Set();
process.on("exit", () => {
  for (const group of GROUPS) {
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      /* already gone */
    }
  }
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function healthy(url) {
  return new Promise((resolve) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("error", () => resolve(false));
    req.setTimeout(2000, () => {
      req.destroy();
      resolve(false);
    });
  });
}

/** Start code-server in a fresh run dir with `vsix` installed; `env` extends its environment. */
async function startCodeServer({ codeServer, vsix, settings, env }) {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtext-e2e-"));
  const userData = path.join(runDir, "user-data");
  const extensions = path.join(runDir, "extensions");
  fs.mkdirSync(path.join(userData, "User"), { recursive: true });
  fs.mkdirSync(extensions, { recursive: true });
  fs.writeFileSync(path.join(userData, "User", "settings.json"), JSON.stringify({ ...SETTINGS, ...settings }, null, 2));
  const config = path.join(runDir, "config.yaml");
  fs.writeFileSync(config, "auth: none\ncert: false\n");
  // code-server writes config and logs under the XDG folders: keep them in the run dir
  const childEnv = {
    ...process.env,
    ...env,
    XDG_CONFIG_HOME: path.join(runDir, "xdg-config"),
    XDG_DATA_HOME: path.join(runDir, "xdg-data"),
    XDG_CACHE_HOME: path.join(runDir, "xdg-cache"),
    EXTENSIONS_GALLERY: "{}",
  };
  const base = ["--config", config, "--user-data-dir", userData, "--extensions-dir", extensions];
  const installed = execFileSync(codeServer, [...base, "--force", "--install-extension", vsix], { env: childEnv, encoding: "utf8" });
  if (!/successfully installed/i.test(installed)) throw new Error(`installing ${vsix} failed:\n${installed}`);
  const port = await freePort();
  const logFile = path.join(runDir, "code-server.log");
  const fd = fs.openSync(logFile, "a");
  const args = [
    ...base,
    "--auth", "none",
    "--bind-addr", `127.0.0.1:${port}`,
    "--disable-telemetry", "--disable-update-check",
    "--disable-getting-started-override", "--disable-proxy",
  ];
  // workspace trust stays off unless a test turns it on (test/e2e/restricted.mjs)
  if (!settings["security.workspace.trust.enabled"]) args.push("--disable-workspace-trust");
  // its own process group: stopping it takes the extension host and the language server along
  const child = spawn(codeServer, args, { env: childEnv, stdio: ["ignore", fd, fd], detached: true });
  fs.closeSync(fd);
  GROUPS.add(child.pid);
  let exited = null;
  child.on("exit", (code, signal) => {
    exited = { code, signal };
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (!(await healthy(`${url}/healthz`))) {
    if (exited) throw new Error(`code-server exited (${JSON.stringify(exited)}):\n${fs.readFileSync(logFile, "utf8")}`);
    if (Date.now() > deadline) throw new Error(`code-server did not answer on ${url}; see ${logFile}`);
    await sleep(200);
  }
  const stop = async () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      /* gone */
    }
    for (let i = 0; i < 30 && !exited; i++) await sleep(100);
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      /* gone */
    }
    GROUPS.delete(child.pid);
  };
  return { url, port, runDir, userData, logFile, stop };
}

/** The lines highlighted with a picked statement's colour (the range highlight) in each editor the
 * `selectors` name, in order: one sorted list per editor found (an editor not found is left out). */
export async function highlightedLines(ed, selectors) {
  return ed.page.evaluate((wanted) => {
    const out = [];
    for (const selector of wanted) {
      const editor = document.querySelector(selector);
      if (!editor) continue;
      const numbers = [...editor.querySelectorAll(".margin-view-overlays .line-numbers")].map((n) => ({ line: parseInt(n.textContent, 10), top: Math.round(n.getBoundingClientRect().top) }));
      const lines = new Set();
      for (const e of editor.querySelectorAll('.view-overlays [class*="ced-"]')) {
        const colour = getComputedStyle(e).backgroundColor;
        if (colour === "rgba(0, 0, 0, 0)" || colour === "transparent") continue;
        const top = Math.round(e.getBoundingClientRect().top);
        const at = numbers.find((n) => Math.abs(n.top - top) <= 1);
        if (at) lines.add(at.line);
      }
      out.push([...lines].sort((a, b) => a - b));
    }
    return out;
  }, selectors);
}

export class Editor {
  static async launch({ codeServer, vsix, folder, file, settings = {}, env = {} }) {
    const server = await startCodeServer({ codeServer, vsix, settings, env });
    log(`code-server up on ${server.url} (run dir ${server.runDir})`);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
    });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const editor = new Editor(server, browser, context, await context.newPage());
    await context.route("**/*", (route) => {
      const host = new URL(route.request().url()).hostname;
      if (host === "127.0.0.1" || host === "localhost" || route.request().url().startsWith("data:")) return route.continue();
      editor.blocked.push(route.request().url());
      return route.abort();
    });
    editor.page.on("console", (m) => {
      if (m.type() === "error") editor.consoleErrors.push(m.text());
    });
    await editor.openWorkbench(folder, file);
    return editor;
  }

  constructor(server, browser, context, page) {
    Object.assign(this, { server, browser, context, page });
    this.blocked = [];
    this.consoleErrors = [];
  }

  async waitFor(fn, { timeout = 30_000, interval = 250, what = "a condition" } = {}) {
    const end = Date.now() + timeout;
    let last;
    while (Date.now() < end) {
      try {
        last = await fn();
        if (last) return last;
      } catch (error) {
        last = error;
      }
      await sleep(interval);
    }
    throw new Error(`timed out after ${timeout} ms waiting for ${what}${last instanceof Error ? ` (${last.message})` : ""}`);
  }

  remoteUri(file) {
    return `vscode-remote://127.0.0.1:${this.server.port}${path.resolve(file).split("/").map(encodeURIComponent).join("/")}`;
  }

  async openWorkbench(folder, file) {
    this.folder = path.resolve(folder);
    let url = `${this.server.url}/?folder=${encodeURIComponent(this.folder)}`;
    if (file) url += `&payload=${encodeURIComponent(JSON.stringify([["openFile", this.remoteUri(file)]]))}`;
    await this.page.goto(url);
    await this.page.waitForSelector(".monaco-workbench", { timeout: 90_000 });
    await this.page.waitForSelector(".part.statusbar", { timeout: 60_000 });
    if (file) await this.waitForTab(path.basename(file));
  }

  /** Quick Open (Ctrl+P) a file of the folder, as a person does. */
  async quickOpen(file) {
    const rel = path.relative(this.folder, path.resolve(file));
    await this.escape();
    await this.page.keyboard.press("Control+P");
    const input = this.page.locator(".quick-input-widget input").first();
    await input.waitFor({ state: "visible", timeout: 10_000 });
    await input.fill(rel);
    // Enter opens the focused row: wait until it is this file's. Until the list is filtered it shows
    // the recently opened editors, where this file may already be listed below the active one.
    await this.waitFor(
      () =>
        this.page.evaluate(
          ([value, name]) => {
            const field = document.querySelector(".quick-input-widget input");
            const row = document.querySelector(".quick-input-list .monaco-list-row.focused");
            return !!(field && field.value === value && row && (row.getAttribute("aria-label") ?? "").startsWith(name));
          },
          [rel, path.basename(file)],
        ),
      { timeout: 15_000, what: `${rel} as the chosen row of Quick Open` },
    );
    await this.page.keyboard.press("Enter");
  }

  /** View: Close All Editors, unsaved changes discarded (Don't Save): a check module starts from no editor. */
  async closeAllEditors() {
    await this.command("View: Close All Editors");
    await this.waitFor(
      async () => {
        const dontSave = this.page.locator(".monaco-dialog-box .monaco-button", { hasText: /Don.t Save/ });
        if ((await dontSave.count()) > 0) await dontSave.first().click();
        return (await this.page.$$eval(".part.editor .tab", (tabs) => tabs.length)) === 0;
      },
      { timeout: 15_000, what: "every editor closed" },
    );
  }

  async waitForTab(name, timeout = 60_000) {
    await this.waitFor(
      () =>
        this.page.evaluate(
          ([sel, n]) => {
            const tab = document.querySelector(".part.editor .editor-group-container.active .tab.active");
            const label = tab && (tab.getAttribute("aria-label") || tab.textContent || "");
            return !!(label && label.includes(n) && document.querySelector(`${sel} .view-lines .view-line`));
          },
          [EDITOR, name],
        ),
      { timeout, what: `the editor of ${name}` },
    );
  }

  async activeTab() {
    return this.page.evaluate(() => document.querySelector(".part.editor .editor-group-container.active .tab.active")?.getAttribute("aria-label") ?? null);
  }

  async statusItems() {
    return this.page.$$eval(".part.statusbar .statusbar-item", (els) => els.map((e) => ({ id: e.id, text: e.textContent.trim() })).filter((x) => x.text));
  }

  async languageMode() {
    return this.page.$eval('.part.statusbar [id="status.editor.mode"]', (e) => e.textContent.trim()).catch(() => null);
  }

  async escape() {
    await this.page.keyboard.press("Escape");
    await this.page.keyboard.press("Escape");
  }

  async focusEditor() {
    const focused = await this.page.evaluate((sel) => !!document.querySelector(`${sel}.focused`), EDITOR);
    if (!focused) await this.page.locator(`${EDITOR} .view-lines`).first().click({ position: { x: 2, y: 2 } });
  }

  /** Ctrl+G to line:col (1-based), waiting until the status bar says the cursor is there. */
  async goto(line, col = 1) {
    await this.escape();
    await this.focusEditor();
    await this.page.keyboard.press("Control+G");
    const input = this.page.locator(".quick-input-widget input").first();
    await input.waitFor({ state: "visible", timeout: 10_000 });
    await input.fill(`:${line}:${col}`);
    await this.page.keyboard.press("Enter");
    await input.waitFor({ state: "hidden", timeout: 10_000 });
    await this.waitFor(
      async () => (await this.page.$eval('.part.statusbar [id="status.editor.selection"]', (e) => e.textContent).catch(() => "")).includes(`Ln ${line}, Col ${col}`),
      { timeout: 5000, what: `the cursor at ${line}:${col}` },
    );
  }

  async type(text) {
    await this.page.keyboard.type(text, { delay: 15 });
  }

  async press(key) {
    await this.page.keyboard.press(key);
  }

  /** The palette (Ctrl+Shift+P) runs the command whose label is exactly `label`. */
  async command(label, { timeout = 15_000 } = {}) {
    await this.page.keyboard.press("Escape");
    await this.page.keyboard.press("Control+Shift+P");
    const input = this.page.locator(".quick-input-widget input").first();
    await input.waitFor({ state: "visible", timeout });
    await input.fill(`>${label}`);
    const index = await this.waitFor(
      () =>
        this.page.evaluate((l) => {
          const rows = [...document.querySelectorAll(".quick-input-list .monaco-list-row")];
          const i = rows.findIndex((r) => (r.querySelector(".label-name")?.textContent ?? "").trim() === l);
          return i >= 0 ? i + 1 : null;
        }, label),
      { timeout, what: `"${label}" in the Command Palette` },
    );
    await this.page.locator(".quick-input-list .monaco-list-row").nth(index - 1).click();
    await input.waitFor({ state: "hidden", timeout }).catch(() => {});
  }

  /** The text of the rendered lines of the active editor, by line number. */
  async lines() {
    return this.page.evaluate((sel) => {
      const ed = document.querySelector(sel);
      if (!ed) return {};
      const views = [...ed.querySelectorAll(".view-lines .view-line")];
      const out = {};
      for (const n of ed.querySelectorAll(".margin-view-overlays .line-numbers")) {
        const line = parseInt(n.textContent, 10);
        const top = Math.round(n.getBoundingClientRect().top);
        const view = views.find((v) => Math.abs(Math.round(v.getBoundingClientRect().top) - top) <= 1);
        if (!Number.isNaN(line) && view) out[line] = view.textContent.replace(/\u00a0/g, " ");
      }
      return out;
    }, EDITOR);
  }

  /** Developer: Inspect Editor Tokens and Scopes at line:col → {token, scopes, semantic}. */
  async scopes(line, col) {
    await this.goto(line, col);
    await this.command("Developer: Inspect Editor Tokens and Scopes");
    const found = await this.waitFor(
      () =>
        this.page.evaluate(() => {
          const shown = [...document.querySelectorAll(".token-inspect-widget")].filter((w) => w.getBoundingClientRect().width > 0);
          const el = shown[shown.length - 1];
          if (!el) return null;
          // several scope lists (the theme rule a semantic token matched, the TextMate scopes): the TextMate
          // ones end with the grammar's root scope, source.onnxtext; until it shows, the widget is filling in
          const lists = [...el.querySelectorAll(".tiw-metadata-scopes")].map((e) => e.innerText.split("\n").map((s) => s.trim()).filter(Boolean));
          const list = lists.find((l) => l[l.length - 1] === "source.onnxtext");
          if (!list) return null;
          return { token: el.querySelector(".tiw-token")?.firstChild?.textContent ?? null, scopes: list, raw: el.innerText };
        }),
      { timeout: 10_000, what: "the token inspector" },
    );
    await this.command("Developer: Inspect Editor Tokens and Scopes");
    await this.escape();
    return found;
  }

  /** Squiggles drawn in the active editor: [{severity, line, text}]. */
  async squiggles() {
    return this.page.evaluate((sel) => {
      const ed = document.querySelector(sel);
      if (!ed) return [];
      const views = [...ed.querySelectorAll(".view-lines .view-line")];
      const numbers = [...ed.querySelectorAll(".margin-view-overlays .line-numbers")].map((n) => ({
        line: parseInt(n.textContent, 10),
        top: Math.round(n.getBoundingClientRect().top),
      }));
      const out = [];
      for (const sq of ed.querySelectorAll('.view-overlays [class*="squiggly-"]')) {
        const r = sq.getBoundingClientRect();
        const at = numbers.find((n) => Math.abs(n.top - Math.round(r.top)) <= 1);
        const severity = ([...sq.classList].find((c) => c.startsWith("squiggly-")) ?? "").replace("squiggly-", "");
        let text = "";
        const view = at && views.find((v) => Math.abs(Math.round(v.getBoundingClientRect().top) - at.top) <= 1);
        if (view) {
          const walker = document.createTreeWalker(view, NodeFilter.SHOW_TEXT);
          const range = document.createRange();
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (let i = 0; i < node.length; i++) {
              range.setStart(node, i);
              range.setEnd(node, i + 1);
              const c = range.getBoundingClientRect();
              const mid = c.left + c.width / 2;
              if (mid >= r.left && mid <= r.right) text += node.data[i];
            }
          }
        }
        out.push({ severity, line: at?.line ?? null, text: text.replace(/\u00a0/g, " ") });
      }
      return out;
    }, EDITOR);
  }

  /** The Problems panel's rows: [{severity, message, line, col, source}]. */
  async problems() {
    await this.command("View: Focus Problems (Errors, Warnings, Infos)");
    await this.page.locator(".markers-panel").first().waitFor({ state: "visible", timeout: 10_000 });
    await sleep(300);
    const rows = await this.page.$$eval(".markers-panel .monaco-list-row", (els) => els.map((e) => e.getAttribute("aria-label") ?? ""));
    const out = [];
    for (const raw of rows) {
      const m = /^(Error|Warning|Info|Hint)\w*:\s*([\s\S]*?) at line (\d+) and character (\d+)\.(?: generated by (.*))?$/.exec(raw);
      if (m) out.push({ severity: m[1].toLowerCase(), message: m[2], line: +m[3], col: +m[4], source: m[5] ?? null });
    }
    await this.command("View: Toggle Panel Visibility").catch(() => {});
    return out;
  }

  async hoverText() {
    return this.page.evaluate(() =>
      [...document.querySelectorAll(".monaco-hover")]
        .filter((h) => !h.classList.contains("hidden") && h.getBoundingClientRect().width > 0)
        .map((h) => h.innerText.trim())
        .filter(Boolean)
        .join("\n---\n"),
    );
  }

  /** Hover with the mouse over line:col; the text once it stops changing ('' if none). */
  async hover(line, col, { timeout = 15_000, screenshot } = {}) {
    await this.page.mouse.move(1, 1);
    await this.goto(line, col);
    const box = await this.page.locator(`${EDITOR} .cursors-layer .cursor`).first().boundingBox();
    if (!box) throw new Error("no cursor");
    await this.page.mouse.move(box.x + 3, box.y + box.height / 2, { steps: 4 });
    let text = "";
    try {
      text = await this.waitFor(
        async () => {
          const t = await this.hoverText();
          return t && !/^Loading\.\.\.$/.test(t) ? t : null;
        },
        { timeout, what: `a hover at ${line}:${col}` },
      );
      for (let stable = 0; stable < 2; ) {
        await sleep(300);
        const t = await this.hoverText();
        if (t === text) stable++;
        else {
          text = t;
          stable = 0;
        }
      }
    } catch {
      text = "";
    }
    if (screenshot) await this.screenshot(screenshot);
    await this.page.mouse.move(1, 1);
    await this.escape();
    return text;
  }

  /** Labels of the suggest widget after Ctrl+Space at the cursor. */
  async completions({ timeout = 20_000 } = {}) {
    await this.page.keyboard.press("Control+Space");
    const labels = await this.waitFor(
      () =>
        this.page.evaluate(() => {
          const w = document.querySelector(".suggest-widget.visible");
          const rows = w ? [...w.querySelectorAll(".monaco-list-row")] : [];
          return rows.length ? rows.map((r) => (r.querySelector(".label-name") ?? r).textContent.trim()) : null;
        }),
      { timeout, what: "the suggest widget" },
    );
    await this.page.keyboard.press("Escape");
    return labels;
  }

  async notifications() {
    return this.page.$$eval(".notifications-toasts .notification-list-item-message", (els) => els.map((e) => e.textContent.trim()));
  }

  /** Code lens titles shown in the active editor. */
  async codeLenses() {
    return this.page.$$eval(`${EDITOR} .contentWidgets .codelens-decoration`, (els) => els.map((e) => e.textContent.trim()));
  }

  async screenshot(file) {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    await this.page.screenshot({ path: file });
  }

  /** The extension's output channel as logged by the extension host ('' before it exists). */
  outputLog() {
    const found = [];
    const walk = (dir) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/onnxtext\.log$/i.test(e.name)) found.push(p);
      }
    };
    try {
      walk(path.join(this.server.userData, "logs"));
    } catch {
      /* no logs yet */
    }
    return found.map((f) => fs.readFileSync(f, "utf8")).join("\n");
  }

  async close({ keep = false } = {}) {
    fs.writeFileSync(path.join(this.server.runDir, "browser-console-errors.log"), this.consoleErrors.join("\n") + "\n");
    await this.browser.close().catch(() => {});
    await this.server.stop();
    if (!keep) fs.rmSync(this.server.runDir, { recursive: true, force: true });
  }
}
