// Issue 25, items 2-5, as a person sees them: hints that stay put while typing, no bracket drawn
// as unmatched, one message per mistake, an exported model that opens without a warning.
//
// run.mjs calls `writeSteadyFiles(work)` before the editor starts and `steadyChecks(...)` with
// its `check` and `expect` once the other checks are done.
import fs from "node:fs";
import path from "node:path";

const HINTED = `<
   ir_version: 10,
   opset_import: ["": 21]
>
hinted (float[N, 4] x) => (float[N, 4] y)
{
   a = Relu (x)
   b = Neg (a)
   c = Abs (b)
   y = Sigmoid (c)
}
`;

const AXIS = `<
   ir_version: 10,
   opset_import: ["": 21]
>
axis (float[2, 3] x) => (float[2, 3] y, float[2, 3] z)
{
   y = Softmax <axis = 1.5> (x)
   z = Relu (x)
}
`;

// What `onnxtext print` writes for a small torch export: module-path names everywhere.
const TORCH = `<
   ir_version: 8,
   opset_import: ["": 17],
   producer_name: "pytorch",
   producer_version: "2.1.0"
>
main_graph (float[batch, 4] input) => (float[batch, 2] output)
<
   float[8, 4] "fc1.weight" = {
      0.1, 0.2, 0.3, 0.4, 0.1, 0.2, 0.3, 0.4, 0.1, 0.2, 0.3, 0.4, 0.1, 0.2, 0.3, 0.4,
      0.1, 0.2, 0.3, 0.4, 0.1, 0.2, 0.3, 0.4, 0.1, 0.2, 0.3, 0.4, 0.1, 0.2, 0.3, 0.4
   },
   float[8] "fc1.bias" = {0, 0, 0, 0, 0, 0, 0, 0},
   float[2, 8] "fc2.weight" = {1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2},
   float[2] "fc2.bias" = {0, 1}
>
{
   ["/fc1/Gemm"] "/fc1/Gemm_output_0" = Gemm <alpha = 1.0, beta = 1.0, transB = 1> (input, "fc1.weight", "fc1.bias")
   ["/act/Relu"] "/act/Relu_output_0" = Relu ("/fc1/Gemm_output_0")
   ["/fc2/Gemm"] output = Gemm <alpha = 1.0, beta = 1.0, transB = 1> ("/act/Relu_output_0", "fc2.weight", "fc2.bias")
}
`;

export function writeSteadyFiles(work) {
  fs.writeFileSync(path.join(work, "hinted.onnxtxt"), HINTED);
  fs.writeFileSync(path.join(work, "axis.onnxtxt"), AXIS);
  fs.writeFileSync(path.join(work, "torch_export.onnxtxt"), TORCH);
}

/** Type hints shown in the active editor (": float[N, 4]" after each value), counted from the rendered lines. */
async function hintCount(ed) {
  const lines = await ed.lines();
  return Object.values(lines).reduce((n, l) => n + (l.match(/: float\[N, 4\]/g) ?? []).length, 0);
}

export async function steadyChecks({ ed, check, expect, work, at }) {
  // what the Problems panel lists already (the other checks' files): only new rows count below
  const earlier = new Set((await ed.problems()).map((p) => `${p.message}@${p.line}:${p.col}`));
  const fresh = (problems) => problems.filter((p) => !earlier.has(`${p.message}@${p.line}:${p.col}`));

  await check("inlay hints do not drop after a keystroke", async () => {
    await ed.quickOpen(path.join(work, "hinted.onnxtxt"));
    await ed.waitForTab("hinted.onnxtxt");
    const before = await ed.waitFor(async () => ((await hintCount(ed)) >= 4 ? hintCount(ed) : null), { timeout: 60_000, what: "the type hints" });
    const b = at(HINTED, "b = Neg");
    await ed.goto(b.line, b.col);
    await ed.type(" ");
    // watch the hints for 3 s after the keystroke: the new analysis lands meanwhile
    const counts = [];
    const end = Date.now() + 3000;
    while (Date.now() < end) counts.push(await hintCount(ed));
    await ed.press("Control+Z");
    const lowest = Math.min(...counts);
    expect(lowest >= before, `${before} hints before the keystroke, ${lowest} at the lowest after (${counts.length} looks)`);
    return `${before} hints, never fewer in ${counts.length} looks over 3 s`;
  });

  await check("no bracket is drawn as unmatched on an example (the > of =>)", async () => {
    await ed.quickOpen(path.join(work, "torch_export.onnxtxt"));
    await ed.waitForTab("torch_export.onnxtxt");
    await ed.waitFor(async () => Object.values(await ed.lines()).some((l) => l.includes("=>")), { what: "the signature line" });
    const found = await ed.page.evaluate(() => {
      const editor = document.querySelector(".part.editor .editor-group-container.active .monaco-editor");
      const unexpected = editor ? editor.querySelectorAll(".view-lines .unexpected-closing-bracket").length : -1;
      const coloured = editor ? editor.querySelectorAll('.view-lines [class*="bracket-highlighting-"]').length : -1;
      return { unexpected, coloured };
    });
    expect(found.unexpected === 0, `unexpected-closing-bracket tokens: ${found.unexpected}`);
    expect(found.coloured > 0, "no bracket pair is coloured at all: the check would see nothing");
    return found;
  });

  await check("a printed torch export opens with no warning in Problems", async () => {
    // (torch_export.onnxtxt is open) the analysis is done once its hints show
    await ed.waitFor(async () => Object.values(await ed.lines()).some((l) => /Gemm_output_0"\s*: float\[batch, 8\]/.test(l)), {
      timeout: 60_000,
      what: "the type hint of a value (the analysis is done)",
    });
    const problems = fresh(await ed.problems());
    const mine = problems.filter((p) => p.severity === "warning" || p.severity === "error");
    expect(mine.length === 0, `Problems: ${JSON.stringify(problems)}`);
    return problems.length ? problems : "no problems";
  });

  await check("axis = 1.5 gives exactly one diagnostic on its line", async () => {
    await ed.quickOpen(path.join(work, "axis.onnxtxt"));
    await ed.waitForTab("axis.onnxtxt");
    const line = at(AXIS, "axis = 1.5").line;
    await ed.waitFor(async () => (await ed.squiggles()).some((s) => s.line === line && s.severity === "error"), { timeout: 60_000, what: "the checker's error" });
    // the model runs (live values) on made-up inputs: the rest is computed, Softmax is not run
    await ed.command("onnxtext: Run Model (Live Values)");
    const lens = await ed.waitFor(async () => (await ed.codeLenses()).find((t) => /Live values: \d+ values/.test(t)), { timeout: 60_000, what: "the live-values code lens" });
    const problems = fresh(await ed.problems());
    const onLine = problems.filter((p) => p.line === line);
    expect(onLine.length === 1, `Problems on line ${line}: ${JSON.stringify(onLine)}`);
    expect(!problems.some((p) => /Error:|object|instances/.test(p.message)), `a Python exception's text: ${JSON.stringify(problems)}`);
    await ed.command("onnxtext: Run Model (Live Values)");
    return `${onLine[0].severity}: ${onLine[0].message}; ${lens}`;
  });
}
