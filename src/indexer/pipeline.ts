import { EXTRACTOR_VERSION } from "../core/index-format.js";
import { realpath } from "node:fs/promises";
import { availableParallelism } from "node:os";
import type { FileInput, IndexStats, Store } from "../store/store.js";
import { inventoryFile, type InventoryOptions } from "./inventory.js";
import { KnowledgeCollector } from "./knowledge/stage.js";
import { gitStatusPaths } from "./git.js";
import { readRepoInfo, type RepoInfo } from "./repo-info.js";
import { createSecretScanner } from "./secrets.js";
import { ExtractionPool } from "./symbols/pool.js";
import { SemanticStage } from "./semantic/stage.js";
import { walkFilesystem, walkGit, type WalkSource } from "./walk.js";
import { loadScipLayer } from "./scip/load.js";
import { SCIP_MISMATCH } from "./scip/merge.js";
import { analyzeFile } from "./analyze.js";
import { IndexVersion } from "./index-version.js";
import type { EmbeddingProvider } from "../core/semantic.js";
export { extractFileSymbols } from "./analyze.js";
import { IndexUpdater, type GitFacts } from "./update.js";
export { IndexUpdater, updateIndex } from "./update.js";

/** Below this many files, workers cost more to start than they save: extract in-process. */
const SMALL_REPO_FILES = 2000;
/** Symbol worker threads on larger repositories (the main thread reads, hashes and writes the store). */
const MAX_SYMBOL_WORKERS = 2;

/** Files in flight (being read, classified or parsed): keeps the symbol workers fed while the main thread writes. */
const FILES_IN_FLIGHT = 128;
/** Progress is reported every this many files (and at the end of the inventory). */
const PROGRESS_EVERY_FILES = 256;
/** A batch is written to the store when it reaches either bound; small batches keep each write short. */
const BATCH_FILES = 500;
const BATCH_BYTES = 4 * 1024 * 1024;

export type IndexPhase = "walk" | "inventory" | "knowledge" | "semantic" | "publish" | "done";

export interface IndexProgress {
  phase: IndexPhase;
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
}

export interface IndexOptions {
  /** The operator's embeddings endpoint for file vectors (absent: the model trained on the repository makes them). */
  embeddings?: EmbeddingProvider | null;
  /**
   * Train the repository's embedding (what `search_code` with `semantic: true` ranks with). Off unless asked, or an
   * endpoint is configured: no default query reads it, and it is a quarter of a small repository's index time.
   */
  semantic?: boolean;
  root: string;
  store: Store;
  repoId?: string;
  maxFileBytes: number;
  onProgress?: (p: IndexProgress) => void;
  /** Symbol worker threads; default: none for small repositories, else up to MAX_SYMBOL_WORKERS. */
  symbolWorkers?: number;
  /** Reuse the symbols of files unchanged since the ready index (default true); false re-extracts everything. */
  incremental?: boolean;
  /** SCIP index files whose references are taken as exact (default: `index.scip` at the root, when there is one). */
  scip?: string[];
  /** git's status and the repository facts, read a moment ago by the caller (an update that found it must build). */
  gitFacts?: GitFacts;
}

export interface IndexResult {
  indexId: string;
  indexVersion: string;
  repo: RepoInfo;
  walkSource: WalkSource;
  stats: IndexStats;
}

/**
 * An update in place when a few files changed since the ready index, else a build, which reuses the git facts the
 * update's look read (each git question is a process to wait for).
 */
export async function updateOrBuild(opts: IndexOptions): Promise<IndexResult> {
  const updater = new IndexUpdater(opts);
  try {
    return (await updater.update()) ?? (await buildIndex({ ...opts, ...(updater.lastLook() ? { gitFacts: updater.lastLook()! } : {}) }));
  } finally {
    await updater.close();
  }
}

/**
 * Walk → inventory → store, publishing the new index only when every file has a row. A failure marks the build
 * failed and leaves the previous ready index serving.
 */
