import { randomUUID } from "node:crypto";
import type { BuildGraph, OwnershipFile, RepoDoc, RepoKnowledge } from "../../core/knowledge.js";
import type { SemanticMeta, StoredSemantic } from "../../core/semantic.js";
import { QueryError } from "../../core/errors.js";
import { RANK_FIELDS, FIELD_BIT, normalizeRankTerms } from "../bm25f.js";
import { builderIdentity, isAbandoned } from "../row-rules.js";
import { isParsedExtractor } from "../../core/symbols.js";
import type {
  AuditFilter,
  AuditRecord,
  CandidateFile,
  CandidateQuery,
  ContentCandidate,
  FileEdge,
  FileFilter,
  FileInput,
  FileRow,
  IndexDelta,
  IndexMeta,
  IndexRow,
  IndexStats,
  IndexSummary,
  RankQuery,
  RankedFile,
  ReferenceQuery,
  ReferenceRow,
  ReusableExtraction,
  Store,
  SymbolQuery,
  SymbolRow,
  TermStats,
} from "../store.js";
import { DenseScores, topRanked, type RankableFile, type TermSizes } from "../term-scores.js";
import { DEFAULT_POOL_SIZE, createPool, parseStoreUrl } from "./connection.js";
import * as audit from "./audit-queries.js";
import * as content from "./content-queries.js";
import { Db, type Queryable } from "./db.js";
import * as fileQueries from "./file-queries.js";
import * as knowledge from "./knowledge-queries.js";
import { LOCK_FILE_IDS, LOCK_PUBLISH, advisoryLockSql, buildTables, createBuildIndexesSql, createBuildTablesSql, dropBuildTablesSql, migrate, type BuildTables } from "./migrations.js";
import { asIndexId, fileColumns, insertFilesSql, toIndexRow, type IndexDbRow } from "./rows.js";
import * as semantic from "./semantic-queries.js";
import * as symbols from "./symbol-queries.js";
import { Stemmer, deleteTerms, documentFrequency, hasTermTables, insertTerms, loadTermSizes, termPostings } from "./term-queries.js";
import type { InstructionFile } from "../../core/instructions.js";

/** Memory for building an index's lookup indexes (the trigram GIN index most of all), unless the server allows more. */
const INDEX_BUILD_MEMORY_BYTES = 512 * 1024 * 1024;
/** PostgreSQL's "undefined table": a build's tables dropped under a reader (the index was superseded). */
const UNDEFINED_TABLE = "42P01";

/**
 * Shared store: one PostgreSQL schema, per-build tables like the SQLite store's (see migrations.ts), a pool of
 * connections. Several processes (servers behind a load balancer, an indexer) may use one schema at once: builds
 * and updates are transactions, and what an instance caches is keyed by the index's version.
 */
export class PostgresStore implements Store {
  readonly description: string;
  private readonly stemmer = new Stemmer();
  /** Build table sequence numbers by index id: fixed for an id's life. */
  private readonly seqs = new Map<string, number>();
  private slim: { indexId: string; version: string | null; files: Map<number, RankableFile> } | null = null;
  private termSizes: { indexId: string; version: string | null; sizes: TermSizes } | null = null;
  private closed = false;

  private constructor(
    private readonly db: Db,
    private readonly schema: string,
    private readonly trigramSchema: string,
  ) {
    this.description = db.location.description;
  }

  static async open(url: string, opts: { poolSize?: number } = {}): Promise<PostgresStore> {
    const location = parseStoreUrl(url);
    const db = new Db(createPool(location, opts.poolSize ?? DEFAULT_POOL_SIZE), location);
    try {
      const { trigramSchema } = await migrate(db, location.schema);
      return new PostgresStore(db, location.schema, trigramSchema);
    } catch (err) {
      await db.end().catch(() => undefined);
      throw err;
    }
  }

  async schemaVersion(): Promise<number> {
    return (await this.db.one<{ v: number | null }>("SELECT MAX(version) AS v FROM schema_migrations"))?.v ?? 0;
  }

  private async indexRow(q: Queryable, indexId: string): Promise<IndexDbRow | undefined> {
    return q.one<IndexDbRow>("SELECT * FROM repo_index WHERE id = $1", [asIndexId(indexId)]);
  }

