import type {
  Confidence,
  ExtractedReference,
  ExtractedSymbol,
  Extraction,
  ExtractionStatus,
  Extractor,
  ReferenceKind,
  SymbolKind,
} from "../core/symbols.js";
import type { BuildGraph, OwnershipFile, RepoDoc, RepoKnowledge } from "../core/knowledge.js";
import type { SemanticMeta, StoredSemantic } from "../core/semantic.js";
import type { FileTerms } from "../core/terms.js";
import type { InstructionFile } from "../core/instructions.js";

/**
 * The one storage contract. Queries and the indexer speak only to this interface; `sqlite/` (embedded default)
 * and `postgres/` (a shared server) implement it, and test/store-contract.test.ts holds both to it.
 */

export const INDEX_STATUSES = ["building", "ready", "failed", "superseded"] as const;
export type IndexStatus = (typeof INDEX_STATUSES)[number];

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
  /** Files whose symbols were extracted in this build, and files whose extraction was reused unchanged. */
  extractedFiles?: number;
  reusedFiles?: number;
  files: number;
  indexedFiles: number;
  skippedFiles: number;
  bytes: number;
  indexedBytes: number;
  durationMs: number;
  /** Set by an in-place update whose changed files got no vectors because the embeddings endpoint failed. */
  semanticUpdate?: { files: number; reason: string };
  /**
   * The SCIP layer of the build: the digest of the SCIP indexes read, the documents they hold, the files whose
   * references they resolved, and the files whose document no longer matched the text (tree-sitter kept).
   */
  scip?: {
    digest: string;
    indexes: string[];
    documents: number;
    files: number;
    stale: number;
    warnings: string[];
    /** Size and modification time of the root's `index.scip` when read: an update hashes it again only if they moved. */
    rootFile?: { size: number; mtimeMs: number };
  };
}

