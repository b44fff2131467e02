// Timers that look at a setting again a little after start-up (src/extension.ts's re-check of
// `onnxtext.server.path`), kept so that deactivating the extension or scheduling anew clears
// them: a timer left behind would start a server for an extension host that is shutting down.

/** The delays, in ms after activation, of the re-checks of `onnxtext.server.path`. */
export const RECHECK_DELAYS: readonly number[] = [1_000, 3_000, 6_000];

export class Rechecks {
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  /** Call `check` after each of `delays` (ms), clearing the re-checks scheduled before. */
  schedule(check: () => void, delays: readonly number[] = RECHECK_DELAYS): void {
    this.clear();
    for (const delay of delays) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        check();
      }, delay);
      this.timers.add(timer);
    }
  }

  /** How many re-checks are still to come. */
  get pending(): number {
    return this.timers.size;
  }

  /** Cancel every re-check still to come. */
  clear(): void {
    for (const timer of this.timers) {
      clearTimeout(timer);
    }
    this.timers.clear();
  }

  dispose(): void {
    this.clear();
  }
}
