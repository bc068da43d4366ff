import { lstatSync } from "node:fs";
import { join } from "node:path";
import { sameStatAsIndexed } from "../indexer/changes.js";
import { readFileInsideRoot } from "../policy/path-guard.js";
import type { QueryContext } from "./context.js";
import { sha256 } from "../core/hash.js";

/** Files larger than this are not hashed: they count as changed when their size or time moved. */
const MAX_HASHED_BYTES = 64 * 1024 * 1024;

/**
 * Which of these indexed paths differ in the work tree now: a size or modification-time difference is confirmed
 * by hashing the file, so touching a file without changing it is not a change. Deleted files count as changed, and
 * so does a file that is no longer a regular file (a directory, FIFO, device or symlink now): those are never read.
 */
export async function changedSinceIndex(ctx: QueryContext, root: string, paths: Iterable<string>): Promise<string[]> {
  const changed: string[] = [];
  for (const path of new Set(paths)) {
    const row = await ctx.store.getFile(ctx.index.id, path);
    if (!row || row.skipReason === "symlink" || row.skipReason === "symlink_outside_root") continue;
    // Synchronous on purpose: a stat takes microseconds, a round trip through the thread pool far longer.
    let st;
    try {
      st = lstatSync(join(root, path));
    } catch {
      changed.push(path);
      continue;
    }
    if (!st.isFile()) {
      if (row.skipReason !== "not_a_file") changed.push(path);
      continue;
    }
    if (sameStatAsIndexed(row, st)) continue;
    const read = await readFileInsideRoot(root, path, MAX_HASHED_BYTES);
    if (!read.ok || read.realRelPath !== path || sha256(read.bytes) !== row.contentHash) changed.push(path);
  }
  return changed;
}
