import { createHash } from "node:crypto";
import { realpath } from "node:fs/promises";
import { availableParallelism } from "node:os";
import type { FileInput, IndexStats, ReusableExtraction, Store } from "../store/store.js";
import { inventoryFile, type InventoryOptions } from "./inventory.js";
import { KnowledgeCollector } from "./knowledge/stage.js";
import { readRepoInfo, type RepoInfo } from "./repo-info.js";
import { createSecretScanner } from "./secrets.js";
import { LEXICAL_LANGUAGES, NO_SYMBOL_GENERATED_REASONS, languageSpec } from "./symbols/languages.js";
import { extractLexical } from "./symbols/lexical.js";
import { ExtractionPool } from "./symbols/pool.js";
import { walkFilesystem, walkGit, type WalkSource } from "./walk.js";

/** Bumped whenever extraction changes what rows a file yields, so old and new rows are never mixed. */
export const EXTRACTOR_VERSION = "5";
/** Below this many files, workers cost more to start than they save: extract in-process. */
const SMALL_REPO_FILES = 2000;
/** Symbol worker threads on larger repositories (the main thread reads, hashes and writes the store). */
const MAX_SYMBOL_WORKERS = 2;

/** Files in flight (being read, classified or parsed): keeps the symbol workers fed while the main thread writes. */
const FILES_IN_FLIGHT = 128;
/**
 * Files larger than this are not parsed (lexical definitions only): mostly generated tables and register headers,
 * and their syntax trees would grow each worker's WebAssembly memory for good.
 */
const MAX_PARSE_BYTES = 512 * 1024;
/** Progress is reported every this many files (and at the end of the inventory). */
const PROGRESS_EVERY_FILES = 256;
/** A batch is written to the store when it reaches either bound; small batches keep each write short. */
const BATCH_FILES = 500;
const BATCH_BYTES = 4 * 1024 * 1024;

export type IndexPhase = "walk" | "inventory" | "knowledge" | "publish" | "done";

export interface IndexProgress {
  phase: IndexPhase;
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
}

export interface IndexOptions {
  root: string;
  store: Store;
  repoId?: string;
  maxFileBytes: number;
  onProgress?: (p: IndexProgress) => void;
  /** Symbol worker threads; default: none for small repositories, else up to MAX_SYMBOL_WORKERS. */
  symbolWorkers?: number;
  /** Reuse the symbols of files unchanged since the ready index (default true); false re-extracts everything. */
  incremental?: boolean;
}

export interface IndexResult {
  indexId: string;
  indexVersion: string;
  repo: RepoInfo;
  walkSource: WalkSource;
  stats: IndexStats;
}

/** Same rows for the same tree: the version is a digest of what was indexed and how. */
function indexVersionOf(rows: { path: string; contentHash: string; skipReason: string | null }[]): string {
  const h = createHash("sha256");
  h.update(`extractor:${EXTRACTOR_VERSION}\n`);
  for (const r of rows) h.update(`${r.path}\0${r.contentHash}\0${r.skipReason ?? ""}\n`);
  return `idx-v${EXTRACTOR_VERSION}-${h.digest("hex").slice(0, 16)}`;
}

/**
 * Walk → inventory → store, publishing the new index only when every file has a row. A failure marks the build
 * failed and leaves the previous ready index serving.
 */
