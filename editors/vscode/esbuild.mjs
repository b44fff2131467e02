// Bundles src/extension.ts and vscode-languageclient into dist/extension.js (one file in the .vsix),
// and the graph view (src/graphview/, its stylesheet inside) into dist/graphview.js, which
// `--python-assets` also copies into the Python package for `onnxtext graph -o x.html`.
import { copyFileSync } from "fs";
import * as esbuild from "esbuild";

const production = process.argv.includes("--production");
await esbuild.build({
  entryPoints: ["src/extension.ts"],
  bundle: true,
  outfile: "dist/extension.js",
  external: ["vscode"],
  format: "cjs",
  platform: "node",
  target: "node20",
  sourcemap: !production,
  minify: production,
  logLevel: "warning",
});
// The graph view is always built the same way (minified, no source map): the Python package
// ships a copy, and tests/ide/test_graph_export.py holds the two equal.
await esbuild.build({
  entryPoints: ["src/graphview/main.ts"],
  bundle: true,
  outfile: "dist/graphview.js",
  format: "iife",
  platform: "browser",
  target: "es2022",
  loader: { ".css": "text" },
  minify: true,
  legalComments: "none",
  logLevel: "warning",
});
if (process.argv.includes("--python-assets")) {
  copyFileSync("dist/graphview.js", "../../src/onnxtext/ide/assets/graphview.js");
  copyFileSync("media/graph.css", "../../src/onnxtext/ide/assets/graph.css");
}
