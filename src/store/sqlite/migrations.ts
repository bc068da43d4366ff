/**
 * Versioned schema migrations for the SQLite store. Each entry runs once, in order, inside a transaction;
 * `schema_migrations` records what ran. Never edit an applied migration: add the next one.
 */
import type Database from "better-sqlite3";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "repo_index and repo_file",
    sql: `
      CREATE TABLE repo_index (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        repo_id TEXT NOT NULL,
        root_path TEXT NOT NULL,
        base_commit TEXT,
        branch TEXT,
        dirty INTEGER NOT NULL,
        extractor_version TEXT NOT NULL,
        index_version TEXT,
        status TEXT NOT NULL CHECK (status IN ('building', 'ready', 'failed', 'superseded')),
        started_at TEXT NOT NULL,
        finished_at TEXT,
        stats_json TEXT,
        error TEXT
      );
      CREATE INDEX idx_repo_index_repo_status ON repo_index (repo_id, status);

      CREATE TABLE repo_file (
        id INTEGER PRIMARY KEY,
        repo_index_id TEXT NOT NULL REFERENCES repo_index (id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        language TEXT,
        size_bytes INTEGER NOT NULL,
        line_count INTEGER,
        content_hash TEXT NOT NULL,
        is_binary INTEGER NOT NULL DEFAULT 0,
        is_generated INTEGER NOT NULL DEFAULT 0,
        is_vendored INTEGER NOT NULL DEFAULT 0,
        generated_reason TEXT,
        is_secret_suspect INTEGER NOT NULL DEFAULT 0,
        secret_reasons TEXT NOT NULL DEFAULT '[]',
        has_instruction_like_text INTEGER NOT NULL DEFAULT 0,
        skip_reason TEXT,
        skip_detail TEXT,
        UNIQUE (repo_index_id, path)
      );
    `,
  },
  {
    version: 2,
    name: "symbol extraction status per file",
    sql: `
      ALTER TABLE repo_file ADD COLUMN symbol_status TEXT;
      ALTER TABLE repo_file ADD COLUMN symbol_extractor TEXT;
      ALTER TABLE repo_file ADD COLUMN symbol_detail TEXT;
    `,
  },
  {
    version: 3,
    name: "audit log",
    sql: `
      CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        run_id TEXT,
        step_id TEXT,
        tool TEXT NOT NULL,
        query_hash TEXT NOT NULL,
        mode TEXT,
        result_count INTEGER NOT NULL,
        truncated INTEGER NOT NULL,
        latency_ms REAL NOT NULL,
        repo_id TEXT,
        index_version TEXT,
        outcome TEXT NOT NULL,
        preview TEXT
      );
      CREATE INDEX idx_audit_log_at ON audit_log (at);
    `,
  },
  {
    version: 4,
    name: "index builder identity",
    sql: `ALTER TABLE repo_index ADD COLUMN builder TEXT;`,
  },
  {
    version: 5,
    name: "file modification time at indexing",
    sql: `ALTER TABLE repo_file ADD COLUMN mtime_ms REAL;`,
  },
  {
    version: 6,
    name: "repository knowledge: modules, docs, ownership rules",
    sql: `
      CREATE TABLE repo_module (
        repo_index_id TEXT NOT NULL REFERENCES repo_index (id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        name TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (repo_index_id, path, name)
      );
      CREATE TABLE repo_doc (
        repo_index_id TEXT NOT NULL REFERENCES repo_index (id) ON DELETE CASCADE,
        doc_id TEXT NOT NULL,
        path TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (repo_index_id, doc_id)
      );
      CREATE TABLE repo_ownership_rule (
        repo_index_id TEXT NOT NULL REFERENCES repo_index (id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (repo_index_id, ordinal)
      );
      CREATE TABLE repo_knowledge (
        repo_index_id TEXT NOT NULL REFERENCES repo_index (id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (repo_index_id, kind)
      );
    `,
  },
  {
    version: 7,
    name: "agent instruction files with their rules",
    sql: `
      CREATE TABLE repo_instruction (
        repo_index_id TEXT NOT NULL REFERENCES repo_index (id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (repo_index_id, path)
      );
    `,
  },
  {
    version: 8,
    // A vector row belongs to its file row: file ids are unique across indexes, so the file id alone is the key,
    // and deleting a file (an in-place update, a dropped build) drops its vector by a primary-key lookup. The
    // index-id index serves whole-index reads and deletes.
    name: "semantic model and file vectors per index",
    sql: `
      CREATE TABLE repo_semantic (
        repo_index_id TEXT PRIMARY KEY REFERENCES repo_index (id) ON DELETE CASCADE,
        model BLOB NOT NULL,
        created_at TEXT NOT NULL,
        meta TEXT NOT NULL
      );
      CREATE TABLE repo_file_vector (
        file_id INTEGER PRIMARY KEY REFERENCES repo_file (id) ON DELETE CASCADE,
        repo_index_id TEXT NOT NULL REFERENCES repo_index (id) ON DELETE CASCADE,
        vec BLOB NOT NULL
      );
      CREATE INDEX idx_repo_file_vector_index ON repo_file_vector (repo_index_id, file_id);
    `,
  },
];

