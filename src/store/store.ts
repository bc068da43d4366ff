/**
 * The one storage contract. Queries and the indexer speak only to this interface; `sqlite/` (embedded default)
 * implements it today and a shared PostgreSQL store will implement the same contract.
 */

export type IndexStatus = "building" | "ready" | "failed" | "superseded";

export interface IndexMeta {
  repoId: string;
  rootPath: string;
  baseCommit: string | null;
  branch: string | null;
  dirty: boolean;
  extractorVersion: string;
}

export interface IndexRow extends IndexMeta {
  id: string;
  indexVersion: string | null;
  status: IndexStatus;
  startedAt: string;
  finishedAt: string | null;
  stats: IndexStats | null;
  error: string | null;
}

export interface IndexStats {
  files: number;
  indexedFiles: number;
  skippedFiles: number;
  bytes: number;
  indexedBytes: number;
  durationMs: number;
}

export type SkipReason =
  | "too_large"
  | "binary"
  | "unreadable"
  | "symlink"
  | "symlink_outside_root"
  | "non_utf8"
  | "not_a_file";

export interface FileRow {
  path: string;
  language: string | null;
  sizeBytes: number;
  lineCount: number | null;
  contentHash: string;
  isBinary: boolean;
  isGenerated: boolean;
  isVendored: boolean;
  generatedReason: string | null;
  isSecretSuspect: boolean;
  secretReasons: string[];
  hasInstructionLikeText: boolean;
  skipReason: SkipReason | null;
  skipDetail: string | null;
}

/** A file row plus its text, for the full-text index. `content` is null for skipped files. */
export interface FileInput extends FileRow {
  content: string | null;
}

export interface FileFilter {
  /** Only paths starting with this literal prefix (a cheap pre-filter; globs are applied by the caller). */
  pathPrefix?: string;
  includeSkipped?: boolean;
}

export interface ContentCandidate {
  file: FileRow;
  content: string;
}

export interface CandidateQuery {
  /** Literal fragments that must all occur (case-insensitively) in the content; may be empty (full scan). */
  fragments: string[];
  pathPrefix?: string;
}

export interface LanguageCount {
  language: string | null;
  files: number;
  bytes: number;
}

export interface SkipCount {
  reason: SkipReason;
  files: number;
  examples: string[];
}

export interface IndexSummary {
  files: number;
  indexedFiles: number;
  bytes: number;
  generated: number;
  vendored: number;
  secretSuspect: number;
  binary: number;
  languages: LanguageCount[];
  skipped: SkipCount[];
  topLevel: { name: string; files: number }[];
}

export interface Store {
  /** A short description for `inspect_index` (kind and location, no credentials). */
  readonly description: string;
  beginIndex(meta: IndexMeta): Promise<string>;
  /** Adds files to a building index; called in batches. */
  addFiles(indexId: string, files: FileInput[]): Promise<void>;
  /** Marks the build ready and supersedes older indexes of the same repository, atomically. */
  publishIndex(indexId: string, indexVersion: string, stats: IndexStats): Promise<void>;
  failIndex(indexId: string, error: string): Promise<void>;
  /** The ready index of a repository (or of the only repository in the store when repoId is omitted). */
  getReadyIndex(repoId?: string): Promise<IndexRow | null>;
  getIndex(indexId: string): Promise<IndexRow | null>;
  /** Every ready index, newest first (one per repository). */
  listReadyIndexes(): Promise<IndexRow[]>;
  getFile(indexId: string, path: string): Promise<FileRow | null>;
  listFiles(indexId: string, filter?: FileFilter): Promise<FileRow[]>;
  summarize(indexId: string): Promise<IndexSummary>;
  /** Streams files whose indexed text contains every fragment, in a stable order; stop iterating to stop. */
  searchCandidates(indexId: string, query: CandidateQuery): AsyncIterable<ContentCandidate>;
  getContent(indexId: string, path: string): Promise<string | null>;
  close(): Promise<void>;
}
