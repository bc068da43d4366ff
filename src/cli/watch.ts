import { relative, sep } from "node:path";
import { insideGit, runGit } from "../indexer/git.js";
import { watchTree, type TreeWatch } from "./watch-tree.js";
import type { Logger } from "../core/log.js";
import type { WorkTreeChangeFeed } from "../sources/work-tree-overlay.js";

/** Quiet time after the last change before a rebuild starts, when git itself moved (a commit, a checkout) or a change is unnamed. */
export const DEFAULT_DEBOUNCE_MS = 1500;
/**
 * Quiet time when every change is a named work-tree file (an editor's save is a burst of a few events within
 * milliseconds): short, so an edit reaches the ready index in a blink; rebuilds still never overlap.
 */
export const FILE_DEBOUNCE_MS = 25;

export interface RepositoryWatcher {
  /** Settles when every folder is watched (a first rebuild that looks at everything is then scheduled). */
  ready: Promise<void>;
  close(): void;
}

/** Folders git ignores (build outputs, dependencies): their changes are never indexed, so they are not watched. */
async function gitIgnoredFolders(root: string): Promise<Set<string>> {
  const out = await runGit(root, ["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"]).catch(() => null);
  if (out === null) return new Set();
  return new Set(out.toString("utf8").split("\0").filter((p) => p.endsWith("/")).map((p) => p.slice(0, -1)));
}

/** Inside .git only a moved HEAD or branch matters (a commit, a checkout); the rest is git's own bookkeeping. */
function relevant(file: string): boolean {
  if (file === ".git" || file.startsWith(".git/") || file.startsWith(".git\\")) {
    const f = file.replace(/\\/g, "/");
    return f === ".git/HEAD" || f.startsWith(".git/refs/");
  }
  return true;
}

/** What `watchRelevant` takes: the logger for unwatchable folders, and paths (the store's folder) whose writes are no change. */
interface RelevantOptions {
  logger: Logger;
  ignore?: string[];
}

/**
 * Every folder of the work tree watched except those git ignores and git's own bookkeeping (HEAD and the refs
 * stay: a commit or a checkout moves them), reporting each changed path that matters, or null when unnamed.
 */
function watchRelevant(root: string, opts: RelevantOptions, onFile: (file: string | null) => void): TreeWatch {
  // The store (and its audit file) may live inside the repository: its own writes must not count as changes.
  const ignored = (opts.ignore ?? []).map((p) => relative(root, p).split(sep).join("/")).filter((p) => p !== "" && !p.startsWith(".."));
  const ignoredFolders = gitIgnoredFolders(root);
  const skipFolder = async (rel: string): Promise<boolean> => {
    if (ignored.some((p) => rel === p || rel.startsWith(`${p}/`))) return true;
    // Inside .git only HEAD (in .git itself) and the refs matter.
    if (rel.startsWith(".git/")) return !(rel === ".git/refs" || rel.startsWith(".git/refs/"));
    return (await ignoredFolders).has(rel);
  };
  return watchTree(
    root,
    (file) => {
      if (file === null) return onFile(null);
      if (ignored.some((p) => file === p || file.startsWith(`${p}/`))) return;
      if (relevant(file)) onFile(file);
    },
    { logger: opts.logger, skipFolder },
  );
}

/** Named paths kept for `changedSince` at most; beyond, the oldest look is told "not known" (a checkout of many files). */
const MAX_NAMED_CHANGES = 4096;

/**
 * The count of a work tree's changes and the paths behind them, fed one change at a time: by the watcher in the
 * thread that watches, and by its messages in each worker of `serve --http`'s pool (serve-pool.ts).
 */
export class ChangeLog implements WorkTreeChangeFeed {
  private count = 0;
  /** The last count whose change has no name (or came while not every folder was watched). */
  private unknownAt = 0;
  private known = false;
  /** Each named path with the count of its last change. */
  private readonly named = new Map<string, number>();
  private readonly listeners: (() => void)[] = [];

  /** One change (a path, or null when unnamed), and whether every folder is watched after it. */
  saw(file: string | null, known: boolean): void {
    this.count += 1;
    if (file === null || insideGit(file) || !this.known || this.named.size >= MAX_NAMED_CHANGES) {
      this.named.clear();
      this.unknownAt = this.count;
    } else this.named.set(file, this.count);
    this.known = known;
    for (const listener of this.listeners) listener();
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  epoch(): number | null {
    return this.known ? this.count : null;
  }

  changedSince(since: number): string[] | null {
    if (!this.known || since < this.unknownAt) return null;
    return [...this.named].filter(([, at]) => at > since).map(([path]) => path);
  }
}

/**
 * A watcher's count of the work tree's changes and the paths behind them: `epoch()` is null until every folder is
 * watched, or once one could not be; `changedSince` is null after something unnamed or inside `.git` moved.
 */
export interface ChangeSignal extends Required<WorkTreeChangeFeed> {
  close(): void;
}

/**
 * Counts the work tree's changes so that `serve` can tell "nothing moved since the last look" without asking git,
 * and names what moved so a look after an edit asks git about those paths alone: on the kernel, `git status`
 * takes ~200 ms, and an agent whose calls are a second or more apart paid it on nearly every call
 * (work-tree-overlay.ts). `listen` hears each change as the log takes it (to feed a worker's `ChangeLog`).
 */
export function watchChanges(root: string, opts: RelevantOptions, listen?: (file: string | null, known: boolean) => void): ChangeSignal {
  const log = new ChangeLog();
  let ready = false;
  const saw = (file: string | null): void => {
    const known = ready && watcher.complete();
    log.saw(file, known);
    listen?.(file, known);
  };
  const watcher = watchRelevant(root, opts, saw);
  // What changed while the folders were being walked went unseen: that is the first, unnamed change.
  void watcher.ready.then(() => {
    ready = true;
    saw(null);
  });
  return {
    epoch: () => (watcher.complete() ? log.epoch() : null),
    changedSince: (since) => (watcher.complete() ? log.changedSince(since) : null),
    onChange: (listener) => log.onChange(listener),
    close: () => watcher.close(),
  };
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
    if (file === null || insideGit(file)) changed = null;
    else changed?.add(file);
    schedule();
  };
  const watcher = watchRelevant(root, opts, saw);
  // What changed while the folders were being walked went unseen: one look at everything once they are watched.
  const ready = watcher.ready.then(() => saw(null));
  return {
    ready,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      watcher.close();
    },
  };
}
