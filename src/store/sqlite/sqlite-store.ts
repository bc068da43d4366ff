import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type {
  AuditFilter,
  AuditRecord,
  CandidateFile,
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
  SkipReason,
  Store,
} from "../store.js";
import type { BuildGraph, OwnershipFile, OwnershipRule, RepoDoc, RepoKnowledge, RepoModule } from "../../core/knowledge.js";
import type { SemanticMeta, StoredSemantic } from "../../core/semantic.js";
import { MIGRATIONS, ROW_ID_STRIDE, buildTables, createBuildIndexesSql, createBuildTablesSql, dropBuildTablesSql } from "./migrations.js";
import { FILE_COLUMNS, SQLITE_VALUES, prefixUpperBound, toFileRow, type FileDbRow, type SqliteTypes } from "./rows.js";
import { AUDIT_COLUMNS, auditRecordOf, auditValues, indexRowOf, type AuditDbRow, type IndexDbRow as SharedIndexDbRow } from "../db-rows.js";
import { copyExtraction, findReferences, findSymbols, insertExtraction, symbolSummary } from "./symbol-queries.js";
import { deleteTerms, documentFrequency, fileEdges, hasTermTables, insertTerms, loadTermSizes, termPostings } from "./term-queries.js";
import { DenseScores, topRanked, type TermSizes } from "../term-scores.js";
import { SEMANTIC_TABLES, fileVectors, getSemantic, putFileVectors, putSemantic } from "./semantic-queries.js";
import { normalizeRankTerms } from "../bm25f.js";
import { QueryError } from "../../core/errors.js";
import { EMPTY_GRAPH, EMPTY_OWNERSHIP, builderIdentity, isAbandoned, skipCounts } from "../row-rules.js";
import type { InstructionFile } from "../../core/instructions.js";

const BUSY_TIMEOUT_MS = 5000;
/** Text written per build transaction before it commits. */
const COMMIT_BYTES = 64 * 1024 * 1024;

interface IndexDbRow extends SharedIndexDbRow<SqliteTypes> {
  stats_json: string | null;
}

/** Tables holding what the knowledge stage learned, one set of rows per index build. */
const KNOWLEDGE_TABLES = ["repo_module", "repo_doc", "repo_ownership_rule", "repo_knowledge", "repo_instruction"] as const;

function toIndexRow(r: IndexDbRow): IndexRow {
  return indexRowOf(r, SQLITE_VALUES, r.stats_json || null);
}

const TRIGRAM_STEP = 2;

/**
 * An FTS5 query that needs trigrams covering every fragment: answered from the index alone (no content is read),
 * so it is a superset of the files containing the fragments; callers verify on the text. Null: no usable fragment.
 */
