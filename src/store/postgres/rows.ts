import { fileRowOf, indexRowOf, type DbValues, type FileDbRow as SharedFileDbRow, type IndexDbRow as SharedIndexDbRow } from "../db-rows.js";
import type { FileInput, FileRow, IndexRow, IndexStats } from "../store.js";

/**
 * How PostgreSQL's driver gives the columns the stores type differently: booleans, jsonb and arrays already parsed,
 * timestamptz as a Date.
 */
export interface PgTypes {
  flag: boolean;
  json: unknown;
  time: Date;
}

export const PG_VALUES: DbValues<PgTypes> = {
  flag: (v) => v,
  json: <T>(v: unknown) => v as T,
  time: (v) => v.toISOString(),
};

export type FileDbRow = SharedFileDbRow<PgTypes>;

export function toFileRow(r: FileDbRow): FileRow {
  return fileRowOf(r, PG_VALUES);
}

export interface IndexDbRow extends SharedIndexDbRow<PgTypes> {
  stats: IndexStats | null;
  builder: string | null;
}

export function toIndexRow(r: IndexDbRow): IndexRow {
  return indexRowOf(r, PG_VALUES, r.stats);
}

/** PostgreSQL text cannot hold NUL: it is removed from text columns (content keeps its exact original aside). */
export function withoutNul(s: string): string {
  return s.includes("\0") ? s.replaceAll("\0", "") : s;
}

export function nullableWithoutNul(s: string | null | undefined): string | null {
  return s === null || s === undefined ? null : withoutNul(s);
}

/** Index ids are uuids: anything else names no index (and must not reach a uuid parameter, which would fail). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function asIndexId(id: string): string | null {
  return UUID.test(id) ? id : null;
}

/** The columns of repo_file in the order fileColumns() fills them, with their array types for unnest. */
export const FILE_INSERT_COLUMNS: readonly [string, string][] = [
  ["id", "bigint"],
  ["repo_index_id", "uuid"],
  ["path", "text"],
  ["language", "text"],
  ["size_bytes", "bigint"],
  ["line_count", "integer"],
  ["content_hash", "text"],
  ["is_binary", "boolean"],
  ["is_generated", "boolean"],
  ["is_vendored", "boolean"],
  ["generated_reason", "text"],
  ["is_secret_suspect", "boolean"],
  ["secret_reasons", "text"],
  ["has_instruction_like_text", "boolean"],
  ["skip_reason", "text"],
  ["skip_detail", "text"],
  ["symbol_status", "text"],
  ["symbol_extractor", "text"],
  ["symbol_detail", "text"],
  ["mtime_ms", "double precision"],
];

/**
 * A batch of file rows as one array per column. `secret_reasons` (an array per row) travels as JSON text and is
 * turned back into text[] in SQL: unnest cannot take an array of arrays of different lengths.
 */
export function fileColumns(indexId: string, files: readonly { id: number; f: FileInput }[]): unknown[][] {
  return [
    files.map((x) => x.id),
    files.map(() => indexId),
    files.map((x) => withoutNul(x.f.path)),
    files.map((x) => x.f.language),
    files.map((x) => x.f.sizeBytes),
    files.map((x) => x.f.lineCount),
    files.map((x) => x.f.contentHash),
    files.map((x) => x.f.isBinary),
    files.map((x) => x.f.isGenerated),
    files.map((x) => x.f.isVendored),
    files.map((x) => nullableWithoutNul(x.f.generatedReason)),
    files.map((x) => x.f.isSecretSuspect),
    files.map((x) => JSON.stringify(x.f.secretReasons.map(withoutNul))),
    files.map((x) => x.f.hasInstructionLikeText),
    files.map((x) => x.f.skipReason),
    files.map((x) => nullableWithoutNul(x.f.skipDetail)),
    files.map((x) => x.f.symbolStatus ?? x.f.extraction?.status ?? null),
    files.map((x) => x.f.symbolExtractor ?? x.f.extraction?.extractor ?? null),
    files.map((x) => nullableWithoutNul(x.f.symbolDetail ?? x.f.extraction?.detail ?? null)),
    files.map((x) => x.f.mtimeMs),
  ];
}

/** INSERT … SELECT FROM unnest(...) for a batch of file rows: one round trip. */
export function insertFilesSql(): string {
  const cols = FILE_INSERT_COLUMNS.map(([c]) => c);
  const args = FILE_INSERT_COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`);
  const select = cols.map((c) => (c === "secret_reasons" ? "ARRAY(SELECT json_array_elements_text(u.secret_reasons::json))" : `u.${c}`));
  return `INSERT INTO repo_file (${cols.join(", ")}) SELECT ${select.join(", ")} FROM unnest(${args.join(", ")}) AS u(${cols.join(", ")})`;
}

export { FILE_COLUMNS } from "../db-rows.js";
