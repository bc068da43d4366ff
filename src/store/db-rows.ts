import type { SemanticMeta, StoredSemantic } from "../core/semantic.js";
import type { ExtractionStatus, Extractor, ReferenceKind, SymbolKind } from "../core/symbols.js";
import { rowConfidence } from "./row-rules.js";
import type { AuditRecord, FileRow, IndexRow, IndexStats, ReferenceRow, SkipReason, SymbolRow } from "./store.js";

/**
 * Stored rows as both stores read them back: the tables have the same columns in SQLite and PostgreSQL, and each
 * maps to the contract's rows the same way. What the drivers hand back differently (a flag as 0/1 or a boolean,
 * JSON as text or already parsed, a time as ISO text or a Date) goes through the store's own DbValues.
 */

/** The JavaScript types one store's driver gives for the column kinds the stores keep differently. */
export interface ColumnTypes {
  /** A yes/no column: SQLite's 0/1 integer, PostgreSQL's boolean. */
  flag: unknown;
  /** A structured column: SQLite's JSON text, PostgreSQL's jsonb or array (parsed by the driver). */
  json: unknown;
  /** A point in time: SQLite's ISO text, PostgreSQL's timestamptz (a Date). */
  time: unknown;
}

/** A store's conversions from its driver's values to the contract's. */
export interface DbValues<C extends ColumnTypes> {
  flag(v: C["flag"]): boolean;
  json<T>(v: C["json"]): T;
  time(v: C["time"]): string;
}

/** Column list for `repo_file f`; symbol and reference queries select it too, next to their own aliased columns. */
export const FILE_COLUMNS = `f.id, f.path, f.language, f.size_bytes, f.line_count, f.content_hash, f.is_binary, f.is_generated,
  f.is_vendored, f.generated_reason, f.is_secret_suspect, f.secret_reasons, f.has_instruction_like_text,
  f.skip_reason, f.skip_detail, f.symbol_status, f.symbol_extractor, f.symbol_detail, f.mtime_ms`;

/** A row of FILE_COLUMNS. */
export interface FileDbRow<C extends ColumnTypes> {
  id: number;
  path: string;
  language: string | null;
  size_bytes: number;
  line_count: number | null;
  content_hash: string;
  is_binary: C["flag"];
  is_generated: C["flag"];
  is_vendored: C["flag"];
  generated_reason: string | null;
  is_secret_suspect: C["flag"];
  /** The reasons as a JSON array. */
  secret_reasons: C["json"];
  has_instruction_like_text: C["flag"];
  skip_reason: SkipReason | null;
  skip_detail: string | null;
  symbol_status: ExtractionStatus | null;
  symbol_extractor: Extractor | null;
  symbol_detail: string | null;
  mtime_ms: number | null;
}

export function fileRowOf<C extends ColumnTypes>(r: FileDbRow<C>, v: DbValues<C>): FileRow {
  return {
    path: r.path,
    mtimeMs: r.mtime_ms,
    language: r.language,
    sizeBytes: r.size_bytes,
    lineCount: r.line_count,
    contentHash: r.content_hash,
    isBinary: v.flag(r.is_binary),
    isGenerated: v.flag(r.is_generated),
    isVendored: v.flag(r.is_vendored),
    generatedReason: r.generated_reason,
    isSecretSuspect: v.flag(r.is_secret_suspect),
    secretReasons: v.json<string[]>(r.secret_reasons),
    hasInstructionLikeText: v.flag(r.has_instruction_like_text),
    skipReason: r.skip_reason,
    skipDetail: r.skip_detail,
    symbolStatus: r.symbol_status,
    symbolExtractor: r.symbol_extractor,
    symbolDetail: r.symbol_detail,
  };
}

/** A symbol's columns (symbol table alias `s`), selected after FILE_COLUMNS. */
export const SYMBOL_COLUMNS = `s.name AS s_name, s.kind AS s_kind, s.qualified_name AS s_qualified_name, s.container AS s_container,
  s.start_line AS s_start_line, s.end_line AS s_end_line, s.start_column AS s_start_column, s.visibility AS s_visibility,
  s.signature AS s_signature, s.scip_symbol AS s_scip_symbol`;

export interface SymbolDbRow<C extends ColumnTypes> extends FileDbRow<C> {
  s_name: string;
  s_kind: SymbolKind;
  s_qualified_name: string;
  s_container: string | null;
  s_start_line: number;
  s_end_line: number;
  s_start_column: number;
  s_visibility: SymbolRow["visibility"];
  s_signature: string;
  s_scip_symbol: string | null;
}

export function symbolRowOf<C extends ColumnTypes>(r: SymbolDbRow<C>, v: DbValues<C>): SymbolRow {
  const file = fileRowOf(r, v);
  return {
    name: r.s_name,
    kind: r.s_kind,
    qualifiedName: r.s_qualified_name,
    container: r.s_container,
    startLine: r.s_start_line,
    endLine: r.s_end_line,
    startColumn: r.s_start_column,
    visibility: r.s_visibility,
    signature: r.s_signature,
    scipSymbol: r.s_scip_symbol,
    extractor: file.symbolExtractor ?? "lexical",
    ...fileFields(file, r.s_scip_symbol, "symbol"),
  };
}

