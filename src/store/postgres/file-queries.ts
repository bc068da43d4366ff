import { prefixUpperBound, skipCounts } from "../row-rules.js";
import type { FileFilter, FileRow, IndexSummary, ReusableExtraction, SkipReason } from "../store.js";
import type { Queryable } from "./db.js";
import { FILE_COLUMNS, toFileRow, type FileDbRow } from "./rows.js";

/**
 * Reads of an index's file rows. `indexId` is null for an id that is not a uuid (it names no index): every read
 * then finds nothing, as the SQLite store's do for an unknown id.
 */

export async function getFile(q: Queryable, indexId: string | null, path: string): Promise<FileRow | null> {
  const row = await q.one<FileDbRow>(`SELECT ${FILE_COLUMNS} FROM repo_file f WHERE f.repo_index_id = $1 AND f.path = $2`, [indexId, path]);
  return row ? toFileRow(row) : null;
}

export async function listFiles(q: Queryable, indexId: string | null, filter: FileFilter): Promise<FileRow[]> {
  const params: unknown[] = [indexId];
  const clauses = ["f.repo_index_id = $1"];
  if (filter.pathPrefix) {
    params.push(filter.pathPrefix, prefixUpperBound(filter.pathPrefix));
    clauses.push("f.path >= $2 AND f.path < $3");
  }
  if (!filter.includeSkipped) clauses.push("f.skip_reason IS NULL");
  return (await q.rows<FileDbRow>(`SELECT ${FILE_COLUMNS} FROM repo_file f WHERE ${clauses.join(" AND ")} ORDER BY f.path`, params)).map(toFileRow);
}

export async function digestRows(q: Queryable, indexId: string | null): Promise<{ path: string; contentHash: string; skipReason: string | null }[]> {
  const rows = await q.rows<{ path: string; content_hash: string; skip_reason: string | null }>(
    "SELECT path, content_hash, skip_reason FROM repo_file WHERE repo_index_id = $1 ORDER BY path",
    [indexId],
  );
  return rows.map((r) => ({ path: r.path, contentHash: r.content_hash, skipReason: r.skip_reason }));
}

export async function reusableExtractions(q: Queryable, indexId: string | null): Promise<Map<string, ReusableExtraction>> {
  const rows = await q.rows<{
    id: number;
    path: string;
    content_hash: string;
    symbol_status: ReusableExtraction["symbolStatus"];
    symbol_extractor: ReusableExtraction["symbolExtractor"];
    symbol_detail: string | null;
  }>(
    `SELECT id, path, content_hash, symbol_status, symbol_extractor, symbol_detail FROM repo_file
     WHERE repo_index_id = $1 AND symbol_status IS NOT NULL ORDER BY path`,
    [indexId],
  );
  return new Map(
    rows.map((r) => [r.path, { fileId: r.id, contentHash: r.content_hash, symbolStatus: r.symbol_status, symbolExtractor: r.symbol_extractor, symbolDetail: r.symbol_detail }]),
  );
}

/** Ids of the given paths that the index holds, in the order first given. */
export async function fileIds(q: Queryable, indexId: string | null, paths: readonly string[]): Promise<Map<string, number>> {
  const unique = [...new Set(paths)];
  const rows = await q.rows<{ id: number; path: string }>("SELECT id, path FROM repo_file WHERE repo_index_id = $1 AND path = ANY($2::text[])", [indexId, unique]);
  const found = new Map(rows.map((r) => [r.path, r.id]));
  const out = new Map<string, number>();
  for (const p of unique) {
    const id = found.get(p);
    if (id !== undefined) out.set(p, id);
  }
  return out;
}

export async function summarize(q: Queryable, indexId: string | null): Promise<IndexSummary> {
  const totals = (await q.one<Record<"files" | "indexed" | "bytes" | "generated" | "vendored" | "secret" | "binary", number>>(
    `SELECT COUNT(*) AS files, COUNT(*) FILTER (WHERE skip_reason IS NULL) AS indexed, COALESCE(SUM(size_bytes), 0) AS bytes,
       COUNT(*) FILTER (WHERE is_generated) AS generated, COUNT(*) FILTER (WHERE is_vendored) AS vendored,
       COUNT(*) FILTER (WHERE is_secret_suspect) AS secret, COUNT(*) FILTER (WHERE is_binary) AS binary
     FROM repo_file WHERE repo_index_id = $1`,
    [indexId],
  ))!;
  // SQLite sorts NULL first: files without a language come before named ones with as many files.
  const languages = await q.rows<{ language: string | null; files: number; bytes: number }>(
    `SELECT language, COUNT(*) AS files, SUM(size_bytes) AS bytes FROM repo_file
     WHERE repo_index_id = $1 AND skip_reason IS NULL GROUP BY language ORDER BY files DESC, language NULLS FIRST`,
    [indexId],
  );
  const skipRows = await q.rows<{ reason: SkipReason; path: string }>(
    "SELECT skip_reason AS reason, path FROM repo_file WHERE repo_index_id = $1 AND skip_reason IS NOT NULL ORDER BY skip_reason, path",
    [indexId],
  );
  const topLevel = await q.rows<{ name: string; files: number }>(
    `SELECT CASE WHEN strpos(path, '/') > 0 THEN substr(path, 1, strpos(path, '/')) ELSE path END AS name, COUNT(*) AS files
     FROM repo_file WHERE repo_index_id = $1 GROUP BY 1 ORDER BY 1`,
    [indexId],
  );
  return {
    files: totals.files,
    indexedFiles: totals.indexed,
    bytes: totals.bytes,
    generated: totals.generated,
    vendored: totals.vendored,
    secretSuspect: totals.secret,
    binary: totals.binary,
    languages,
    skipped: skipCounts(skipRows),
    topLevel,
  };
}
