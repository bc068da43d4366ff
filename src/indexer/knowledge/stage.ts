import type { FileInput } from "../../store/store.js";
import { isCodeownersPath, readOwnership } from "./codeowners.js";
import { extractDoc, isDocumentPath } from "./docs.js";
import { buildGraphFrom, isManifestPath } from "./manifests.js";
import type { ManifestFile, PathInfo, RepoDoc, RepoKnowledge } from "./types.js";

/**
 * The knowledge stage of an index build: sees every file row once, in path order, keeps the text of manifests and
 * CODEOWNERS files (small), outlines documents on the spot (their text is not kept), and at the end derives the
 * build graph and ownership rules from what it kept.
 */
export class KnowledgeCollector {
  private readonly manifests: ManifestFile[] = [];
  private readonly codeowners: ManifestFile[] = [];
  private readonly docs: RepoDoc[] = [];
  private readonly paths: PathInfo[] = [];

  add(row: FileInput): void {
    this.paths.push({ path: row.path, language: row.language });
    if (row.content === null || row.skipReason !== null) return;
    if (isManifestPath(row.path)) this.manifests.push({ path: row.path, content: row.content });
    if (isCodeownersPath(row.path)) this.codeowners.push({ path: row.path, content: row.content });
    if (isDocumentPath(row.path) && !row.isVendored) {
      this.docs.push(extractDoc({ path: row.path, content: row.content, contentHash: row.contentHash, hasInstructionLikeText: row.hasInstructionLikeText }));
    }
  }

  finish(): RepoKnowledge {
    return { graph: buildGraphFrom(this.manifests, this.paths), ownership: readOwnership(this.codeowners), docs: this.docs };
  }
}