export async function buildIndex(opts: IndexOptions): Promise<IndexResult> {
  const started = Date.now();
  const root = await realpath(opts.root);
  const repo = await readRepoInfo(root, opts.repoId);
  const report = opts.onProgress ?? (() => {});
  report({ phase: "walk", filesDone: 0, filesTotal: 0, bytesDone: 0 });
  const walk = repo.isGit ? await walkGit(root) : await walkFilesystem(root);
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
  const pool = await ExtractionPool.create(workers);
  // Incremental: files whose bytes are unchanged since the ready index keep its symbols and references.
  const previous = opts.incremental === false ? null : await opts.store.getReadyIndex(repo.repoId);
  const reusable =
    previous && previous.extractorVersion === EXTRACTOR_VERSION
      ? { indexId: previous.id, files: await opts.store.reusableExtractions(previous.id) }
      : null;
  const digestRows: { path: string; contentHash: string; skipReason: string | null }[] = [];
  const knowledge = new KnowledgeCollector({ root, commit: repo.isGit ? repo.baseCommit : null });
  const stats: IndexStats = { files: 0, indexedFiles: 0, skippedFiles: 0, bytes: 0, indexedBytes: 0, durationMs: 0, extractedFiles: 0, reusedFiles: 0 };
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
      inventoryFile(root, walk.paths[i]!, inventoryOptions).then((row) => withSymbols(row, pool, reusable));
    let launched = 0;
    for (let i = 0; i < total; i++) {
      while (launched < total && launched < i + FILES_IN_FLIGHT) inFlight[launched] = start(launched++);
      const row = await inFlight[i]!;
      inFlight[i] = undefined;
      digestRows.push({ path: row.path, contentHash: row.contentHash, skipReason: row.skipReason });
      knowledge.add(row);
      stats.files += 1;
      stats.bytes += row.sizeBytes;
      if (row.skipReason === null) {
        stats.indexedFiles += 1;
        stats.indexedBytes += row.sizeBytes;
      } else stats.skippedFiles += 1;
      if (row.reuse) stats.reusedFiles! += 1;
      else if (row.extraction) stats.extractedFiles! += 1;
      batch.push(row);
      batchBytes += row.content?.length ?? 0;
      if (batch.length >= BATCH_FILES || batchBytes >= BATCH_BYTES) await flush();
      if (stats.files % PROGRESS_EVERY_FILES === 0 || stats.files === total) {
        report({ phase: "inventory", filesDone: stats.files, filesTotal: total, bytesDone: stats.bytes });
      }
    }
    await flush();
    report({ phase: "knowledge", filesDone: stats.files, filesTotal: total, bytesDone: stats.bytes });
    await opts.store.addKnowledge(indexId, await knowledge.finish());
    report({ phase: "publish", filesDone: stats.files, filesTotal: total, bytesDone: stats.bytes });
    const indexVersion = indexVersionOf(digestRows);
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

/** Adds symbols and references to an indexed text file: tree-sitter where a grammar exists, else lexical. */
/** Extraction outcomes worth keeping: a failure or timeout is retried by the next build instead. */
const REUSABLE_STATUSES: ReadonlySet<string> = new Set(["ok", "syntax_errors", "no_grammar", "skipped"]);

/** Symbols and references of one file outside a build (the working-tree overlay), by the same rules as a build. */
export function extractFileSymbols(row: FileInput, pool: ExtractionPool): Promise<FileInput> {
  return withSymbols(row, pool, null);
}

async function withSymbols(
  row: FileInput,
  pool: ExtractionPool,
  reusable: { indexId: string; files: Map<string, ReusableExtraction> } | null,
): Promise<FileInput> {
  if (row.content === null || row.skipReason !== null) return row;
  // Generated files without symbols (lockfiles, minified bundles) have nothing to extract or reuse.
  if (row.generatedReason !== null && NO_SYMBOL_GENERATED_REASONS.has(row.generatedReason)) {
    return { ...row, symbolStatus: "skipped", symbolDetail: `generated: ${row.generatedReason}` };
  }
  const prior = reusable?.files.get(row.path);
  if (prior && prior.contentHash === row.contentHash && REUSABLE_STATUSES.has(prior.symbolStatus)) {
    return {
      ...row,
      reuse: { indexId: reusable!.indexId, fileId: prior.fileId },
      symbolStatus: prior.symbolStatus,
      symbolExtractor: prior.symbolExtractor,
      symbolDetail: prior.symbolDetail,
    };
  }
  let extraction;
  if (languageSpec(row.language) && row.sizeBytes > MAX_PARSE_BYTES) {
    // Syntax trees of very large files take memory that a WebAssembly heap never gives back.
    extraction = { ...extractLexical(row.content), status: "skipped" as const, detail: `larger than ${MAX_PARSE_BYTES} bytes: lexical definitions only` };
  } else if (languageSpec(row.language)) extraction = await pool.extract(row.language, row.path, row.content);
  else if (row.language !== null && LEXICAL_LANGUAGES.has(row.language)) extraction = { ...extractLexical(row.content), status: "no_grammar" as const };
  else return row;
  return { ...row, extraction, symbolStatus: extraction.status, symbolExtractor: extraction.extractor, symbolDetail: extraction.detail };
}
