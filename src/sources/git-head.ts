import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { gitTextOrNull } from "../indexer/git.js";
import type { WorkTreeChangeFeed } from "./work-tree-overlay.js";

/** HEAD is re-read at most this often for stale-index warnings, when no watcher says whether it moved. */
const HEAD_CACHE_MS = 1000;

/** The commit HEAD points at now (for stale-index warnings); null outside git or before the first commit. */
export async function currentHead(rootPath: string): Promise<string | null> {
  return gitTextOrNull(rootPath, ["rev-parse", "--verify", "-q", "HEAD"]);
}

/**
 * Whether a watcher of the work tree sees HEAD move: `.git` is a folder here, holding HEAD and loose refs (a linked
 * worktree's or a submodule's `.git` is a file pointing elsewhere; a reftable store keeps its refs in files the
 * watcher does not name).
 */
function headWatchable(root: string): boolean {
  try {
    return statSync(join(root, ".git")).isDirectory() && !existsSync(join(root, ".git", "reftable"));
  } catch {
    return false;
  }
}

/**
 * `currentHead` cached: for HEAD_CACHE_MS (a burst of tool calls shares one `git rev-parse`), or, with a watcher's
 * `changes`, for as long as nothing moved (a commit or a checkout moves `.git/HEAD` or a ref, which it counts): an
 * agent's calls a second or more apart no longer start a git process each.
 */
export function cachedHeadReader(root: string, now: () => number = Date.now, changes?: WorkTreeChangeFeed): () => Promise<string | null> {
  let cached: { at: number; epoch: number | null; value: Promise<string | null> } | null = null;
  let watchable: boolean | null = null;
  return async () => {
    const watched = changes !== undefined && (watchable ??= headWatchable(root));
    // Events already queued (a commit just made) are counted first.
    if (watched) await new Promise((r) => setImmediate(r));
    const epoch = watched ? changes.epoch() : null;
    const t = now();
    const stale = !cached || (epoch !== null ? cached.epoch !== epoch : t - cached.at > HEAD_CACHE_MS);
    if (stale) cached = { at: t, epoch, value: currentHead(root) };
    return cached!.value;
  };
}
