import { lstatSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { sameStatAsIndexed } from "../indexer/changes.js";
import type { QueryContext } from "./context.js";
import { sha256 } from "../core/hash.js";

/**
 * Which of these indexed paths differ in the work tree now: a size or modification-time difference is confirmed
 * by hashing the file, so touching a file without changing it is not a change. Deleted files count as changed.
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
    if (sameStatAsIndexed(row, st)) continue;
    try {
      if (sha256(await readFile(join(root, path))) !== row.contentHash) changed.push(path);
    } catch {
      changed.push(path);
    }
  }
  return changed;
}