/** Applies pending migrations in order; each in its own transaction. */
export function migrate(db: Database.Database): void {
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
  );
  const applied = new Set(
    (db.prepare("SELECT version FROM schema_migrations").all() as { version: number }[]).map((r) => r.version),
  );
  for (const m of MIGRATIONS) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db
        .prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)")
        .run(m.version, m.name, new Date().toISOString());
    })();
  }
}

/**
 * Per-build tables. Each index build gets its own trigram content table, symbol table and reference table
 * (the relational model's repo_symbol / repo_reference, one physical table per build), plus the ranking terms
 * and their per-file counts, so superseding an index is a DROP instead of deleting millions of rows, and a
 * half-written build never mixes with a ready one. Indexes built before the terms tables existed lack them.
 */
export interface BuildTables {
  content: string;
  symbols: string;
  references: string;
  terms: string;
  termSizes: string;
  /** Trigram document frequencies of the content table (see createBuildIndexesSql). */
  contentDf: string;
}

export function buildTables(seq: number): BuildTables {
  if (!Number.isSafeInteger(seq) || seq < 0) throw new Error(`invalid index sequence ${seq}`);
  return {
    content: `content_fts_${seq}`,
    symbols: `repo_symbol_${seq}`,
    references: `repo_reference_${seq}`,
    terms: `terms_fts_${seq}`,
    termSizes: `terms_size_${seq}`,
    contentDf: `content_df_${seq}`,
  };
}

/**
 * The ranking terms table: a file's path, symbol-name and body terms (see core/terms.ts), one row per file
 * keyed by file id. Porter stemming makes `expiration` meet `expired`; `_` is a token character so whole
 * snake_case names stay one term next to their pieces. Contentless (the terms are derived, never read back) with
 * `contentless_delete` so an in-place update can delete a file's row; `detail = 'column'` keeps which fields hold
 * a term (what BM25F needs) without positions. With that detail FTS5 cannot run phrase queries, so every query
 * term must be one token: callers pass only [a-z0-9_] runs.
 */
export function createTermsTableSql(name: string): string {
  return `CREATE VIRTUAL TABLE ${name} USING fts5(path, symbols, body,
    tokenize = "porter unicode61 remove_diacritics 2 tokenchars '_'", detail = 'column', content = '', contentless_delete = 1);`;
}

/** Each file's term count per field (BM25F's field lengths), by file id. */
export function createTermSizesTableSql(name: string): string {
  return `CREATE TABLE ${name} (file_id INTEGER PRIMARY KEY, path INTEGER NOT NULL, symbols INTEGER NOT NULL, body INTEGER NOT NULL);`;
}

export function createBuildTablesSql(seq: number): string {
  const t = buildTables(seq);
  return `
    CREATE VIRTUAL TABLE ${t.content} USING fts5(content, tokenize = 'trigram', detail = 'none');
    CREATE TABLE ${t.symbols} (
      id INTEGER PRIMARY KEY,
      file_id INTEGER NOT NULL,
      name TEXT NOT NULL,
      kind TEXT NOT NULL,
      qualified_name TEXT NOT NULL,
      container TEXT,
      start_line INTEGER NOT NULL,
      end_line INTEGER NOT NULL,
      start_column INTEGER NOT NULL,
      visibility TEXT,
      signature TEXT NOT NULL,
      scip_symbol TEXT
    );
    CREATE TABLE ${t.references} (
      id INTEGER PRIMARY KEY,
      file_id INTEGER NOT NULL,
      name TEXT NOT NULL,
      kind TEXT NOT NULL,
      line INTEGER NOT NULL,
      col INTEGER NOT NULL,
      enclosing_id INTEGER,
      target TEXT
    );
    ${createTermsTableSql(t.terms)}
    ${createTermSizesTableSql(t.termSizes)}
    ${mergeSettingsSql([t.content, t.terms], BUILD_MERGE)}
  `;
}

