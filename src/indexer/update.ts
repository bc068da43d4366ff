import { EXTRACTOR_VERSION } from "../core/index-format.js";
import { realpath } from "node:fs/promises";
import type { FileInput, FileRow, IndexRow, IndexStats, Store } from "../store/store.js";
import type { RepoKnowledge } from "../core/knowledge.js";
import type { IndexOptions, IndexResult } from "./pipeline.js";
import { analyzeFile } from "./analyze.js";
import { candidatePaths, readChanges, type WorkTreeChanges } from "./changes.js";
import { gitStatusPaths, insideGit } from "./git.js";
import { IndexVersion } from "./index-version.js";
import type { InventoryOptions } from "./inventory.js";
import { KnowledgeCollector, changesKnowledge, knowledgeReadsText } from "./knowledge/stage.js";
import { readRepoInfo, type RepoInfo } from "./repo-info.js";
import { scipDigest } from "./scip/load.js";
import { createSecretScanner } from "./secrets.js";
import { storeChangedVectors, vectorsForChangedFiles, type SemanticCache } from "./semantic/stage.js";
import { ExtractionPool } from "./symbols/pool.js";

/** Files an in-place update handles at most; more changes take a full (incremental) build. */
const MAX_DELTA_FILES = 1000;

/** What the update starts from: git's answer for the work tree, the repository facts, the ready index. */
/** git's status of a work tree and its repository facts, read together (`root`: the real path they were read at). */
export interface GitFacts {
  root: string;
  status: string[];
  repo: RepoInfo;
}

interface Start {
  status: string[];
  repo: RepoInfo;
  previous: IndexRow;
}

/**
 * In-place updates of one repository's ready index, kept warm between them (`serve --watch` holds one): the parser
 * with its compiled queries, the repository facts and the semantic model stay loaded, so an update costs what the
 * changed files cost. Given the paths a file watcher saw change, an update asks git about those paths (and the ones
 * that were dirty) instead of running `git status` over the whole work tree; without them, or when one lies inside
 * `.git`, it asks about everything. `update` returns null when an in-place update cannot be made (no ready index of
 * this extractor version, not git, an ignore file changed, too many files): the caller then builds.
 */
export class IndexUpdater {
  private pool: Promise<ExtractionPool> | null = null;
  private repo: RepoInfo | null = null;
  private readonly semantic: SemanticCache = { indexId: null, stored: null, model: null };
  private readonly inventory: InventoryOptions;
  /** What the last look at the whole work tree found (git's status and the repository facts), for a build to reuse. */
  private looked: GitFacts | null = null;

  /** `extractor`: an in-process extractor the caller owns and shares (a server's, warmed while idle); else one of its own. */
  constructor(
    private readonly opts: IndexOptions,
    private readonly extractor: (() => Promise<ExtractionPool>) | null = null,
  ) {
    this.inventory = { maxFileBytes: opts.maxFileBytes, secretScanner: createSecretScanner() };
  }

  /** After a build elsewhere (a commit, a full rebuild): the next update reads the repository facts again. */
  forget(): void {
    this.repo = null;
  }

  /** The git facts the last update read of the whole work tree, when it did (null: none, or not a git work tree). */
  lastLook(): GitFacts | null {
    return this.looked;
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    if (pool && !this.extractor) await (await pool).close();
  }

  /** `changed`: work-tree paths (relative, `/`-separated) a watcher saw change since the last update; absent: unknown. */
  async update(changed?: readonly string[] | null): Promise<IndexResult | null> {
    const started = Date.now();
    const opts = this.opts;
    if (opts.incremental === false) return null;
    const root = await realpath(opts.root);
    const start = (await this.scoped(root, changed)) ?? (await this.whole(root));
    if (start === null) return null;
    const { status, repo, previous } = start;
    // A SCIP index given, or a different one at the root than the index was built with: a build reads it.
    const scip = previous.stats?.scip?.digest;
    if (opts.scip !== undefined || (await scipDigest(root, previous.stats?.scip)) !== scip) return null;
    const { paths, historyKnown } = await candidatePaths(root, opts.store, previous, status, repo.baseCommit);
    if (!historyKnown) return null;
    if (paths.length > MAX_DELTA_FILES || paths.some((p) => p === ".gitignore" || p.endsWith("/.gitignore"))) return null;

    const pool = await (this.pool ??= this.extractor ? this.extractor() : ExtractionPool.create(0));
    const changes: WorkTreeChanges = await readChanges(root, opts.store, previous.id, paths, { inventory: this.inventory, extract: (row) => analyzeFile(row, pool, null) });
    const { upsert, remove, before } = changes;
    const touched = [...remove, ...upsert.map((f) => f.path)];
    const knowledge = touched.some(changesKnowledge) || previous.baseCommit !== repo.baseCommit ? await relearn(opts.store, previous.id, root, repo, upsert, remove) : null;

    const version = await this.versionOf(previous, scip);
    for (const r of before.values()) version.remove(r);
    for (const f of upsert) version.add(f);
    const indexVersion = version.format(scip);
    const stats = nextStats(previous.stats, before, upsert);
    const vectors = await vectorsForChangedFiles(opts.store, previous.id, upsert, opts.embeddings ?? null, this.semantic);
    if (vectors?.failure) stats.semanticUpdate = vectors.failure;
    stats.durationMs = Date.now() - started;
    await opts.store.applyDelta(previous.id, {
      meta: { baseCommit: repo.baseCommit, branch: repo.branch, dirty: repo.dirty },
      remove,
      upsert,
      knowledge: knowledge ? { ...knowledge, dirtyPaths: status } : null,
      indexVersion,
      stats,
    });
    if (!knowledge) await opts.store.setDirtyPaths(previous.id, status);
    if (vectors) await storeChangedVectors(opts.store, previous.id, vectors);
    this.repo = repo;
    stats.durationMs = Date.now() - started;
    return { indexId: previous.id, indexVersion, repo, walkSource: "git", stats };
  }

