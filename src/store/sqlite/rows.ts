import type { ExtractionStatus, Extractor } from "../../indexer/symbols/types.js";
import type { FileRow, SkipReason } from "../store.js";

export interface FileDbRow {
  id: number;
  path: string;
  language: string | null;
  size_bytes: number;
  line_count: number | null;
  content_hash: string;
  is_binary: number;
  is_generated: number;
  is_vendored: number;
  generated_reason: string | null;
  is_secret_suspect: number;
  secret_reasons: string;
  has_instruction_like_text: number;
  skip_reason: SkipReason | null;
  skip_detail: string | null;
  symbol_status: ExtractionStatus | null;
  symbol_extractor: Extractor | null;
  symbol_detail: string | null;
  mtime_ms: number | null;
}

/** Column list for `repo_file f`; symbol and reference queries select it too, prefixed `file_`-free via alias f. */
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
    isBinary: r.is_binary === 1,
    isGenerated: r.is_generated === 1,
    isVendored: r.is_vendored === 1,
    generatedReason: r.generated_reason,
    isSecretSuspect: r.is_secret_suspect === 1,
    secretReasons: JSON.parse(r.secret_reasons) as string[],
    hasInstructionLikeText: r.has_instruction_like_text === 1,
    skipReason: r.skip_reason,
    skipDetail: r.skip_detail,
    symbolStatus: r.symbol_status,
    symbolExtractor: r.symbol_extractor,
    symbolDetail: r.symbol_detail,
  };
}

export { prefixUpperBound } from "../row-rules.js";