  private async tablesOf(indexId: string): Promise<BuildTables> {
    let seq = this.seqs.get(indexId);
    if (seq === undefined) {
      const row = await this.db.one<{ seq: number }>("SELECT seq FROM repo_index WHERE id = $1", [asIndexId(indexId)]);
      if (!row) throw new Error(`unknown index ${indexId}`);
      seq = row.seq;
      this.seqs.set(indexId, seq);
    }
    return buildTables(seq);
  }

  /** Runs a read of one build's tables; tables dropped under it (a superseded index) mean an unknown index. */
  private async onTables<T>(indexId: string, read: (t: BuildTables) => Promise<T>): Promise<T> {
    const t = await this.tablesOf(indexId);
    try {
      return await read(t);
    } catch (err) {
      if ((err as { code?: string }).code === UNDEFINED_TABLE) throw new Error(`unknown index ${indexId}`);
      throw err;
    }
  }

  /** Builds left behind by a dead process on this host: dropped (see isAbandoned). Others are left alone. */
  private async removeAbandonedBuilds(): Promise<void> {
    for (const row of await this.db.rows<IndexDbRow>("SELECT * FROM repo_index WHERE status = 'building'")) {
      if (isAbandoned(row.builder)) await this.db.tx((q) => this.dropIndex(q, row));
    }
  }

  async beginIndex(meta: IndexMeta): Promise<string> {
    await this.removeAbandonedBuilds();
    const id = randomUUID();
    await this.db.tx(async (q) => {
      const row = (await q.one<{ seq: number }>(
        `INSERT INTO repo_index (id, repo_id, root_path, base_commit, branch, dirty, extractor_version, status, started_at, builder)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'building', $8, $9) RETURNING seq`,
        [id, meta.repoId, meta.rootPath, meta.baseCommit, meta.branch, meta.dirty, meta.extractorVersion, new Date().toISOString(), builderIdentity()],
      ))!;
      await q.run(createBuildTablesSql(row.seq));
      this.seqs.set(id, row.seq);
    });
    return id;
  }

  /** The next free file id (SQLite's rowid rule: one more than the largest), under the caller's id lock. */
  private async nextFileId(q: Queryable): Promise<number> {
    return (await q.one<{ max: number }>("SELECT COALESCE(MAX(id), 0) AS max FROM repo_file"))!.max + 1;
  }

  async addFiles(indexId: string, files: FileInput[]): Promise<void> {
    const t = await this.tablesOf(indexId);
    const sources = new Map<string, BuildTables>();
    for (const f of files) {
      if (!f.extraction && f.reuse && !sources.has(f.reuse.indexId)) sources.set(f.reuse.indexId, await this.tablesOf(f.reuse.indexId));
    }
    await this.db.tx(async (q) => {
      await q.run(advisoryLockSql(LOCK_FILE_IDS), [this.schema]);
      const next = await this.nextFileId(q);
      await this.writeFiles(q, t, indexId, files.map((f, i) => ({ id: next + i, f })), sources);
    });
  }

  /**
   * Writes file rows with their text, terms (unless the build has no ranking tables) and symbols (extracted, or
   * copied from an earlier build in `sources`).
   */
  private async writeFiles(
    q: Queryable,
    t: BuildTables,
    indexId: string,
    rows: { id: number; f: FileInput }[],
    sources: Map<string, BuildTables>,
    withTerms = true,
    late = false,
  ): Promise<void> {
    if (rows.length === 0) return;
    await q.run(insertFilesSql(), fileColumns(indexId, rows));
    const texts = rows.flatMap(({ id, f }) => (f.content !== null ? [{ fileId: id, content: f.content, parsed: isParsedExtractor(f.symbolExtractor) }] : []));
    await content.insertContent(q, t, texts, late);
    if (withTerms) await insertTerms(q, t, this.stemmer, rows.flatMap(({ id, f }) => (f.terms ? [{ fileId: id, terms: f.terms }] : [])));
    await symbols.insertExtractions(q, t, rows.flatMap(({ id, f }) => (f.extraction ? [{ fileId: id, extraction: f.extraction }] : [])));
    for (const [from, tables] of sources) {
      const moves = rows.flatMap(({ id, f }) => (!f.extraction && f.reuse?.indexId === from ? [{ oldFileId: f.reuse.fileId, newFileId: id }] : []));
      await symbols.copyExtractions(q, tables, t, moves);
    }
  }