  /**
   * The watcher's paths plus those dirty at the last update are all that can have changed: git is asked about
   * them alone (78k files' `git status` is ~0.2 s on the kernel), and the repository facts are the last update's.
   */
  private async scoped(root: string, changed: readonly string[] | null | undefined): Promise<Start | null> {
    const repo = this.repo;
    if (!changed || !repo || repo.rootPath !== root || changed.some(insideGit)) return null;
    const previous = await this.opts.store.getReadyIndex(repo.repoId);
    if (!previous || previous.extractorVersion !== EXTRACTOR_VERSION || previous.baseCommit !== repo.baseCommit || previous.rootPath !== root) return null;
    const scope = [...new Set([...changed, ...(await this.opts.store.getDirtyPaths(previous.id))])];
    if (scope.length > MAX_DELTA_FILES) return null;
    const status = scope.length === 0 ? [] : await gitStatusPaths(root, scope);
    if (status === null) return null;
    return { status, repo: { ...repo, dirty: status.length > 0 }, previous };
  }

  private async whole(root: string): Promise<Start | null> {
    const status = await gitStatusPaths(root);
    if (status === null) return null;
    const repo = await readRepoInfo(root, this.opts.repoId, status);
    this.looked = { root, status, repo };
    if (!repo.isGit || !repo.baseCommit) return null;
    const previous = await this.opts.store.getReadyIndex(repo.repoId);
    if (!previous || previous.extractorVersion !== EXTRACTOR_VERSION || !previous.baseCommit || previous.rootPath !== root) return null;
    return { status, repo, previous };
  }

  /** The ready index's version as a sum to move; an index of an older format has its rows read once instead. */
  private async versionOf(previous: IndexRow, scip: string | undefined): Promise<IndexVersion> {
    return (previous.indexVersion ? IndexVersion.parse(previous.indexVersion, scip) : null) ?? IndexVersion.ofRows(await this.opts.store.digestRows(previous.id));
  }
}

/**
 * The fast path for a few changed files, once: asks git what differs from the indexed commit (plus the paths that
 * were dirty when the index was built), re-reads and re-extracts only those, and updates the ready index in place
 * in one transaction (`Store.applyDelta`). The rows come out as a build would make them, so the index version is
 * the same as a full rebuild's. Null when it cannot: the caller then builds.
 */
export async function updateIndex(opts: IndexOptions): Promise<IndexResult | null> {
  const updater = new IndexUpdater(opts);
  try {
    return await updater.update();
  } finally {
    await updater.close();
  }
}

/** Counts move by what left and what came in (no scan of the whole index). */
function nextStats(prior: IndexStats | null | undefined, before: Map<string, FileRow>, upsert: FileInput[]): IndexStats {
  const base = prior ?? { files: 0, indexedFiles: 0, skippedFiles: 0, bytes: 0, indexedBytes: 0, durationMs: 0 };
  const { semanticUpdate: _earlier, ...carried } = base;
  const stats: IndexStats = { ...carried, files: base.files - before.size + upsert.length, durationMs: 0, extractedFiles: upsert.filter((f) => f.extraction).length, reusedFiles: 0 };
  const count = (rows: Iterable<{ sizeBytes: number; skipReason: string | null }>, sign: number) => {
    for (const r of rows) {
      stats.bytes += sign * r.sizeBytes;
      if (r.skipReason === null) {
        stats.indexedFiles += sign;
        stats.indexedBytes += sign * r.sizeBytes;
      } else stats.skippedFiles += sign;
    }
  };
  count(before.values(), -1);
  count(upsert, 1);
  if (stats.scip) {
    // A changed file is re-extracted by tree-sitter alone: the SCIP index is of the commit it was made at.
    const left = [...before.values()].filter((f) => f.symbolExtractor === "scip").length;
    stats.scip = { ...stats.scip, files: stats.scip.files - left, stale: stats.scip.stale + upsert.filter((f) => before.get(f.path)?.symbolExtractor === "scip").length };
  }
  return stats;
}

/** The index's knowledge again, from its stored rows plus the changed files (only small texts are read back). */
async function relearn(store: Store, indexId: string, root: string, repo: RepoInfo, upsert: FileInput[], remove: string[]): Promise<RepoKnowledge> {
  const changed = new Map(upsert.map((f) => [f.path, f]));
  const gone = new Set(remove);
  const outlines = new Map((await store.listDocs(indexId, { limit: Number.MAX_SAFE_INTEGER })).docs.map((d) => [d.path, d]));
  const collector = new KnowledgeCollector({ root, commit: repo.baseCommit });
  const rows = (await store.listFiles(indexId, { includeSkipped: true })).filter((r) => !gone.has(r.path) && !changed.has(r.path));
  const all: FileInput[] = [...rows.map((r) => ({ ...r, content: null })), ...upsert].sort((a, b) => (a.path < b.path ? -1 : 1));
  for (const row of all) {
    if (changed.has(row.path)) collector.add(row);
    else if (outlines.has(row.path)) collector.addWithOutline(row, outlines.get(row.path)!);
    else if (knowledgeReadsText(row.path) && row.skipReason === null) collector.add({ ...row, content: await store.getContent(indexId, row.path) });
    else collector.add(row);
  }
  return collector.finish();
}
