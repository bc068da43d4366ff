import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type {
  AuditFilter,
  AuditRecord,
  CandidateFile,
  CandidatePages,
  CandidateQuery,
  ContentCandidate,
  FileFilter,
  FileEdge,
  FileInput,
  FileRow,
  RankedFile,
  RankQuery,
  TermStats,
  ReferenceQuery,
  ReferenceRow,
  ReusableExtraction,
  SymbolQuery,
  SymbolRow,
  IndexDelta,
  IndexMeta,
  IndexRow,
  IndexStats,
  IndexSummary,
  Store,
} from "../store.js";
import type { BuildGraph, OwnershipFile, RepoDoc, RepoKnowledge } from "../../core/knowledge.js";
import type { SemanticMeta, StoredSemantic } from "../../core/semantic.js";
import { buildTables, migrate, type BuildTables } from "./migrations.js";
import { findReferences, findSymbols, symbolSummary } from "./symbol-queries.js";
import { documentFrequency, fileEdges, hasTermTables, loadTermSizeRows, loadTermSizes, movedTermSizeRows, termPostings } from "./term-queries.js";
import { DenseScores, termSizesFromRows, topRanked, type TermSizeRow, type TermSizes } from "../term-scores.js";
import { fileVectors, getSemantic, putFileVectors, putSemantic } from "./semantic-queries.js";
import { normalizeRankTerms } from "../bm25f.js";
import { QueryError } from "../../core/errors.js";
import type { InstructionFile } from "../../core/instructions.js";
import * as audit from "./audit-queries.js";
import * as writer from "./build-writer.js";
import { PathSignatures } from "../path-signatures.js";
import * as content from "./content-queries.js";
import * as fileQueries from "./file-queries.js";
import * as indexes from "./index-queries.js";
import * as knowledge from "./knowledge-queries.js";

const BUSY_TIMEOUT_MS = 5000;
/** Text written per build transaction before it commits. */
const COMMIT_BYTES = 64 * 1024 * 1024;

/** Embedded store: one SQLite file in WAL mode, a trigram FTS5 table per index build. */
export class SqliteStore implements Store {
  readonly description: string;
  private readonly db: Database.Database;

  private constructor(db: Database.Database, file: string) {
    this.db = db;
    this.description = `sqlite:${file}`;
  }

  static open(file: string): SqliteStore {
    if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const store = new SqliteStore(db, file);
    migrate(db);
    return store;
  }

  schemaVersion(): number {
    const row = this.db.prepare("SELECT MAX(version) AS v FROM schema_migrations").get() as { v: number | null };
    return row.v ?? 0;
  }

  /** The build tables of an index; throws for an unknown index. */
  private tablesOf(indexId: string): BuildTables {
    let seq = this.seqs.get(indexId);
    if (seq === undefined) {
      seq = indexes.indexSeq(this.db, indexId);
      this.seqs.set(indexId, seq);
    }
    return buildTables(seq);
  }

  /**
   * Each index's sequence number (what names its tables) never changes; a query asked it once per store call,
   * ~70 times per kernel search (0.7 ms). Forgotten whenever this store publishes, fails or clears builds, which
   * may drop indexes; a caller takes its index from `getReadyIndex` per request, so another process's drops
   * reach it there.
   */
  private readonly seqs = new Map<string, number>();

  /** Each index's trigram frequencies (null: it keeps none, being small or older); forgotten with `seqs`. */
  private readonly dfs = new Map<string, content.TrigramDf | null>();

  /** What is cached per index id, forgotten whenever indexes may have been dropped (see `seqs`). */
  private forgetIndexes(): void {
    this.seqs.clear();
    this.dfs.clear();
  }

  async beginIndex(meta: IndexMeta): Promise<string> {
    this.forgetIndexes();
    indexes.removeAbandonedBuilds(this.db);
    const id = randomUUID();
    indexes.insertIndex(this.db, id, meta);
    return id;
  }

  /**
   * Batches of a build share one write transaction until COMMIT_BYTES have been written: fewer commits mean
   * fewer full-text segments to merge, while each addFiles call stays short (the caller's workers keep running).
   */
  private buildTx: { indexId: string; bytes: number } | null = null;

  private endBuildTx(commit: boolean): void {
    if (this.buildTx && this.db.inTransaction) this.db.exec(commit ? "COMMIT" : "ROLLBACK");
    this.buildTx = null;
  }

