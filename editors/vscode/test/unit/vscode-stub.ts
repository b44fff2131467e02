// The part of the `vscode` API that src/server.ts uses, set by each test: the workspace's
// folders and trust, the onnxtext.server.path setting at each level, the Python extension;
// and what src/binary.ts's file-system provider uses.
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
  asRelativePath(uri: { fsPath: string }): string {
    return uri.fsPath;
  },
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

// ---- what src/binary.ts uses: URIs, events, file-system types, notes ----
export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
  ) {}

  static file(fsPath: string): Uri {
    return new Uri("file", fsPath);
  }

  get fsPath(): string {
    return this.path;
  }

  with(change: { scheme?: string; path?: string }): Uri {
    return new Uri(change.scheme ?? this.scheme, change.path ?? this.path);
  }

  toString(): string {
    return `${this.scheme}://${this.path}`;
  }
}

export class Disposable {
  constructor(private readonly callback: () => void) {}

  dispose(): void {
    this.callback();
  }
}

export class EventEmitter<T> {
  private listeners: ((value: T) => void)[] = [];

  readonly event = (listener: (value: T) => void): Disposable => {
    this.listeners.push(listener);
    return new Disposable(() => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    });
  };

  fire(value: T): void {
    this.listeners.forEach((l) => l(value));
  }

  dispose(): void {
    this.listeners = [];
  }
}

export class FileSystemError extends Error {
  static FileNotFound(uri: Uri): FileSystemError {
    return new FileSystemError(`not found: ${uri.toString()}`);
  }

  static NoPermissions(uri: Uri): FileSystemError {
    return new FileSystemError(`no permissions: ${uri.toString()}`);
  }
}

export enum FileType {
  Unknown = 0,
  File = 1,
  Directory = 2,
}

export enum FilePermission {
  Readonly = 1,
}

export enum FileChangeType {
  Changed = 1,
  Created = 2,
  Deleted = 3,
}

/** The notes the extension showed, in order. */
export const shown: string[] = [];

export const window = {
  async showInformationMessage(text: string): Promise<undefined> {
    shown.push(text);
    return undefined;
  },
  async showWarningMessage(text: string): Promise<undefined> {
    shown.push(text);
    return undefined;
  },
};

export const languages = {
  setTextDocumentLanguage(): never {
    throw new Error("not used by the unit tests");
  },
};
