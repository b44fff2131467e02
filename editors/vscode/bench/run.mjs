// Runs bench/layout.ts (bundled with the view's layout, dagre and elkjs: devDependencies, never
// in the extension's bundle) with the arguments given: `node bench/run.mjs [--check] FILE...`.
// A bigger stack: dagre and elkjs recurse as deep as the graph (3,000 nodes overflow the default).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const out = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtext-bench-"));
try {
  const script = path.join(out, "layout.cjs");
  await esbuild.build({
    entryPoints: [path.join(HERE, "layout.ts")],
    bundle: true,
    outfile: script,
    format: "cjs",
    platform: "node",
    target: "node20",
    logLevel: "warning",
  });
  const run = spawnSync(process.execPath, ["--stack-size=4000", script, ...process.argv.slice(2)], { stdio: "inherit" });
  process.exitCode = run.status ?? 1;
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}
