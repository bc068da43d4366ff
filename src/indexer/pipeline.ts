import { EXTRACTOR_VERSION } from "../core/index-format.js";
import { createHash } from "node:crypto";
import { realpath } from "node:fs/promises";
import { availableParallelism } from "node:os";
import type { FileInput, IndexStats, ReusableExtraction, Store } from "../store/store.js";
import { inventoryFile, type InventoryOptions } from "./inventory.js";
import { KnowledgeCollector, changesKnowledge, knowledgeReadsText } from "./knowledge/stage.js";
import type { RepoKnowledge } from "../core/knowledge.js";
import { candidatePaths, readChanges, type WorkTreeChanges } from "./changes.js";
import { gitStatusPaths } from "./git.js";
import { readRepoInfo, type RepoInfo } from "./repo-info.js";
import { createSecretScanner } from "./secrets.js";
import { LEXICAL_LANGUAGES, NO_SYMBOL_GENERATED_REASONS, languageSpec } from "./symbols/languages.js";
import { extractLexical } from "./symbols/lexical.js";
import { ExtractionPool } from "./symbols/pool.js";
import { SemanticStage, storeChangedVectors, vectorsForChangedFiles } from "./semantic/stage.js";
import type { Extraction } from "../core/symbols.js";
import { fileTerms, type FileTerms } from "../core/terms.js";
import { walkFilesystem, walkGit, type WalkSource } from "./walk.js";
import { loadScipLayer, scipDigest, type ScipLayer } from "./scip/load.js";
import { SCIP_DETAIL, SCIP_MISMATCH, mergeScip } from "./scip/merge.js";
import type { EmbeddingProvider } from "../core/semantic.js";

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
}

export interface IndexResult {
  indexId: string;
  indexVersion: string;
  repo: RepoInfo;
  walkSource: WalkSource;
  stats: IndexStats;
}

