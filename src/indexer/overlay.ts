import { lstat } from "node:fs/promises";
import { join } from "node:path";
import type { FileInput, FileRow, IndexRow, Store } from "../store/store.js";
import { gitDiffPaths, gitStatusPaths, gitTextOrNull } from "./git.js";
import { inventoryFile } from "./inventory.js";
import { extractFileSymbols } from "./pipeline.js";
import { createSecretScanner } from "./secrets.js";
import { ExtractionPool } from "./symbols/pool.js";
import type { Extraction } from "./symbols/types.js";

/**
 * The working-tree overlay: files that differ from the ready index (edited, added, or deleted since it was built)
 * read from disk, with their own hashes and symbols, so answers about code the agent is editing are current.
 */
export interface OverlayFile {
  row: FileRow;
  content: string | null;
  extraction: Extraction | null;
}

export interface WorkingTreeOverlay {
  /** Edited or new files, by path. */
  changed: Map<string, OverlayFile>;
  /** Indexed files no longer in the work tree. */
  deleted: Set<string>;
  /** Changed files beyond the overlay's bound: they keep their indexed rows, with `file_changed_since_index`. */
  notOverlaid: string[];
}

/** Files served from disk at most; beyond this a reindex is the right tool. */
export const MAX_OVERLAY_FILES = 200;

let sharedPool: Promise<ExtractionPool> | null = null;
/** One in-process extractor for the server's lifetime (grammars load once). */
function pool(): Promise<ExtractionPool> {
  return (sharedPool ??= ExtractionPool.create(0));
}

/** Paths git reports as changed against HEAD, plus those between the index commit and HEAD. */
async function changedPaths(root: string, index: IndexRow): Promise<Set<string>> {
  const out = new Set(await gitStatusPaths(root));
  const head = await gitTextOrNull(root, ["rev-parse", "HEAD"]);
  if (index.baseCommit && head && head !== index.baseCommit) {
    for (const p of (await gitDiffPaths(root, index.baseCommit, head)) ?? []) out.add(p);
  }
  return out;
}

/**
 * Compares what git says changed with the index: a path is overlaid when its bytes differ from the indexed ones
 * (an index built from a dirty tree already has some edits), added when the index lacks it, deleted when the
 * work tree lacks it.
 */
export async function buildOverlay(root: string, store: Store, index: IndexRow, maxFileBytes: number): Promise<WorkingTreeOverlay> {
  const overlay: WorkingTreeOverlay = { changed: new Map(), deleted: new Set(), notOverlaid: [] };
  if (!index.baseCommit) return overlay;
  const paths = [...(await changedPaths(root, index))].sort();
  const options = { maxFileBytes, secretScanner: createSecretScanner() };
  for (const path of paths) {
    const indexed = await store.getFile(index.id, path);
    const st = await lstat(join(root, path)).catch(() => null);
    if (st === null) {
      if (indexed) overlay.deleted.add(path);
      continue;
    }
    if (!st.isFile()) continue;
    if (indexed && indexed.sizeBytes === st.size && indexed.mtimeMs !== null && Math.abs(indexed.mtimeMs - st.mtimeMs) <= 1) continue;
    if (overlay.changed.size >= MAX_OVERLAY_FILES) {
      overlay.notOverlaid.push(path);
      continue;
    }
    const row: FileInput = await inventoryFile(root, path, options);
    if (indexed && indexed.contentHash === row.contentHash) continue;
    const withSymbols = await extractFileSymbols(row, await pool());
    const { content, extraction, reuse: _reuse, ...fileRow } = withSymbols;
    overlay.changed.set(path, { row: fileRow, content, extraction: extraction ?? null });
  }
  return overlay;
}

/** Overlays are rebuilt at most this often: a burst of tool calls shares one `git status`. */
const OVERLAY_TTL_MS = 1000;

/** A per-server cache of the current overlay, rebuilt when it is older than the TTL or the index changed. */
export function overlayProvider(root: string, store: Store, maxFileBytes: number, now: () => number = Date.now) {
  let cached: { at: number; key: string; value: Promise<WorkingTreeOverlay> } | null = null;
  return (index: IndexRow): Promise<WorkingTreeOverlay> => {
    const t = now();
    const key = `${index.id}@${index.indexVersion ?? ""}`;
    if (!cached || cached.key !== key || t - cached.at > OVERLAY_TTL_MS) {
      cached = { at: t, key, value: buildOverlay(root, store, index, maxFileBytes) };
    }
    return cached.value;
  };
}
