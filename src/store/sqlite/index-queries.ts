import type Database from "better-sqlite3";
import { indexRowOf, type IndexDbRow as SharedIndexDbRow } from "../db-rows.js";
import { builderIdentity, isAbandoned } from "../row-rules.js";
import type { IndexMeta, IndexRow, IndexStats } from "../store.js";
import { KNOWLEDGE_TABLES } from "./knowledge-queries.js";
import { createBuildIndexesSql, createBuildTablesSql, dropBuildTablesSql } from "./migrations.js";
import { SQLITE_VALUES, type SqliteTypes } from "./rows.js";
import { SEMANTIC_TABLES } from "./semantic-queries.js";
import { stmt } from "./statements.js";

/**
 * The `repo_index` rows and the life of an index build: begun (its row and its per-build tables), published (ready,
 * the repository's older indexes dropped) or failed (its data dropped), and the reads of ready indexes.
 */

export interface IndexDbRow extends SharedIndexDbRow<SqliteTypes> {
  stats_json: string | null;
}

function toIndexRow(r: IndexDbRow): IndexRow {
  return indexRowOf(r, SQLITE_VALUES, r.stats_json || null);
}

/** An index's row, or undefined for an unknown id. */
export function indexDbRow(db: Database.Database, indexId: string): IndexDbRow | undefined {
  return db.prepare("SELECT * FROM repo_index WHERE id = ?").get(indexId) as IndexDbRow | undefined;
}

/** The sequence number of an index, which names its build tables; throws for an unknown index. */
export function indexSeq(db: Database.Database, indexId: string): number {
  const row = stmt(db, "SELECT seq FROM repo_index WHERE id = ?").get(indexId) as { seq: number } | undefined;
  if (!row) throw new Error(`unknown index ${indexId}`);
  return row.seq;
}

/** An index's version (null while building, or for an unknown id): what the store's in-memory caches are keyed by. */
export function indexVersion(db: Database.Database, indexId: string): string | null {
  return (stmt(db, "SELECT index_version FROM repo_index WHERE id = ?").get(indexId) as { index_version: string | null } | undefined)?.index_version ?? null;
}

/**
 * Builds left behind by a process that died (kill -9, power loss) on this host: their builder is gone, so
 * their rows and tables are dropped. Builds of live processes, or of other hosts, are left alone.
 */
export function removeAbandonedBuilds(db: Database.Database): void {
  const rows = db.prepare("SELECT * FROM repo_index WHERE status = 'building'").all() as (IndexDbRow & { builder: string | null })[];
  for (const row of rows) {
    if (isAbandoned(row.builder)) db.transaction(() => dropIndex(db, row))();
  }
}

/** Inserts a new build's `repo_index` row (status building) and creates its tables, in one transaction. */
export function insertIndex(db: Database.Database, id: string, meta: IndexMeta): void {
  db.transaction(() => {
    const info = db
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
    db.exec(createBuildTablesSql(Number(info.lastInsertRowid)));
  })();
}

/** Makes a build ready: its lookup indexes are created, and the repository's older indexes are dropped. */
export function publishIndex(db: Database.Database, indexId: string, indexVersion: string, stats: IndexStats): void {
  const index = indexDbRow(db, indexId);
  if (!index) throw new Error(`unknown index ${indexId}`);
  if (index.status !== "building") throw new Error(`index ${indexId} is ${index.status}, not building`);
  const older = db
    .prepare("SELECT * FROM repo_index WHERE repo_id = ? AND id <> ? AND status IN ('ready', 'failed', 'superseded')")
    .all(index.repo_id, indexId) as IndexDbRow[];
  const files = stmt(db, "SELECT COUNT(*) FROM repo_file WHERE repo_index_id = ? AND skip_reason IS NULL").pluck().get(indexId) as number;
  db.exec(createBuildIndexesSql(index.seq, files));
  db.transaction(() => {
    db
      .prepare("UPDATE repo_index SET status = 'ready', index_version = ?, finished_at = ?, stats_json = ? WHERE id = ?")
      .run(indexVersion, new Date().toISOString(), JSON.stringify(stats), indexId);
    for (const old of older) dropIndex(db, old);
  })();
  db.pragma("wal_checkpoint(PASSIVE)");
}

/** Removes a build's tables and file rows (inside the caller's transaction); its repo_index row stays. */
function dropBuildData(db: Database.Database, row: IndexDbRow): void {
  db.exec(dropBuildTablesSql(row.seq));
  for (const table of [...SEMANTIC_TABLES, "repo_file", ...KNOWLEDGE_TABLES]) {
    db.prepare(`DELETE FROM ${table} WHERE repo_index_id = ?`).run(row.id);
  }
}

/** Removes an index entirely (inside the caller's transaction). */
function dropIndex(db: Database.Database, row: IndexDbRow): void {
  dropBuildData(db, row);
  db.prepare("DELETE FROM repo_index WHERE id = ?").run(row.id);
}

/** Marks a build failed and drops its data; an unknown index is left alone. */
export function failIndex(db: Database.Database, indexId: string, error: string): void {
  const row = indexDbRow(db, indexId);
  if (!row) return;
  db.transaction(() => {
    dropBuildData(db, row);
    db
      .prepare("UPDATE repo_index SET status = 'failed', finished_at = ?, error = ? WHERE id = ?")
      .run(new Date().toISOString(), error, indexId);
  })();
}

/** The newest ready index (of a repository, or of the only repository there is); null when there is none or several repositories. */
export function getReadyIndex(db: Database.Database, repoId?: string): IndexRow | null {
  const rows = (
    repoId === undefined
      ? stmt(db, "SELECT * FROM repo_index WHERE status = 'ready' ORDER BY seq DESC").all()
      : stmt(db, "SELECT * FROM repo_index WHERE status = 'ready' AND repo_id = ? ORDER BY seq DESC").all(repoId)
  ) as IndexDbRow[];
  if (rows.length === 0) return null;
  if (repoId === undefined && new Set(rows.map((r) => r.repo_id)).size > 1) return null;
  return toIndexRow(rows[0]!);
}

export function getIndex(db: Database.Database, indexId: string): IndexRow | null {
  const row = indexDbRow(db, indexId);
  return row ? toIndexRow(row) : null;
}

export function listReadyIndexes(db: Database.Database): IndexRow[] {
  return (db.prepare("SELECT * FROM repo_index WHERE status = 'ready' ORDER BY seq DESC").all() as IndexDbRow[]).map(
    toIndexRow,
  );
}
