import { type FileTerms, termCount } from "../../core/terms.js";
import { FIELD_BIT, RANK_FIELDS } from "../bm25f.js";
import { porterStem } from "../porter.js";
import { termSizesFromRows, type TermSizeRow, type TermSizes } from "../term-scores.js";
import type { Queryable } from "./db.js";
import type { BuildTables } from "./migrations.js";

/**
 * Ranking terms in PostgreSQL: postings (one row per file and stemmed term, with a bit per field holding it) and
 * each file's field lengths. Terms are stemmed by porterStem, the stemmer SQLite's FTS5 terms table applies, so
 * both stores hold the same tokens and rank alike; a field either holds a term or not (no term frequency).
 */

/** Distinct terms stemmed per store: a repository's vocabulary repeats across files. Cleared when this many. */
const STEM_CACHE_SIZE = 1 << 20;

export class Stemmer {
  private readonly cache = new Map<string, string>();

  stem(term: string): string {
    let s = this.cache.get(term);
    if (s === undefined) {
      if (this.cache.size >= STEM_CACHE_SIZE) this.cache.clear();
      s = porterStem(term);
      this.cache.set(term, s);
    }
    return s;
  }

  /** A file's stemmed terms with the fields holding each (FIELD_BIT), in first-seen order. */
  postings(terms: FileTerms): Map<string, number> {
    const out = new Map<string, number>();
    for (const field of RANK_FIELDS) {
      const bit = FIELD_BIT[field];
      for (const term of terms[field].split(" ")) {
        if (term.length === 0) continue;
        const s = this.stem(term);
        out.set(s, (out.get(s) ?? 0) | bit);
      }
    }
    return out;
  }
}

/**
 * Writes a batch of files' postings and field lengths. Each file's postings travel as two space-joined strings
 * (terms and their field bits) split back into rows by the server: far less to encode than one array element per
 * posting.
 */
export async function insertTerms(q: Queryable, t: BuildTables, stemmer: Stemmer, files: readonly { fileId: number; terms: FileTerms }[]): Promise<void> {
  if (files.length === 0) return;
  const ids: number[] = [];
  const termLists: string[] = [];
  const bitLists: string[] = [];
  for (const f of files) {
    const postings = stemmer.postings(f.terms);
    if (postings.size === 0) continue;
    ids.push(f.fileId);
    termLists.push([...postings.keys()].join(" "));
    bitLists.push([...postings.values()].join(" "));
  }
  if (ids.length > 0) {
    await q.run(
      `INSERT INTO ${t.terms} (term, file_id, fields)
       SELECT p.term, f.file_id, p.fields
       FROM unnest($1::bigint[], $2::text[], $3::text[]) AS f(file_id, terms, bits)
       CROSS JOIN LATERAL unnest(string_to_array(f.terms, ' '), string_to_array(f.bits, ' ')::smallint[]) AS p(term, fields)`,
      [ids, termLists, bitLists],
    );
  }
  await q.run(
    `INSERT INTO ${t.termSizes} (file_id, path, symbols, body) SELECT * FROM unnest($1::bigint[], $2::int[], $3::int[], $4::int[])`,
    [files.map((f) => f.fileId), files.map((f) => termCount(f.terms.path)), files.map((f) => termCount(f.terms.symbols)), files.map((f) => termCount(f.terms.body))],
  );
}

/** Removes some files' postings and field lengths (a no-op for files without terms). */
export async function deleteTerms(q: Queryable, t: BuildTables, fileIds: readonly number[]): Promise<void> {
  if (fileIds.length === 0) return;
  await q.run(`DELETE FROM ${t.terms} WHERE file_id = ANY($1::bigint[])`, [fileIds]);
  await q.run(`DELETE FROM ${t.termSizes} WHERE file_id = ANY($1::bigint[])`, [fileIds]);
}

/** Whether a build has ranking tables (every PostgreSQL build does; a damaged one may not). */
export async function hasTermTables(q: Queryable, t: BuildTables): Promise<boolean> {
  const row = await q.one<{ terms: string | null; sizes: string | null }>("SELECT to_regclass($1)::text AS terms, to_regclass($2)::text AS sizes", [t.terms, t.termSizes]);
  return row?.terms != null && row.sizes != null;
}

/** Every file's field lengths, in file id order, turned into BM25F normalizers. */
export async function loadTermSizes(q: Queryable, t: BuildTables): Promise<TermSizes> {
  const rows = await q.rows<{ file_id: number; path: number; symbols: number; body: number }>(`SELECT file_id, path, symbols, body FROM ${t.termSizes} ORDER BY file_id`);
  return termSizesFromRows(rows.map((r): TermSizeRow => [r.file_id, r.path, r.symbols, r.body]));
}

/** The postings of some stemmed terms: per term, the files holding it and the fields (FIELD_BIT) that do. */
export async function termPostings(q: Queryable, t: BuildTables, stems: readonly string[]): Promise<Map<string, { fileIds: number[]; fields: number[] }>> {
  const out = new Map<string, { fileIds: number[]; fields: number[] }>();
  if (stems.length === 0) return out;
  for (const r of await q.rows<{ term: string; file_id: number; fields: number }>(
    `SELECT term, file_id, fields FROM ${t.terms} WHERE term = ANY($1::text[]) ORDER BY term, file_id`,
    [[...new Set(stems)]],
  )) {
    let p = out.get(r.term);
    if (!p) out.set(r.term, (p = { fileIds: [], fields: [] }));
    p.fileIds.push(r.file_id);
    p.fields.push(r.fields);
  }
  return out;
}

/** Files holding each stemmed term, in any field. */
export async function documentFrequency(q: Queryable, t: BuildTables, stems: readonly string[]): Promise<Map<string, number>> {
  if (stems.length === 0) return new Map();
  const rows = await q.rows<{ term: string; n: number }>(`SELECT term, COUNT(*) AS n FROM ${t.terms} WHERE term = ANY($1::text[]) GROUP BY term`, [[...new Set(stems)]]);
  return new Map(rows.map((r) => [r.term, r.n]));
}