export const SKIP_REASONS = [
  "too_large",
  "binary",
  "unreadable",
  "symlink",
  "symlink_outside_root",
  "non_utf8",
  "not_a_file",
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface FileRow {
  path: string;
  /** Modification time when indexed (ms since the epoch): a cheap first check for changes since indexing. */
  mtimeMs: number | null;
  /** How symbols were extracted (null: not attempted, e.g. prose and data files). */
  symbolStatus: ExtractionStatus | null;
  symbolExtractor: Extractor | null;
  symbolDetail: string | null;
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
  /** Symbols and references, when the file's language was extracted. */
  extraction?: Extraction | null;
  /** Instead of `extraction`: copy this unchanged file's symbols and references from an earlier build. */
  reuse?: { indexId: string; fileId: number } | null;
  /** Ranking terms of an indexed text file (path, defined names, body); absent for skipped files. */
  terms?: FileTerms | null;
}

/** What a later build needs to reuse a file's extraction: its id and the hash the extraction was made from. */
export interface ReusableExtraction {
  fileId: number;
  contentHash: string;
  symbolStatus: ExtractionStatus;
  symbolExtractor: Extractor | null;
  symbolDetail: string | null;
}

export interface FileFilter {
  /** Only paths starting with this literal prefix (a cheap pre-filter; globs are applied by the caller). */
  pathPrefix?: string;
  includeSkipped?: boolean;
}

/** What ranking needs before any text is read. */
export interface CandidateFile {
  id: number;
  path: string;
  sizeBytes: number;
  isGenerated: boolean;
  isVendored: boolean;
  isSecretSuspect: boolean;
}

/** One query's candidates in path order (see Store.candidatePages). */
export interface CandidatePages {
  /** The candidates with an id above `afterId` (null: from the first), at most `limit`, ascending, as candidateFiles filters them. */
  page(afterId: number | null, limit: number): Promise<{ files: CandidateFile[]; more: boolean }>;
  /** Whether a file is a candidate. */
  holds(fileId: number): Promise<boolean>;
  /** Indexed files whose lower-cased path contains `textLower`, candidates or not, in id order; null when more than `limit` do. */
  pathHolders(textLower: string, limit: number): Promise<CandidateFile[] | null>;
}

export interface ContentCandidate {
  file: FileRow;
  content: string;
}

export interface CandidateQuery {
  /**
   * Literal fragments that must all occur (case-insensitively) in the content; may be empty (full scan). The
   * store may return files that do not contain them (index-level pre-filter): callers verify on the text.
   */
  fragments: string[];
  pathPrefix?: string;
  /** Leave out files whose symbols came from a parse, tree-sitter or SCIP (lexical mentions skip them). */
  excludeParsed?: boolean;
}

/** A number per ranking field: field weights, lengths in terms. */
export interface FieldValues {
  path: number;
  symbols: number;
  body: number;
}

export interface RankQuery {
  /**
   * Query terms (from `queryTerms`) with their weights: a file's score sums each matched term's BM25F part times
   * its weight. Anything but [a-z0-9_] separates terms; a term given twice counts once, with its larger weight.
   */
  terms: { term: string; weight: number }[];
  /** How much a term counts in each field (e.g. a defined name above a mention in the body). */
  weights: FieldValues;
  limit: number;
  pathPrefix?: string;
  /** Secret-suspect files are left out unless the read policy allows them. */
  includeSecretSuspect?: boolean;
}

export interface RankedFile {
  path: string;
  /** The id candidateFiles and readCandidate use. */
  fileId: number;
  /** BM25F: higher is better. */
  score: number;
  /** The query terms the file holds (in any field), in query order. */
  matched: string[];
}

/** File `from` references, `weight` times (capped), names that file `to` defines. */
export interface FileEdge {
  from: number;
  to: number;
  weight: number;
}

/** What BM25F needs from the whole index to score files outside it (the working-tree overlay) on its scale. */
export interface TermStats {
  /** Files with terms. */
  files: number;
  /** Mean terms per field. */
  avgLength: FieldValues;
  /** Files holding each of the given terms (same order), in any field. */
  documentFrequency: number[];
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

export interface SymbolRow extends ExtractedSymbol {
  scipSymbol: string | null;
  path: string;
  language: string | null;
  contentHash: string;
  extractor: Extractor;
  confidence: Confidence;
  file: FileRow;
}

export interface ReferenceRow extends ExtractedReference {
  target: string | null;
  path: string;
  language: string | null;
  contentHash: string;
  confidence: Confidence;
  file: FileRow;
}

export interface SymbolQuery {
  /** Exact simple name (case-sensitive). */
  name?: string;
  /** Names starting with this prefix, case-insensitively (for symbol search). */
  namePrefix?: string;
  /** Only the symbols of the file at this exact path. */
  path?: string;
  kinds?: SymbolKind[];
  language?: string;
  pathPrefix?: string;
  limit: number;
}

export interface ReferenceQuery {
  name: string;
  kinds?: ReferenceKind[];
  language?: string;
  pathPrefix?: string;
  limit: number;
}

/** One tool call, as the audit log keeps it: hashes and counts, never the raw query unless the operator asks. */
export interface AuditRecord {
  at: string;
  runId: string | null;
  stepId: string | null;
  tool: string;
  /** sha256 of the normalized arguments. */
  queryHash: string;
  mode: string | null;
  resultCount: number;
  truncated: boolean;
  latencyMs: number;
  repoId: string | null;
  indexVersion: string | null;
  /** "ok" or the error category. */
  outcome: string;
  /** A short redacted preview of the arguments, only when the operator enables it. */
  preview: string | null;
}

export interface AuditFilter {
  since?: string;
  tool?: string;
  limit: number;
}

/** What an in-place update of a ready index changes. */
export interface IndexDelta {
  meta: { baseCommit: string | null; branch: string | null; dirty: boolean };
  /** Files gone from the work tree. */
  remove: string[];
  /** Changed and new files, with their text and extraction. */
  upsert: FileInput[];
  /** Replaces the index's knowledge when a manifest, document, CODEOWNERS or instruction file changed. */
  knowledge: RepoKnowledge | null;
  indexVersion: string;
  stats: IndexStats;
}

export interface Store {
  /** A short description for `inspect_index` (kind and location, no credentials). */
  readonly description: string;
  beginIndex(meta: IndexMeta): Promise<string>;
  /** Adds files to a building index; called in batches. */
  addFiles(indexId: string, files: FileInput[]): Promise<void>;
  /** Files of a ready index whose symbols were extracted, by path (for incremental builds). */
  reusableExtractions(indexId: string): Promise<Map<string, ReusableExtraction>>;
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
  /**
   * Visits files whose indexed text contains every fragment (case-insensitively), in a stable order, until `visit`
   * returns false. One evaluation of the trigram query serves the whole scan; `visit` must not call the store.
   */
  scanCandidates(indexId: string, query: CandidateQuery, visit: (candidate: ContentCandidate) => boolean): Promise<void>;
  /**
   * Files that may contain every fragment, from the trigram index alone (a superset: no text is read), at most
   * `limit`, with `more` when others exist. Callers read and verify the text of the ones they keep.
   */
  candidateFiles(indexId: string, query: CandidateQuery, limit: number): Promise<{ files: CandidateFile[]; more: boolean }>;
  /**
   * Candidates page by page in path order, for reading the best few of many without listing them all. Null when
   * this store's ids do not ascend with paths (an update in place gave a new file the next free id); absent where
   * a store cannot tell.
   */
  candidatePages?(indexId: string, query: CandidateQuery): Promise<CandidatePages | null>;
  /** Loads now what the first query of this index would (an idle server's warm-up); absent where nothing is kept. */
  warm?(indexId: string): Promise<void>;
  /** One candidate's full row and text, by the id candidateFiles returned. */
  readCandidate(indexId: string, fileId: number): Promise<ContentCandidate | null>;
  getContent(indexId: string, path: string): Promise<string | null>;
  /**
   * The first stage of natural-language retrieval: files ranked by field-weighted BM25 (BM25F) over their path,
   * defined-name and body terms, best first, at most `limit`. Throws QueryError `index_unavailable` for an index
   * built before ranking terms existed.
   */
  rankFiles(indexId: string, query: RankQuery): Promise<RankedFile[]>;
  /** Index-wide statistics for scoring files by the same BM25F (see rankFiles), for the given query terms. */
  termStats(indexId: string, terms: string[]): Promise<TermStats>;
  /**
   * The reference graph around some files: edges out of them and into them, heaviest first, at most `limit`.
   * Names defined in many files say nothing about which one is meant and make no edges.
   */
  fileEdges(indexId: string, fileIds: number[], limit: number): Promise<FileEdge[]>;
  /** The ids (those rankFiles, fileEdges and readCandidate use) of indexed paths; unknown paths are absent. */
  fileIds(indexId: string, paths: readonly string[]): Promise<Map<string, number>>;
  findSymbols(indexId: string, query: SymbolQuery): Promise<SymbolRow[]>;
  findReferences(indexId: string, query: ReferenceQuery): Promise<ReferenceRow[]>;
  /** Symbols and references per extractor status, for inspect_index. */
  symbolSummary(indexId: string): Promise<{ symbols: number; references: number; byStatus: Record<string, number> }>;
  /** Updates a ready index in place, atomically (the one-file reindex path); see IndexDelta. */
  applyDelta(indexId: string, delta: IndexDelta): Promise<void>;
  /** Every file's path, hash and skip reason in path order: what the index version is a digest of. */
  digestRows(indexId: string): Promise<{ path: string; contentHash: string; skipReason: string | null }[]>;
  /** Paths that differed from the commit when the index was built (so a later update re-checks them). */
  getDirtyPaths(indexId: string): Promise<string[]>;
  setDirtyPaths(indexId: string, paths: string[]): Promise<void>;
  /** Stores what the knowledge stage learned (modules, docs, ownership) with a building index. */
  addKnowledge(indexId: string, knowledge: RepoKnowledge): Promise<void>;
  /** The build graph and ownership rules of an index (empty ones when it has none). */
  getKnowledge(indexId: string): Promise<{ graph: BuildGraph; ownership: OwnershipFile }>;
  /** Documents in path order, optionally under a path prefix, at most `limit`. */
  listDocs(indexId: string, filter: { pathPrefix?: string; limit: number }): Promise<{ docs: RepoDoc[]; total: number }>;
  getDoc(indexId: string, docId: string): Promise<RepoDoc | null>;
  /** Agent instruction files of an index (read from its commit), path order. */
  listInstructionFiles(indexId: string): Promise<InstructionFile[]>;
  /**
   * Stores an index's embedding model (SemanticModel.serialize) and its files' vectors by file id, replacing what
   * it had. A file's vector is deleted with its file row.
   */
  putSemantic(indexId: string, model: Buffer, vectors: ReadonlyMap<number, Float32Array>, meta: SemanticMeta): Promise<void>;
  /** Adds or replaces some files' vectors (files an in-place update re-embedded). */
  putFileVectors(indexId: string, vectors: ReadonlyMap<number, Float32Array>): Promise<void>;
  getSemantic(indexId: string): Promise<StoredSemantic | null>;
  /** An index's file vectors, all of them or those of `fileIds` (ids without one are absent), by file id. */
  fileVectors(indexId: string, fileIds?: readonly number[]): Promise<Map<number, Float32Array>>;
  appendAudit(record: AuditRecord): Promise<void>;
  /** Newest first. */
  listAudit(filter: AuditFilter): Promise<AuditRecord[]>;
  close(): Promise<void>;
}