export function trigramMatchExpression(fragments: string[]): string | null {
  const grams = new Set<string>();
  for (const f of fragments) {
    const chars = [...f.toLowerCase()];
    // Every other trigram plus the last one: half the terms (each costs a doclist merge on large repositories)
    // for nearly the selectivity of all of them; the text is verified afterwards anyway. Non-overlapping trigrams
    // were cheaper still but let through twice the false positives on multi-word queries.
    for (let i = 0; i + 3 <= chars.length; i += TRIGRAM_STEP) grams.add(chars.slice(i, i + 3).join(""));
    if (chars.length >= 3) grams.add(chars.slice(chars.length - 3).join(""));
  }
  if (grams.size === 0) return null;
  return [...grams].map((g) => `"${g.replace(/"/g, '""')}"`).join(" AND ");
}

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
    store.migrate();
    return store;
  }

  /** Applies pending migrations in order; each in its own transaction. */
  private migrate(): void {
    this.db.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
    );
    const applied = new Set(
      (this.db.prepare("SELECT version FROM schema_migrations").all() as { version: number }[]).map((r) => r.version),
    );
    for (const m of MIGRATIONS) {
      if (applied.has(m.version)) continue;
      this.db.transaction(() => {
        this.db.exec(m.sql);
        this.db
          .prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)")
          .run(m.version, m.name, new Date().toISOString());
      })();
    }
  }

  schemaVersion(): number {
    const row = this.db.prepare("SELECT MAX(version) AS v FROM schema_migrations").get() as { v: number | null };
    return row.v ?? 0;
  }

  private readonly statements = new Map<string, Database.Statement>();

  /** Prepared once per SQL text: queries run the same few statements thousands of times. */
  private stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  private indexSeq(indexId: string): number {
    const row = this.stmt("SELECT seq FROM repo_index WHERE id = ?").get(indexId) as { seq: number } | undefined;
    if (!row) throw new Error(`unknown index ${indexId}`);
    return row.seq;
  }

  /**
   * Builds left behind by a process that died (kill -9, power loss) on this host: their builder is gone, so
   * their rows and tables are dropped. Builds of live processes, or of other hosts, are left alone.
   */
  private removeAbandonedBuilds(): void {
    const rows = this.db.prepare("SELECT * FROM repo_index WHERE status = 'building'").all() as (IndexDbRow & { builder: string | null })[];
    for (const row of rows) {
      if (isAbandoned(row.builder)) this.db.transaction(() => this.dropIndex(row))();
    }
  }

  async beginIndex(meta: IndexMeta): Promise<string> {
    this.removeAbandonedBuilds();
    const id = randomUUID();
    this.db.transaction(() => {
      const info = this.db
        .prepare(
          `INSERT INTO repo_index (id, repo_id, root_path, base_commit, branch, dirty, extractor_version, status, started_at, builder)
           VALUES (?, ?, ?, ?, ?, ?, ?, 'building', ?, ?)`,
        )
        .run(
          id,
          meta.repoId,
          meta.rootPath,
          meta.baseCommit,
          meta.branch,
          meta.dirty ? 1 : 0,
          meta.extractorVersion,
          new Date().toISOString(),
          builderIdentity(),
        );
      this.db.exec(createBuildTablesSql(Number(info.lastInsertRowid)));
    })();
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
    const tables = buildTables(this.indexSeq(indexId));
    if (this.buildTx && this.buildTx.indexId !== indexId) this.endBuildTx(true);
    if (!this.buildTx) {
      this.db.exec("BEGIN");
      this.buildTx = { indexId, bytes: 0 };
    }
    const insertFile = this.fileInserter();
    const insertContent = this.db.prepare(`INSERT INTO ${tables.content} (rowid, content) VALUES (?, ?)`);
    const writeExtraction = insertExtraction(this.db, tables);
    const writeTerms = insertTerms(this.db, tables);
    const copiers = new Map<string, (oldFileId: number, newFileId: number) => number>();
    const copierFor = (fromIndexId: string) => {
      let c = copiers.get(fromIndexId);
      if (!c) {
        c = copyExtraction(this.db, buildTables(this.indexSeq(fromIndexId)), tables);
        copiers.set(fromIndexId, c);
      }
      return c;
    };
    this.db.transaction(() => {
      for (const f of files) {
        const id = insertFile(indexId, f, null);
        if (f.content !== null) insertContent.run(id, f.content);
        if (f.terms) writeTerms(id, f.terms);
        if (f.extraction) writeExtraction(id, f.extraction);
        else if (f.reuse) copierFor(f.reuse.indexId)(f.reuse.fileId, id);
      }
    })();
    this.buildTx.bytes += files.reduce((n, f) => n + (f.content?.length ?? 0), 0);
    if (this.buildTx.bytes >= COMMIT_BYTES) this.endBuildTx(true);
  }

  /** Inserts one file row (with a given id, or the next one) and returns its id. */
  private fileInserter(): (indexId: string, f: FileInput, id: number | null) => number {
    const insert = this.db.prepare(
      `INSERT INTO repo_file (id, repo_index_id, path, language, size_bytes, line_count, content_hash, is_binary,
         is_generated, is_vendored, generated_reason, is_secret_suspect, secret_reasons, has_instruction_like_text,
         skip_reason, skip_detail, symbol_status, symbol_extractor, symbol_detail, mtime_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    return (indexId, f, id) =>
      Number(
        insert.run(
          id,
          indexId,
          f.path,
          f.language,
          f.sizeBytes,
          f.lineCount,
          f.contentHash,
          f.isBinary ? 1 : 0,
          f.isGenerated ? 1 : 0,
          f.isVendored ? 1 : 0,
          f.generatedReason,
          f.isSecretSuspect ? 1 : 0,
          JSON.stringify(f.secretReasons),
          f.hasInstructionLikeText ? 1 : 0,
          f.skipReason,
          f.skipDetail,
          f.symbolStatus ?? f.extraction?.status ?? null,
          f.symbolExtractor ?? f.extraction?.extractor ?? null,
          f.symbolDetail ?? f.extraction?.detail ?? null,
          f.mtimeMs,
        ).lastInsertRowid,
      );
  }

  /**
   * Updates a ready index in place, in one transaction: the rows of removed and changed files go, changed and new
   * files come in (a changed file keeps its id, so its path-order position), knowledge is replaced when given, and
   * the index row takes the new commit and version. Readers see the old index or the new one, never a mix.
   */
  async applyDelta(indexId: string, d: IndexDelta): Promise<void> {
    this.endBuildTx(true);
    const index = this.db.prepare("SELECT * FROM repo_index WHERE id = ?").get(indexId) as IndexDbRow | undefined;
    if (!index || index.status !== "ready") throw new Error(`index ${indexId} is not ready`);
    const tables = buildTables(index.seq);
    const findId = this.db.prepare("SELECT id FROM repo_file WHERE repo_index_id = ? AND path = ?");
    const dropContent = this.db.prepare(`DELETE FROM ${tables.content} WHERE rowid = ?`);
    const dropSymbols = this.db.prepare(`DELETE FROM ${tables.symbols} WHERE id BETWEEN ? AND ?`);
    const dropReferences = this.db.prepare(`DELETE FROM ${tables.references} WHERE id BETWEEN ? AND ?`);
    const dropFile = this.db.prepare("DELETE FROM repo_file WHERE id = ?");
    const insertFile = this.fileInserter();
    const insertContent = this.db.prepare(`INSERT INTO ${tables.content} (rowid, content) VALUES (?, ?)`);
    const writeExtraction = insertExtraction(this.db, tables);
    // An index built before ranking terms existed is updated without them (rankFiles tells its caller to rebuild).
    const terms = hasTermTables(this.db, tables) ? { write: insertTerms(this.db, tables), drop: deleteTerms(this.db, tables) } : null;
    this.db.transaction(() => {
      const kept = new Map<string, number>();
      for (const path of [...d.remove, ...d.upsert.map((f) => f.path)]) {
        const row = findId.get(indexId, path) as { id: number } | undefined;
        if (!row) continue;
        dropContent.run(row.id);
        terms?.drop(row.id);
        dropSymbols.run(row.id * ROW_ID_STRIDE, (row.id + 1) * ROW_ID_STRIDE - 1);
        dropReferences.run(row.id * ROW_ID_STRIDE, (row.id + 1) * ROW_ID_STRIDE - 1);
        dropFile.run(row.id);
        kept.set(path, row.id);
      }
      // Files keeping their id first: a new file takes the next free id, which may be a kept one's until it is back.
      const ordered = [...d.upsert.filter((f) => kept.has(f.path)), ...d.upsert.filter((f) => !kept.has(f.path))];
      for (const f of ordered) {
        const id = insertFile(indexId, f, kept.get(f.path) ?? null);
        if (f.content !== null) insertContent.run(id, f.content);
        if (f.terms && terms) terms.write(id, f.terms);
        if (f.extraction) writeExtraction(id, f.extraction);
      }
      if (d.knowledge) {
        for (const table of KNOWLEDGE_TABLES) this.db.prepare(`DELETE FROM ${table} WHERE repo_index_id = ?`).run(indexId);
        this.writeKnowledge(indexId, d.knowledge);
      }
      this.db
        .prepare(
          "UPDATE repo_index SET base_commit = ?, branch = ?, dirty = ?, index_version = ?, finished_at = ?, stats_json = ? WHERE id = ?",
        )
        .run(d.meta.baseCommit, d.meta.branch, d.meta.dirty ? 1 : 0, d.indexVersion, new Date().toISOString(), JSON.stringify(d.stats), indexId);
    })();
    this.slim = null;
    this.termSizes = null;
  }

  async digestRows(indexId: string): Promise<{ path: string; contentHash: string; skipReason: string | null }[]> {
    return (
      this.stmt("SELECT path, content_hash, skip_reason FROM repo_file WHERE repo_index_id = ? ORDER BY path").all(indexId) as {
        path: string;
        content_hash: string;
        skip_reason: string | null;
      }[]
    ).map((r) => ({ path: r.path, contentHash: r.content_hash, skipReason: r.skip_reason }));
  }

  async reusableExtractions(indexId: string): Promise<Map<string, ReusableExtraction>> {
    const rows = this.db
      .prepare(
        `SELECT id, path, content_hash, symbol_status, symbol_extractor, symbol_detail FROM repo_file
         WHERE repo_index_id = ? AND symbol_status IS NOT NULL`,
      )
      .all(indexId) as { id: number; path: string; content_hash: string; symbol_status: ReusableExtraction["symbolStatus"]; symbol_extractor: ReusableExtraction["symbolExtractor"]; symbol_detail: string | null }[];
    return new Map(
      rows.map((r) => [r.path, { fileId: r.id, contentHash: r.content_hash, symbolStatus: r.symbol_status, symbolExtractor: r.symbol_extractor, symbolDetail: r.symbol_detail }]),
    );
  }

  async publishIndex(indexId: string, indexVersion: string, stats: IndexStats): Promise<void> {
    this.endBuildTx(true);
    const index = this.db.prepare("SELECT * FROM repo_index WHERE id = ?").get(indexId) as IndexDbRow | undefined;
    if (!index) throw new Error(`unknown index ${indexId}`);
    if (index.status !== "building") throw new Error(`index ${indexId} is ${index.status}, not building`);
    const older = this.db
      .prepare("SELECT * FROM repo_index WHERE repo_id = ? AND id <> ? AND status IN ('ready', 'failed', 'superseded')")
      .all(index.repo_id, indexId) as IndexDbRow[];
    this.db.exec(createBuildIndexesSql(index.seq));
    this.db.transaction(() => {
      this.db
        .prepare("UPDATE repo_index SET status = 'ready', index_version = ?, finished_at = ?, stats_json = ? WHERE id = ?")
        .run(indexVersion, new Date().toISOString(), JSON.stringify(stats), indexId);
      for (const old of older) this.dropIndex(old);
    })();
    this.db.pragma("wal_checkpoint(PASSIVE)");
  }

  /** Removes a build's tables and file rows (inside the caller's transaction); its repo_index row stays. */
  private dropBuildData(row: IndexDbRow): void {
    this.db.exec(dropBuildTablesSql(row.seq));
    for (const table of [...SEMANTIC_TABLES, "repo_file", ...KNOWLEDGE_TABLES]) {
      this.db.prepare(`DELETE FROM ${table} WHERE repo_index_id = ?`).run(row.id);
    }
  }

  /** Removes an index entirely (inside the caller's transaction). */
  private dropIndex(row: IndexDbRow): void {
    this.dropBuildData(row);
    this.db.prepare("DELETE FROM repo_index WHERE id = ?").run(row.id);
  }

  async failIndex(indexId: string, error: string): Promise<void> {
    this.endBuildTx(false);
    const row = this.db.prepare("SELECT * FROM repo_index WHERE id = ?").get(indexId) as IndexDbRow | undefined;
    if (!row) return;
    this.db.transaction(() => {
      this.dropBuildData(row);
      this.db
        .prepare("UPDATE repo_index SET status = 'failed', finished_at = ?, error = ? WHERE id = ?")
        .run(new Date().toISOString(), error, indexId);
    })();
  }

  async getReadyIndex(repoId?: string): Promise<IndexRow | null> {
    const rows = (
      repoId === undefined
        ? this.db.prepare("SELECT * FROM repo_index WHERE status = 'ready' ORDER BY seq DESC").all()
        : this.db.prepare("SELECT * FROM repo_index WHERE status = 'ready' AND repo_id = ? ORDER BY seq DESC").all(repoId)
    ) as IndexDbRow[];
    if (rows.length === 0) return null;
    if (repoId === undefined && new Set(rows.map((r) => r.repo_id)).size > 1) return null;
    return toIndexRow(rows[0]!);
  }

  async getIndex(indexId: string): Promise<IndexRow | null> {
    const row = this.db.prepare("SELECT * FROM repo_index WHERE id = ?").get(indexId) as IndexDbRow | undefined;
    return row ? toIndexRow(row) : null;
  }

  async listReadyIndexes(): Promise<IndexRow[]> {
    return (this.db.prepare("SELECT * FROM repo_index WHERE status = 'ready' ORDER BY seq DESC").all() as IndexDbRow[]).map(
      toIndexRow,
    );
  }

  async getFile(indexId: string, path: string): Promise<FileRow | null> {
    const row = this.stmt(`SELECT ${FILE_COLUMNS} FROM repo_file f WHERE f.repo_index_id = ? AND f.path = ?`).get(indexId, path) as
      | FileDbRow
      | undefined;
    return row ? toFileRow(row) : null;
  }

  async listFiles(indexId: string, filter: FileFilter = {}): Promise<FileRow[]> {
    const clauses = ["f.repo_index_id = ?"];
    const params: unknown[] = [indexId];
    if (filter.pathPrefix) {
      clauses.push("f.path >= ? AND f.path < ?");
      params.push(filter.pathPrefix, prefixUpperBound(filter.pathPrefix));
    }
    if (!filter.includeSkipped) clauses.push("f.skip_reason IS NULL");
    const rows = this.db
      .prepare(`SELECT ${FILE_COLUMNS} FROM repo_file f WHERE ${clauses.join(" AND ")} ORDER BY f.path`)
      .all(...params) as FileDbRow[];
    return rows.map(toFileRow);
  }

  async summarize(indexId: string): Promise<IndexSummary> {
    const totals = this.db
      .prepare(
        `SELECT COUNT(*) AS files, SUM(skip_reason IS NULL) AS indexed, COALESCE(SUM(size_bytes), 0) AS bytes,
           SUM(is_generated) AS generated, SUM(is_vendored) AS vendored, SUM(is_secret_suspect) AS secret,
           SUM(is_binary) AS binary
         FROM repo_file WHERE repo_index_id = ?`,
      )
      .get(indexId) as Record<string, number | null>;
    const languages = this.db
      .prepare(
        `SELECT language, COUNT(*) AS files, SUM(size_bytes) AS bytes FROM repo_file
         WHERE repo_index_id = ? AND skip_reason IS NULL GROUP BY language ORDER BY files DESC, language`,
      )
      .all(indexId) as { language: string | null; files: number; bytes: number }[];
    const skipRows = this.db
      .prepare(
        `SELECT skip_reason AS reason, path FROM repo_file WHERE repo_index_id = ? AND skip_reason IS NOT NULL
         ORDER BY skip_reason, path`,
      )
      .all(indexId) as { reason: SkipReason; path: string }[];
    const topLevel = this.db
      .prepare(
        `SELECT CASE WHEN instr(path, '/') > 0 THEN substr(path, 1, instr(path, '/')) ELSE path END AS name,
           COUNT(*) AS files
         FROM repo_file WHERE repo_index_id = ? GROUP BY name ORDER BY name`,
      )
      .all(indexId) as { name: string; files: number }[];
    return {
      files: totals.files ?? 0,
      indexedFiles: totals.indexed ?? 0,
      bytes: totals.bytes ?? 0,
      generated: totals.generated ?? 0,
      vendored: totals.vendored ?? 0,
      secretSuspect: totals.secret ?? 0,
      binary: totals.binary ?? 0,
      languages,
      skipped: skipCounts(skipRows),
      topLevel,
    };
  }

  /**
   * WHERE clause for candidates: trigram MATCH (index only, a superset) plus path and extractor filters. A path
   * prefix also bounds the rowids: a build inserts files in path order, so one prefix is one contiguous id range,
   * which the full-text index can skip to instead of joining every match.
   */
  private candidateWhere(indexId: string, table: string, query: CandidateQuery): { where: string; params: unknown[] } {
    const { clauses, params } = this.indexClauses(indexId, table, query);
    if (query.pathPrefix) {
      clauses.push("f.path >= ? AND f.path < ?");
      params.push(query.pathPrefix, prefixUpperBound(query.pathPrefix));
    }
    if (query.excludeExtractor) {
      clauses.push("(f.symbol_extractor IS NULL OR f.symbol_extractor <> ?)");
      params.push(query.excludeExtractor);
    }
    return { where: clauses.length > 0 ? `WHERE ${clauses.join(" AND ")}` : "", params };
  }

  /**
   * Slim rows of one index, kept in memory after the first query: candidates then come from the full-text index
   * alone (row ids), with no join per match. An index changes only by an in-place update, which changes its
   * version (possibly from another process): the cache is keyed by both; only the most recent index is kept.
   */
  private slim: { indexId: string; version: string | null; files: Map<number, CandidateFile & { extractor: string | null }> } | null = null;

  private slimFiles(indexId: string): Map<number, CandidateFile & { extractor: string | null }> {
    const version = (this.stmt("SELECT index_version FROM repo_index WHERE id = ?").get(indexId) as { index_version: string | null } | undefined)?.index_version ?? null;
    if (this.slim?.indexId === indexId && this.slim.version === version) return this.slim.files;
    const files = new Map<number, CandidateFile & { extractor: string | null }>();
    const rows = this.stmt(
      `SELECT id, path, size_bytes, is_generated, is_vendored, is_secret_suspect, symbol_extractor FROM repo_file
       WHERE repo_index_id = ? AND skip_reason IS NULL`,
    ).all(indexId) as { id: number; path: string; size_bytes: number; is_generated: number; is_vendored: number; is_secret_suspect: number; symbol_extractor: string | null }[];
    for (const r of rows) {
      files.set(r.id, {
        id: r.id,
        path: r.path,
        sizeBytes: r.size_bytes,
        isGenerated: r.is_generated === 1,
        isVendored: r.is_vendored === 1,
        isSecretSuspect: r.is_secret_suspect === 1,
        extractor: r.symbol_extractor,
      });
    }
    this.slim = { indexId, version, files };
    return files;
  }

  /** The clauses the full-text table answers alone: the trigram MATCH and a path prefix's id range. */
  private indexClauses(indexId: string, table: string, query: CandidateQuery): { clauses: string[]; params: unknown[] } {
    const clauses: string[] = [];
    const params: unknown[] = [];
    const expr = trigramMatchExpression(query.fragments);
    if (expr !== null) {
      clauses.push(`${table} MATCH ?`);
      params.push(expr);
    }
    if (query.pathPrefix) {
      const range = this.idRange(indexId, query.pathPrefix);
      clauses.push(`${table}.rowid BETWEEN ? AND ?`);
      params.push(range.lo, range.hi);
    }
    return { clauses, params };
  }

  async candidateFiles(indexId: string, query: CandidateQuery, limit: number): Promise<{ files: CandidateFile[]; more: boolean }> {
    const table = buildTables(this.indexSeq(indexId)).content;
    const slim = this.slimFiles(indexId);
    const { clauses, params } = this.indexClauses(indexId, table, query);
    const upper = query.pathPrefix ? prefixUpperBound(query.pathPrefix) : null;
    const where = clauses.length > 0 ? `WHERE ${clauses.join(" AND ")}` : "";
    const files: CandidateFile[] = [];
    let more = false;
    for (const row of this.stmt(`SELECT ${table}.rowid AS id FROM ${table} ${where}`).iterate(...params) as IterableIterator<{ id: number }>) {
      const f = slim.get(row.id);
      if (!f) continue;
      if (query.pathPrefix && (f.path < query.pathPrefix || f.path >= upper!)) continue;
      if (query.excludeExtractor && f.extractor === query.excludeExtractor) continue;
      if (files.length >= limit) {
        more = true;
        break;
      }
      files.push(f);
    }
    return { files, more };
  }

  /** File ids of one path prefix: a build inserts files in path order, so the prefix is one contiguous id range. */
  private idRange(indexId: string, prefix: string): { lo: number; hi: number } {
    const r = this.stmt("SELECT MIN(id) AS lo, MAX(id) AS hi FROM repo_file WHERE repo_index_id = ? AND path >= ? AND path < ?").get(
      indexId,
      prefix,
      prefixUpperBound(prefix),
    ) as { lo: number | null; hi: number | null };
    return { lo: r.lo ?? 0, hi: r.hi ?? -1 };
  }

  async readCandidate(indexId: string, fileId: number): Promise<ContentCandidate | null> {
    const table = buildTables(this.indexSeq(indexId)).content;
    const row = this.stmt(`SELECT ${FILE_COLUMNS}, x.content AS content FROM repo_file f JOIN ${table} x ON x.rowid = f.id WHERE f.id = ?`).get(
      fileId,
    ) as (FileDbRow & { content: string }) | undefined;
    return row ? { file: toFileRow(row), content: row.content } : null;
  }

  async scanCandidates(indexId: string, query: CandidateQuery, visit: (candidate: ContentCandidate) => boolean): Promise<void> {
    const table = buildTables(this.indexSeq(indexId)).content;
    const { where, params } = this.candidateWhere(indexId, table, query);
    // Synchronous iteration: no other statement can run on this connection until the scan ends, and none needs to.
    const rows = this.db
      .prepare(`SELECT ${FILE_COLUMNS}, ${table}.content AS content FROM ${table} JOIN repo_file f ON f.id = ${table}.rowid ${where}`)
      .iterate(...params) as IterableIterator<FileDbRow & { content: string }>;
    for (const row of rows) {
      if (!visit({ file: toFileRow(row), content: row.content })) break;
    }
  }

  async getContent(indexId: string, path: string): Promise<string | null> {
    const table = buildTables(this.indexSeq(indexId)).content;
    const row = this.stmt(`SELECT x.content AS content FROM repo_file f JOIN ${table} x ON x.rowid = f.id WHERE f.repo_index_id = ? AND f.path = ?`).get(
      indexId,
      path,
    ) as { content: string } | undefined;
    return row?.content ?? null;
  }

  /**
   * Field normalizers of one index's files, kept in memory after the first ranking query (cached like `slim`).
   * Throws `index_unavailable` for an index built before ranking terms existed.
   */
  private termSizes: { indexId: string; version: string | null; sizes: TermSizes } | null = null;

  private rankingData(indexId: string): { tables: ReturnType<typeof buildTables>; sizes: TermSizes } {
    const tables = buildTables(this.indexSeq(indexId));
    const version = (this.stmt("SELECT index_version FROM repo_index WHERE id = ?").get(indexId) as { index_version: string | null }).index_version;
    if (this.termSizes?.indexId !== indexId || this.termSizes.version !== version) {
      if (!hasTermTables(this.db, tables)) {
        throw new QueryError("index_unavailable", "this index was built before ranking terms existed", "run `repoctx index` to rebuild");
      }
      this.termSizes = { indexId, version, sizes: loadTermSizes(this.db, tables) };
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
    const find = this.stmt("SELECT id FROM repo_file WHERE repo_index_id = ? AND path = ?");
    const out = new Map<string, number>();
    for (const p of new Set(paths)) {
      const row = find.get(indexId, p) as { id: number } | undefined;
      if (row) out.set(p, row.id);
    }
    return out;
  }

  async fileEdges(indexId: string, fileIds: number[], limit: number): Promise<FileEdge[]> {
    return fileEdges(this.db, buildTables(this.indexSeq(indexId)), fileIds, limit);
  }

  async findSymbols(indexId: string, query: SymbolQuery): Promise<SymbolRow[]> {
    return findSymbols(this.db, buildTables(this.indexSeq(indexId)), indexId, query);
  }

  async findReferences(indexId: string, query: ReferenceQuery): Promise<ReferenceRow[]> {
    return findReferences(this.db, buildTables(this.indexSeq(indexId)), indexId, query);
  }

  async symbolSummary(indexId: string): Promise<{ symbols: number; references: number; byStatus: Record<string, number> }> {
    return symbolSummary(this.db, buildTables(this.indexSeq(indexId)), indexId);
  }

  async addKnowledge(indexId: string, k: RepoKnowledge): Promise<void> {
    this.endBuildTx(true);
    this.db.transaction(() => this.writeKnowledge(indexId, k))();
  }

  private writeKnowledge(indexId: string, k: RepoKnowledge): void {
    const { modules, ...graph } = k.graph;
    const { rules, ...ownership } = k.ownership;
    {
      const module = this.stmt("INSERT OR REPLACE INTO repo_module (repo_index_id, path, name, data) VALUES (?, ?, ?, ?)");
      for (const m of modules) module.run(indexId, m.path, m.name, JSON.stringify(m));
      const doc = this.stmt("INSERT OR REPLACE INTO repo_doc (repo_index_id, doc_id, path, data) VALUES (?, ?, ?, ?)");
      for (const d of k.docs) doc.run(indexId, d.docId, d.path, JSON.stringify(d));
      const rule = this.stmt("INSERT OR REPLACE INTO repo_ownership_rule (repo_index_id, ordinal, data) VALUES (?, ?, ?)");
      for (const r of rules) rule.run(indexId, r.ordinal, JSON.stringify(r));
      const instruction = this.stmt("INSERT OR REPLACE INTO repo_instruction (repo_index_id, path, data) VALUES (?, ?, ?)");
      for (const f of k.instructions) instruction.run(indexId, f.path, JSON.stringify(f));
      const other = this.stmt("INSERT OR REPLACE INTO repo_knowledge (repo_index_id, kind, data) VALUES (?, ?, ?)");
      other.run(indexId, "graph", JSON.stringify(graph));
      other.run(indexId, "ownership", JSON.stringify(ownership));
      other.run(indexId, "dirty_paths", JSON.stringify(k.dirtyPaths ?? []));
    }
  }

  async setDirtyPaths(indexId: string, paths: string[]): Promise<void> {
    this.stmt("INSERT OR REPLACE INTO repo_knowledge (repo_index_id, kind, data) VALUES (?, 'dirty_paths', ?)").run(indexId, JSON.stringify(paths));
  }

  async getDirtyPaths(indexId: string): Promise<string[]> {
    const row = this.stmt("SELECT data FROM repo_knowledge WHERE repo_index_id = ? AND kind = 'dirty_paths'").get(indexId) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as string[]) : [];
  }

  async getKnowledge(indexId: string): Promise<{ graph: BuildGraph; ownership: OwnershipFile }> {
    const parts = new Map(
      (this.stmt("SELECT kind, data FROM repo_knowledge WHERE repo_index_id = ?").all(indexId) as { kind: string; data: string }[]).map(
        (r) => [r.kind, JSON.parse(r.data) as unknown],
      ),
    );
    const modules = (this.stmt("SELECT data FROM repo_module WHERE repo_index_id = ? ORDER BY path, name").all(indexId) as { data: string }[]).map(
      (r) => JSON.parse(r.data) as RepoModule,
    );
    const rules = (this.stmt("SELECT data FROM repo_ownership_rule WHERE repo_index_id = ? ORDER BY ordinal").all(indexId) as { data: string }[]).map(
      (r) => JSON.parse(r.data) as OwnershipRule,
    );
    const graph = (parts.get("graph") as Omit<BuildGraph, "modules"> | undefined) ?? EMPTY_GRAPH;
    const ownership = (parts.get("ownership") as Omit<OwnershipFile, "rules"> | undefined) ?? EMPTY_OWNERSHIP;
    return { graph: { ...graph, modules }, ownership: { ...ownership, rules } };
  }

  async listDocs(indexId: string, filter: { pathPrefix?: string; limit: number }): Promise<{ docs: RepoDoc[]; total: number }> {
    const prefix = filter.pathPrefix ?? "";
    const where = "repo_index_id = ? AND substr(path, 1, ?) = ?";
    const total = (this.stmt(`SELECT count(*) AS n FROM repo_doc WHERE ${where}`).get(indexId, prefix.length, prefix) as { n: number }).n;
    const docs = (
      this.stmt(`SELECT data FROM repo_doc WHERE ${where} ORDER BY path LIMIT ?`).all(indexId, prefix.length, prefix, filter.limit) as { data: string }[]
    ).map((r) => JSON.parse(r.data) as RepoDoc);
    return { docs, total };
  }

  async getDoc(indexId: string, docId: string): Promise<RepoDoc | null> {
    const row = this.stmt("SELECT data FROM repo_doc WHERE repo_index_id = ? AND doc_id = ?").get(indexId, docId) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as RepoDoc) : null;
  }

  async listInstructionFiles(indexId: string): Promise<InstructionFile[]> {
    return (this.stmt("SELECT data FROM repo_instruction WHERE repo_index_id = ? ORDER BY path").all(indexId) as { data: string }[]).map(
      (r) => JSON.parse(r.data) as InstructionFile,
    );
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
    this.stmt(
      `INSERT INTO audit_log (${AUDIT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(...auditValues(r, (b) => (b ? 1 : 0)));
  }

  async listAudit(filter: AuditFilter): Promise<AuditRecord[]> {
    const clauses: string[] = [];
    const params: unknown[] = [];
    if (filter.since) {
      clauses.push("at >= ?");
      params.push(filter.since);
    }
    if (filter.tool) {
      clauses.push("tool = ?");
      params.push(filter.tool);
    }
    const where = clauses.length > 0 ? `WHERE ${clauses.join(" AND ")}` : "";
    const rows = this.db.prepare(`SELECT * FROM audit_log ${where} ORDER BY id DESC LIMIT ?`).all(...params, filter.limit) as AuditDbRow<SqliteTypes>[];
    return rows.map((r) => auditRecordOf(r, SQLITE_VALUES));
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
