import Database from "better-sqlite3";
import { type FileTerms, termCount } from "../../core/terms.js";
import { FIELD_BIT, RANK_FIELDS } from "../bm25f.js";
import type { FileEdge } from "../store.js";
import { MAX_NAME_DEFINITIONS, MAX_NAME_REFERENCES, assembleEdges } from "../file-edges.js";
import { termSizesFromRows, type TermSizeRow, type TermSizes } from "../term-scores.js";
import { ROW_ID_STRIDE, createTermSizesTableSql, createTermsTableSql, type BuildTables } from "./migrations.js";
import { tableExists } from "./statements.js";

/** The ranking tables of one build (or of an in-memory overlay index). */
export type TermTables = Pick<BuildTables, "terms" | "termSizes">;

export function hasTermTables(db: Database.Database, t: TermTables): boolean {
  return tableExists(db, t.terms);
}

/** Prepared writes of a file's terms and field lengths; call inside the caller's transaction. */
export function insertTerms(db: Database.Database, t: TermTables): (fileId: number, terms: FileTerms) => void {
  const row = db.prepare(`INSERT INTO ${t.terms} (rowid, path, symbols, body) VALUES (?, ?, ?, ?)`);
  const size = db.prepare(`INSERT INTO ${t.termSizes} (file_id, path, symbols, body) VALUES (?, ?, ?, ?)`);
  return (fileId, terms) => {
    row.run(fileId, terms.path, terms.symbols, terms.body);
    size.run(fileId, termCount(terms.path), termCount(terms.symbols), termCount(terms.body));
  };
}

/** Prepared deletes of a file's terms (a no-op for a file that has none). */
export function deleteTerms(db: Database.Database, t: TermTables): (fileId: number) => void {
  const row = db.prepare(`DELETE FROM ${t.terms} WHERE rowid = ?`);
  const size = db.prepare(`DELETE FROM ${t.termSizes} WHERE file_id = ?`);
  return (fileId) => {
    if (size.run(fileId).changes > 0) row.run(fileId);
  };
}

/** An FTS5 string: the term is one token ([a-z0-9_], see normalizeRankTerms), quoted so no query syntax gets in. */
function quoted(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/**
 * Which files hold a term, per field in RANK_FIELDS order: one column-filtered query per field (FTS5 with
 * detail=column answers those from the index alone).
 */
export function termPostings(db: Database.Database, t: TermTables, weights?: Partial<Record<(typeof RANK_FIELDS)[number], number>>): (term: string) => number[][] {
  const rowids = db.prepare(`SELECT rowid FROM ${t.terms} WHERE ${t.terms} MATCH ?`).pluck();
  // A field weighted 0 cannot change a score: its postings (the body's are the long ones) are not read.
  return (term) => RANK_FIELDS.map((field) => (weights && weights[field] === 0 ? [] : (rowids.all(`${field} : ${quoted(term)}`) as number[])));
}

/** Files holding a term in any field. */
export function documentFrequency(db: Database.Database, t: TermTables): (term: string) => number {
  const count = db.prepare(`SELECT count(*) FROM ${t.terms} WHERE ${t.terms} MATCH ?`).pluck();
  return (term) => count.get(quoted(term)) as number;
}

/**
 * Edges out of and into the given files (see assembleEdges). The name indexes hold the row id, and a row's file is
 * its id / ROW_ID_STRIDE, so these lookups never read the tables' rows.
 */
export function fileEdges(db: Database.Database, t: BuildTables, fileIds: number[], limit: number): FileEdge[] {
  const refNames = db.prepare(`SELECT name, COUNT(*) AS n FROM ${t.references} WHERE id BETWEEN ? AND ? GROUP BY name`);
  const defNames = db.prepare(`SELECT DISTINCT name FROM ${t.symbols} WHERE id BETWEEN ? AND ?`).pluck();
  const definers = db.prepare(`SELECT DISTINCT id / ${ROW_ID_STRIDE} FROM ${t.symbols} WHERE name = ? COLLATE NOCASE AND name = ? LIMIT ?`).pluck();
  const referrers = db.prepare(
    `SELECT file_id AS fileId, COUNT(*) AS n FROM (SELECT id / ${ROW_ID_STRIDE} AS file_id FROM ${t.references} WHERE name = ? LIMIT ?) GROUP BY file_id`,
  );
  const range = (file: number) => [file * ROW_ID_STRIDE, (file + 1) * ROW_ID_STRIDE - 1];
  return assembleEdges(fileIds, limit, {
    referencedNames: (file) => refNames.all(...range(file)) as { name: string; n: number }[],
    definedNames: (file) => defNames.all(...range(file)) as string[],
    definers: (name) => definers.all(name, name, MAX_NAME_DEFINITIONS + 1) as number[],
    referrers: (name) => referrers.all(name, MAX_NAME_REFERENCES) as { fileId: number; n: number }[],
  });
}

/** Every file's field lengths, in file id order, turned into BM25F normalizers. */
/** Every file's field lengths in file id order; with `ids`, of those files alone. */
export function loadTermSizeRows(db: Database.Database, t: TermTables, ids?: readonly number[]): TermSizeRow[] {
  const select = `SELECT file_id, path, symbols, body FROM ${t.termSizes}`;
  if (ids) return ids.length === 0 ? [] : (db.prepare(`${select} WHERE file_id IN (SELECT value FROM json_each(?)) ORDER BY file_id`).raw().all(JSON.stringify(ids)) as TermSizeRow[]);
  return db.prepare(`${select} ORDER BY file_id`).raw().all() as TermSizeRow[];
}

export function loadTermSizes(db: Database.Database, t: TermTables): { rows: TermSizeRow[]; sizes: TermSizes } {
  const rows = loadTermSizeRows(db, t);
  return { rows, sizes: termSizesFromRows(rows) };
}

/** Rows in file id order after an update dropped some ids and wrote others (a kept id is in both). */
export function movedTermSizeRows(rows: readonly TermSizeRow[], dropped: readonly number[], written: readonly TermSizeRow[]): TermSizeRow[] {
  const gone = new Set(dropped);
  const out = rows.filter((r) => !gone.has(r[0]));
  for (const row of written) {
    let lo = 0;
    let hi = out.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (out[mid]![0] < row[0]) lo = mid + 1;
      else hi = mid;
    }
    out.splice(lo, 0, row);
  }
  return out;
}

/**
 * Terms of a few files outside the index (the working-tree overlay), in an in-memory FTS5 table with the same
 * tokenizer, so their terms are stemmed and matched exactly as the index's are.
 */
export class MemoryTermIndex {
  private readonly db = new Database(":memory:");
  private readonly tables: TermTables = { terms: "terms_fts", termSizes: "terms_size" };
  private readonly postingsOf: (term: string) => number[][];

  constructor(files: { id: number; terms: FileTerms }[]) {
    this.db.exec(`${createTermsTableSql(this.tables.terms)} ${createTermSizesTableSql(this.tables.termSizes)}`);
    const insert = insertTerms(this.db, this.tables);
    this.db.transaction(() => files.forEach((f) => insert(f.id, f.terms)))();
    this.postingsOf = termPostings(this.db, this.tables);
  }

  /** Which of the files hold a term: file id → field bits. */
  postings(term: string): Map<number, number> {
    const files = new Map<number, number>();
    this.postingsOf(term).forEach((ids, f) => {
      for (const id of ids) files.set(id, (files.get(id) ?? 0) | FIELD_BIT[RANK_FIELDS[f]!]);
    });
    return files;
  }

  close(): void {
    this.db.close();
  }
}
