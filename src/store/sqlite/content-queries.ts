import type Database from "better-sqlite3";
import type { CandidateFile, CandidateQuery, ContentCandidate } from "../store.js";
import { FILE_COLUMNS, prefixUpperBound, toFileRow, type FileDbRow } from "./rows.js";
import { stmt, tableExists } from "./statements.js";
import { PARSED_EXTRACTORS_SQL } from "../row-rules.js";
import { isParsedExtractor, type Extractor } from "../../core/symbols.js";

/**
 * Lexical candidates and file text in SQLite: each build's content lives in a trigram FTS5 table keyed by file id
 * (see migrations.ts). A candidate query is answered from the full-text index (a superset: callers verify on the
 * text), its path prefix from the file ids (a build inserts files in path order).
 */

/** A file row as the candidate and ranking queries need it, with its symbol extractor. */
export type SlimFile = CandidateFile & { extractor: string | null };

const TRIGRAM_STEP = 2;

/** A trigram's document frequency in an index (undefined: rarer than the counts kept, see TRIGRAM_DF_KEPT). */
export type TrigramDf = (gram: string) => number | undefined;

/**
 * With document frequencies, each fragment's trigrams are taken rarest first, at least this many, and more while
 * their frequencies sum to at most DF_BUDGET: the full-text index's AND costs about what its doclists hold, and the
 * rarest few already narrow the files most. On the kernel that was 2-3x faster than every other trigram for common
 * identifiers, with as few or fewer candidates (rare identifiers: about half as many), so fewer texts to read.
 */
const MIN_TRIGRAMS = 3;
const DF_BUDGET = 60_000;

function trigramsOf(fragment: string, step: number): string[] {
  const chars = [...fragment.toLowerCase()];
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i += step) grams.add(chars.slice(i, i + 3).join(""));
  if (chars.length >= 3) grams.add(chars.slice(chars.length - 3).join(""));
  return [...grams];
}

/** A fragment's trigrams, rarest first, while they are few or their doclists are short (see DF_BUDGET). */
function rarestTrigrams(fragment: string, df: TrigramDf): string[] {
  const ranked = trigramsOf(fragment, 1)
    .map((g) => ({ g, n: df(g) ?? 0 }))
    .sort((a, b) => a.n - b.n || (a.g < b.g ? -1 : 1));
  const out: string[] = [];
  let sum = 0;
  for (const { g, n } of ranked) {
    if (out.length >= MIN_TRIGRAMS && sum + n > DF_BUDGET) break;
    out.push(g);
    sum += n;
  }
  return out;
}

/**
 * An FTS5 query that needs trigrams covering every fragment: answered from the index alone (no content is read),
 * so it is a superset of the files containing the fragments; callers verify on the text. Null: no usable fragment.
 * With `df` (the index's trigram frequencies) the rarest trigrams of each fragment are asked; without (a small
 * index, or one built before they were kept), every other trigram plus the last: half the terms (each costs a doclist merge on
 * large repositories) for nearly the selectivity of all of them.
 */
export function trigramMatchExpression(fragments: string[], df?: TrigramDf): string | null {
  const grams = new Set<string>();
  for (const f of fragments) for (const g of df ? rarestTrigrams(f, df) : trigramsOf(f, TRIGRAM_STEP)) grams.add(g);
  if (grams.size === 0) return null;
  return [...grams].map((g) => `"${g.replace(/"/g, '""')}"`).join(" AND ");
}

/** Trigrams looked up at most, per index, before the lookups' cache starts again. */
const DF_CACHE_MAX = 50_000;

/** An index's trigram frequencies (see TRIGRAM_DF_KEPT), each looked up once; null when it keeps none (small, or built before). */
export function trigramDf(db: Database.Database, table: string): TrigramDf | null {
  if (!tableExists(db, table)) return null;
  const get = db.prepare(`SELECT doc FROM ${table} WHERE term = ?`).pluck();
  const seen = new Map<string, number | undefined>();
  return (gram) => {
    if (seen.has(gram)) return seen.get(gram);
    if (seen.size >= DF_CACHE_MAX) seen.clear();
    const n = get.get(gram) as number | undefined;
    seen.set(gram, n);
    return n;
  };
}

