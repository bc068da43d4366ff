import type { Extraction } from "../../core/symbols.js";
import { REFERENCE_COLUMNS, SYMBOL_COLUMNS, referenceRowOf, symbolRowOf, type ReferenceDbRow, type SymbolDbRow } from "../db-rows.js";
import { MAX_NAME_DEFINITIONS, MAX_NAME_REFERENCES, assembleEdges } from "../file-edges.js";
import { ROW_ID_STRIDE, prefixUpperBound } from "../row-rules.js";
import type { FileEdge, ReferenceQuery, ReferenceRow, SymbolQuery, SymbolRow } from "../store.js";
import { Params, type Queryable } from "./db.js";
import { foldAscii, type BuildTables } from "./migrations.js";
import { FILE_COLUMNS, PG_VALUES, nullableWithoutNul, withoutNul, type PgTypes } from "./rows.js";

const S = ROW_ID_STRIDE;

/** ASCII-only lowercasing, as foldAscii does in SQL (SQLite's NOCASE). */
function foldAsciiJs(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** A SQL LIMIT value: SQLite reads a negative limit as none. */
export function sqlLimit(limit: number): number | null {
  return Number.isFinite(limit) && limit >= 0 ? Math.floor(limit) : null;
}

/**
 * Writes the symbols and references of a batch of files: one INSERT … SELECT FROM unnest per table. Ids follow
 * ROW_ID_STRIDE; a reference names its enclosing symbol by id (the first symbol of that qualified name in the file).
 */
export async function insertExtractions(q: Queryable, t: BuildTables, files: readonly { fileId: number; extraction: Extraction }[]): Promise<void> {
  const sym = { id: [] as number[], file: [] as number[], name: [] as string[], kind: [] as string[], qn: [] as string[], container: [] as (string | null)[], start: [] as number[], end: [] as number[], col: [] as number[], vis: [] as (string | null)[], sig: [] as string[], scip: [] as (string | null)[] };
  const ref = { id: [] as number[], file: [] as number[], name: [] as string[], kind: [] as string[], line: [] as number[], col: [] as number[], enclosing: [] as (number | null)[], target: [] as (string | null)[] };
  for (const { fileId, extraction: e } of files) {
    if (e.extractor === null) continue;
    const base = fileId * S;
    const ids = new Map<string, number>();
    e.symbols.forEach((s, i) => {
      sym.id.push(base + i);
      sym.file.push(fileId);
      sym.name.push(withoutNul(s.name));
      sym.kind.push(s.kind);
      sym.qn.push(withoutNul(s.qualifiedName));
      sym.container.push(nullableWithoutNul(s.container));
      sym.start.push(s.startLine);
      sym.end.push(s.endLine);
      sym.col.push(s.startColumn);
      sym.vis.push(s.visibility);
      sym.sig.push(withoutNul(s.signature));
      sym.scip.push(nullableWithoutNul(s.scipSymbol ?? null));
      if (!ids.has(s.qualifiedName)) ids.set(s.qualifiedName, base + i);
    });
    e.references.forEach((r, i) => {
      ref.id.push(base + i);
      ref.file.push(fileId);
      ref.name.push(withoutNul(r.name));
      ref.kind.push(r.kind);
      ref.line.push(r.line);
      ref.col.push(r.column);
      ref.enclosing.push(r.enclosing === null ? null : (ids.get(r.enclosing) ?? null));
      ref.target.push(nullableWithoutNul(r.target ?? null));
    });
  }
  if (sym.id.length > 0) {
    await q.run(
      `INSERT INTO ${t.symbols} (id, file_id, name, kind, qualified_name, container, start_line, end_line, start_column, visibility, signature, scip_symbol)
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::int[], $9::int[], $10::text[], $11::text[], $12::text[])`,
      [sym.id, sym.file, sym.name, sym.kind, sym.qn, sym.container, sym.start, sym.end, sym.col, sym.vis, sym.sig, sym.scip],
    );
  }
  if (ref.id.length > 0) {
    await q.run(
      `INSERT INTO ${t.references} (id, file_id, name, kind, line, col, enclosing_id, target)
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::int[], $6::int[], $7::bigint[], $8::text[])`,
      [ref.id, ref.file, ref.name, ref.kind, ref.line, ref.col, ref.enclosing, ref.target],
    );
  }
}

/**
 * Copies unchanged files' symbols and references from an earlier build, shifting their ids from each old file id
 * to the new one (see ROW_ID_STRIDE): one INSERT … SELECT per table for the whole batch.
 */
export async function copyExtractions(q: Queryable, from: BuildTables, to: BuildTables, moves: readonly { oldFileId: number; newFileId: number }[]): Promise<void> {
  if (moves.length === 0) return;
  const params = [moves.map((m) => m.oldFileId), moves.map((m) => m.newFileId)];
  const map = `unnest($1::bigint[], $2::bigint[]) AS m(old_id, new_id)`;
  const range = `x.id BETWEEN m.old_id * ${S} AND m.old_id * ${S} + ${S - 1}`;
  await q.run(
    `INSERT INTO ${to.symbols} (id, file_id, name, kind, qualified_name, container, start_line, end_line, start_column, visibility, signature, scip_symbol)
     SELECT x.id + (m.new_id - m.old_id) * ${S}, m.new_id, x.name, x.kind, x.qualified_name, x.container, x.start_line, x.end_line,
       x.start_column, x.visibility, x.signature, x.scip_symbol
     FROM ${map} JOIN ${from.symbols} x ON ${range} ORDER BY 1`,
    params,
  );
  await q.run(
    `INSERT INTO ${to.references} (id, file_id, name, kind, line, col, enclosing_id, target)
     SELECT x.id + (m.new_id - m.old_id) * ${S}, m.new_id, x.name, x.kind, x.line, x.col, x.enclosing_id + (m.new_id - m.old_id) * ${S}, x.target
     FROM ${map} JOIN ${from.references} x ON ${range} ORDER BY 1`,
    params,
  );
}

/** Removes some files' symbols and references (their id ranges). */
export async function deleteExtractions(q: Queryable, t: BuildTables, fileIds: readonly number[]): Promise<void> {
  if (fileIds.length === 0) return;
  for (const table of [t.symbols, t.references]) {
    await q.run(
      `DELETE FROM ${table} x USING unnest($1::bigint[]) AS g(file_id) WHERE x.id BETWEEN g.file_id * ${S} AND g.file_id * ${S} + ${S - 1}`,
      [fileIds],
    );
  }
}

/**
 * A clause keeping a symbol or reference `column` (its id) inside the id range of the files under a path prefix:
 * a build writes files in path order, so their ids are one range (files an in-place update added widen it; the
 * path clause still decides). With it the name index walks that range alone, where a join on paths leaves the
 * planner guessing how many files a prefix holds.
 */
async function prefixIdRange(db: Queryable, indexId: string, prefix: string, column: string, p: Params): Promise<string> {
  const r = (await db.one<{ lo: number | null; hi: number | null }>(
    "SELECT MIN(id) AS lo, MAX(id) AS hi FROM repo_file WHERE repo_index_id = $1 AND path >= $2 AND path < $3",
    [indexId, prefix, prefixUpperBound(prefix)],
  ))!;
  return `${column} BETWEEN ${p.add((r.lo ?? 0) * S)} AND ${p.add(r.hi === null ? -1 : (r.hi + 1) * S - 1)}`;
}

function filters(clauses: string[], p: Params, q: { kinds?: string[]; language?: string; pathPrefix?: string }, kindColumn: string): void {
  if (q.kinds && q.kinds.length > 0) clauses.push(`${kindColumn} = ANY(${p.add(q.kinds)}::text[])`);
  if (q.language) clauses.push(`f.language = ${p.add(q.language)}`);
  if (q.pathPrefix) clauses.push(`f.path >= ${p.add(q.pathPrefix)} AND f.path < ${p.add(prefixUpperBound(q.pathPrefix))}`);
}

/** The SQLite store's findSymbols, clause for clause: see sqlite/symbol-queries.ts for why each is shaped as it is. */
export async function findSymbols(db: Queryable, t: BuildTables, indexId: string, q: SymbolQuery): Promise<SymbolRow[]> {
  const p = new Params();
  const clauses = [`f.repo_index_id = ${p.add(indexId)}`];
  if (q.path !== undefined) clauses.push(`f.path = ${p.add(q.path)} AND s.id BETWEEN f.id * ${S} AND f.id * ${S} + ${S - 1}`);
  if (q.name !== undefined) clauses.push(`${foldAscii("s.name")} = ${p.add(foldAsciiJs(q.name))} AND s.name = ${p.add(q.name)}`);
  if (q.namePrefix !== undefined) {
    clauses.push(`${foldAscii("s.name")} >= ${p.add(foldAsciiJs(q.namePrefix))} AND ${foldAscii("s.name")} < ${p.add(foldAsciiJs(prefixUpperBound(q.namePrefix)))}`);
  }
  filters(clauses, p, q, "s.kind");
  const byName = q.name !== undefined || q.namePrefix !== undefined || q.path !== undefined;
  if (!byName && q.pathPrefix) clauses.push(await prefixIdRange(db, indexId, q.pathPrefix, "s.id", p));
  const order = byName ? "f.path, s.start_line, s.id" : "s.id";
  const rows = await db.rows<SymbolDbRow<PgTypes>>(
    `SELECT ${FILE_COLUMNS}, ${SYMBOL_COLUMNS}
     FROM ${t.symbols} s JOIN repo_file f ON f.id = s.file_id
     WHERE ${clauses.join(" AND ")} ORDER BY ${order} LIMIT ${p.add(sqlLimit(q.limit))}`,
    p.values,
  );
  return rows.map((r) => symbolRowOf(r, PG_VALUES));
}

/** References in path and position order: a build writes files in path order, so id order is that order. */
export async function findReferences(db: Queryable, t: BuildTables, indexId: string, q: ReferenceQuery): Promise<ReferenceRow[]> {
  const p = new Params();
  const clauses = [`r.name = ${p.add(q.name)}`, `f.repo_index_id = ${p.add(indexId)}`];
  filters(clauses, p, q, "r.kind");
  if (q.pathPrefix) clauses.push(await prefixIdRange(db, indexId, q.pathPrefix, "r.id", p));
  const rows = await db.rows<ReferenceDbRow<PgTypes>>(
    `SELECT ${FILE_COLUMNS}, ${REFERENCE_COLUMNS}
     FROM ${t.references} r JOIN repo_file f ON f.id = r.file_id LEFT JOIN ${t.symbols} e ON e.id = r.enclosing_id
     WHERE ${clauses.join(" AND ")} ORDER BY r.id LIMIT ${p.add(sqlLimit(q.limit))}`,
    p.values,
  );
  return rows.map((r) => referenceRowOf(r, PG_VALUES));
}

export async function symbolSummary(db: Queryable, t: BuildTables, indexId: string): Promise<{ symbols: number; references: number; byStatus: Record<string, number> }> {
  const counts = (await db.one<{ symbols: number; refs: number }>(
    `SELECT (SELECT COUNT(*) FROM ${t.symbols}) AS symbols, (SELECT COUNT(*) FROM ${t.references}) AS refs`,
  ))!;
  const byStatus: Record<string, number> = {};
  for (const r of await db.rows<{ status: string; n: number }>(
    `SELECT symbol_status AS status, COUNT(*) AS n FROM repo_file WHERE repo_index_id = $1 AND symbol_status IS NOT NULL
     GROUP BY symbol_status ORDER BY symbol_status COLLATE "C"`,
    [indexId],
  )) {
    byStatus[r.status] = r.n;
  }
  return { symbols: counts.symbols, references: counts.refs, byStatus };
}

/**
 * Edges out of and into the given files (see assembleEdges), read in four set-based queries instead of one per
 * name: the files' referenced and defined names, then the definers of all those names (at most
 * MAX_NAME_DEFINITIONS + 1 distinct files each, found by walking a name's ids in order and stopping there), then
 * the first MAX_NAME_REFERENCES references to each defined name.
 */
export async function fileEdges(db: Queryable, t: BuildTables, fileIds: readonly number[], limit: number): Promise<FileEdge[]> {
  const given = [...new Set(fileIds)];
  if (given.length === 0) return [];
  const files = "unnest($1::bigint[]) AS g(file_id)";
  const inFile = `x.id BETWEEN g.file_id * ${S} AND g.file_id * ${S} + ${S - 1}`;
  const referenced = await db.rows<{ file_id: number; name: string; n: number }>(
    `SELECT g.file_id, x.name, COUNT(*) AS n FROM ${files} JOIN ${t.references} x ON ${inFile} GROUP BY g.file_id, x.name`,
    [given],
  );
  const defined = await db.rows<{ file_id: number; name: string }>(`SELECT DISTINCT g.file_id, x.name FROM ${files} JOIN ${t.symbols} x ON ${inFile}`, [given]);
  const names = [...new Set([...referenced.map((r) => r.name), ...defined.map((r) => r.name)])];
  const definers = groupBy(
    await db.rows<{ name: string; file_id: number }>(
      `SELECT n.name, d.file_id FROM unnest($1::text[]) AS n(name) CROSS JOIN LATERAL (
         SELECT w.file_id FROM (
           SELECT x.id / ${S} AS file_id, lag(x.id / ${S}) OVER (ORDER BY x.id) AS previous
           FROM ${t.symbols} x WHERE ${foldAscii("x.name")} = ${foldAscii("n.name")} AND x.name = n.name
         ) w WHERE w.previous IS DISTINCT FROM w.file_id LIMIT ${MAX_NAME_DEFINITIONS + 1}
       ) d`,
      [names],
    ),
    (r) => r.name,
  );
  const definedNames = [...new Set(defined.map((r) => r.name))].filter((n) => {
    const d = definers.get(n)?.length ?? 0;
    return d > 0 && d <= MAX_NAME_DEFINITIONS;
  });
  const referrers = groupBy(
    await db.rows<{ name: string; file_id: number; n: number }>(
      `SELECT n.name, r.file_id, COUNT(*) AS n FROM unnest($1::text[]) AS n(name) CROSS JOIN LATERAL (
         SELECT x.id / ${S} AS file_id FROM ${t.references} x WHERE x.name = n.name ORDER BY x.id LIMIT ${MAX_NAME_REFERENCES}
       ) r GROUP BY n.name, r.file_id`,
      [definedNames],
    ),
    (r) => r.name,
  );
  const referencedBy = groupBy(referenced, (r) => r.file_id);
  const definedBy = groupBy(defined, (r) => r.file_id);
  return assembleEdges(given, limit, {
    referencedNames: (file) => referencedBy.get(file) ?? [],
    definedNames: (file) => (definedBy.get(file) ?? []).map((r) => r.name),
    definers: (name) => (definers.get(name) ?? []).map((r) => r.file_id),
    referrers: (name) => (referrers.get(name) ?? []).map((r) => ({ fileId: r.file_id, n: r.n })),
  });
}

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}