export async function buildIndex(opts: IndexOptions): Promise<IndexResult> {
  const started = Date.now();
  const root = await realpath(opts.root);
  const report = opts.onProgress ?? (() => {});
  report({ phase: "walk", filesDone: 0, filesTotal: 0, bytesDone: 0 });
  // git is asked everything at once (each answer is a process to wait for): the status serves the dirty flag and,
  // at the end, the paths that were dirty; the listing is used when the root is a work tree.
  const known = opts.gitFacts?.root === root ? opts.gitFacts : null;
  const statusAtStart = known ? known.status : gitStatusPaths(root);
  const listing = walkGit(root).catch(() => null);
  const status = await statusAtStart;
  const repo = known ? known.repo : await readRepoInfo(root, opts.repoId, status ?? undefined);
  const walk = repo.isGit ? ((await listing) ?? (await walkGit(root))) : await walkFilesystem(root);
  const total = walk.paths.length;

  const indexId = await opts.store.beginIndex({
    repoId: repo.repoId,
    rootPath: root,
    baseCommit: repo.baseCommit,
    branch: repo.branch,
    dirty: repo.dirty,
    extractorVersion: EXTRACTOR_VERSION,
  });
  const inventoryOptions: InventoryOptions = { maxFileBytes: opts.maxFileBytes, secretScanner: createSecretScanner() };
  const workers = opts.symbolWorkers ?? (total < SMALL_REPO_FILES ? 0 : Math.min(MAX_SYMBOL_WORKERS, availableParallelism()));
  const scip = await loadScipLayer(root, opts.scip);
  const stats: IndexStats = { files: 0, indexedFiles: 0, skippedFiles: 0, bytes: 0, indexedBytes: 0, durationMs: 0, extractedFiles: 0, reusedFiles: 0 };
  const pool = await ExtractionPool.create(workers);
  // Incremental: files whose bytes are unchanged since the ready index keep its symbols and references.
  const previous = opts.incremental === false ? null : await opts.store.getReadyIndex(repo.repoId);
  const reusable =
    previous && previous.extractorVersion === EXTRACTOR_VERSION
      ? { indexId: previous.id, files: await opts.store.reusableExtractions(previous.id), store: opts.store }
      : null;
  if (scip) {
    stats.scip = { digest: scip.digest, indexes: scip.files.map((f) => f.tool), documents: scip.byPath.size, files: 0, stale: 0, warnings: scip.warnings.slice(0, 20), ...(scip.rootFile ? { rootFile: scip.rootFile } : {}) };
  }
  const version = IndexVersion.empty();
  const knowledge = new KnowledgeCollector({ root, commit: repo.isGit ? repo.baseCommit : null });
  const semantic = opts.semantic === true || opts.embeddings ? new SemanticStage(opts.embeddings ?? null) : null;
  try {
    let batch: FileInput[] = [];
    let batchBytes = 0;
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return;
      const toWrite = batch;
      batch = [];
      batchBytes = 0;
      await opts.store.addFiles(indexId, toWrite);
    };
    // A sliding window of files in flight (read, classified, parsed by the workers), consumed in path order so
    // rows and ids come out the same on every run; the main thread writes batches while workers keep parsing.
    const inFlight: (Promise<FileInput> | undefined)[] = new Array(total);
    const start = (i: number): Promise<FileInput> =>
      inventoryFile(root, walk.paths[i]!, inventoryOptions).then((row) => analyzeFile(row, pool, reusable, scip));
    let launched = 0;
    for (let i = 0; i < total; i++) {
      while (launched < total && launched < i + FILES_IN_FLIGHT) inFlight[launched] = start(launched++);
      const row = await inFlight[i]!;
      inFlight[i] = undefined;
      version.add(row);
      knowledge.add(row);
      await semantic?.add(row);
      stats.files += 1;
      stats.bytes += row.sizeBytes;
      if (row.skipReason === null) {
        stats.indexedFiles += 1;
        stats.indexedBytes += row.sizeBytes;
      } else stats.skippedFiles += 1;
      if (row.reuse) stats.reusedFiles! += 1;
      else if (row.extraction) stats.extractedFiles! += 1;
      if (stats.scip && scip?.byPath.has(row.path) && row.skipReason === null) {
        if (row.symbolExtractor === "scip") stats.scip.files += 1;
        else if (row.symbolDetail?.includes(SCIP_MISMATCH)) stats.scip.stale += 1;
      }
      batch.push(row);
      batchBytes += row.content?.length ?? 0;
      if (batch.length >= BATCH_FILES || batchBytes >= BATCH_BYTES) await flush();
      if (stats.files % PROGRESS_EVERY_FILES === 0 || stats.files === total) {
        report({ phase: "inventory", filesDone: stats.files, filesTotal: total, bytesDone: stats.bytes });
      }
    }
    await flush();
    report({ phase: "knowledge", filesDone: stats.files, filesTotal: total, bytesDone: stats.bytes });
    const learned = await knowledge.finish();
    if (repo.isGit) learned.dirtyPaths = status ?? [];
    await opts.store.addKnowledge(indexId, learned);
    if (semantic) {
      report({ phase: "semantic", filesDone: stats.files, filesTotal: total, bytesDone: stats.bytes });
      await semantic.finish(opts.store, indexId);
    }
    report({ phase: "publish", filesDone: stats.files, filesTotal: total, bytesDone: stats.bytes });
    const indexVersion = version.format(scip?.digest);
    stats.durationMs = Date.now() - started;
    await opts.store.publishIndex(indexId, indexVersion, stats);
    report({ phase: "done", filesDone: stats.files, filesTotal: total, bytesDone: stats.bytes });
    return { indexId, indexVersion, repo, walkSource: walk.source, stats };
  } catch (err) {
    await opts.store.failIndex(indexId, err instanceof Error ? err.message : String(err));
    throw err;
  } finally {
    await pool.close();
  }
}