/** The slim rows of an index's indexed (not skipped) files, by file id; with `ids`, of those files alone. */
export function loadSlimFiles(db: Database.Database, indexId: string, ids?: readonly number[]): Map<number, SlimFile> {
  const files = new Map<number, SlimFile>();
  const columns = "SELECT id, path, size_bytes, is_generated, is_vendored, is_secret_suspect, symbol_extractor FROM repo_file";
  const rows = (
    ids
      ? ids.length === 0
        ? []
        : stmt(db, `${columns} WHERE repo_index_id = ? AND skip_reason IS NULL AND id IN (SELECT value FROM json_each(?))`).all(indexId, JSON.stringify(ids))
      : stmt(db, `${columns} WHERE repo_index_id = ? AND skip_reason IS NULL`).all(indexId)
  ) as { id: number; path: string; size_bytes: number; is_generated: number; is_vendored: number; is_secret_suspect: number; symbol_extractor: string | null }[];
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
  return files;
}

/** The clauses the full-text table answers alone: the trigram MATCH and a path prefix's id range. */
function indexClauses(db: Database.Database, indexId: string, table: string, query: CandidateQuery, df?: TrigramDf): { clauses: string[]; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const expr = trigramMatchExpression(query.fragments, df);
  if (expr !== null) {
    clauses.push(`${table} MATCH ?`);
    params.push(expr);
  }
  if (query.pathPrefix) {
    const range = idRange(db, indexId, query.pathPrefix);
    clauses.push(`${table}.rowid BETWEEN ? AND ?`);
    params.push(range.lo, range.hi);
  }
  return { clauses, params };
}

/**
 * Candidate files from the full-text index alone (row ids, ascending), looked up in the slim rows: no join per match. The
 * first `limit + 1` ids come back as one array (iterating row by row cost more than the index itself on common
 * terms); only when filters drop some of those is the rest walked row by row. `more` says that the limit cut the list.
 */
export function candidateFiles(
  db: Database.Database,
  indexId: string,
  table: string,
  slim: ReadonlyMap<number, SlimFile>,
  query: CandidateQuery,
  limit: number,
  df?: TrigramDf,
  /** Only ids above this one (the next page of a listing in id order). */
  afterId: number | null = null,
): { files: CandidateFile[]; more: boolean } {
  const { clauses, params } = indexClauses(db, indexId, table, query, df);
  if (afterId !== null) {
    clauses.push(`${table}.rowid > ?`);
    params.push(afterId);
  }
  const upper = query.pathPrefix ? prefixUpperBound(query.pathPrefix) : null;
  const files: CandidateFile[] = [];
  /** Takes one id; false once the limit is passed. */
  const take = (id: number): boolean => {
    const f = slim.get(id);
    if (!f) return true;
    if (query.pathPrefix && (f.path < query.pathPrefix || f.path >= upper!)) return true;
    if (query.excludeParsed && isParsedExtractor(f.extractor as Extractor | null)) return true;
    if (files.length >= limit) return false;
    files.push(f);
    return true;
  };
  const where = (all: string[]) => (all.length > 0 ? `WHERE ${all.join(" AND ")}` : "");
  const head = stmt(db, `SELECT ${table}.rowid FROM ${table} ${where(clauses)} LIMIT ?`).pluck().all(...params, limit + 1) as number[];
  for (const id of head) if (!take(id)) return { files, more: true };
  if (head.length <= limit) return { files, more: false };
  const rest = stmt(db, `SELECT ${table}.rowid AS id FROM ${table} ${where([...clauses, `${table}.rowid > ?`])}`).iterate(...params, head[head.length - 1]!) as IterableIterator<{ id: number }>;
  for (const row of rest) if (!take(row.id)) return { files, more: true };
  return { files, more: false };
}

