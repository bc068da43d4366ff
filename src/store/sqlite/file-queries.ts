import type Database from "better-sqlite3";
import { skipCounts } from "../row-rules.js";
import type { FileFilter, FileRow, IndexSummary, ReusableExtraction, SkipReason } from "../store.js";
import { FILE_COLUMNS, prefixUpperBound, toFileRow, type FileDbRow } from "./rows.js";
import { stmt } from "./statements.js";

/** Reads of an index's file rows: one file, a listing, the digests and extractions an update reuses, a summary. */

export function getFile(db: Database.Database, indexId: string, path: string): FileRow | null {
  const row = stmt(db, `SELECT ${FILE_COLUMNS} FROM repo_file f WHERE f.repo_index_id = ? AND f.path = ?`).get(indexId, path) as
    | FileDbRow
    | undefined;
  return row ? toFileRow(row) : null;
}

export function listFiles(db: Database.Database, indexId: string, filter: FileFilter): FileRow[] {
  const clauses = ["f.repo_index_id = ?"];
  const params: unknown[] = [indexId];
  if (filter.pathPrefix) {
    clauses.push("f.path >= ? AND f.path < ?");
    params.push(filter.pathPrefix, prefixUpperBound(filter.pathPrefix));
  }
  if (!filter.includeSkipped) clauses.push("f.skip_reason IS NULL");
  const rows = db
    .prepare(`SELECT ${FILE_COLUMNS} FROM repo_file f WHERE ${clauses.join(" AND ")} ORDER BY f.path`)
    .all(...params) as FileDbRow[];
  return rows.map(toFileRow);
}

export function digestRows(db: Database.Database, indexId: string): { path: string; contentHash: string; skipReason: string | null }[] {
  return (
    stmt(db, "SELECT path, content_hash, skip_reason FROM repo_file WHERE repo_index_id = ? ORDER BY path").all(indexId) as {
      path: string;
      content_hash: string;
      skip_reason: string | null;
    }[]
  ).map((r) => ({ path: r.path, contentHash: r.content_hash, skipReason: r.skip_reason }));
}

export function reusableExtractions(db: Database.Database, indexId: string): Map<string, ReusableExtraction> {
  const rows = db
    .prepare(
      `SELECT id, path, content_hash, symbol_status, symbol_extractor, symbol_detail FROM repo_file
       WHERE repo_index_id = ? AND symbol_status IS NOT NULL`,
    )
    .all(indexId) as { id: number; path: string; content_hash: string; symbol_status: ReusableExtraction["symbolStatus"]; symbol_extractor: ReusableExtraction["symbolExtractor"]; symbol_detail: string | null }[];
  return new Map(
    rows.map((r) => [r.path, { fileId: r.id, contentHash: r.content_hash, symbolStatus: r.symbol_status, symbolExtractor: r.symbol_extractor, symbolDetail: r.symbol_detail }]),
  );
}

/** Ids of the given paths that the index holds, in the order first given. */
export function fileIds(db: Database.Database, indexId: string, paths: readonly string[]): Map<string, number> {
  const find = stmt(db, "SELECT id FROM repo_file WHERE repo_index_id = ? AND path = ?");
  const out = new Map<string, number>();
  for (const p of new Set(paths)) {
    const row = find.get(indexId, p) as { id: number } | undefined;
    if (row) out.set(p, row.id);
  }
  return out;
}

export function summarize(db: Database.Database, indexId: string): IndexSummary {
  const totals = db
    .prepare(
      `SELECT COUNT(*) AS files, SUM(skip_reason IS NULL) AS indexed, COALESCE(SUM(size_bytes), 0) AS bytes,
         SUM(is_generated) AS generated, SUM(is_vendored) AS vendored, SUM(is_secret_suspect) AS secret,
         SUM(is_binary) AS binary
       FROM repo_file WHERE repo_index_id = ?`,
    )
    .get(indexId) as Record<string, number | null>;
  const languages = db
    .prepare(
      `SELECT language, COUNT(*) AS files, SUM(size_bytes) AS bytes FROM repo_file
       WHERE repo_index_id = ? AND skip_reason IS NULL GROUP BY language ORDER BY files DESC, language`,
    )
    .all(indexId) as { language: string | null; files: number; bytes: number }[];
  const skipRows = db
    .prepare(
      `SELECT skip_reason AS reason, path FROM repo_file WHERE repo_index_id = ? AND skip_reason IS NOT NULL
       ORDER BY skip_reason, path`,
    )
    .all(indexId) as { reason: SkipReason; path: string }[];
  const topLevel = db
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