  async addFiles(indexId: string, files: FileInput[]): Promise<void> {
    const tables = this.tablesOf(indexId);
    if (this.buildTx && this.buildTx.indexId !== indexId) this.endBuildTx(true);
    if (!this.buildTx) {
      this.db.exec("BEGIN");
      this.buildTx = { indexId, bytes: 0 };
    }
    writer.writeFiles(this.db, indexId, tables, files);
    this.buildTx.bytes += files.reduce((n, f) => n + (f.content?.length ?? 0), 0);
    if (this.buildTx.bytes >= COMMIT_BYTES) this.endBuildTx(true);
  }

  /**
   * Updates a ready index in place, in one transaction (see build-writer.ts). The cached slim rows and ranking
   * normalizers move by the rows the update dropped and wrote: reloading 78k of them made the first query after an
   * update on the kernel cost ~250 ms (slim rows) and ~130 ms (normalizers) more.
   */
  async applyDelta(indexId: string, d: IndexDelta): Promise<void> {
    this.endBuildTx(true);
    const before = indexes.indexVersion(this.db, indexId);
    const { dropped, written } = writer.applyDelta(this.db, indexId, d);
    const { slim, termSizes } = this;
    this.slim = null;
    this.termSizes = null;
    if (slim?.indexId === indexId && slim.version === before) {
      const pathsBefore = new Map(dropped.map((id) => [id, slim.files.get(id)?.path]));
      for (const id of dropped) slim.files.delete(id);
      for (const [id, file] of content.loadSlimFiles(this.db, indexId, written)) slim.files.set(id, file);
      // Changed files keep their ids and paths: the path signatures stand unless files came or went.
      const samePaths = slim.paths !== undefined && written.length === pathsBefore.size && written.every((id) => pathsBefore.get(id) === slim.files.get(id)?.path);
      this.slim = { indexId, version: d.indexVersion, files: slim.files, ...(samePaths ? { paths: slim.paths } : {}) };
    }
    if (termSizes?.indexId === indexId && termSizes.version === before) {
      // Every normalizer depends on the average lengths: recomputed from the rows in memory (ms), not reloaded.
      const rows = movedTermSizeRows(termSizes.rows, dropped, loadTermSizeRows(this.db, this.tablesOf(indexId), written));
      this.termSizes = { indexId, version: d.indexVersion, rows, sizes: termSizesFromRows(rows) };
    }
  }

  async digestRows(indexId: string): Promise<{ path: string; contentHash: string; skipReason: string | null }[]> {
    return fileQueries.digestRows(this.db, indexId);
  }

  async reusableExtractions(indexId: string): Promise<Map<string, ReusableExtraction>> {
    return fileQueries.reusableExtractions(this.db, indexId);
  }

  async publishIndex(indexId: string, indexVersion: string, stats: IndexStats): Promise<void> {
    this.endBuildTx(true);
    this.forgetIndexes();
    indexes.publishIndex(this.db, indexId, indexVersion, stats);
  }

  async failIndex(indexId: string, error: string): Promise<void> {
    this.endBuildTx(false);
    this.forgetIndexes();
    indexes.failIndex(this.db, indexId, error);
  }

  async getReadyIndex(repoId?: string): Promise<IndexRow | null> {
    return indexes.getReadyIndex(this.db, repoId);
  }

  async getIndex(indexId: string): Promise<IndexRow | null> {
    return indexes.getIndex(this.db, indexId);
  }

  async listReadyIndexes(): Promise<IndexRow[]> {
    return indexes.listReadyIndexes(this.db);
  }

  async getFile(indexId: string, path: string): Promise<FileRow | null> {
    return fileQueries.getFile(this.db, indexId, path);
  }

  async listFiles(indexId: string, filter: FileFilter = {}): Promise<FileRow[]> {
    return fileQueries.listFiles(this.db, indexId, filter);
  }

  async summarize(indexId: string): Promise<IndexSummary> {
    return fileQueries.summarize(this.db, indexId);
  }

  /**
   * Slim rows of one index, kept in memory after the first query: candidates then come from the full-text index
   * alone (row ids), with no join per match. An index changes only by an in-place update, which changes its
   * version (possibly from another process): the cache is keyed by both; only the most recent index is kept.
   */
  private slim: { indexId: string; version: string | null; files: Map<number, content.SlimFile>; paths?: PathSignatures } | null = null;