/** Whether one file is among a query's candidates (the trigram index alone, as candidateFiles asks it). */
export function isCandidate(db: Database.Database, table: string, query: CandidateQuery, fileId: number, df?: TrigramDf): boolean {
  const expr = trigramMatchExpression(query.fragments, df);
  if (expr === null) return true;
  // A range, not rowid = ?: beside a MATCH, FTS5 (SQLite 3.53.2, detail=none) answered that equality with another row.
  return stmt(db, `SELECT 1 FROM ${table} WHERE ${table} MATCH ? AND ${table}.rowid BETWEEN ? AND ?`).get(expr, fileId, fileId) !== undefined;
}

/** File ids of one path prefix: a build inserts files in path order, so the prefix is one contiguous id range. */
function idRange(db: Database.Database, indexId: string, prefix: string): { lo: number; hi: number } {
  const r = stmt(db, "SELECT MIN(id) AS lo, MAX(id) AS hi FROM repo_file WHERE repo_index_id = ? AND path >= ? AND path < ?").get(
    indexId,
    prefix,
    prefixUpperBound(prefix),
  ) as { lo: number | null; hi: number | null };
  return { lo: r.lo ?? 0, hi: r.hi ?? -1 };
}

/** One file's row and text, or null when the file has no indexed text. */
export function readCandidate(db: Database.Database, table: string, fileId: number): ContentCandidate | null {
  const row = stmt(db, `SELECT ${FILE_COLUMNS}, x.content AS content FROM repo_file f JOIN ${table} x ON x.rowid = f.id WHERE f.id = ?`).get(
    fileId,
  ) as (FileDbRow & { content: string }) | undefined;
  return row ? { file: toFileRow(row), content: row.content } : null;
}

/**
 * WHERE clause for candidates: trigram MATCH (index only, a superset) plus path and extractor filters. A path
 * prefix also bounds the rowids: a build inserts files in path order, so one prefix is one contiguous id range,
 * which the full-text index can skip to instead of joining every match.
 */
function candidateWhere(db: Database.Database, indexId: string, table: string, query: CandidateQuery): { where: string; params: unknown[] } {
  const { clauses, params } = indexClauses(db, indexId, table, query);
  if (query.pathPrefix) {
    clauses.push("f.path >= ? AND f.path < ?");
    params.push(query.pathPrefix, prefixUpperBound(query.pathPrefix));
  }
  if (query.excludeParsed) clauses.push(`(f.symbol_extractor IS NULL OR f.symbol_extractor NOT IN (${PARSED_EXTRACTORS_SQL}))`);
  return { where: clauses.length > 0 ? `WHERE ${clauses.join(" AND ")}` : "", params };
}

/** Visits the candidates with their text, in the full-text index's order, until `visit` returns false. */
export function scanCandidates(
  db: Database.Database,
  indexId: string,
  table: string,
  query: CandidateQuery,
  visit: (candidate: ContentCandidate) => boolean,
): void {
  const { where, params } = candidateWhere(db, indexId, table, query);
  // Synchronous iteration: no other statement can run on this connection until the scan ends, and none needs to.
  const rows = db
    .prepare(`SELECT ${FILE_COLUMNS}, ${table}.content AS content FROM ${table} JOIN repo_file f ON f.id = ${table}.rowid ${where}`)
    .iterate(...params) as IterableIterator<FileDbRow & { content: string }>;
  for (const row of rows) {
    if (!visit({ file: toFileRow(row), content: row.content })) break;
  }
}

/** The indexed text of one path, or null when the index holds none. */
export function getContent(db: Database.Database, table: string, indexId: string, path: string): string | null {
  const row = stmt(db, `SELECT x.content AS content FROM repo_file f JOIN ${table} x ON x.rowid = f.id WHERE f.repo_index_id = ? AND f.path = ?`).get(
    indexId,
    path,
  ) as { content: string } | undefined;
  return row?.content ?? null;
}
