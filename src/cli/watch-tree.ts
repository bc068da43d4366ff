import { watch, type FSWatcher } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "../core/log.js";

export interface TreeWatch {
  /** Settles when every folder present at the start is watched. */
  ready: Promise<void>;
  /** False once a folder could not be watched (out of inotify watches, say): changes there go unseen. */
  complete(): boolean;
  close(): void;
}

export interface TreeWatchOptions {
  logger: Logger;
  /** Folders (relative, `/`-separated) not to watch: the store's, those git ignores, git's own bookkeeping. */
  skipFolder: (rel: string) => boolean | Promise<boolean>;
}

const join2 = (dir: string, name: string): string => (dir === "" ? name : `${dir}/${name}`);

/**
 * Watches every folder of a work tree with one non-recursive `fs.watch` each (one inotify watch per folder on
 * Linux) and reports each changed entry's path relative to the root, or null when a folder's watcher cannot say
 * which. Node's own recursive watch on Linux also polls every file with a stat watcher: on a 78k-file kernel that
 * was ~1.5 s of stats to start, a steady stream of them after, and hundreds of MiB held. A folder that appears is
 * walked and watched (its path is reported: whatever it holds is new); one that goes has its watchers closed.
 */
export function watchTree(root: string, onChange: (rel: string | null) => void, opts: TreeWatchOptions): TreeWatch {
  const watchers = new Map<string, FSWatcher>();
  let closed = false;
  let warned = false;
  let incomplete = false;

  const unwatch = (rel: string): void => {
    for (const [dir, w] of watchers) {
      if (dir === rel || dir.startsWith(`${rel}/`)) {
        w.close();
        watchers.delete(dir);
      }
    }
  };

  const entryChanged = async (dir: string, name: string | null): Promise<void> => {
    if (name === null) return onChange(null);
    const rel = join2(dir, name);
    onChange(rel);
    const st = await lstat(join(root, rel)).catch(() => null);
    if (closed) return;
    if (st === null) unwatch(rel);
    else if (st.isDirectory() && !watchers.has(rel)) {
      await add(rel);
      // What was written in the new folder before it was watched went unseen: it is named again once watched.
      if (!closed) onChange(rel);
    }
  };

  const add = async (rel: string): Promise<void> => {
    if (closed || watchers.has(rel) || (rel !== "" && (await opts.skipFolder(rel)))) return;
    // Closed (or watched) while asking: a watcher opened now would keep the process alive after close().
    if (closed || watchers.has(rel)) return;
    let w: FSWatcher;
    try {
      w = watch(rel === "" ? root : join(root, rel), { persistent: true }, (_event, name) => void entryChanged(rel, name === null ? null : name.toString()));
    } catch (err) {
      // Out of inotify watches (ENOSPC), or the folder went meanwhile: say so once; changes there go unseen.
      if (!warned) opts.logger.log("warn", "a folder cannot be watched; changes in it are seen by the next full look", { folder: rel || ".", error: err instanceof Error ? err.message : String(err) });
      warned = true;
      incomplete = true;
      // What changes there goes unseen: whoever counts changes hears that it can no longer tell.
      onChange(null);
      return;
    }
    w.on("error", () => unwatch(rel));
    watchers.set(rel, w);
    const entries = await readdir(rel === "" ? root : join(root, rel), { withFileTypes: true }).catch(() => []);
    if (closed) return;
    await Promise.all(entries.filter((e) => e.isDirectory()).map((e) => add(join2(rel, e.name))));
  };

  const ready = add("");
  return {
    ready,
    complete: () => !incomplete && !closed,
    close() {
      closed = true;
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