  /**
   * Updates a ready index in place, in one transaction (see the SQLite store's applyDelta): removed and changed
   * files' rows go, changed files come back with their ids, new files take the next free ids, knowledge is replaced
   * when given, and the index row takes the new commit and version.
   */
  async applyDelta(indexId: string, d: IndexDelta): Promise<void> {
    const index = await this.indexRow(this.db, indexId);
    if (!index || index.status !== "ready") throw new Error(`index ${indexId} is not ready`);
    const t = buildTables(index.seq);
    // A build whose ranking tables are gone (damaged) is updated without them; rankFiles asks for a rebuild.
    const withTerms = await hasTermTables(this.db, t);
    await this.db.tx(async (q) => {
      await q.run(advisoryLockSql(LOCK_FILE_IDS), [this.schema]);
      const paths = [...d.remove, ...d.upsert.map((f) => f.path)];
      const existing = await q.rows<{ id: number; path: string }>("SELECT id, path FROM repo_file WHERE repo_index_id = $1 AND path = ANY($2::text[])", [indexId, paths]);
      const kept = new Map(existing.map((r) => [r.path, r.id]));
      const gone = existing.map((r) => r.id);
      await content.deleteContent(q, t, gone);
      if (withTerms) await deleteTerms(q, t, gone);
      await symbols.deleteExtractions(q, t, gone);
      if (gone.length > 0) await q.run("DELETE FROM repo_file WHERE id = ANY($1::bigint[])", [gone]);
      // Files keeping their id first: a new file takes the next free id, which may be a kept one's until it is back.
      const none = new Map<string, BuildTables>();
      await this.writeFiles(q, t, indexId, d.upsert.filter((f) => kept.has(f.path)).map((f) => ({ id: kept.get(f.path)!, f })), none, withTerms, true);
      const added = d.upsert.filter((f) => !kept.has(f.path));
      if (added.length > 0) {
        const next = await this.nextFileId(q);
        await this.writeFiles(q, t, indexId, added.map((f, i) => ({ id: next + i, f })), none, withTerms, true);
      }
      if (d.knowledge) {
        await knowledge.deleteKnowledge(q, indexId);
        await knowledge.writeKnowledge(q, indexId, d.knowledge);
      }
      await q.run("UPDATE repo_index SET base_commit = $1, branch = $2, dirty = $3, index_version = $4, finished_at = $5, stats = $6 WHERE id = $7", [
        d.meta.baseCommit,
        d.meta.branch,
        d.meta.dirty,
        d.indexVersion,
        new Date().toISOString(),
        JSON.stringify(d.stats),
        indexId,
      ]);
    });
    this.slim = null;
    this.termSizes = null;
  }

  async digestRows(indexId: string): Promise<{ path: string; contentHash: string; skipReason: string | null }[]> {
    return fileQueries.digestRows(this.db, asIndexId(indexId));
  }

  async reusableExtractions(indexId: string): Promise<Map<string, ReusableExtraction>> {
    return fileQueries.reusableExtractions(this.db, asIndexId(indexId));
  }

