import type { IndexRow, Store } from "../store/store.js";
import { candidatePaths, readChanges } from "../indexer/changes.js";
import { gitStatusPaths, gitTextOrNull } from "../indexer/git.js";
import type { ExtractionPool } from "../indexer/symbols/pool.js";
import type { WorkingTreeOverlay } from "../store/overlay-store.js";

/** Files served from disk at most; beyond this a reindex is the right tool. */
export const MAX_OVERLAY_FILES = 200;

/** Where overlaid files are parsed: one in-process extractor, started on first use and shared by every repository served. */
export type ExtractorSource = () => Promise<ExtractionPool>;

/** An extractor started on first use (grammars load once), for a server's lifetime. */
export function lazyExtractor(): ExtractorSource {
  let pool: Promise<ExtractionPool> | null = null;
  return () => (pool ??= import("../indexer/symbols/pool.js").then(({ ExtractionPool }) => ExtractionPool.create(0)));
}

/**
 * Compares what git says changed (and what was dirty when the index was built) with the index, as an in-place
 * update would: edited and new files are overlaid with their text and symbols, files a build would no longer list
 * are deleted. Beyond MAX_OVERLAY_FILES changed files, the rest keep their indexed rows (and the
 * `file_changed_since_index` warning): a reindex is the right tool then.
 */
export async function buildOverlay(root: string, store: Store, index: IndexRow, maxFileBytes: number, extractor: ExtractorSource): Promise<WorkingTreeOverlay> {
  const overlay: WorkingTreeOverlay = { changed: new Map(), deleted: new Set() };
  if (!index.baseCommit) return overlay;
  const [status, head] = await Promise.all([gitStatusPaths(root), gitTextOrNull(root, ["rev-parse", "HEAD"])]);
  if (status === null) return overlay;
  const { paths } = await candidatePaths(root, store, index, status, head);
  // Nothing changed: no file to read, so neither the secret scanner nor the extractor is loaded (startup, #19).
  if (paths.length === 0) return overlay;
  const [{ extractFileSymbols }, { createSecretScanner }] = await Promise.all([import("../indexer/pipeline.js"), import("../indexer/secrets.js")]);
  const inventory = { maxFileBytes, secretScanner: createSecretScanner() };
  const pool = await extractor();
  const changes = await readChanges(root, store, index.id, paths, {
    inventory,
    extract: (row) => extractFileSymbols(row, pool),
    maxFiles: MAX_OVERLAY_FILES,
  });
  for (const f of changes.upsert) {
    const { content, extraction, reuse: _reuse, terms, ...row } = f;
    overlay.changed.set(f.path, { row, content, extraction: extraction ?? null, terms: terms ?? null });
  }
  for (const path of changes.remove) overlay.deleted.add(path);
  return overlay;
}

/** Overlays are rebuilt at most this often: a burst of tool calls shares one `git status`. */
const OVERLAY_TTL_MS = 1000;

/**
 * A per-server cache of the current overlay, rebuilt when the index changed, or when it is older than the TTL and
 * the work tree may have moved. `changes` (a watcher's count of changes, null while it cannot tell) says when
 * nothing moved: then the cached overlay holds however old it is, instead of a `git status` per call a second apart.
 */
export function overlayProvider(
  root: string,
  store: Store,
  maxFileBytes: number,
  extractor: ExtractorSource,
  now: () => number = Date.now,
  changes?: () => number | null,
) {
  let cached: { at: number; key: string; epoch: number | null; value: Promise<WorkingTreeOverlay> } | null = null;
  return async (index: IndexRow): Promise<WorkingTreeOverlay> => {
    // Events already queued (an edit saved just before this call) are counted first.
    if (changes) await new Promise((r) => setImmediate(r));
    const epoch = changes?.() ?? null;
    const t = now();
    const key = `${index.id}@${index.indexVersion ?? ""}`;
    const quiet = epoch !== null && cached?.epoch === epoch;
    if (!cached || cached.key !== key || (!quiet && t - cached.at > OVERLAY_TTL_MS)) {
      cached = { at: t, key, epoch, value: buildOverlay(root, store, index, maxFileBytes, extractor) };
    }
    return cached.value;
  };
}