/**
 * How FTS5 merges a full-text index's segments. While a build writes (a segment per transaction), it does not merge
 * as it goes (FTS5's default rewrites the index a little at every commit, ~4-way): it waits for 64 segments of a
 * level, and the one merge at publish does the rest. The kernel's 946 MB of text into the trigram index, FTS5
 * alone, 500 files a transaction, merge at the end included: 70.9 s → 61.3 s, 1% larger before the merge. Once
 * published, the defaults again, for the small segments of updates in place.
 */
const BUILD_MERGE = { automerge: 0, crisismerge: 64 };
const DEFAULT_MERGE = { automerge: 4, crisismerge: 16 };

function mergeSettingsSql(tables: readonly string[], settings: { automerge: number; crisismerge: number }): string {
  return tables
    .flatMap((name) => Object.entries(settings).map(([key, value]) => `INSERT INTO ${name} (${name}, rank) VALUES ('${key}', ${value});`))
    .join("\n    ");
}

/**
 * Trigrams in at least this many files have their document frequency kept at publish (content_df_<seq>): a
 * lexical search asks the full-text index for its fragments' rarest trigrams, and only common ones need a count
 * (one absent is rarer than this). On the kernel: 481k trigrams, 58k of them kept, ~3.4 s to count at publish.
 */
export const TRIGRAM_DF_KEPT = 64;

/**
 * Builds of fewer indexed files keep no counts: every fragment's trigrams cost little there (a file-level AND of a
 * few hundred entries), and counting them was ~30 ms of a 600-file build, which a first index waits through.
 */
export const TRIGRAM_DF_MIN_FILES = 2000;

/** Symbol and reference ids: see ROW_ID_STRIDE. */
export { ROW_ID_STRIDE } from "../row-rules.js";

/**
 * Lookup indexes, created once a build's rows are all written (bulk loading without them is much faster). One
 * case-insensitive name index serves exact and prefix symbol lookups; qualified names are matched after it.
 * Extractor and confidence live on the file row, and a reference's enclosing symbol is the symbol's id: on the
 * Linux kernel (12M references) per-row copies of those strings cost more than the rest of the row. Then each
 * full-text index is merged into one segment (a build writes many, and a term read from many segments costs every
 * search: on the kernel the merge takes ~6 s of a 250 s build and 1.5 ms off each lexical search's ~11). Last, a
 * build of `files` indexed files or more (TRIGRAM_DF_MIN_FILES) counts its common trigrams' files (TRIGRAM_DF_KEPT).
 */
export function createBuildIndexesSql(seq: number, files: number): string {
  const t = buildTables(seq);
  const counts =
    files < TRIGRAM_DF_MIN_FILES
      ? ""
      : `CREATE VIRTUAL TABLE temp.vocab_${seq} USING fts5vocab(main, ${t.content}, 'row');
    CREATE TABLE ${t.contentDf} (term TEXT PRIMARY KEY, doc INTEGER NOT NULL) WITHOUT ROWID;
    INSERT INTO ${t.contentDf} SELECT term, doc FROM temp.vocab_${seq} WHERE doc >= ${TRIGRAM_DF_KEPT};
    DROP TABLE temp.vocab_${seq};`;
  return `
    CREATE INDEX ${t.symbols}_name ON ${t.symbols} (name COLLATE NOCASE);
    CREATE INDEX ${t.references}_name ON ${t.references} (name);
    INSERT INTO ${t.content} (${t.content}) VALUES ('optimize');
    INSERT INTO ${t.terms} (${t.terms}) VALUES ('optimize');
    ${mergeSettingsSql([t.content, t.terms], DEFAULT_MERGE)}
    ${counts}
  `;
}

export function dropBuildTablesSql(seq: number): string {
  const t = buildTables(seq);
  return [t.content, t.symbols, t.references, t.terms, t.termSizes, t.contentDf].map((name) => `DROP TABLE IF EXISTS ${name};`).join(" ");
}
