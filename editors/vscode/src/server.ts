// Where the language server comes from: the `onnxtext.server.path` setting, else `onnxtext`
// on PATH, else a workspace `.venv`, else the interpreter chosen in the Python extension.
// Each candidate is tried with `--version` before it is used, so a broken one is reported
// with its reason instead of a client that dies on start.
// In an untrusted folder (Restricted Mode) nothing the folder names is run: only the user's own
// setting counts, and neither it nor PATH may point into the folder; the folder's `.venv`/`venv`
// and the Python extension's (workspace) interpreter wait until the folder is trusted.
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as vscode from "vscode";

export interface ServerCommand {
  command: string;
  args: string[];
  /** How it was found, for the output channel and the status bar's tooltip. */
  source: string;
  version: string;
}

export interface Candidate {
  command: string;
  /** Arguments before `lsp` / `--version` (`-m onnxtext` for an interpreter). */
  prefix: string[];
  source: string;
  /** Why it is not run at all (it lies in an untrusted folder). */
  refused?: string;
}

/** Said of what an untrusted folder names, in the output and the not-found message. */
export const RESTRICTED = "the folder is not trusted (Restricted Mode)";

const IS_WINDOWS = process.platform === "win32";
const EXE = IS_WINDOWS ? ".exe" : "";
const BIN = IS_WINDOWS ? "Scripts" : "bin";

/** True when the path names a Python interpreter rather than the onnxtext executable. */
export function isInterpreter(file: string): boolean {
  return /^python(\d+(\.\d+)?)?(w)?(\.exe)?$/i.test(path.basename(file));
}

function expand(value: string, folder: vscode.WorkspaceFolder | undefined): string {
  let out = value.trim();
  if (out.startsWith("~")) {
    out = path.join(os.homedir(), out.slice(1));
  }
  if (folder !== undefined) {
    out = out.replace(/\$\{workspaceFolder\}/g, folder.uri.fsPath);
  }
  if (!path.isAbsolute(out) && folder !== undefined && out.includes(path.sep)) {
    out = path.join(folder.uri.fsPath, out);
  }
  return out;
}

/** True when `file` is one of the folders or inside one. */
export function insideFolders(file: string, folders: readonly vscode.WorkspaceFolder[]): boolean {
  return localFolders(folders).some((folder) => {
    const rel = path.relative(folder, path.resolve(file));
    return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
  });
}

/** The folders on this machine's disk (a virtual folder has no programs to run). */
function localFolders(folders: readonly vscode.WorkspaceFolder[]): string[] {
  return folders.filter((folder) => folder.uri.scheme === "file").map((folder) => folder.uri.fsPath);
}

/** The first `name` on PATH; a directory that `skip` refuses is not looked in. */
function onPath(name: string, skip: (dir: string) => boolean): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir === "" || skip(dir)) {
      continue;
    }
    const file = path.join(dir, name + EXE);
    if (isExecutable(file)) {
      return file;
    }
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

async function pythonExtensionInterpreter(): Promise<string | undefined> {
  const extension = vscode.extensions.getExtension("ms-python.python");
  if (extension === undefined) {
    return undefined;
  }
  try {
    const api = extension.isActive ? extension.exports : await extension.activate();
    const resource = vscode.workspace.workspaceFolders?.[0]?.uri;
    const env = api?.environments?.getActiveEnvironmentPath?.(resource);
    const found: unknown = env?.path;
    return typeof found === "string" && found !== "" ? found : undefined;
  } catch {
    return undefined;
  }
}

/** The `onnxtext.server.path` that counts: untrusted, the user's own value only (a workspace's
 * `.vscode/settings.json` is what a cloned repository controls). */
export function configuredPath(trusted: boolean): string {
  const config = vscode.workspace.getConfiguration("onnxtext");
  if (trusted) {
    return config.get<string>("server.path", "");
  }
  const seen = config.inspect<string>("server.path");
  return seen?.globalValue ?? seen?.defaultValue ?? "";
}

/** The candidates in the order they are tried; a set path is the only one tried. */
export async function candidates(configured: string, trusted: boolean): Promise<Candidate[]> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (configured.trim() !== "") {
    const file = expand(configured, folders[0]);
    const prefix = isInterpreter(file) ? ["-m", "onnxtext"] : [];
    const source = "the onnxtext.server.path setting";
    if (!trusted && insideFolders(file, folders)) {
      return [{ command: file, prefix, source, refused: `${file} is inside the workspace and ${RESTRICTED}` }];
    }
    return [{ command: file, prefix, source }];
  }
  const out: Candidate[] = [];
  // untrusted, a relative PATH entry or one inside the folder is the folder's program too
  const found = onPath("onnxtext", (dir) => !trusted && (!path.isAbsolute(dir) || insideFolders(dir, folders)));
  if (found !== undefined) {
    out.push({ command: found, prefix: [], source: "PATH" });
  }
  if (!trusted) {
    return out;
  }
  for (const folder of localFolders(folders)) {
    for (const venv of [".venv", "venv"]) {
      const exe = path.join(folder, venv, BIN, "onnxtext" + EXE);
      if (isExecutable(exe)) {
        out.push({ command: exe, prefix: [], source: `the workspace's ${venv}` });
      }
    }
  }
  const python = await pythonExtensionInterpreter();
  if (python !== undefined) {
    out.push({ command: python, prefix: ["-m", "onnxtext"], source: "the Python extension's interpreter" });
  }
  return out;
}

interface Probed {
  version?: string;
  problem?: string;
}

/** `--version` of a candidate: its version string, or the reason it does not work. */
function probe(candidate: Candidate): Promise<Probed> {
  return new Promise((resolve) => {
    execFile(
      candidate.command,
      [...candidate.prefix, "--version"],
      { timeout: 30_000, windowsHide: true },
      (error, stdout, stderr) => {
        const out = `${stdout}`.trim();
        if (error === null && /onnxtext/i.test(out)) {
          resolve({ version: out });
        } else if (error !== null && (error as NodeJS.ErrnoException).code === "ENOENT") {
          resolve({ problem: `${candidate.command} does not exist` });
        } else {
          const why = `${stderr}`.trim().split("\n").slice(-1)[0] || out || String(error);
          resolve({ problem: `${candidate.command} ${[...candidate.prefix, "--version"].join(" ")} failed: ${why}` });
        }
      },
    );
  });
}

export interface Discovery {
  server?: ServerCommand;
  /** Why each candidate was refused (empty when there was none). */
  problems: string[];
}

export async function findServer(configured: string, trusted: boolean, log: (line: string) => void): Promise<Discovery> {
  const problems: string[] = [];
  if (!trusted) {
    log(`${RESTRICTED}: the workspace's .venv, its settings and the Python extension's interpreter are not used until it is`);
  }
  for (const candidate of await candidates(configured, trusted)) {
    const result: Probed = candidate.refused !== undefined ? { problem: candidate.refused } : await probe(candidate);
    if (result.version !== undefined) {
      log(`server: ${candidate.command} ${candidate.prefix.join(" ")} (${result.version}, from ${candidate.source})`);
      return {
        server: { command: candidate.command, args: [...candidate.prefix, "lsp"], source: candidate.source, version: result.version },
        problems,
      };
    }
    log(`server candidate refused: ${result.problem}`);
    problems.push(`${result.problem} (from ${candidate.source})`);
  }
  return { problems };
}
