import { PARSED_EXTRACTORS_SQL, prefixUpperBound } from "../row-rules.js";
import type { CandidateFile, CandidateQuery, ContentCandidate } from "../store.js";
import { Params, type Db, type Queryable } from "./db.js";
import type { BuildTables } from "./migrations.js";
import { FILE_COLUMNS, toFileRow, withoutNul, type FileDbRow } from "./rows.js";

/**
 * Lexical candidates in PostgreSQL. A pg_trgm GIN index is lossy, so every file it proposes has its indexed column
 * checked again; checked against the whole text, a common fragment costs a read of most of the corpus. So the
 * index and the check cover a smaller column instead: the file's distinct words (runs of [a-z0-9_] after ASCII
 * lower-casing), space-separated with a space at each end. A fragment becomes one LIKE per word it holds — a word
 * with a non-word character on both sides in the fragment is a whole word of the file (`% word %`), one at the
 * fragment's start ends a word (`%word %`), one at its end starts a word (`% word%`), a fragment that is one word
 * lies inside a word (`%word%`). Every file holding the fragment passes (a superset: callers verify on the text);
 * a fragment without word characters filters nothing. Candidates come in file id order.
 */

/** A fragment's words need this many characters for the trigram index to narrow anything. */
const MIN_FRAGMENT_CHARS = 3;
const WORD = /[a-z0-9_]+/g;

/** ASCII lower case only: what `wordsOf` and `wordPatterns` both fold, so they agree on every character. */
function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** The `words` column of a text: its distinct words, space-separated, with a space before the first and after the last. */
export function wordsOf(text: string): string {
  const words = new Set(asciiLower(text).match(WORD));
  return words.size === 0 ? " " : ` ${[...words].join(" ")} `;
}

/** The LIKE patterns (on `words`) a file holding `fragment` must match; `_` is escaped, the only special in a word. */
export function wordPatterns(fragment: string): string[] {
  const f = asciiLower(fragment);
  const out: string[] = [];
  for (const m of f.matchAll(WORD)) {
    const start = m.index;
    const end = start + m[0].length;
    out.push(`${start > 0 ? "% " : "%"}${m[0].replace(/_/g, "\\_")}${end < f.length ? " %" : "%"}`);
  }
  return out;
}

/** The WHERE clauses on the content table alone, and whether any can use the trigram index. */
function fragmentClauses(query: CandidateQuery, p: Params): { clauses: string[]; indexed: boolean } {
  const clauses: string[] = [];
  let indexed = false;
  for (const pattern of new Set(query.fragments.flatMap(wordPatterns))) {
    clauses.push(`x.words LIKE ${p.add(pattern)}`);
    if (pattern.replace(/[% ]|\\/g, "").length >= MIN_FRAGMENT_CHARS) indexed = true;
  }
  return { clauses, indexed };
}

/** Clauses on the file row: path prefix, extractor, indexed files only. */
function fileClauses(query: CandidateQuery, p: Params): string[] {
  const clauses: string[] = [];
  if (query.pathPrefix) clauses.push(`f.path >= ${p.add(query.pathPrefix)} AND f.path < ${p.add(prefixUpperBound(query.pathPrefix))}`);
  if (query.excludeParsed) clauses.push(`(f.symbol_extractor IS NULL OR f.symbol_extractor NOT IN (${PARSED_EXTRACTORS_SQL}))`);
  clauses.push("f.skip_reason IS NULL");
  return clauses;
}

/** A path prefix or extractor narrows a trigram scan to its files' ids only when they are at most this many. */
const MAX_NARROWING_IDS = 2000;

/** Ids of matching files per round trip of a scan: small at first (a visitor often stops early), larger as it goes on. */
const FIRST_SCAN_BATCH = 16;
const MAX_SCAN_BATCH = 256;

/**
 * Matching file ids in ascending order, in batches, computed lazily: a consumer that stops early stops the work.
 * A trigram query that sorts its matches must check every candidate's text first (the GIN index is lossy), which
 * for a common fragment is most of the corpus. Instead, the bulk of the table — written by the build in file id
 * order, so its physical order is id order — is read through a cursor without ORDER BY (a bitmap scan of the GIN
 * index, or a sequential scan for fragments without trigrams, both in physical order, neither parallel), and the
 * few `late` rows an in-place update wrote are matched apart and merged in by id. A path prefix or an extractor
 * narrows the scan to those files' ids first.
 */
