import { type FileTerms, termCount } from "../core/terms.js";
import { normalizeRankTerms, scoreFiles } from "./bm25f.js";
import { MemoryTermIndex } from "./sqlite/term-queries.js";
import type {
  CandidateFile,
  CandidateQuery,
  ContentCandidate,
  FieldValues,
  FileEdge,
  FileFilter,
  FileRow,
  RankedFile,
  RankQuery,
  ReferenceQuery,
  ReferenceRow,
  Store,
  SymbolQuery,
  SymbolRow,
} from "./store.js";
import { isParsedExtractor, type Extraction } from "../core/symbols.js";

/**
 * The working-tree overlay: files that differ from the ready index (edited, added, or deleted since it was built)
 * read from disk, with their own hashes and symbols, so answers about code the agent is editing are current.
 */
export interface OverlayFile {
  row: FileRow;
  content: string | null;
  extraction: Extraction | null;
  /** Ranking terms from the text on disk (null for a skipped file). */
  terms: FileTerms | null;
}

export interface WorkingTreeOverlay {
  /** Edited or new files, by path. */
  changed: Map<string, OverlayFile>;
  /** Indexed files no longer in the work tree. */
  deleted: Set<string>;
}

function readOnly(): never {
  throw new Error("the working-tree overlay is a read-only view");
}

function byPathAndLine<T extends { path: string }>(line: (x: T) => number) {
  return (a: T, b: T) => (a.path < b.path ? -1 : a.path > b.path ? 1 : line(a) - line(b));
}

/**
 * The ready index with the working tree laid over it: edited and new files answer from their text on disk (and
 * the symbols extracted from it), deleted files are gone, everything else is the index. Queries run against it
 * unchanged; only reads are served.
 */
export class OverlayStore implements Store {
  readonly description: string;
  private readonly files: OverlayFile[];
  /** Paths whose indexed rows are hidden: replaced by the overlay or deleted. */
  private readonly hidden: Set<string>;

  constructor(
    readonly base: Store,
    readonly overlay: WorkingTreeOverlay,
  ) {
    this.description = base.description;
    this.files = [...overlay.changed.values()].sort((a, b) => (a.row.path < b.row.path ? -1 : 1));
    this.hidden = new Set([...overlay.changed.keys(), ...overlay.deleted]);
  }

  /** Whether a path's answer comes from the working tree. */
  isOverlaid(path: string): boolean {
    return this.overlay.changed.has(path);
  }

  private matches(f: OverlayFile, q: CandidateQuery): boolean {
    if (f.content === null || f.row.skipReason !== null) return false;
    if (q.pathPrefix && !f.row.path.startsWith(q.pathPrefix)) return false;
    if (q.excludeParsed && isParsedExtractor(f.row.symbolExtractor)) return false;
    const lower = f.content.toLowerCase();
    return q.fragments.every((frag) => lower.includes(frag.toLowerCase()));
  }

  beginIndex = readOnly;
  addFiles = readOnly;
  publishIndex = readOnly;
  failIndex = readOnly;
  addKnowledge = readOnly;
  applyDelta = readOnly;
  setDirtyPaths = readOnly;
  digestRows: Store["digestRows"] = (id) => this.base.digestRows(id);
  getDirtyPaths: Store["getDirtyPaths"] = (id) => this.base.getDirtyPaths(id);
  appendAudit: Store["appendAudit"] = (r) => this.base.appendAudit(r);
  listAudit: Store["listAudit"] = (f) => this.base.listAudit(f);
  reusableExtractions: Store["reusableExtractions"] = (id) => this.base.reusableExtractions(id);
  getReadyIndex: Store["getReadyIndex"] = (repoId) => this.base.getReadyIndex(repoId);
  getIndex: Store["getIndex"] = (id) => this.base.getIndex(id);
  listReadyIndexes: Store["listReadyIndexes"] = () => this.base.listReadyIndexes();
  summarize: Store["summarize"] = (id) => this.base.summarize(id);
  symbolSummary: Store["symbolSummary"] = (id) => this.base.symbolSummary(id);
  getKnowledge: Store["getKnowledge"] = (id) => this.base.getKnowledge(id);
  listDocs: Store["listDocs"] = (id, f) => this.base.listDocs(id, f);
  getDoc: Store["getDoc"] = (id, docId) => this.base.getDoc(id, docId);
  listInstructionFiles: Store["listInstructionFiles"] = (id) => this.base.listInstructionFiles(id);
  putSemantic = readOnly;
  putFileVectors = readOnly;
  /** The index's model and vectors: edited files keep their indexed vector until the next update re-embeds them. */
  getSemantic: Store["getSemantic"] = (id) => this.base.getSemantic(id);
  fileVectors: Store["fileVectors"] = (id, fileIds) => this.base.fileVectors(id, fileIds);
  termStats: Store["termStats"] = (id, terms) => this.base.termStats(id, terms);

