// The extension's unit tests: each test/unit/*.test.ts is bundled with the modules of src/ it
// imports, `vscode` replaced by test/unit/vscode-stub.ts, and run by node's test runner.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const STUB = path.join(HERE, "vscode-stub.ts");
const out = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtext-unit-"));
const stubVscode = {
  name: "stub-vscode",
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, () => ({ path: STUB }));
  },
};
try {
  const tests = fs.readdirSync(HERE).filter((f) => f.endsWith(".test.ts"));
  await esbuild.build({
    entryPoints: tests.map((f) => path.join(HERE, f)),
    bundle: true,
    outdir: out,
    format: "cjs",
    platform: "node",
    target: "node20",
    sourcemap: "inline",
    plugins: [stubVscode],
    logLevel: "warning",
  });
  const files = tests.map((f) => path.join(out, f.replace(/\.ts$/, ".js")));
  const run = spawnSync(process.execPath, ["--enable-source-maps", "--test", ...files], { stdio: "inherit" });
  process.exitCode = run.status ?? 1;
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}
