/**
 * Versioned schema migrations for the SQLite store. Each entry runs once, in order, inside a transaction;
 * `schema_migrations` records what ran. Never edit an applied migration: add the next one.
 */

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
];

/** Each index build gets its own trigram table, so superseding an index is a DROP, not a row-by-row delete. */
export function contentTableName(seq: number): string {
  if (!Number.isSafeInteger(seq) || seq < 0) throw new Error(`invalid index sequence ${seq}`);
  return `content_fts_${seq}`;
}

export function createContentTableSql(seq: number): string {
  return `CREATE VIRTUAL TABLE ${contentTableName(seq)} USING fts5(content, tokenize = 'trigram', detail = 'none')`;
}
