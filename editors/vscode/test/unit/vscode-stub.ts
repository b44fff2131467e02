// The part of the `vscode` API that src/server.ts uses, set by each test: the workspace's
// folders and trust, the onnxtext.server.path setting at each level, the Python extension.
export interface Folder {
  uri: { fsPath: string; scheme: string };
  name: string;
  index: number;
}

export const state = {
  folders: [] as Folder[],
  trusted: true,
  /** onnxtext.server.path: the user's value and the workspace's (`.vscode/settings.json`). */
  serverPath: { user: undefined as string | undefined, workspace: undefined as string | undefined },
  /** The interpreter the Python extension has chosen (undefined: the extension is absent). */
  python: undefined as string | undefined,
  /** How often the Python extension was looked up. */
  pythonAsked: 0,
};

export function reset(): void {
  Object.assign(state, { folders: [], trusted: true, serverPath: { user: undefined, workspace: undefined }, python: undefined, pythonAsked: 0 });
}

export function folder(fsPath: string, scheme = "file"): Folder {
  return { uri: { fsPath, scheme }, name: fsPath.split("/").pop() ?? "", index: state.folders.length };
}

export const workspace = {
  get workspaceFolders(): Folder[] | undefined {
    return state.folders.length > 0 ? state.folders : undefined;
  },
  get isTrusted(): boolean {
    return state.trusted;
  },
  getConfiguration(section: string) {
    if (section !== "onnxtext") throw new Error(`unexpected configuration section ${section}`);
    const known = (key: string) => {
      if (key !== "server.path") throw new Error(`unexpected setting ${key}`);
    };
    return {
      get<T>(key: string, fallback: T): T {
        known(key);
        return (state.serverPath.workspace ?? state.serverPath.user ?? fallback) as T;
      },
      inspect<T>(key: string): { defaultValue?: T; globalValue?: T; workspaceValue?: T } {
        known(key);
        return { defaultValue: "" as T, globalValue: state.serverPath.user as T, workspaceValue: state.serverPath.workspace as T };
      },
    };
  },
};

export const extensions = {
  getExtension(id: string) {
    state.pythonAsked++;
    if (id !== "ms-python.python" || state.python === undefined) return undefined;
    const found = state.python;
    return { isActive: true, exports: { environments: { getActiveEnvironmentPath: () => ({ path: found }) } }, activate: async () => undefined };
  },
};