  /**
   * Indexes the build's tables (outside any transaction: readers of other indexes go on), then, in one
   * transaction, drops the repository's older indexes and marks this one ready: readers see the old ready index or
   * the new one, never none and never both.
   */
  async publishIndex(indexId: string, indexVersion: string, stats: IndexStats): Promise<void> {
    const index = await this.indexRow(this.db, indexId);
    if (!index) throw new Error(`unknown index ${indexId}`);
    if (index.status !== "building") throw new Error(`index ${indexId} is ${index.status}, not building`);
    await this.db.tx(async (q) => {
      await q.run(
        `SELECT set_config('maintenance_work_mem', (GREATEST(pg_size_bytes(current_setting('maintenance_work_mem')), $1::bigint) / 1024)::bigint || 'kB', true)`,
        [INDEX_BUILD_MEMORY_BYTES],
      );
      await q.run(createBuildIndexesSql(index.seq, this.trigramSchema));
    });
    const t = buildTables(index.seq);
    // Statistics for the planner (without those of the new file rows it would not use the trigram index), and the
    // visibility map that lets term and name lookups read their indexes alone.
    await this.db.run(`VACUUM (ANALYZE) ${[t.content, t.symbols, t.references, t.terms, t.termSizes].join(", ")}`);
    await this.db.run("ANALYZE repo_file");
    await this.db.tx(async (q) => {
      await q.run(advisoryLockSql(LOCK_PUBLISH), [JSON.stringify([this.schema, index.repo_id])]);
      const current = await q.one<{ status: string }>("SELECT status FROM repo_index WHERE id = $1 FOR UPDATE", [indexId]);
      if (current?.status !== "building") throw new Error(`index ${indexId} is ${current?.status ?? "gone"}, not building`);
      const older = await q.rows<IndexDbRow>("SELECT * FROM repo_index WHERE repo_id = $1 AND id <> $2 AND status IN ('ready', 'failed', 'superseded')", [index.repo_id, indexId]);
      for (const old of older) await this.dropIndex(q, old);
      await q.run("UPDATE repo_index SET status = 'ready', index_version = $1, finished_at = $2, stats = $3 WHERE id = $4", [indexVersion, new Date().toISOString(), JSON.stringify(stats), indexId]);
    });
  }

  /** Removes a build's tables and rows (inside the caller's transaction); its repo_index row stays. */
  private async dropBuildData(q: Queryable, row: IndexDbRow): Promise<void> {
    await q.run(dropBuildTablesSql(row.seq));
    for (const table of [...semantic.SEMANTIC_TABLES, "repo_file", ...knowledge.KNOWLEDGE_TABLES]) await q.run(`DELETE FROM ${table} WHERE repo_index_id = $1`, [row.id]);
  }

  private async dropIndex(q: Queryable, row: IndexDbRow): Promise<void> {
    await this.dropBuildData(q, row);
    await q.run("DELETE FROM repo_index WHERE id = $1", [row.id]);
  }

  async failIndex(indexId: string, error: string): Promise<void> {
    const row = await this.indexRow(this.db, indexId);
    if (!row) return;
    await this.db.tx(async (q) => {
      await this.dropBuildData(q, row);
      await q.run("UPDATE repo_index SET status = 'failed', finished_at = $1, error = $2 WHERE id = $3", [new Date().toISOString(), error, indexId]);
    });
  }

  async getReadyIndex(repoId?: string): Promise<IndexRow | null> {
    const rows =
      repoId === undefined
        ? await this.db.rows<IndexDbRow>("SELECT * FROM repo_index WHERE status = 'ready' ORDER BY seq DESC")
        : await this.db.rows<IndexDbRow>("SELECT * FROM repo_index WHERE status = 'ready' AND repo_id = $1 ORDER BY seq DESC", [repoId]);
    if (rows.length === 0) return null;
    if (repoId === undefined && new Set(rows.map((r) => r.repo_id)).size > 1) return null;
    return toIndexRow(rows[0]!);
  }

  async getIndex(indexId: string): Promise<IndexRow | null> {
    const row = await this.indexRow(this.db, indexId);
    return row ? toIndexRow(row) : null;
  }

  async listReadyIndexes(): Promise<IndexRow[]> {
    return (await this.db.rows<IndexDbRow>("SELECT * FROM repo_index WHERE status = 'ready' ORDER BY seq DESC")).map(toIndexRow);
  }

  async getFile(indexId: string, path: string): Promise<FileRow | null> {
    return fileQueries.getFile(this.db, asIndexId(indexId), path);
  }

  async listFiles(indexId: string, filter: FileFilter = {}): Promise<FileRow[]> {
    return fileQueries.listFiles(this.db, asIndexId(indexId), filter);
  }

  async summarize(indexId: string): Promise<IndexSummary> {
    return fileQueries.summarize(this.db, asIndexId(indexId));
  }