  private slimFiles(indexId: string): Map<number, content.SlimFile> {
    const version = indexes.indexVersion(this.db, indexId);
    if (this.slim?.indexId === indexId && this.slim.version === version) return this.slim.files;
    const files = content.loadSlimFiles(this.db, indexId);
    this.slim = { indexId, version, files };
    return files;
  }

  /** The slim rows with their path signatures, built on first use for each version of the index (~30 ms on the kernel). */
  private pathSignatures(indexId: string): { files: Map<number, content.SlimFile>; paths: PathSignatures } {
    const files = this.slimFiles(indexId);
    const slim = this.slim!;
    return { files, paths: (slim.paths ??= new PathSignatures(files.values())) };
  }

  async candidateFiles(indexId: string, query: CandidateQuery, limit: number): Promise<{ files: CandidateFile[]; more: boolean }> {
    return this.candidatesFrom(indexId, query, limit, null);
  }

  async candidatePages(indexId: string, query: CandidateQuery): Promise<CandidatePages | null> {
    const { files, paths } = this.pathSignatures(indexId);
    if (!paths.pathOrdered) return null;
    return {
      page: async (afterId, limit) => this.candidatesFrom(indexId, query, limit, afterId),
      holds: async (fileId) => content.isCandidate(this.db, this.tablesOf(indexId).content, query, fileId, this.trigramDfOf(indexId)),
      pathHolders: async (textLower, limit) => paths.holding(textLower, limit)?.map((id) => files.get(id)!) ?? null,
    };
  }

  async warm(indexId: string): Promise<void> {
    this.pathSignatures(indexId);
    this.trigramDfOf(indexId);
  }

  private trigramDfOf(indexId: string): content.TrigramDf | undefined {
    let df = this.dfs.get(indexId);
    if (df === undefined) this.dfs.set(indexId, (df = content.trigramDf(this.db, this.tablesOf(indexId).contentDf)));
    return df ?? undefined;
  }

  private candidatesFrom(indexId: string, query: CandidateQuery, limit: number, afterId: number | null): { files: CandidateFile[]; more: boolean } {
    const tables = this.tablesOf(indexId);
    return content.candidateFiles(this.db, indexId, tables.content, this.slimFiles(indexId), query, limit, this.trigramDfOf(indexId), afterId);
  }

  async readCandidate(indexId: string, fileId: number): Promise<ContentCandidate | null> {
    return content.readCandidate(this.db, this.tablesOf(indexId).content, fileId);
  }

  async scanCandidates(indexId: string, query: CandidateQuery, visit: (candidate: ContentCandidate) => boolean): Promise<void> {
    content.scanCandidates(this.db, indexId, this.tablesOf(indexId).content, query, visit);
  }

  async getContent(indexId: string, path: string): Promise<string | null> {
    return content.getContent(this.db, this.tablesOf(indexId).content, indexId, path);
  }

  /**
   * Field normalizers of one index's files, kept in memory after the first ranking query (cached like `slim`).
   * Throws `index_unavailable` for an index built before ranking terms existed.
   */
  private termSizes: { indexId: string; version: string | null; rows: TermSizeRow[]; sizes: TermSizes } | null = null;

  private rankingData(indexId: string): { tables: BuildTables; sizes: TermSizes } {
    const tables = this.tablesOf(indexId);
    const version = indexes.indexVersion(this.db, indexId);
    if (this.termSizes?.indexId !== indexId || this.termSizes.version !== version) {
      if (!hasTermTables(this.db, tables)) {
        throw new QueryError("index_unavailable", "this index was built before ranking terms existed", "run `repoctx index` to rebuild");
      }
      this.termSizes = { indexId, version, ...loadTermSizes(this.db, tables) };
    }
    return { tables, sizes: this.termSizes.sizes };
  }

