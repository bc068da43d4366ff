import type { Stats } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import { join } from "node:path";
import type { FileInput, FileRow, IndexRow, Store } from "../store/store.js";
import { gitDiffPaths, gitTextOrNull } from "./git.js";
import { inventoryFile, type InventoryOptions } from "./inventory.js";

/** Modification times closer than this are the same (file systems round differently). */
const MTIME_TOLERANCE_MS = 1;

/** A file whose size and modification time are those it was indexed with has not changed (no need to hash it). */
export function sameStatAsIndexed(row: FileRow, st: Pick<Stats, "size" | "mtimeMs">): boolean {
  return st.size === row.sizeBytes && row.mtimeMs !== null && Math.abs(st.mtimeMs - row.mtimeMs) <= MTIME_TOLERANCE_MS;
}

/**
 * Paths that may differ from what an index holds: what git reports now (`status`), what was dirty when the index
 * was built (an edit since reverted is not in `git status`, yet differs from the index), and what the commits
 * since the indexed one touched. `historyKnown` is false when git cannot list those commits' changes.
 */
export async function candidatePaths(
  root: string,
  store: Store,
  index: IndexRow,
  status: string[],
  head: string | null,
): Promise<{ paths: string[]; historyKnown: boolean }> {
  const out = new Set([...status, ...(await store.getDirtyPaths(index.id))]);
  let historyKnown = true;
  if (index.baseCommit && head && head !== index.baseCommit) {
    const diff = await gitDiffPaths(root, index.baseCommit, head);
    if (diff === null) historyKnown = false;
    for (const p of diff ?? []) out.add(p);
  }
  return { paths: [...out].sort(), historyKnown };
}

/**
 * Whether a folder on the way to `path` resolves somewhere else than where it sits (it is a symlink, or lies under
 * one). Git lists nothing beyond a symlink; a path read through one could reach any file, outside the root or in
 * `.git` (a commit that swaps a folder for a symlink leaves the folder's old paths among the candidates).
 * `folders` caches each folder's answer for one run.
 */
async function behindSymlink(realRoot: string, path: string, folders: Map<string, Promise<boolean>>): Promise<boolean> {
  const slash = path.lastIndexOf("/");
  if (slash < 0) return false;
  const folder = path.slice(0, slash);
  let answer = folders.get(folder);
  if (answer === undefined) {
    const lexical = join(realRoot, folder);
    answer = realpath(lexical).then((real) => real !== lexical, () => false);
    folders.set(folder, answer);
  }
  return answer;
}

export interface WorkTreeChanges {
  /** Changed and new files as a build would row them (extracted by the caller's `extract`), in path order. */
  upsert: FileInput[];
  /** Indexed files that a build would no longer list. */
  remove: string[];
  /** The indexed rows of the upserted and removed paths, before the change. */
  before: Map<string, FileRow>;
}

/**
 * Reads what really changed among candidate paths: a file whose size and modification time match its row is
 * skipped, others are inventoried and kept only when their bytes or skip reason differ. A file missing from the
 * work tree but still in git's index keeps a row (unreadable), as a build lists it; one git no longer lists goes.
 * Nothing behind a symlinked folder is read: an indexed path there goes, as git no longer lists it.
 * At most `maxFiles` files are read; the rest are left out (the caller decides what that means).
 */
export async function readChanges(
  root: string,
  store: Store,
  indexId: string,
  paths: string[],
  opts: { inventory: InventoryOptions; extract: (row: FileInput) => Promise<FileInput>; maxFiles?: number },
): Promise<WorkTreeChanges> {
  const out: WorkTreeChanges = { upsert: [], remove: [], before: new Map() };
  const missing: { path: string; indexed: FileRow | null }[] = [];
  const keep = (path: string, indexed: FileRow | null) => {
    if (indexed) out.before.set(path, indexed);
  };
  const realRoot = await realpath(root).catch(() => root);
  const folders = new Map<string, Promise<boolean>>();
  for (const path of paths) {
    const indexed = await store.getFile(indexId, path);
    if (await behindSymlink(realRoot, path, folders)) {
      if (indexed) {
        out.remove.push(path);
        keep(path, indexed);
      }
      continue;
    }
    const st = await lstat(join(root, path)).catch(() => null);
    if (st === null) {
      missing.push({ path, indexed });
      continue;
    }
    if (st.isDirectory() || (indexed && sameStatAsIndexed(indexed, st))) continue;
    if (opts.maxFiles !== undefined && out.upsert.length >= opts.maxFiles) continue;
    const row = await inventoryFile(root, path, opts.inventory);
    if (indexed && indexed.contentHash === row.contentHash && indexed.skipReason === row.skipReason) continue;
    out.upsert.push(await opts.extract(row));
    keep(path, indexed);
  }
  if (missing.length > 0) {
    const listed = await gitTextOrNull(root, ["ls-files", "-z", "--cached"], { paths: missing.map((m) => m.path) });
    const stillTracked = new Set((listed ?? "").split("\0"));
    for (const { path, indexed } of missing) {
      if (!stillTracked.has(path)) {
        if (indexed) {
          out.remove.push(path);
          keep(path, indexed);
        }
        continue;
      }
      const row = await inventoryFile(root, path, opts.inventory);
      if (indexed && indexed.contentHash === row.contentHash && indexed.skipReason === row.skipReason) continue;
      out.upsert.push(row);
      keep(path, indexed);
    }
    out.upsert.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
  return out;
}
