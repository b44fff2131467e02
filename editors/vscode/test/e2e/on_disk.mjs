// Issue #29, items 1 and 2, as a person meets them: a saved .onnx stays saved (File: Revert File
// shows the saved text, not the one first opened), a model changed on disk by another program is
// reloaded while its view is unmodified, and a save over a newer file brings VS Code's conflict
// choice, the file on disk keeping the outside change until the user chooses. The outside change
// prints to a text of the same length (VS Code alone tells a newer file by its size).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const TEXT = `<
  ir_version: 10,
  opset_import: ["" : 21],
  producer_name: "e2e-made-A"
>
disk (float[N, 4] x) => (float[N, 4] y)
{
  h = LeakyRelu <alpha = 0.5> (x)
  y = Relu (h)
}
`;

/** Sets the model's producer_name from Python, written in place as onnx.save does. */
const PRODUCER = `
import sys, onnxtext
from onnxtext.io import model_bytes
m = onnxtext.load(sys.argv[1])
m.producer_name = sys.argv[2]
data = model_bytes(m)
with open(sys.argv[1], "r+b") as f:
    f.write(data)
    f.truncate()
`;

export async function onDiskChecks({ ed, check, expect, at, work, pythonBin, onnxtext }) {
  const python = path.join(pythonBin, "python");
  // the text outside the folder: Quick Open of disk.onnx would list disk.onnxtxt too
  const src = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "onnxtext-e2e-disk-")), "disk.onnxtxt");
  const file = path.join(work, "disk.onnx");
  fs.writeFileSync(src, TEXT);
  execFileSync(onnxtext, ["parse", src, "-o", file]);
  fs.rmSync(path.dirname(src), { recursive: true, force: true });
  const printed = () => execFileSync(onnxtext, ["print", file], { encoding: "utf8" });
  const shown = async () => Object.values(await ed.lines()).join("\n");
  const dirty = () => ed.page.evaluate(() => !!document.querySelector(".part.editor .editor-group-container.active .tab.active.dirty"));
  const outside = (name) => execFileSync(python, ["-c", PRODUCER, file, name]);
  /** Selects `from` on the shown text (found in the printed text) and types `to` over it. */
  const replaceText = async (text, from, to, after = "") => {
    const where = at(text, from, after);
    await ed.goto(where.line, where.col);
    for (let i = 0; i < from.length; i++) await ed.press("Shift+ArrowRight");
    await ed.type(to);
  };

  await check("a saved .onnx: File: Revert File shows the saved text, not the one first opened (#29)", async () => {
    await ed.quickOpen(file);
    await ed.waitForTab("disk.onnx");
    await ed.waitFor(async () => (await shown()).includes("e2e-made-A"), { what: "the model's text" });
    const first = printed();
    await replaceText(first, "0.5", "0.25", "alpha");
    await ed.press("Control+S");
    await ed.waitFor(() => printed().includes("alpha = 0.25"), { timeout: 30_000, what: "disk.onnx saved with alpha = 0.25" });
    await ed.waitFor(async () => !(await dirty()), { what: "the tab clean after the save" });
    await replaceText(printed(), "Relu (h)", "Tanh (h)"); // unsaved: Revert must drop it and keep the saved edit
    await ed.waitFor(dirty, { what: "the tab dirty" });
    await ed.command("File: Revert File");
    await ed.waitFor(async () => !(await dirty()), { what: "the tab clean after Revert" });
    const text = await shown();
    expect(text.includes("alpha = 0.25") && !text.includes("alpha = 0.5"), `after Revert the editor shows:\n${text}`);
    expect(text.includes("Relu (h)") && !text.includes("Tanh"), `the unsaved edit stayed:\n${text}`);
    expect(printed().includes("alpha = 0.25"), "the file lost the saved edit");
    return text.split("\n").find((l) => l.includes("alpha")).trim();
  });

  await check("a model changed on disk by another program: its unmodified view reloads (#29)", async () => {
    outside("e2e-made-B"); // in place, after our save replaced the file by a rename
    const text = await ed.waitFor(async () => {
      const t = await shown();
      return t.includes("e2e-made-B") ? t : null;
    }, { timeout: 15_000, what: 'the view to show producer_name "e2e-made-B"' });
    expect(!(await dirty()), "the reloaded view is dirty");
    expect(text.includes("alpha = 0.25"), "the reload lost the saved edit");
    return text.split("\n").find((l) => l.includes("producer_name")).trim();
  });

  await check("a save over a file changed on disk brings VS Code's conflict choice; the file keeps the outside change until Overwrite (#29)", async () => {
    await replaceText(printed(), "0.25", "0.75", "alpha");
    await ed.waitFor(dirty, { what: "the tab dirty" });
    outside("e2e-made-C"); // a text of the very same length
    await ed.press("Control+S");
    const note = await ed.waitFor(async () => (await ed.notifications()).find((n) => /newer|changed on disk|modified/i.test(n)), { timeout: 15_000, what: "the save conflict's message" });
    const buttons = await ed.page.$$eval(".notifications-toasts .notification-list-item .monaco-button", (els) => els.map((e) => e.textContent.trim()));
    expect(buttons.includes("Overwrite") && buttons.includes("Compare"), `buttons: ${buttons}`);
    const held = printed();
    expect(held.includes("e2e-made-C") && held.includes("alpha = 0.25"), `the file on disk before the choice:\n${held}`);
    await ed.page.locator(".notifications-toasts .notification-list-item .monaco-button", { hasText: /^Overwrite$/ }).first().click();
    const after = await ed.waitFor(() => {
      const now = printed();
      return now.includes("alpha = 0.75") ? now : null;
    }, { timeout: 30_000, what: "disk.onnx overwritten with alpha = 0.75" });
    await ed.waitFor(async () => !(await dirty()), { what: "the tab clean after Overwrite" });
    return `${note.slice(0, 80)}… [${buttons.join(", ")}]; then ${after.split("\n").find((l) => l.includes("producer_name")).trim()}`;
  });
}