  /**
   * Each query term's postings (per-field file sets) from the index, scored by BM25F in memory: exact per-term
   * weights and the matched terms come with it. Files the policy or the path prefix leave out are dropped after
   * scoring (statistics are the whole index's).
   */
  async rankFiles(indexId: string, query: RankQuery): Promise<RankedFile[]> {
    const { tables, sizes } = this.rankingData(indexId);
    const terms = normalizeRankTerms(query.terms);
    const postingsOf = termPostings(this.db, tables, query.weights);
    const scores = new DenseScores(sizes, query.weights, terms.length);
    terms.forEach((t, i) => scores.addTerm(i, t.weight, postingsOf(t.term)));
    const slim = this.slimFiles(indexId);
    return topRanked(scores, sizes.base, terms, query, (id) => slim.get(id));
  }

  async termStats(indexId: string, terms: string[]): Promise<TermStats> {
    const { tables, sizes } = this.rankingData(indexId);
    const df = documentFrequency(this.db, tables);
    return { ...sizes.stats, documentFrequency: terms.map((t) => (/^[a-z0-9_]+$/.test(t) ? df(t) : 0)) };
  }

  async fileIds(indexId: string, paths: readonly string[]): Promise<Map<string, number>> {
    return fileQueries.fileIds(this.db, indexId, paths);
  }

  async fileEdges(indexId: string, fileIds: number[], limit: number): Promise<FileEdge[]> {
    return fileEdges(this.db, this.tablesOf(indexId), fileIds, limit);
  }

  async findSymbols(indexId: string, query: SymbolQuery): Promise<SymbolRow[]> {
    return findSymbols(this.db, this.tablesOf(indexId), indexId, query);
  }

  async findReferences(indexId: string, query: ReferenceQuery): Promise<ReferenceRow[]> {
    return findReferences(this.db, this.tablesOf(indexId), indexId, query);
  }

  async symbolSummary(indexId: string): Promise<{ symbols: number; references: number; byStatus: Record<string, number> }> {
    return symbolSummary(this.db, this.tablesOf(indexId), indexId);
  }

  async addKnowledge(indexId: string, k: RepoKnowledge): Promise<void> {
    this.endBuildTx(true);
    this.db.transaction(() => knowledge.writeKnowledge(this.db, indexId, k))();
  }

  async setDirtyPaths(indexId: string, paths: string[]): Promise<void> {
    knowledge.setDirtyPaths(this.db, indexId, paths);
  }

  async getDirtyPaths(indexId: string): Promise<string[]> {
    return knowledge.getDirtyPaths(this.db, indexId);
  }

  async getKnowledge(indexId: string): Promise<{ graph: BuildGraph; ownership: OwnershipFile }> {
    return knowledge.getKnowledge(this.db, indexId);
  }

  async listDocs(indexId: string, filter: { pathPrefix?: string; limit: number }): Promise<{ docs: RepoDoc[]; total: number }> {
    return knowledge.listDocs(this.db, indexId, filter);
  }

  async getDoc(indexId: string, docId: string): Promise<RepoDoc | null> {
    return knowledge.getDoc(this.db, indexId, docId);
  }

  async listInstructionFiles(indexId: string): Promise<InstructionFile[]> {
    return knowledge.listInstructionFiles(this.db, indexId);
  }

  async putSemantic(indexId: string, model: Buffer, vectors: ReadonlyMap<number, Float32Array>, meta: SemanticMeta): Promise<void> {
    this.endBuildTx(true);
    putSemantic(this.db, indexId, model, vectors, meta);
  }

  async putFileVectors(indexId: string, vectors: ReadonlyMap<number, Float32Array>): Promise<void> {
    this.endBuildTx(true);
    putFileVectors(this.db, indexId, vectors);
  }

  async getSemantic(indexId: string): Promise<StoredSemantic | null> {
    return getSemantic(this.db, indexId);
  }

  async fileVectors(indexId: string, fileIds?: readonly number[]): Promise<Map<number, Float32Array>> {
    return fileVectors(this.db, indexId, fileIds);
  }

  async appendAudit(r: AuditRecord): Promise<void> {
    audit.appendAudit(this.db, r);
  }

  async listAudit(filter: AuditFilter): Promise<AuditRecord[]> {
    return audit.listAudit(this.db, filter);
  }

  /** SQLite's own consistency check: "ok" when every table and index is sound. */
  integrityCheck(): string {
    return (this.db.pragma("integrity_check") as { integrity_check: string }[]).map((r) => r.integrity_check).join("; ");
  }

  /** Index builds in any state, for diagnostics and tests. */
  buildCount(status: IndexRow["status"]): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM repo_index WHERE status = ?").get(status) as { n: number }).n;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
