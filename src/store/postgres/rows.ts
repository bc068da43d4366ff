import type { ExtractionStatus, Extractor } from "../../indexer/symbols/types.js";
import type { FileInput, FileRow, IndexRow, IndexStats, SkipReason } from "../store.js";

export interface FileDbRow {
  id: number;
  path: string;
  language: string | null;
  size_bytes: number;
  line_count: number | null;
  content_hash: string;
  is_binary: boolean;
  is_generated: boolean;
  is_vendored: boolean;
  generated_reason: string | null;
  is_secret_suspect: boolean;
  secret_reasons: string[];
  has_instruction_like_text: boolean;
  skip_reason: SkipReason | null;
  skip_detail: string | null;
  symbol_status: ExtractionStatus | null;
  symbol_extractor: Extractor | null;
  symbol_detail: string | null;
  mtime_ms: number | null;
}

/** Column list for `repo_file f`. */
export const FILE_COLUMNS = `f.id, f.path, f.language, f.size_bytes, f.line_count, f.content_hash, f.is_binary, f.is_generated,
  f.is_vendored, f.generated_reason, f.is_secret_suspect, f.secret_reasons, f.has_instruction_like_text,
  f.skip_reason, f.skip_detail, f.symbol_status, f.symbol_extractor, f.symbol_detail, f.mtime_ms`;

export function toFileRow(r: FileDbRow): FileRow {
  return {
    path: r.path,
    mtimeMs: r.mtime_ms,
    language: r.language,
    sizeBytes: r.size_bytes,
    lineCount: r.line_count,
    contentHash: r.content_hash,
    isBinary: r.is_binary,
    isGenerated: r.is_generated,
    isVendored: r.is_vendored,
    generatedReason: r.generated_reason,
    isSecretSuspect: r.is_secret_suspect,
    secretReasons: r.secret_reasons,
    hasInstructionLikeText: r.has_instruction_like_text,
    skipReason: r.skip_reason,
    skipDetail: r.skip_detail,
    symbolStatus: r.symbol_status,
    symbolExtractor: r.symbol_extractor,
    symbolDetail: r.symbol_detail,
  };
}

export interface IndexDbRow {
  seq: number;
  id: string;
  repo_id: string;
  root_path: string;
  base_commit: string | null;
  branch: string | null;
  dirty: boolean;
  extractor_version: string;
  index_version: string | null;
  status: IndexRow["status"];
  started_at: Date;
  finished_at: Date | null;
  stats: IndexStats | null;
  error: string | null;
  builder: string | null;
}

export function toIndexRow(r: IndexDbRow): IndexRow {
  return {
    id: r.id,
    repoId: r.repo_id,
    rootPath: r.root_path,
    baseCommit: r.base_commit,
    branch: r.branch,
    dirty: r.dirty,
    extractorVersion: r.extractor_version,
    indexVersion: r.index_version,
    status: r.status,
    startedAt: r.started_at.toISOString(),
    finishedAt: r.finished_at?.toISOString() ?? null,
    stats: r.stats,
    error: r.error,
  };
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
