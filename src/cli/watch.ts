import { watch, type FSWatcher } from "node:fs";
import { relative, sep } from "node:path";
import type { Logger } from "../core/log.js";

/** Quiet time after the last change before a rebuild starts, when git itself moved (a commit, a checkout) or a change is unnamed. */
export const DEFAULT_DEBOUNCE_MS = 1500;
/**
 * Quiet time when every change is a named work-tree file (an editor's save is a burst of a few events within
 * milliseconds): short, so an edit reaches the ready index in a blink; rebuilds still never overlap.
 */
export const FILE_DEBOUNCE_MS = 50;

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
  opts: {
    /** `changed`: the work-tree paths seen changing since the last rebuild; null when that is not known. */
    rebuild: (changed: string[] | null) => Promise<void>;
    logger: Logger;
    debounceMs?: number;
    fileDebounceMs?: number;
    ignore?: string[];
  },
): RepositoryWatcher {
  // The store (and its audit file) may live inside the repository: its own writes must not trigger rebuilds.
  const ignored = (opts.ignore ?? []).map((p) => relative(root, p).split(sep).join("/")).filter((p) => p !== "" && !p.startsWith(".."));
  const debounceMs = opts.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  const fileDebounceMs = Math.min(opts.fileDebounceMs ?? FILE_DEBOUNCE_MS, debounceMs);
  // What changed since the last rebuild began: named paths, or null once anything unnamed or inside .git moved.
  let changed: Set<string> | null = new Set();
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
    const batch = changed;
    changed = new Set();
    try {
      await opts.rebuild(batch ? [...batch].sort() : null);
    } catch (err) {
      // What this rebuild was told is not in the index: the next one looks at everything.
      changed = null;
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
    timer = setTimeout(
      () => {
        timer = null;
        void run();
      },
      changed ? fileDebounceMs : debounceMs,
    );
  };
  const saw = (file: string | null): void => {
    if (file === null || file.startsWith(".git/") || file === ".git") changed = null;
    else changed?.add(file);
    schedule();
  };
  const watcher: FSWatcher = watch(root, { recursive: true }, (_event, filename) => {
    if (filename === null) return saw(null);
    const file = filename.toString().split(sep).join("/");
    if (ignored.some((p) => file === p || file.startsWith(`${p}/`))) return;
    if (relevant(file)) saw(file);
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
