import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type {
  CandidateQuery,
  ContentCandidate,
  FileFilter,
  FileInput,
  FileRow,
  IndexMeta,
  IndexRow,
  IndexStats,
  IndexSummary,
  SkipReason,
  Store,
} from "../store.js";
import { MIGRATIONS, contentTableName, createContentTableSql } from "./migrations.js";

/** Rows fetched per page when streaming search candidates; small pages keep the connection free between them. */
const CANDIDATE_PAGE_SIZE = 64;
const SKIP_EXAMPLES = 5;
const BUSY_TIMEOUT_MS = 5000;

interface IndexDbRow {
  seq: number;
  id: string;
  repo_id: string;
  root_path: string;
  base_commit: string | null;
  branch: string | null;
  dirty: number;
  extractor_version: string;
  index_version: string | null;
  status: IndexRow["status"];
  started_at: string;
  finished_at: string | null;
  stats_json: string | null;
  error: string | null;
}

interface FileDbRow {
  id: number;
  path: string;
  language: string | null;
  size_bytes: number;
  line_count: number | null;
  content_hash: string;
  is_binary: number;
  is_generated: number;
  is_vendored: number;
  generated_reason: string | null;
  is_secret_suspect: number;
  secret_reasons: string;
  has_instruction_like_text: number;
  skip_reason: SkipReason | null;
  skip_detail: string | null;
}

const FILE_COLUMNS = `f.id, f.path, f.language, f.size_bytes, f.line_count, f.content_hash, f.is_binary, f.is_generated,
  f.is_vendored, f.generated_reason, f.is_secret_suspect, f.secret_reasons, f.has_instruction_like_text,
  f.skip_reason, f.skip_detail`;

function toIndexRow(r: IndexDbRow): IndexRow {
  return {
    id: r.id,
    repoId: r.repo_id,
    rootPath: r.root_path,
    baseCommit: r.base_commit,
    branch: r.branch,
    dirty: r.dirty === 1,
    extractorVersion: r.extractor_version,
    indexVersion: r.index_version,
    status: r.status,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    stats: r.stats_json ? (JSON.parse(r.stats_json) as IndexStats) : null,
    error: r.error,
  };
}

function toFileRow(r: FileDbRow): FileRow {
  return {
    path: r.path,
    language: r.language,
    sizeBytes: r.size_bytes,
    lineCount: r.line_count,
    contentHash: r.content_hash,
    isBinary: r.is_binary === 1,
    isGenerated: r.is_generated === 1,
    isVendored: r.is_vendored === 1,
    generatedReason: r.generated_reason,
    isSecretSuspect: r.is_secret_suspect === 1,
    secretReasons: JSON.parse(r.secret_reasons) as string[],
    hasInstructionLikeText: r.has_instruction_like_text === 1,
    skipReason: r.skip_reason,
    skipDetail: r.skip_detail,
  };
}

/** The smallest string greater than every string starting with `prefix` (for range scans on a prefix). */
function prefixUpperBound(prefix: string): string {
  return prefix + "\u{10FFFF}";
}

export interface SqliteStoreOptions {
  readonly?: boolean;
}

/** Embedded store: one SQLite file in WAL mode, a trigram FTS5 table per index build. */
export class SqliteStore implements Store {
  readonly description: string;
  private readonly db: Database.Database;

  private constructor(db: Database.Database, file: string) {
    this.db = db;
    this.description = `sqlite:${file}`;
  }

