import { watch, type FSWatcher } from "node:fs";
import { relative, sep } from "node:path";
import type { Logger } from "../core/log.js";

/** Quiet time after the last change before a rebuild starts. */
export const DEFAULT_DEBOUNCE_MS = 1500;

export interface RepositoryWatcher {
  close(): void;
}

/** Inside .git only a moved HEAD or branch matters (a commit, a checkout); the rest is git's own bookkeeping. */
function relevant(file: string): boolean {
  if (file === ".git" || file.startsWith(".git/") || file.startsWith(".git\\")) {
    const f = file.replace(/\\/g, "/");
    return f === ".git/HEAD" || f.startsWith(".git/refs/");
  }
  return true;
}

/**
 * Watches a work tree and calls `rebuild` once changes have settled. Rebuilds never overlap: a change during a
 * rebuild schedules one more afterwards. Queries keep answering from the last ready index meanwhile.
 */
export function watchRepository(
  root: string,
  opts: { rebuild: () => Promise<void>; logger: Logger; debounceMs?: number; ignore?: string[] },
): RepositoryWatcher {
  // The store (and its audit file) may live inside the repository: its own writes must not trigger rebuilds.
  const ignored = (opts.ignore ?? []).map((p) => relative(root, p).split(sep).join("/")).filter((p) => p !== "" && !p.startsWith(".."));
  const debounceMs = opts.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let pending = false;
  let closed = false;
  const run = async (): Promise<void> => {
    if (closed) return;
    if (running) {
      pending = true;
      return;
    }
    running = true;
    try {
      await opts.rebuild();
    } catch (err) {
      opts.logger.log("error", "reindex after a change failed; the previous index keeps serving", {
        error: err instanceof Error ? err.message : String(err),
      });
    } finally {
      running = false;
    }
    if (pending) {
      pending = false;
      schedule();
    }
  };
  const schedule = (): void => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void run();
    }, debounceMs);
  };
  const watcher: FSWatcher = watch(root, { recursive: true }, (_event, filename) => {
    if (filename === null) return schedule();
    const file = filename.toString().split(sep).join("/");
    if (ignored.some((p) => file === p || file.startsWith(`${p}/`))) return;
    if (relevant(file)) schedule();
  });
  watcher.on("error", (err) => opts.logger.log("warn", "file watcher error", { error: err.message }));
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      watcher.close();
    },
  };
}
