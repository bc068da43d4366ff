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

/** What a look at the work tree found, and what the next look after a few named changes starts from. */
interface OverlayState {
  overlay: WorkingTreeOverlay;
  /** Paths that may differ from the index without git reporting them: dirty when it was built, or touched by commits since. */
  stable: Set<string>;
  /** The overlay reached MAX_OVERLAY_FILES: which files it left out is not known, so the next look is a whole one. */
  full: boolean;
}

const emptyState = (): OverlayState => ({ overlay: { changed: new Map(), deleted: new Set() }, stable: new Set(), full: false });

/** Reads and extracts the candidate paths that really changed, as an in-place update would (`readChanges`). */
async function readOverlayChanges(
  root: string,
  store: Store,
  index: IndexRow,
  paths: string[],
  maxFileBytes: number,
  extractor: ExtractorSource,
  maxFiles: number,
): Promise<WorkingTreeOverlay> {
  const overlay: WorkingTreeOverlay = { changed: new Map(), deleted: new Set() };
  // Nothing changed: no file to read, so neither the secret scanner nor the extractor is loaded (startup, #19).
  if (paths.length === 0) return overlay;
  const [{ extractFileSymbols }, { createSecretScanner }] = await Promise.all([import("../indexer/pipeline.js"), import("../indexer/secrets.js")]);
  const inventory = { maxFileBytes, secretScanner: createSecretScanner() };
  const pool = await extractor();
  const changes = await readChanges(root, store, index.id, paths, { inventory, extract: (row) => extractFileSymbols(row, pool), maxFiles });
  for (const f of changes.upsert) {
    const { content, extraction, reuse: _reuse, terms, ...row } = f;
    overlay.changed.set(f.path, { row, content, extraction: extraction ?? null, terms: terms ?? null });
  }
  for (const path of changes.remove) overlay.deleted.add(path);
  return overlay;
}

/** The whole look: every path git reports, plus those dirty at the build and touched by commits since. */
async function wholeLook(root: string, store: Store, index: IndexRow, maxFileBytes: number, extractor: ExtractorSource): Promise<OverlayState> {
  if (!index.baseCommit) return emptyState();
  const [status, head] = await Promise.all([gitStatusPaths(root), gitTextOrNull(root, ["rev-parse", "HEAD"])]);
  if (status === null) return emptyState();
  const { paths } = await candidatePaths(root, store, index, status, head);
  const git = new Set(status);
  const overlay = await readOverlayChanges(root, store, index, paths, maxFileBytes, extractor, MAX_OVERLAY_FILES);
  return { overlay, stable: new Set(paths.filter((p) => !git.has(p))), full: overlay.changed.size >= MAX_OVERLAY_FILES };
}

/** Whether `path` is one of `named` or lies in a folder among them (a folder moved or removed names itself alone). */
function under(path: string, named: readonly string[]): boolean {
  return named.some((n) => path === n || path.startsWith(`${n}/`));
}

/** Files whose change can change what git reports for other paths: ignore rules, and attributes (line endings, filters). */
function movesOtherPaths(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name === ".gitignore" || name === ".gitattributes";
}

/**
 * A look after a few named changes (`changed`: paths or folders, none inside `.git`): git is asked about those
 * alone, and everything else keeps what the previous look found. A changed ignore or attributes file can move any
 * path, so it takes a whole look.
 */
async function namedLook(
  root: string,
  store: Store,
  index: IndexRow,
  maxFileBytes: number,
  extractor: ExtractorSource,
  previous: OverlayState,
  changed: string[],
): Promise<OverlayState | null> {
  if (previous.full || changed.some(movesOtherPaths)) return null;
  if (changed.length === 0) return previous;
  const status = await gitStatusPaths(root, changed);
  if (status === null) return null;
  const paths = [...new Set([...status, ...[...previous.stable].filter((p) => under(p, changed))])].sort();
  const kept = previous.overlay.changed.size - [...previous.overlay.changed.keys()].filter((p) => under(p, changed)).length;
  const found = await readOverlayChanges(root, store, index, paths, maxFileBytes, extractor, MAX_OVERLAY_FILES - kept);
  const overlay: WorkingTreeOverlay = { changed: new Map(found.changed), deleted: new Set(found.deleted) };
  for (const [path, file] of previous.overlay.changed) if (!under(path, changed)) overlay.changed.set(path, file);
  for (const path of previous.overlay.deleted) if (!under(path, changed)) overlay.deleted.add(path);
  return { overlay, stable: previous.stable, full: overlay.changed.size >= MAX_OVERLAY_FILES };
}

