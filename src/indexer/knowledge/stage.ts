import type { FileInput } from "../../store/store.js";
import { isCodeownersPath, readOwnership } from "./codeowners.js";
import { isOwnInstructionFile } from "./instructions/files.js";
import { loadInstructionFiles, type WorkingInstructionFile } from "./instructions/load.js";
import { checkInstructionFreshness, isMakefilePath, repoFactsFrom } from "./instructions/stale-checks.js";
import { extractDoc, isDocumentPath } from "./docs.js";
import { buildGraphFrom, isManifestPath } from "./manifests.js";
import type { ManifestFile, PathInfo, RepoDoc, RepoKnowledge } from "../../core/knowledge.js";

/** Makefiles longer than this are not read for targets (a `make x` command is then not checked). */
const MAX_MAKEFILE_CHARS = 256 * 1024;

/**
 * The knowledge stage of an index build: sees every file row once, in path order, keeps the text of manifests and
 * CODEOWNERS files (small), outlines documents on the spot (their text is not kept), and at the end derives the
 * build graph and ownership rules from what it kept. Agent instruction files are read again from the indexed commit
 * (`commit`; null outside git), so uncommitted edits never become instructions.
 */
export class KnowledgeCollector {
  private readonly instructionFiles: WorkingInstructionFile[] = [];
  private readonly makefiles: ManifestFile[] = [];

  constructor(private readonly source: { root: string; commit: string | null } | null = null) {}

  private readonly manifests: ManifestFile[] = [];
  private readonly codeowners: ManifestFile[] = [];
  private readonly docs: RepoDoc[] = [];
  private readonly paths: PathInfo[] = [];

  add(row: FileInput): void {
    this.paths.push({ path: row.path, language: row.language });
    if (isOwnInstructionFile(row.path)) {
      this.instructionFiles.push({ path: row.path, content: row.content, contentHash: row.contentHash, sizeBytes: row.sizeBytes, skipReason: row.skipReason });
    }
    if (row.content === null || row.skipReason !== null) return;
    if (isManifestPath(row.path)) this.manifests.push({ path: row.path, content: row.content });
    if (isCodeownersPath(row.path)) this.codeowners.push({ path: row.path, content: row.content });
    if (isMakefilePath(row.path) && row.content.length <= MAX_MAKEFILE_CHARS) this.makefiles.push({ path: row.path, content: row.content });
    if (isDocumentPath(row.path) && !row.isVendored) {
      this.docs.push(extractDoc({ path: row.path, content: row.content, contentHash: row.contentHash, hasInstructionLikeText: row.hasInstructionLikeText }));
    }
  }

  /** A file whose document outline is already known (an in-place update reuses the outlines of unchanged docs). */
  addWithOutline(row: FileInput, doc: RepoDoc): void {
    this.add({ ...row, content: null });
    this.docs.push(doc);
  }

  async finish(): Promise<RepoKnowledge> {
    const graph = buildGraphFrom(this.manifests, this.paths);
    const instructions = this.source ? await loadInstructionFiles(this.source.root, this.source.commit, this.instructionFiles) : [];
    const facts = repoFactsFrom(this.paths, this.manifests, this.makefiles);
    for (const f of instructions) checkInstructionFreshness(f, facts);
    return { graph, ownership: readOwnership(this.codeowners), docs: this.docs, instructions };
  }
}

/** Files whose text the collector reads (small: manifests, CODEOWNERS, Makefiles, instruction files). */
export function knowledgeReadsText(path: string): boolean {
  return isOwnInstructionFile(path) || isManifestPath(path) || isCodeownersPath(path) || isMakefilePath(path);
}

/** Whether a change to this file changes the index's knowledge (its text or its document outline). */
export function changesKnowledge(path: string): boolean {
  return knowledgeReadsText(path) || isDocumentPath(path);
}