  async getFile(indexId: string, path: string): Promise<FileRow | null> {
    const f = this.overlay.changed.get(path);
    if (f) return f.row;
    return this.overlay.deleted.has(path) ? null : this.base.getFile(indexId, path);
  }

  async listFiles(indexId: string, filter: FileFilter = {}): Promise<FileRow[]> {
    const base = (await this.base.listFiles(indexId, filter)).filter((r) => !this.hidden.has(r.path));
    const extra = this.files
      .map((f) => f.row)
      .filter((r) => (!filter.pathPrefix || r.path.startsWith(filter.pathPrefix)) && (filter.includeSkipped || r.skipReason === null));
    return [...base, ...extra].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** Edited files first (they are what the agent is working on), then the index without them. */
  async scanCandidates(indexId: string, query: CandidateQuery, visit: (c: ContentCandidate) => boolean): Promise<void> {
    for (const f of this.files) {
      if (this.matches(f, query) && !visit({ file: f.row, content: f.content! })) return;
    }
    await this.base.scanCandidates(indexId, query, (c) => this.hidden.has(c.file.path) || visit(c));
  }

  async candidateFiles(indexId: string, query: CandidateQuery, limit: number): Promise<{ files: CandidateFile[]; more: boolean }> {
    const own: CandidateFile[] = [];
    this.files.forEach((f, i) => {
      if (!this.matches(f, query)) return;
      const r = f.row;
      own.push({ id: -(i + 1), path: r.path, sizeBytes: r.sizeBytes, isGenerated: r.isGenerated, isVendored: r.isVendored, isSecretSuspect: r.isSecretSuspect });
    });
    if (own.length >= limit) return { files: own.slice(0, limit), more: true };
    const base = await this.base.candidateFiles(indexId, query, limit - own.length + this.hidden.size);
    const kept = base.files.filter((f) => !this.hidden.has(f.path));
    const files = [...own, ...kept].slice(0, limit);
    return { files, more: base.more || own.length + kept.length > limit };
  }

  async readCandidate(indexId: string, fileId: number): Promise<ContentCandidate | null> {
    if (fileId < 0) {
      const f = this.files[-fileId - 1];
      return f && f.content !== null ? { file: f.row, content: f.content } : null;
    }
    const c = await this.base.readCandidate(indexId, fileId);
    return c && this.hidden.has(c.file.path) ? null : c;
  }

  async getContent(indexId: string, path: string): Promise<string | null> {
    const f = this.overlay.changed.get(path);
    if (f) return f.content;
    return this.overlay.deleted.has(path) ? null : this.base.getContent(indexId, path);
  }

  /**
   * The index's ranking without the files the overlay hides, plus the edited and new files scored by the same
   * BM25F on the index's statistics. Their terms are matched in a short-lived in-memory FTS5 table with the
   * index's tokenizer, so stemming treats them exactly as it treats indexed files.
   */
  async rankFiles(indexId: string, query: RankQuery): Promise<RankedFile[]> {
    const base = (await this.base.rankFiles(indexId, { ...query, limit: query.limit + this.hidden.size })).filter((r) => !this.hidden.has(r.path));
    const lengths = this.rankableLengths(query);
    if (lengths.size === 0) return base.slice(0, query.limit);
    const terms = normalizeRankTerms(query.terms);
    const stats = await this.base.termStats(indexId, terms.map((t) => t.term));
    const index = new MemoryTermIndex([...lengths.keys()].map((id) => ({ id, terms: this.files[-id - 1]!.terms! })));
    try {
      const postings = terms.map((t, i) => ({ ...t, files: index.postings(t.term), documentFrequency: stats.documentFrequency[i]! }));
      const own = [...scoreFiles(postings, stats, query.weights, (id) => lengths.get(id))].map(([fileId, s]) => ({
        path: this.files[-fileId - 1]!.row.path,
        fileId,
        score: s.score,
        matched: s.matched,
      }));
      return [...base, ...own].sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1)).slice(0, query.limit);
    } finally {
      index.close();
    }
  }

  /** Field lengths of the overlaid files a ranking query may return, by their overlay ids (see candidateFiles). */
  private rankableLengths(query: RankQuery): Map<number, FieldValues> {
    const out = new Map<number, FieldValues>();
    this.files.forEach((f, i) => {
      const t = f.terms;
      if (!t || (f.row.isSecretSuspect && !query.includeSecretSuspect) || (query.pathPrefix && !f.row.path.startsWith(query.pathPrefix))) return;
      out.set(-(i + 1), { path: termCount(t.path), symbols: termCount(t.symbols), body: termCount(t.body) });
    });
    return out;
  }

  /** Overlaid files by their overlay ids (negative, as candidateFiles gives them); hidden ones are absent. */
  async fileIds(indexId: string, paths: readonly string[]): Promise<Map<string, number>> {
    const out = await this.base.fileIds(indexId, paths.filter((p) => !this.hidden.has(p)));
    this.files.forEach((f, i) => {
      if (paths.includes(f.row.path)) out.set(f.row.path, -(i + 1));
    });
    return out;
  }

  /**
   * The index's reference graph. Overlaid files (negative ids) have no edges of their own, and edges of an edited
   * file reflect its indexed text; a hidden file never surfaces through them, since readCandidate does not return it.
   */
  async fileEdges(indexId: string, fileIds: number[], limit: number): Promise<FileEdge[]> {
    return this.base.fileEdges(indexId, fileIds.filter((id) => id >= 0), limit);
  }

  async findSymbols(indexId: string, q: SymbolQuery): Promise<SymbolRow[]> {
    const base = (await this.base.findSymbols(indexId, { ...q, limit: q.limit + this.hidden.size })).filter((s) => !this.hidden.has(s.path));
    const prefix = q.namePrefix?.toLowerCase();
    const own: SymbolRow[] = [];
    for (const f of this.files) {
      if (!f.extraction || !this.fileMatches(f.row, q)) continue;
      for (const s of f.extraction.symbols) {
        if (q.name !== undefined && s.name !== q.name) continue;
        if (prefix !== undefined && !s.name.toLowerCase().startsWith(prefix)) continue;
        if (q.kinds && q.kinds.length > 0 && !q.kinds.includes(s.kind)) continue;
        own.push({
          ...s,
          path: f.row.path,
          language: f.row.language,
          contentHash: f.row.contentHash,
          scipSymbol: s.scipSymbol ?? null,
          extractor: f.extraction.extractor ?? "lexical",
          confidence: f.extraction.confidence,
          file: f.row,
        });
      }
    }
    return [...base, ...own].sort(byPathAndLine((s) => s.startLine)).slice(0, q.limit);
  }

  async findReferences(indexId: string, q: ReferenceQuery): Promise<ReferenceRow[]> {
    const base = (await this.base.findReferences(indexId, { ...q, limit: q.limit + this.hidden.size })).filter((r) => !this.hidden.has(r.path));
    const own: ReferenceRow[] = [];
    for (const f of this.files) {
      if (!f.extraction || !this.fileMatches(f.row, q)) continue;
      for (const r of f.extraction.references) {
        if (r.name !== q.name || (q.kinds && q.kinds.length > 0 && !q.kinds.includes(r.kind))) continue;
        own.push({ ...r, target: r.target ?? null, path: f.row.path, language: f.row.language, contentHash: f.row.contentHash, confidence: f.extraction.confidence, file: f.row });
      }
    }
    return [...base, ...own].sort(byPathAndLine((r) => r.line)).slice(0, q.limit);
  }

  private fileMatches(row: FileRow, q: { language?: string; pathPrefix?: string; path?: string }): boolean {
    if (q.language && row.language !== q.language) return false;
    if (q.pathPrefix && !row.path.startsWith(q.pathPrefix)) return false;
    return q.path === undefined || row.path === q.path;
  }

  async close(): Promise<void> {
    // The base store belongs to the server, not to this view.
  }
}