  static open(file: string, _options: SqliteStoreOptions = {}): SqliteStore {
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

  private indexSeq(indexId: string): number {
    const row = this.db.prepare("SELECT seq FROM repo_index WHERE id = ?").get(indexId) as { seq: number } | undefined;
    if (!row) throw new Error(`unknown index ${indexId}`);
    return row.seq;
  }

  async beginIndex(meta: IndexMeta): Promise<string> {
    const id = randomUUID();
    this.db.transaction(() => {
      const info = this.db
        .prepare(
          `INSERT INTO repo_index (id, repo_id, root_path, base_commit, branch, dirty, extractor_version, status, started_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, 'building', ?)`,
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
        );
      this.db.exec(createContentTableSql(Number(info.lastInsertRowid)));
    })();
    return id;
  }

  async addFiles(indexId: string, files: FileInput[]): Promise<void> {
    const table = contentTableName(this.indexSeq(indexId));
    const insertFile = this.db.prepare(
      `INSERT INTO repo_file (repo_index_id, path, language, size_bytes, line_count, content_hash, is_binary,
         is_generated, is_vendored, generated_reason, is_secret_suspect, secret_reasons, has_instruction_like_text,
         skip_reason, skip_detail)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertContent = this.db.prepare(`INSERT INTO ${table} (rowid, content) VALUES (?, ?)`);
    this.db.transaction(() => {
      for (const f of files) {
        const info = insertFile.run(
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
        );
        if (f.content !== null) insertContent.run(info.lastInsertRowid, f.content);
      }
    })();
  }

  async publishIndex(indexId: string, indexVersion: string, stats: IndexStats): Promise<void> {
    const index = this.db.prepare("SELECT * FROM repo_index WHERE id = ?").get(indexId) as IndexDbRow | undefined;
    if (!index) throw new Error(`unknown index ${indexId}`);
    if (index.status !== "building") throw new Error(`index ${indexId} is ${index.status}, not building`);
    const older = this.db
      .prepare("SELECT * FROM repo_index WHERE repo_id = ? AND id <> ? AND status IN ('ready', 'failed', 'superseded')")
      .all(index.repo_id, indexId) as IndexDbRow[];
    this.db.transaction(() => {
      this.db
        .prepare("UPDATE repo_index SET status = 'ready', index_version = ?, finished_at = ?, stats_json = ? WHERE id = ?")
        .run(indexVersion, new Date().toISOString(), JSON.stringify(stats), indexId);
      for (const old of older) this.dropIndex(old);
    })();
    this.db.pragma("wal_checkpoint(PASSIVE)");
  }

  /** Removes an index's rows and its content table (inside the caller's transaction). */
  private dropIndex(row: IndexDbRow): void {
    this.db.exec(`DROP TABLE IF EXISTS ${contentTableName(row.seq)}`);
    this.db.prepare("DELETE FROM repo_file WHERE repo_index_id = ?").run(row.id);
    this.db.prepare("DELETE FROM repo_index WHERE id = ?").run(row.id);
  }

  async failIndex(indexId: string, error: string): Promise<void> {
    const row = this.db.prepare("SELECT * FROM repo_index WHERE id = ?").get(indexId) as IndexDbRow | undefined;
    if (!row) return;
    this.db.transaction(() => {
      this.db.exec(`DROP TABLE IF EXISTS ${contentTableName(row.seq)}`);
      this.db.prepare("DELETE FROM repo_file WHERE repo_index_id = ?").run(row.id);
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
    const row = this.db
      .prepare(`SELECT ${FILE_COLUMNS} FROM repo_file f WHERE f.repo_index_id = ? AND f.path = ?`)
      .get(indexId, path) as FileDbRow | undefined;
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
    const skipped = new Map<SkipReason, { reason: SkipReason; files: number; examples: string[] }>();
    for (const r of skipRows) {
      const entry = skipped.get(r.reason) ?? { reason: r.reason, files: 0, examples: [] };
      entry.files += 1;
      if (entry.examples.length < SKIP_EXAMPLES) entry.examples.push(r.path);
      skipped.set(r.reason, entry);
    }
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
      skipped: [...skipped.values()],
      topLevel,
    };
  }

  async *searchCandidates(indexId: string, query: CandidateQuery): AsyncIterable<ContentCandidate> {
    const table = contentTableName(this.indexSeq(indexId));
    const clauses = ["x.rowid > ?"];
    const filterParams: unknown[] = [];
    for (const fragment of query.fragments) {
      if (/[%_]/.test(fragment)) throw new Error("candidate fragments must not contain LIKE wildcards");
      clauses.push("x.content LIKE ?");
      filterParams.push(`%${fragment}%`);
    }
    if (query.pathPrefix) {
      clauses.push("f.path >= ? AND f.path < ?");
      filterParams.push(query.pathPrefix, prefixUpperBound(query.pathPrefix));
    }
    const stmt = this.db.prepare(
      `SELECT ${FILE_COLUMNS}, x.content AS content FROM ${table} x JOIN repo_file f ON f.id = x.rowid
       WHERE ${clauses.join(" AND ")} ORDER BY x.rowid LIMIT ${CANDIDATE_PAGE_SIZE}`,
    );
    let after = 0;
    for (;;) {
      const rows = stmt.all(after, ...filterParams) as (FileDbRow & { content: string })[];
      for (const row of rows) yield { file: toFileRow(row), content: row.content };
      if (rows.length < CANDIDATE_PAGE_SIZE) return;
      after = rows[rows.length - 1]!.id;
    }
  }

  async getContent(indexId: string, path: string): Promise<string | null> {
    const table = contentTableName(this.indexSeq(indexId));
    const row = this.db
      .prepare(`SELECT x.content AS content FROM repo_file f JOIN ${table} x ON x.rowid = f.id WHERE f.repo_index_id = ? AND f.path = ?`)
      .get(indexId, path) as { content: string } | undefined;
    return row?.content ?? null;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
