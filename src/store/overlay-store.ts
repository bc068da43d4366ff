import type { OverlayFile, WorkingTreeOverlay } from "../indexer/overlay.js";
import type {
  CandidateFile,
  CandidateQuery,
  ContentCandidate,
  FileFilter,
  FileRow,
  ReferenceQuery,
  ReferenceRow,
  Store,
  SymbolQuery,
  SymbolRow,
} from "./store.js";

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
    if (q.excludeExtractor && f.row.symbolExtractor === q.excludeExtractor) return false;
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
        own.push({ ...r, path: f.row.path, language: f.row.language, contentHash: f.row.contentHash, confidence: f.extraction.confidence, file: f.row });
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