  async candidateFiles(indexId: string, query: CandidateQuery, limit: number): Promise<{ files: CandidateFile[]; more: boolean }> {
    return this.onTables(indexId, (t) => content.candidateFiles(this.db, t, indexId, query, limit));
  }

  async readCandidate(indexId: string, fileId: number): Promise<ContentCandidate | null> {
    return this.onTables(indexId, (t) => content.readCandidate(this.db, t, fileId));
  }

  async scanCandidates(indexId: string, query: CandidateQuery, visit: (candidate: ContentCandidate) => boolean): Promise<void> {
    return this.onTables(indexId, (t) => content.scanCandidates(this.db, t, indexId, query, visit));
  }

  async getContent(indexId: string, path: string): Promise<string | null> {
    return this.onTables(indexId, (t) => content.getContent(this.db, t, indexId, path));
  }

  /** The index's version now: what the caches below are keyed by (another process may update the index). */
  private async version(indexId: string): Promise<string | null> {
    const row = await this.db.one<{ index_version: string | null }>("SELECT index_version FROM repo_index WHERE id = $1", [asIndexId(indexId)]);
    if (!row) throw new Error(`unknown index ${indexId}`);
    return row.index_version;
  }

  /** Path and policy flag of each indexed file, kept in memory for the index's current version (see rankFiles). */
  private async slimFiles(indexId: string, version: string | null): Promise<Map<number, RankableFile>> {
    if (this.slim?.indexId === indexId && this.slim.version === version) return this.slim.files;
    const rows = await this.db.rows<{ id: number; path: string; is_secret_suspect: boolean }>(
      "SELECT id, path, is_secret_suspect FROM repo_file WHERE repo_index_id = $1 AND skip_reason IS NULL",
      [asIndexId(indexId)],
    );
    const files = new Map(rows.map((r) => [r.id, { path: r.path, isSecretSuspect: r.is_secret_suspect }]));
    this.slim = { indexId, version, files };
    return files;
  }

  /**
   * Runs a ranking read with the field normalizers of the index's files (kept for its current version). An index
   * without ranking tables (they are created with every build, so only a damaged one) is `index_unavailable`.
   */
  private async ranking<T>(indexId: string, read: (data: { t: BuildTables; sizes: TermSizes; version: string | null }) => Promise<T>): Promise<T> {
    const noTerms = () => new QueryError("index_unavailable", "this index has no ranking terms", "run `repoctx index` to rebuild");
    return this.onTables(indexId, async () => {
      const t = await this.tablesOf(indexId);
      const version = await this.version(indexId);
      if (this.termSizes?.indexId !== indexId || this.termSizes.version !== version) {
        if (!(await hasTermTables(this.db, t))) throw noTerms();
        this.termSizes = { indexId, version, sizes: await loadTermSizes(this.db, t) };
      }
      try {
        return await read({ t, sizes: this.termSizes.sizes, version });
      } catch (err) {
        if ((err as { code?: string }).code === UNDEFINED_TABLE && !(await hasTermTables(this.db, t))) {
          this.termSizes = null;
          throw noTerms();
        }
        throw err;
      }
    });
  }

  /** Each query term's postings from the index, scored by the shared BM25F code (see term-scores.ts). */
  async rankFiles(indexId: string, query: RankQuery): Promise<RankedFile[]> {
    return this.ranking(indexId, async ({ t, sizes, version }) => {
      const terms = normalizeRankTerms(query.terms);
      const stems = terms.map((x) => this.stemmer.stem(x.term));
      const postings = await termPostings(this.db, t, stems);
      const scores = new DenseScores(sizes, query.weights, terms.length);
      terms.forEach((term, i) => {
        const p = postings.get(stems[i]!);
        // A field weighted 0 cannot change a score: like the SQLite store, its postings are not counted at all.
        const byField = RANK_FIELDS.map((field) =>
          query.weights[field] === 0 || !p ? [] : p.fileIds.filter((_, k) => (p.fields[k]! & FIELD_BIT[field]) !== 0),
        );
        scores.addTerm(i, term.weight, byField);
      });
      const slim = await this.slimFiles(indexId, version);
      return topRanked(scores, sizes.base, terms, query, (id) => slim.get(id));
    });
  }

