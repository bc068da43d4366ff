import { prefixUpperBound } from "../row-rules.js";
import type { CandidateFile, CandidateQuery, ContentCandidate } from "../store.js";
import { Params, type Queryable } from "./db.js";
import type { BuildTables } from "./migrations.js";
import { FILE_COLUMNS, toFileRow, withoutNul, type FileDbRow } from "./rows.js";

/**
 * Lexical candidates in PostgreSQL: `content ILIKE '%fragment%'` per fragment, served by the build's pg_trgm GIN
 * index (the trigram index finds the files holding the fragment's trigrams, the text check removes the rest).
 * Like the SQLite store's trigram query, a fragment under 3 characters has no trigram and filters nothing: the
 * result is every file, which callers verify on the text. Candidates come in file id order.
 */

/** A fragment needs this many characters to have a trigram. */
const MIN_FRAGMENT_CHARS = 3;

/**
 * The ILIKE pattern of one literal fragment: `%`, `_` and `\` escaped, then wrapped in `%`. The column is
 * `COLLATE "C"`, where ILIKE folds ASCII case only; a letter outside ASCII that has case is matched by `_` (any one
 * character) instead, so `ärger` still finds `ÄRGER` (a superset: callers verify the text).
 */
export function likePattern(fragment: string): string {
  let out = "";
  for (const ch of withoutNul(fragment)) {
    if (ch === "%" || ch === "_" || ch === "\\") out += `\\${ch}`;
    else if (ch.charCodeAt(0) > 0x7f && ch.toLowerCase() !== ch.toUpperCase()) out += "_";
    else out += ch;
  }
  return `%${out}%`;
}

/** FROM and WHERE of a candidate query over one build's content joined to its file rows. */
function candidateSql(t: BuildTables, query: CandidateQuery, p: Params): string {
  const clauses: string[] = [];
  for (const f of new Set(query.fragments)) {
    if ([...f].length >= MIN_FRAGMENT_CHARS) clauses.push(`x.content ILIKE ${p.add(likePattern(f))}`);
  }
  if (query.pathPrefix) clauses.push(`f.path >= ${p.add(query.pathPrefix)} AND f.path < ${p.add(prefixUpperBound(query.pathPrefix))}`);
  if (query.excludeExtractor) clauses.push(`(f.symbol_extractor IS NULL OR f.symbol_extractor <> ${p.add(query.excludeExtractor)})`);
  clauses.push("f.skip_reason IS NULL");
  return `FROM ${t.content} x JOIN repo_file f ON f.id = x.file_id WHERE ${clauses.join(" AND ")}`;
}

export async function candidateFiles(q: Queryable, t: BuildTables, query: CandidateQuery, limit: number): Promise<{ files: CandidateFile[]; more: boolean }> {
  const p = new Params();
  const from = candidateSql(t, query, p);
  const keep = Math.max(0, Math.floor(limit));
  const rows = await q.rows<{ id: number; path: string; size_bytes: number; is_generated: boolean; is_vendored: boolean; is_secret_suspect: boolean }>(
    `SELECT f.id, f.path, f.size_bytes, f.is_generated, f.is_vendored, f.is_secret_suspect ${from} ORDER BY x.file_id LIMIT ${p.add(keep + 1)}`,
    p.values,
  );
  const files = rows.slice(0, keep).map((r) => ({
    id: r.id,
    path: r.path,
    sizeBytes: r.size_bytes,
    isGenerated: r.is_generated,
    isVendored: r.is_vendored,
    isSecretSuspect: r.is_secret_suspect,
  }));
  return { files, more: rows.length > keep };
}

interface ContentDbRow extends FileDbRow {
  content: string;
  original: Buffer | null;
}

/** The text as written: the exact original when it held NUL characters, else the stored text. */
function textOf(r: { content: string; original: Buffer | null }): string {
  return r.original ? r.original.toString("utf8") : r.content;
}

/** Rows read per round trip of a scan: small at first (a visitor often stops early), larger as it goes on. */
const FIRST_SCAN_BATCH = 16;
const MAX_SCAN_BATCH = 256;

/**
 * Visits matching files in file id order until `visit` returns false. The trigram query runs once, for the ids;
 * rows and text are then read in growing batches, so a visitor that stops early reads little text.
 */
export async function scanCandidates(q: Queryable, t: BuildTables, query: CandidateQuery, visit: (candidate: ContentCandidate) => boolean): Promise<void> {
  const p = new Params();
  const ids = (await q.rows<{ id: number }>(`SELECT x.file_id AS id ${candidateSql(t, query, p)} ORDER BY x.file_id`, p.values)).map((r) => r.id);
  let batch = FIRST_SCAN_BATCH;
  for (let i = 0; i < ids.length; i += batch, batch = Math.min(batch * 2, MAX_SCAN_BATCH)) {
    const rows = await q.rows<ContentDbRow>(
      `SELECT ${FILE_COLUMNS}, x.content, x.original FROM ${t.content} x JOIN repo_file f ON f.id = x.file_id
       WHERE x.file_id = ANY($1::bigint[]) ORDER BY x.file_id`,
      [ids.slice(i, i + batch)],
    );
    for (const r of rows) {
      if (!visit({ file: toFileRow(r), content: textOf(r) })) return;
    }
  }
}

export async function readCandidate(q: Queryable, t: BuildTables, fileId: number): Promise<ContentCandidate | null> {
  const r = await q.one<ContentDbRow>(`SELECT ${FILE_COLUMNS}, x.content, x.original FROM repo_file f JOIN ${t.content} x ON x.file_id = f.id WHERE f.id = $1`, [fileId]);
  return r ? { file: toFileRow(r), content: textOf(r) } : null;
}

export async function getContent(q: Queryable, t: BuildTables, indexId: string, path: string): Promise<string | null> {
  const r = await q.one<{ content: string; original: Buffer | null }>(
    `SELECT x.content, x.original FROM repo_file f JOIN ${t.content} x ON x.file_id = f.id WHERE f.repo_index_id = $1 AND f.path = $2`,
    [indexId, path],
  );
  return r ? textOf(r) : null;
}

/** Writes a batch of files' text (files without text have none). */
export async function insertContent(q: Queryable, t: BuildTables, files: readonly { fileId: number; content: string }[]): Promise<void> {
  if (files.length === 0) return;
  await q.run(`INSERT INTO ${t.content} (file_id, content, original) SELECT * FROM unnest($1::bigint[], $2::text[], $3::bytea[])`, [
    files.map((f) => f.fileId),
    files.map((f) => withoutNul(f.content)),
    files.map((f) => (f.content.includes("\0") ? Buffer.from(f.content, "utf8") : null)),
  ]);
}

export async function deleteContent(q: Queryable, t: BuildTables, fileIds: readonly number[]): Promise<void> {
  if (fileIds.length === 0) return;
  await q.run(`DELETE FROM ${t.content} WHERE file_id = ANY($1::bigint[])`, [fileIds]);
}