async function* matchingIds(db: Db, t: BuildTables, indexId: string, query: CandidateQuery): AsyncGenerator<{ ids: number[]; q: Queryable }> {
  let late: number[] = [];
  const batches = db.cursor<{ id: string | number }>(
    async (q) => {
      const p = new Params();
      const { clauses, indexed } = fragmentClauses(query, p);
      if (query.pathPrefix || query.excludeParsed) {
        // The file clauses are applied to each batch anyway (filesOf); narrowing the scan to those files' ids
        // first pays when they are few, or when no word can use the trigram index (the scan would read every file).
        const fp = new Params();
        const scope = `f.repo_index_id = ${fp.add(indexId)}`;
        const ids = await q.rows<{ id: string | number }>(`SELECT f.id FROM repo_file f WHERE ${scope} AND ${fileClauses(query, fp).join(" AND ")}`, fp.values);
        if (!indexed || ids.length <= MAX_NARROWING_IDS) clauses.push(`x.file_id = ANY(${p.add(ids.map((r) => Number(r.id)))}::bigint[])`);
      }
      // Parsed files are known in the content table itself: the partial trigram index skips them.
      if (query.excludeParsed) clauses.push("NOT x.parsed");
      const where = clauses.map((c) => ` AND ${c}`).join("");
      late = (await q.rows<{ id: string | number }>(`SELECT x.file_id AS id FROM ${t.content} x WHERE x.late${where} ORDER BY x.file_id`, p.values)).map((r) => Number(r.id));
      // With a trigram to look up, the GIN index narrows the text to check; a cursor's planner favours a fast-start
      // sequential scan, which checks every file's text until it has enough.
      if (indexed) await q.run("SET LOCAL enable_seqscan = off");
      await q.run("SET LOCAL max_parallel_workers_per_gather = 0");
      await q.run("SET LOCAL synchronize_seqscans = off");
      return { sql: `SELECT x.file_id AS id FROM ${t.content} x WHERE NOT x.late${where}`, params: p.values };
    },
    FIRST_SCAN_BATCH,
    MAX_SCAN_BATCH,
  );
  for await (const { rows, q } of batches) {
    const merged: number[] = [];
    for (const r of rows) {
      const id = Number(r.id);
      while (late.length > 0 && late[0]! < id) merged.push(late.shift()!);
      merged.push(id);
    }
    if (merged.length > 0) yield { ids: merged, q };
  }
  // The cursor's transaction has ended and its connection is back in the pool: the last late ids use the pool.
  if (late.length > 0) yield { ids: late, q: db };
}

interface ContentDbRow extends FileDbRow {
  content: string;
  original: Buffer | null;
}

/** The text as written: the exact original when it held NUL characters, else the stored text. */
function textOf(r: { content: string; original: Buffer | null }): string {
  return r.original ? r.original.toString("utf8") : r.content;
}

/** Rows of matching ids that pass the file clauses, in id order. */
async function filesOf<T>(q: Queryable, ids: number[], columns: string, t: BuildTables, query: CandidateQuery): Promise<T[]> {
  if (ids.length === 0) return [];
  const p = new Params();
  const idParam = p.add(ids);
  return q.rows<T>(
    `SELECT ${columns} FROM repo_file f JOIN ${t.content} x ON x.file_id = f.id WHERE f.id = ANY(${idParam}::bigint[]) AND ${fileClauses(query, p).join(" AND ")} ORDER BY f.id`,
    p.values,
  );
}

export async function candidateFiles(db: Db, t: BuildTables, indexId: string, query: CandidateQuery, limit: number): Promise<{ files: CandidateFile[]; more: boolean }> {
  const keep = Math.max(0, Math.floor(limit));
  const files: CandidateFile[] = [];
  for await (const { ids, q } of matchingIds(db, t, indexId, query)) {
    const rows = await filesOf<{ id: number; path: string; size_bytes: number; is_generated: boolean; is_vendored: boolean; is_secret_suspect: boolean }>(
      q,
      ids,
      "f.id, f.path, f.size_bytes, f.is_generated, f.is_vendored, f.is_secret_suspect",
      t,
      query,
    );
    for (const r of rows) {
      if (files.length === keep) return { files, more: true };
      files.push({ id: r.id, path: r.path, sizeBytes: r.size_bytes, isGenerated: r.is_generated, isVendored: r.is_vendored, isSecretSuspect: r.is_secret_suspect });
    }
  }
  return { files, more: false };
}

/** Visits matching files in file id order until `visit` returns false; see matchingIds. */
export async function scanCandidates(db: Db, t: BuildTables, indexId: string, query: CandidateQuery, visit: (candidate: ContentCandidate) => boolean): Promise<void> {
  for await (const { ids, q } of matchingIds(db, t, indexId, query)) {
    for (const r of await filesOf<ContentDbRow>(q, ids, `${FILE_COLUMNS}, x.content, x.original`, t, query)) {
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

/**
 * Writes a batch of files' text (files without text have none). `late`: written by an in-place update, after the
 * build wrote the rest in id order (see matchingIds).
 */
export async function insertContent(
  q: Queryable,
  t: BuildTables,
  files: readonly { fileId: number; content: string; parsed: boolean }[],
  late = false,
): Promise<void> {
  if (files.length === 0) return;
  await q.run(
    `INSERT INTO ${t.content} (file_id, late, parsed, words, content, original)
     SELECT f, $6, p, w, c, o FROM unnest($1::bigint[], $2::boolean[], $3::text[], $4::text[], $5::bytea[]) AS u(f, p, w, c, o)`,
    [
      files.map((f) => f.fileId),
      files.map((f) => f.parsed),
      files.map((f) => wordsOf(f.content)),
      files.map((f) => withoutNul(f.content)),
      files.map((f) => (f.content.includes("\0") ? Buffer.from(f.content, "utf8") : null)),
      late,
    ],
  );
}

export async function deleteContent(q: Queryable, t: BuildTables, fileIds: readonly number[]): Promise<void> {
  if (fileIds.length === 0) return;
  await q.run(`DELETE FROM ${t.content} WHERE file_id = ANY($1::bigint[])`, [fileIds]);
}