/** Same rows for the same tree: the version is a digest of what was indexed and how. */
function indexVersionOf(rows: { path: string; contentHash: string; skipReason: string | null }[], scip: string | undefined): string {
  const h = createHash("sha256");
  h.update(`extractor:${EXTRACTOR_VERSION}\n`);
  if (scip) h.update(`scip:${scip}\n`);
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
  const report = opts.onProgress ?? (() => {});
  report({ phase: "walk", filesDone: 0, filesTotal: 0, bytesDone: 0 });
  // git is asked everything at once (each answer is a process to wait for): the status serves the dirty flag and,
  // at the end, the paths that were dirty; the listing is used when the root is a work tree.
  const statusAtStart = gitStatusPaths(root);
  const listing = walkGit(root).catch(() => null);
  const status = await statusAtStart;
  const repo = await readRepoInfo(root, opts.repoId, status ?? undefined);
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
  const digestRows: { path: string; contentHash: string; skipReason: string | null }[] = [];
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
      digestRows.push({ path: row.path, contentHash: row.contentHash, skipReason: row.skipReason });
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
    const indexVersion = indexVersionOf(digestRows, scip?.digest);
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

/** Files an in-place update handles at most; more changes take a full (incremental) build. */
const MAX_DELTA_FILES = 1000;

/**
 * The fast path for a few changed files: asks git what differs from the indexed commit (plus the paths that were
 * dirty when the index was built), re-reads and re-extracts only those, and updates the ready index in place in
 * one transaction (`Store.applyDelta`). Returns null when it cannot (no ready index of this extractor version, not
 * git, an ignore file changed, too many files): the caller then builds. The rows come out as a build would make
 * them, so the index version is the same as a full rebuild's.
 */
export async function updateIndex(opts: IndexOptions): Promise<IndexResult | null> {
  const started = Date.now();
  const root = await realpath(opts.root);
  if (opts.incremental === false) return null;
  const status = await gitStatusPaths(root);
  if (status === null) return null;
  const repo = await readRepoInfo(root, opts.repoId, status);
  if (!repo.isGit || !repo.baseCommit) return null;
  const previous = await opts.store.getReadyIndex(repo.repoId);
  if (!previous || previous.extractorVersion !== EXTRACTOR_VERSION || !previous.baseCommit || previous.rootPath !== root) return null;
  // A SCIP index given, or a different one at the root than the index was built with: a build reads it.
  const scip = previous.stats?.scip?.digest;
  if (opts.scip !== undefined || (await scipDigest(root, previous.stats?.scip)) !== scip) return null;
  const { paths, historyKnown } = await candidatePaths(root, opts.store, previous, status, repo.baseCommit);
  if (!historyKnown) return null;
  if (paths.length > MAX_DELTA_FILES || paths.some((p) => p === ".gitignore" || p.endsWith("/.gitignore"))) return null;

  const inventory: InventoryOptions = { maxFileBytes: opts.maxFileBytes, secretScanner: createSecretScanner() };
  const pool = await ExtractionPool.create(0);
  let changes: WorkTreeChanges;
  try {
    changes = await readChanges(root, opts.store, previous.id, paths, { inventory, extract: (row) => analyzeFile(row, pool, null) });
  } finally {
    await pool.close();
  }
  const { upsert, remove, before } = changes;
  const touched = [...remove, ...upsert.map((f) => f.path)];
  const knowledge = touched.some(changesKnowledge) || previous.baseCommit !== repo.baseCommit ? await relearn(opts.store, previous.id, root, repo, upsert, remove) : null;
  if (knowledge) knowledge.dirtyPaths = status;

  // The version is the digest of every row, as a build computes it: read the unchanged rows, merge the new ones.
  const removed = new Set(touched);
  const rows = (await opts.store.digestRows(previous.id)).filter((r) => !removed.has(r.path));
  for (const f of upsert) rows.push({ path: f.path, contentHash: f.contentHash, skipReason: f.skipReason });
  rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const indexVersion = indexVersionOf(rows, scip);
  // Counts move by what left and what came in (no scan of the whole index).
  const prior = previous.stats ?? { files: 0, indexedFiles: 0, skippedFiles: 0, bytes: 0, indexedBytes: 0, durationMs: 0 };
  const count = (rows: Iterable<{ sizeBytes: number; skipReason: string | null }>, sign: number, acc: IndexStats) => {
    for (const r of rows) {
      acc.bytes += sign * r.sizeBytes;
      if (r.skipReason === null) {
        acc.indexedFiles += sign;
        acc.indexedBytes += sign * r.sizeBytes;
      } else acc.skippedFiles += sign;
    }
  };
  const { semanticUpdate: _earlier, ...carried } = prior;
  const stats: IndexStats = { ...carried, files: rows.length, durationMs: 0, extractedFiles: upsert.filter((f) => f.extraction).length, reusedFiles: 0 };
  const vectors = await vectorsForChangedFiles(opts.store, previous.id, upsert, opts.embeddings ?? null);
  if (vectors?.failure) stats.semanticUpdate = vectors.failure;
  count(before.values(), -1, stats);
  count(upsert, 1, stats);
  if (stats.scip) {
    // A changed file is re-extracted by tree-sitter alone: the SCIP index is of the commit it was made at.
    const left = [...before.values()].filter((f) => f.symbolExtractor === "scip").length;
    stats.scip = { ...stats.scip, files: stats.scip.files - left, stale: stats.scip.stale + upsert.filter((f) => before.get(f.path)?.symbolExtractor === "scip").length };
  }
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
  return { indexId: previous.id, indexVersion, repo, walkSource: "git", stats };
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

/** Extraction outcomes worth keeping: a failure or timeout is retried by the next build instead. */
const REUSABLE_STATUSES: ReadonlySet<string> = new Set(["ok", "syntax_errors", "no_grammar", "skipped"]);
/** A reused file's defined names are all read back (a file has far fewer symbols than this). */
const ALL_SYMBOLS = Number.MAX_SAFE_INTEGER;

/** Extractions of the ready index that a build may reuse, and the store to read their names from. */
interface Reusable {
  indexId: string;
  files: Map<string, ReusableExtraction>;
  store: Store;
}

/** Symbols, references and ranking terms of one file outside a build (the working-tree overlay), as a build makes them. */
export function extractFileSymbols(row: FileInput, pool: ExtractionPool): Promise<FileInput> {
  return analyzeFile(row, pool, null);
}

/**
 * What every indexed text file gets: symbols and references (extracted, or reused from the ready index), then
 * ranking terms from its text and defined names. A reused file's names are read back from the index, so its
 * terms are the same as a fresh extraction's.
 */
async function analyzeFile(row: FileInput, pool: ExtractionPool, reusable: Reusable | null, scip: ScipLayer | null = null): Promise<FileInput> {
  const out = await withSymbols(row, pool, reusable, scip);
  if (out.content === null || out.skipReason !== null || out.terms) return out;
  const names = out.reuse
    ? (await reusable!.store.findSymbols(out.reuse.indexId, { path: out.path, limit: ALL_SYMBOLS })).map((s) => s.name)
    : (out.extraction?.symbols ?? []).map((s) => s.name);
  return { ...out, terms: fileTerms(out.path, out.content, names) };
}

/** Adds symbols and references to an indexed text file: tree-sitter where a grammar exists, else lexical. */
async function withSymbols(
  row: FileInput,
  pool: ExtractionPool,
  reusable: Reusable | null,
  scip: ScipLayer | null,
): Promise<FileInput> {
  if (row.content === null || row.skipReason !== null) return row;
  // Generated files without symbols (lockfiles, minified bundles) have nothing to extract or reuse.
  if (row.generatedReason !== null && NO_SYMBOL_GENERATED_REASONS.has(row.generatedReason)) {
    return { ...row, symbolStatus: "skipped", symbolDetail: `generated: ${row.generatedReason}` };
  }
  const prior = reusable?.files.get(row.path);
  const layer = scip?.byPath.get(row.path) ?? null;
  if (prior && prior.contentHash === row.contentHash && REUSABLE_STATUSES.has(prior.symbolStatus) && sameScip(prior, layer?.source ?? null)) {
    return {
      ...row,
      reuse: { indexId: reusable!.indexId, fileId: prior.fileId },
      symbolStatus: prior.symbolStatus,
      symbolExtractor: prior.symbolExtractor,
      symbolDetail: prior.symbolDetail,
    };
  }
  let extraction: Extraction;
  // Parsed files get their terms where they are parsed (a worker thread on larger repositories).
  let terms: FileTerms | undefined;
  if (languageSpec(row.language) && row.sizeBytes > MAX_PARSE_BYTES) {
    // Syntax trees of very large files take memory that a WebAssembly heap never gives back.
    extraction = { ...extractLexical(row.content), status: "skipped" as const, detail: `larger than ${MAX_PARSE_BYTES} bytes: lexical definitions only` };
  } else if (languageSpec(row.language)) ({ extraction, terms } = await pool.analyze(row.language, row.path, row.content));
  else if (row.language !== null && LEXICAL_LANGUAGES.has(row.language)) extraction = { ...extractLexical(row.content), status: "no_grammar" as const };
  else return row;
  if (layer && extraction.extractor === "tree-sitter") extraction = mergeScip(extraction, layer.doc, row.content, layer.source).extraction;
  return { ...row, extraction, terms, symbolStatus: extraction.status, symbolExtractor: extraction.extractor, symbolDetail: extraction.detail };
}

/** An earlier extraction is reused only if it was made with the same SCIP document (or none, and none now). */
function sameScip(prior: ReusableExtraction, source: string | null): boolean {
  return source === null ? !prior.symbolDetail?.includes(SCIP_DETAIL) : prior.symbolDetail?.includes(source) === true;
}