/**
 * Compares what git says changed (and what was dirty when the index was built) with the index, as an in-place
 * update would: edited and new files are overlaid with their text and symbols, files a build would no longer list
 * are deleted. Beyond MAX_OVERLAY_FILES changed files, the rest keep their indexed rows (and the
 * `file_changed_since_index` warning): a reindex is the right tool then.
 */
export async function buildOverlay(root: string, store: Store, index: IndexRow, maxFileBytes: number, extractor: ExtractorSource): Promise<WorkingTreeOverlay> {
  return (await wholeLook(root, store, index, maxFileBytes, extractor)).overlay;
}

/** Overlays are rebuilt at most this often: a burst of tool calls shares one `git status`. */
const OVERLAY_TTL_MS = 1000;

/** A watcher's view of the work tree (`watchChanges` in the CLI): a count of changes, and the paths behind them. */
export interface WorkTreeChangeFeed {
  /** The same while nothing moved; null while the watcher cannot tell. */
  epoch(): number | null;
  /** Paths or folders changed after an earlier `epoch()`; null when that cannot be told. */
  changedSince(epoch: number): string[] | null;
  /** Calls `listener` after each change it counts. */
  onChange?(listener: () => void): void;
}

/**
 * Quiet time after a change before the overlay looks at it unasked: an editor's save is a burst of events within
 * milliseconds, and an agent's next call comes later than this, so the look is ready (or under way) when it does.
 */
const LOOK_AHEAD_MS = 25;

/**
 * A per-server cache of the current overlay, rebuilt when the index changed, or when it is older than the TTL and
 * the work tree may have moved. With a watcher's `changes`, the cached overlay holds however old it is while
 * nothing moved; after a few named changes git is asked about those paths alone (`git status -- <paths>`)
 * instead of a whole `git status` per call a second apart, and that look starts once the changes settle, before
 * the next call asks.
 */
export function overlayProvider(
  root: string,
  store: Store,
  maxFileBytes: number,
  extractor: ExtractorSource,
  now: () => number = Date.now,
  changes?: WorkTreeChangeFeed,
) {
  type Look = { at: number; key: string; epoch: number | null; value: Promise<OverlayState> };
  let cached: Look | null = null;
  /** The index the last call asked about: what a look ahead of the next call is for. */
  let lastIndex: IndexRow | null = null;

  /** The look for `index` as things stand at `epoch`: the cached one, or a new one (remembered). */
  const lookFor = (index: IndexRow, epoch: number | null): Look => {
    const t = now();
    const key = `${index.id}@${index.indexVersion ?? ""}`;
    const whole = () => wholeLook(root, store, index, maxFileBytes, extractor);
    const remember = (value: Promise<OverlayState>): Look => {
      const entry: Look = { at: t, key, epoch, value };
      // A look that failed is not kept: the next call looks again.
      value.catch(() => {
        if (cached === entry) cached = null;
      });
      cached = entry;
      return entry;
    };
    const look = cached;
    if (!look || look.key !== key) return remember(whole());
    if (epoch !== null && look.epoch !== null) {
      if (look.epoch === epoch) return look;
      const named = changes!.changedSince(look.epoch);
      const previous = look.value;
      const after = async (): Promise<OverlayState> => {
        const before = named && (await previous.catch(() => null));
        return (before && (await namedLook(root, store, index, maxFileBytes, extractor, before, named))) || whole();
      };
      return remember(after());
    }
    return t - look.at > OVERLAY_TTL_MS ? remember(whole()) : look;
  };

  let ahead: NodeJS.Timeout | null = null;
  changes?.onChange?.(() => {
    if (ahead || !lastIndex) return;
    ahead = setTimeout(() => {
      ahead = null;
      const epoch = changes.epoch();
      // Only what the watcher can name is looked at ahead; without it, the next call decides.
      if (lastIndex && epoch !== null && cached?.epoch != null) lookFor(lastIndex, epoch);
    }, LOOK_AHEAD_MS);
    ahead.unref();
  });

  return async (index: IndexRow): Promise<WorkingTreeOverlay> => {
    // Events already queued (an edit saved just before this call) are counted first.
    if (changes) await new Promise((r) => setImmediate(r));
    lastIndex = index;
    return (await lookFor(index, changes?.epoch() ?? null).value).overlay;
  };
}