/** What a symbol or reference row says of the file it is in. */
function fileFields(file: FileRow, scip: string | null, row: "symbol" | "reference"): Pick<SymbolRow & ReferenceRow, "confidence" | "path" | "language" | "contentHash" | "file"> {
  return { confidence: rowConfidence(file.symbolExtractor, file.symbolStatus, scip !== null, row), path: file.path, language: file.language, contentHash: file.contentHash, file };
}

/** A reference's columns (reference table alias `r`, its enclosing symbol `e`), selected after FILE_COLUMNS. */
export const REFERENCE_COLUMNS = "r.name AS r_name, r.kind AS r_kind, r.line AS r_line, r.col AS r_col, e.qualified_name AS r_enclosing, r.target AS r_target";

export interface ReferenceDbRow<C extends ColumnTypes> extends FileDbRow<C> {
  r_name: string;
  r_kind: ReferenceKind;
  r_line: number;
  r_col: number;
  r_enclosing: string | null;
  r_target: string | null;
}

export function referenceRowOf<C extends ColumnTypes>(r: ReferenceDbRow<C>, v: DbValues<C>): ReferenceRow {
  const file = fileRowOf(r, v);
  return {
    name: r.r_name,
    kind: r.r_kind,
    line: r.r_line,
    column: r.r_col,
    enclosing: r.r_enclosing,
    target: r.r_target,
    ...fileFields(file, r.r_target, "reference"),
  };
}

/** A `repo_index` row, less its stats (a column each store names and types its own way). */
export interface IndexDbRow<C extends ColumnTypes> {
  seq: number;
  id: string;
  repo_id: string;
  root_path: string;
  base_commit: string | null;
  branch: string | null;
  dirty: C["flag"];
  extractor_version: string;
  index_version: string | null;
  status: IndexRow["status"];
  started_at: C["time"];
  finished_at: C["time"] | null;
  error: string | null;
}

export function indexRowOf<C extends ColumnTypes>(r: IndexDbRow<C>, v: DbValues<C>, stats: C["json"] | null): IndexRow {
  return {
    id: r.id,
    repoId: r.repo_id,
    rootPath: r.root_path,
    baseCommit: r.base_commit,
    branch: r.branch,
    dirty: v.flag(r.dirty),
    extractorVersion: r.extractor_version,
    indexVersion: r.index_version,
    status: r.status,
    startedAt: v.time(r.started_at),
    finishedAt: r.finished_at === null ? null : v.time(r.finished_at),
    stats: stats === null ? null : v.json<IndexStats>(stats),
    error: r.error,
  };
}

/** The columns of `audit_log` an AuditRecord fills, in auditValues order. */
export const AUDIT_COLUMNS = "at, run_id, step_id, tool, query_hash, mode, result_count, truncated, latency_ms, repo_id, index_version, outcome, preview";

/** An AuditRecord as parameters for AUDIT_COLUMNS; `flag` writes `truncated` as the store keeps flags. */
export function auditValues(r: AuditRecord, flag: (b: boolean) => unknown): unknown[] {
  return [r.at, r.runId, r.stepId, r.tool, r.queryHash, r.mode, r.resultCount, flag(r.truncated), r.latencyMs, r.repoId, r.indexVersion, r.outcome, r.preview];
}

export interface AuditDbRow<C extends ColumnTypes> {
  at: C["time"];
  run_id: string | null;
  step_id: string | null;
  tool: string;
  query_hash: string;
  mode: string | null;
  result_count: number;
  truncated: C["flag"];
  latency_ms: number;
  repo_id: string | null;
  index_version: string | null;
  outcome: string;
  preview: string | null;
}

export function auditRecordOf<C extends ColumnTypes>(r: AuditDbRow<C>, v: DbValues<C>): AuditRecord {
  return {
    at: v.time(r.at),
    runId: r.run_id,
    stepId: r.step_id,
    tool: r.tool,
    queryHash: r.query_hash,
    mode: r.mode,
    resultCount: r.result_count,
    truncated: v.flag(r.truncated),
    latencyMs: r.latency_ms,
    repoId: r.repo_id,
    indexVersion: r.index_version,
    outcome: r.outcome,
    preview: r.preview,
  };
}

/** A `repo_semantic` row. */
export interface SemanticDbRow<C extends ColumnTypes> {
  model: Buffer;
  created_at: C["time"];
  meta: C["json"];
}

export function semanticOf<C extends ColumnTypes>(r: SemanticDbRow<C>, v: DbValues<C>): StoredSemantic {
  return { model: r.model, meta: v.json<SemanticMeta>(r.meta), createdAt: v.time(r.created_at) };
}