  async termStats(indexId: string, terms: string[]): Promise<TermStats> {
    return this.ranking(indexId, async ({ t, sizes }) => {
      const valid = (term: string) => /^[a-z0-9_]+$/.test(term);
      const df = await documentFrequency(this.db, t, terms.filter(valid).map((term) => this.stemmer.stem(term)));
      return { ...sizes.stats, documentFrequency: terms.map((term) => (valid(term) ? (df.get(this.stemmer.stem(term)) ?? 0) : 0)) };
    });
  }

  async fileIds(indexId: string, paths: readonly string[]): Promise<Map<string, number>> {
    return fileQueries.fileIds(this.db, asIndexId(indexId), paths);
  }

  async fileEdges(indexId: string, fileIds: number[], limit: number): Promise<FileEdge[]> {
    return this.onTables(indexId, (t) => symbols.fileEdges(this.db, t, fileIds, limit));
  }

  async findSymbols(indexId: string, query: SymbolQuery): Promise<SymbolRow[]> {
    return this.onTables(indexId, (t) => symbols.findSymbols(this.db, t, indexId, query));
  }

  async findReferences(indexId: string, query: ReferenceQuery): Promise<ReferenceRow[]> {
    return this.onTables(indexId, (t) => symbols.findReferences(this.db, t, indexId, query));
  }

  async symbolSummary(indexId: string): Promise<{ symbols: number; references: number; byStatus: Record<string, number> }> {
    return this.onTables(indexId, (t) => symbols.symbolSummary(this.db, t, indexId));
  }

  async addKnowledge(indexId: string, k: RepoKnowledge): Promise<void> {
    await this.db.tx((q) => knowledge.writeKnowledge(q, indexId, k));
  }

  async setDirtyPaths(indexId: string, paths: string[]): Promise<void> {
    await knowledge.setDirtyPaths(this.db, indexId, paths);
  }

  async getDirtyPaths(indexId: string): Promise<string[]> {
    return knowledge.getDirtyPaths(this.db, asIndexId(indexId));
  }

  async getKnowledge(indexId: string): Promise<{ graph: BuildGraph; ownership: OwnershipFile }> {
    return knowledge.getKnowledge(this.db, asIndexId(indexId));
  }

  async listDocs(indexId: string, filter: { pathPrefix?: string; limit: number }): Promise<{ docs: RepoDoc[]; total: number }> {
    return knowledge.listDocs(this.db, asIndexId(indexId), filter, symbols.sqlLimit(filter.limit));
  }

  async getDoc(indexId: string, docId: string): Promise<RepoDoc | null> {
    return knowledge.getDoc(this.db, asIndexId(indexId), docId);
  }

  async listInstructionFiles(indexId: string): Promise<InstructionFile[]> {
    return knowledge.listInstructionFiles(this.db, asIndexId(indexId));
  }

  async putSemantic(indexId: string, model: Buffer, vectors: ReadonlyMap<number, Float32Array>, meta: SemanticMeta): Promise<void> {
    await semantic.putSemantic(this.db, indexId, model, vectors, meta);
  }

  async putFileVectors(indexId: string, vectors: ReadonlyMap<number, Float32Array>): Promise<void> {
    await semantic.putFileVectors(this.db, indexId, vectors);
  }

  async getSemantic(indexId: string): Promise<StoredSemantic | null> {
    return semantic.getSemantic(this.db, asIndexId(indexId));
  }

  async fileVectors(indexId: string, fileIds?: readonly number[]): Promise<Map<number, Float32Array>> {
    return semantic.fileVectors(this.db, asIndexId(indexId), fileIds);
  }

  async appendAudit(r: AuditRecord): Promise<void> {
    await audit.appendAudit(this.db, r);
  }

  async listAudit(filter: AuditFilter): Promise<AuditRecord[]> {
    return audit.listAudit(this.db, filter);
  }

  /** Index builds in any state, for diagnostics and tests. */
  async buildCount(status: IndexRow["status"]): Promise<number> {
    return (await this.db.one<{ n: number }>("SELECT COUNT(*) AS n FROM repo_index WHERE status = $1", [status]))!.n;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.db.end();
  }
}
