// What package.json promises VS Code about untrusted and virtual workspaces.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";

const manifest = JSON.parse(fs.readFileSync(path.join(process.cwd(), "package.json"), "utf8"));

test("Restricted Mode: supported in part; every setting that names a file to run or read is restricted", () => {
  const untrusted = manifest.capabilities?.untrustedWorkspaces;
  assert.equal(untrusted?.supported, "limited");
  assert.match(untrusted.description, /Restricted Mode/);
  const properties: Record<string, { markdownDescription?: string; description?: string }> = manifest.contributes.configuration.properties;
  // a setting that names a file says so: "Path of", "a `.npy`/`.pb` file"
  const naming = Object.keys(properties).filter((key) => /\b(path|file)\b/i.test(properties[key].markdownDescription ?? properties[key].description ?? ""));
  assert.deepEqual([...untrusted.restrictedConfigurations].sort(), naming.sort());
  assert.deepEqual(naming.sort(), ["onnxtext.evaluate.inputs", "onnxtext.server.path"]);
});

test("virtual workspaces: declared, the grammar works without the server", () => {
  assert.equal(manifest.capabilities?.virtualWorkspaces?.supported, "limited");
  assert.match(manifest.capabilities.virtualWorkspaces.description, /files on disk/);
});
