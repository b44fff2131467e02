// The extension in a folder that is not trusted (Restricted Mode), in its own code-server with
// workspace trust on: the folder's .vscode/settings.json and .venv name programs that would leave
// a marker file; highlighting and the checker must work, the marker must never be written, and
// the status bar must say why live values wait. Without the user's own server, a .onnx opened shows
// why it is not text, and the message offers to manage trust. Granting trust then restarts the server
// with the full discovery, which runs the folder's own choice (the marker appears: the test can
// fail), and the .onnx opened before shows its text.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Editor, log } from "./editor.mjs";

const MODEL = `# Restricted Mode: highlighting and the checker work, nothing from this folder runs.
<ir_version: 10, opset_import: ["" : 21]>
g (float[N, 4] x) => (float[N, 4] y)
{
  h = Relu (x)
  y = Reluu (h)
}
`;

/** Runs the Restricted-Mode checks through run.mjs's `check`; `onnxtext` is the real server. */
export async function checkRestrictedMode({ check, codeServer, vsix, onnxtext, out, keep }) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtext-e2e-untrusted-"));
  const work = path.join(root, "cloned");
  const marker = path.join(root, "marker.txt");
  const plant = (rel) => {
    const file = path.join(work, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `#!/bin/sh\necho "${file} $*" >> "${marker}"\nexec "${onnxtext}" "$@"\n`, { mode: 0o755 });
    return file;
  };
  const planted = plant("tools/onnxtext");
  plant(".venv/bin/onnxtext");
  plant("venv/bin/onnxtext");
  fs.mkdirSync(path.join(work, ".vscode"));
  fs.writeFileSync(path.join(work, ".vscode", "settings.json"), JSON.stringify({ "onnxtext.server.path": planted, "onnxtext.evaluate.inputs": { x: "x.npy" } }, null, 2));
  const model = path.join(work, "model.onnxtxt");
  fs.writeFileSync(model, MODEL);
  // a binary model of the folder, made outside it (its text in the folder would be listed with it)
  const binary = path.join(work, "weights.onnx"); // (not model.onnx: Quick Open would list model.onnxtxt with it)
  const valid = path.join(root, "valid.onnxtxt");
  fs.writeFileSync(valid, MODEL.replace("Reluu", "Relu"));
  execFileSync(onnxtext, ["parse", valid, "-o", binary]);
  const ran = () => (fs.existsSync(marker) ? fs.readFileSync(marker, "utf8").trim() : "");

  // trust on, no start-up question: the folder opens in Restricted Mode; the user's own onnxtext
  // is in the user's settings (PATH would be the login shell's, which VS Code reads instead)
  // (a script of the user's, outside the folder, that runs onnxtext: a check below takes it away)
  const userServer = path.join(root, "user-onnxtext");
  fs.writeFileSync(userServer, `#!/bin/sh\nexec "${onnxtext}" "$@"\n`, { mode: 0o755 });
  const settings = { "security.workspace.trust.enabled": true, "security.workspace.trust.startupPrompt": "never", "onnxtext.server.path": userServer };
  let ed;
  let failures = 0;
  const named = async (name, fn) =>
    check(`Restricted Mode: ${name}`, async () => {
      try {
        return await fn();
      } catch (error) {
        failures++;
        await ed?.screenshot(path.join(out, `restricted-failure-${name.replace(/\W+/g, "-")}.png`)).catch(() => {});
        // what the extension said (output channel, notifications): why no server started, say
        const said = ed ? `\noutput channel:\n${ed.outputLog().trim()}\nnotifications: ${JSON.stringify(await ed.notifications().catch(() => []))}` : "";
        throw new Error(`${error instanceof Error ? error.message : error}${said}`);
      }
    });
  const expect = (condition, message) => {
    if (!condition) throw new Error(message);
  };
  const line = (needle) => MODEL.split("\n").findIndex((l) => l.includes(needle)) + 1;
  const col = (needle) => MODEL.split("\n")[line(needle) - 1].indexOf(needle) + 1;

  await named("the folder is untrusted and the text opens as ONNX Text", async () => {
    ed = await Editor.launch({ codeServer, vsix, folder: work, file: model, settings });
    const restricted = await ed.waitFor(async () => (await ed.statusItems()).find((i) => /Restricted Mode/i.test(i.text)), { what: "the Restricted Mode indicator" });
    await ed.waitFor(async () => (await ed.languageMode()) === "ONNX Text", { what: "language mode ONNX Text" });
    return restricted.text;
  });
  if (ed === undefined) {
    fs.rmSync(root, { recursive: true, force: true });
    return;
  }

  await named("TextMate highlighting: comment and operator", async () => {
    const comment = await ed.scopes(1, 3);
    expect(comment.scopes.some((s) => s.startsWith("comment.line.number-sign")), `comment: ${comment.scopes}`);
    const op = await ed.scopes(line("Relu (x)"), col("Relu (x)") + 1);
    expect(op.scopes.some((s) => s.startsWith("support.function") || s.startsWith("entity.name.function")), `operator: ${op.scopes}`);
    return op.scopes;
  });

  await named("the status bar says why live values wait", async () => {
    const item = await ed.waitFor(async () => (await ed.statusItems()).find((i) => i.id.includes("onnxtext") && /live values wait for trust/.test(i.text)), {
      timeout: 60_000,
      what: "the onnxtext status bar item saying live values wait for trust",
    });
    return item.text;
  });

  await named("the server is the user's (not the folder's) onnxtext.server.path and checks the text (squiggle under Reluu)", async () => {
    const squiggle = await ed.waitFor(async () => (await ed.squiggles()).find((s) => s.severity === "error" && s.text.includes("Reluu")), { timeout: 60_000, what: "an error squiggle under Reluu" });
    const found = ed.outputLog().split("\n").find((l) => l.includes(`server: ${userServer} `) && l.includes("from the onnxtext.server.path setting"));
    expect(found, `the output channel:\n${ed.outputLog()}`);
    return `${JSON.stringify(squiggle)}; ${found.trim()}`;
  });

  await named("Run Model says the model waits for trust", async () => {
    await ed.focusEditor();
    await ed.command("onnxtext: Run Model (Live Values)");
    const note = await ed.waitFor(async () => (await ed.notifications()).find((n) => /waits until you trust this folder/.test(n)), { what: "the note on live values" });
    return note;
  });

  await named("nothing the folder names ran (no marker file)", async () => {
    expect(ran() === "", `the folder's program ran: ${ran()}`);
    return "no marker";
  });

  await named("without the user's server: a .onnx opened shows why, and the message offers to manage trust (#29)", async () => {
    // the user's server gone: in Restricted Mode none is found now
    fs.writeFileSync(userServer, "#!/bin/sh\nexit 1\n", { mode: 0o755 });
    await ed.command("onnxtext: Restart Language Server");
    const note = await ed.waitFor(async () => (await ed.notifications()).find((n) => /onnxtext: the (language )?server.*(not found|does not work)/.test(n)), { timeout: 60_000, what: "the server-not-found message" });
    const buttons = await ed.page
      .locator(".notifications-toasts .notification-list-item", { hasText: /onnxtext: the (language )?server.*(not found|does not work)/ })
      .first()
      .locator(".monaco-button")
      .allTextContents();
    expect(buttons.includes("Manage Workspace Trust"), `buttons: ${buttons}`);
    await ed.quickOpen(binary);
    const page = await ed.waitFor(async () => {
      for (const frame of ed.page.frames()) {
        const text = await frame.evaluate(() => document.body?.innerText ?? "").catch(() => "");
        if (/cannot be shown as text/.test(text)) return text;
      }
      return null;
    }, { timeout: 30_000, what: "the .onnx page saying why it is not shown as text" });
    return `${page.trim().slice(-90)}; [${buttons.join(", ")}]`;
  });

  await named("trusting the folder restarts the server with the full discovery (the folder's setting now runs)", async () => {
    // through the server-not-found message's button (in the notification centre: the toast went when the .onnx opened)
    await ed.command("Notifications: Show Notifications");
    const message = ed.page.locator(".notifications-center .notification-list-item", { hasText: /onnxtext: the (language )?server.*(not found|does not work)/ }).first();
    await message.locator(".monaco-button", { hasText: /^Manage Workspace Trust$/ }).first().click({ timeout: 10_000 });
    const button = ed.page.locator(".workspace-trust-editor .monaco-button", { hasText: /^Trust$/ }).first();
    await button.waitFor({ state: "visible", timeout: 15_000 });
    await button.click();
    const runs = await ed.waitFor(() => (ran().includes(planted) ? ran() : null), { timeout: 60_000, what: "the folder's onnxtext.server.path to run once trusted" });
    const item = await ed.waitFor(async () => (await ed.statusItems()).find((i) => i.id.includes("onnxtext") && /onnxtext/.test(i.text) && !/wait|no server|stopped/.test(i.text)), {
      timeout: 60_000,
      what: "the onnxtext status bar item running in full",
    });
    return `${item.text}; ${runs.split("\n")[0]}`;
  });

  await named("the .onnx opened before trust shows its text now (#29)", async () => {
    await ed.waitForTab("weights.onnx", 30_000);
    const lines = await ed.waitFor(async () => {
      const text = Object.values(await ed.lines()).join("\n");
      return text.includes("ir_version") && (await ed.languageMode()) === "ONNX Text" ? text : null;
    }, { timeout: 30_000, what: "the model's text in its tab" });
    return lines.split("\n").find((l) => l.includes("ir_version")).trim();
  });

  await ed.close({ keep: keep || failures > 0 });
  if (failures > 0) log(`Restricted Mode run dir kept: ${ed.server.runDir}; the folder: ${root}`);
  else fs.rmSync(root, { recursive: true, force: true });
  log("Restricted Mode checks done");
}
