import { readFile, stat } from "node:fs/promises";
import { normalizeRepoPath, resolveInsideRoot } from "../policy/path-guard.js";
import { QueryError } from "../core/errors.js";
import { labelInputOf, type QueryContext, type QueryResult } from "./context.js";
import { sha256 } from "../core/hash.js";
import type { Warning } from "../core/evidence.js";

/** Files larger than this are never read whole for a slice, whatever the policy. */
const MAX_SLICE_SOURCE_BYTES = 64 * 1024 * 1024;

export interface SliceInput {
  path: string;
  startLine?: number;
  endLine?: number;
  includeLineNumbers?: boolean;
  expectedContentHash?: string;
}

export interface FileClassification {
  binary: boolean;
  generated: boolean;
  generatedReason: string | null;
  vendored: boolean;
  secretSuspect: boolean;
  instructionLikeText: boolean;
  skipReason: string | null;
}

export interface FileSlice {
  path: string;
  language: string | null;
  startLine: number;
  endLine: number;
  totalLines: number;
  content: string | null;
  contentHash: string;
  indexedContentHash: string;
  classification: FileClassification;
  truncated: boolean;
}

function withLineNumbers(lines: string[], first: number): string {
  const width = String(first + lines.length - 1).length;
  return lines.map((l, i) => `${String(first + i).padStart(width, " ")}| ${l}`).join("\n");
}

/** Where a slice's bytes come from: the work tree (the default), or the index alone when the server has none. */
type SliceSource = { relPath: string; read: () => Promise<Buffer | null>; size: () => Promise<number> };

async function sliceSource(ctx: QueryContext, root: string | null, input: SliceInput): Promise<SliceSource> {
  if (root === null) {
    // No work tree on this machine (a replica serving a shared store): the path is checked lexically and the
    // text is the indexed text, so the hash is the indexed hash.
    const normalized = normalizeRepoPath(input.path);
    if (!normalized.ok) throw new QueryError("query_rejected", normalized.message);
    const relPath = normalized.relPath;
    let content: Promise<string | null> | null = null;
    const text = () => (content ??= ctx.store.getContent(ctx.index.id, relPath));
    return {
      relPath,
      read: async () => {
        const t = await text();
        return t === null ? null : Buffer.from(t, "utf8");
      },
      size: async () => Buffer.byteLength((await text()) ?? "", "utf8"),
    };
  }
  const guarded = await resolveInsideRoot(root, input.path);
  if (!guarded.ok) {
    if (guarded.reason === "not_found") throw new QueryError("not_found", guarded.message);
    throw new QueryError("query_rejected", guarded.message);
  }
  return { relPath: guarded.relPath, read: () => readFile(guarded.absPath), size: async () => (await stat(guarded.absPath)).size };
}

/**
 * A line range of one indexed file, read from the work tree through the path guard (or, with `root` null, from
 * the index's text). The hash is of the bytes served now; when they differ from the indexed bytes the result says
 * so, and `expectedContentHash` turns a mismatch into `stale_context`.
 */
export async function getFileSlice(ctx: QueryContext, root: string | null, input: SliceInput): Promise<QueryResult<FileSlice>> {
  const source = await sliceSource(ctx, root, input);
  const file = await ctx.store.getFile(ctx.index.id, source.relPath);
  if (!file) {
    throw new QueryError("not_found", `'${source.relPath}' is not in the index`, "search_code lists indexed files; reindex after adding files");
  }
  if (file.skipReason === "symlink_outside_root") throw new QueryError("query_rejected", `'${file.path}' points outside the repository`);
  if (file.isSecretSuspect && !ctx.policy.includeSecretSuspectFiles) {
    throw new QueryError("query_rejected", `'${file.path}' is classified as secret-suspect and the read policy does not allow reading it`);
  }
  const size = await source.size();
  if (size > MAX_SLICE_SOURCE_BYTES) throw new QueryError("query_rejected", `'${file.path}' is too large to slice (${size} bytes)`);
  const read = await source.read();
  // Without a work tree only indexed text can be served; a skipped file has none.
  const bytes = read ?? Buffer.alloc(0);
  const currentHash = read === null ? file.contentHash : sha256(bytes);
  if (input.expectedContentHash !== undefined && input.expectedContentHash !== currentHash) {
    throw new QueryError(
      "stale_context",
      `'${file.path}' changed: expected ${input.expectedContentHash}, found ${currentHash}`,
      "re-read the file and re-plan against the current content",
    );
  }
  const warnings: Warning[] = [];
  // A changed file is served from the working tree as it is now; the tool pipeline adds the
  // file_changed_since_index warning for every result that names it.
  const changed = currentHash !== file.contentHash;
  const classification: FileClassification = {
    binary: file.isBinary,
    generated: file.isGenerated,
    generatedReason: file.generatedReason,
    vendored: file.isVendored,
    secretSuspect: file.isSecretSuspect,
    instructionLikeText: file.hasInstructionLikeText,
    skipReason: file.skipReason,
  };
  const textual = !file.isBinary && file.skipReason !== "binary" && file.skipReason !== "non_utf8";
  let text: string | null = null;
  if (textual && read !== null) {
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      text = null;
    }
  }
  const base = { path: file.path, language: file.language, contentHash: currentHash, indexedContentHash: file.contentHash, classification };
  const labels = new Map([[file.path, labelInputOf(file)]]);
  const freshness = changed ? ("working_tree" as const) : ("base_commit" as const);
  if (text === null) {
    warnings.push({ code: "not_text", message: `'${file.path}' is not UTF-8 text; no content is returned` });
    return {
      items: [{ ...base, startLine: 0, endLine: 0, totalLines: 0, content: null, truncated: false }],
      stats: { truncated: false },
      evidence: [],
      labels,
      warnings,
      freshness,
    };
  }
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const totalLines = text.length === 0 ? 0 : lines.length;
  const maxLines = ctx.policy.maxFileSliceLines;
  const startLine = input.startLine ?? 1;
  if (totalLines > 0 && startLine > totalLines) {
    throw new QueryError("invalid_input", `startLine ${startLine} is past the end of '${file.path}' (${totalLines} lines)`);
  }
  const requestedEnd = Math.min(input.endLine ?? totalLines, totalLines);
  if (requestedEnd < startLine && totalLines > 0) throw new QueryError("invalid_input", "endLine must not be before startLine");
  const endLine = Math.min(requestedEnd, startLine + maxLines - 1);
  const truncated = endLine < requestedEnd;
  if (truncated) {
    warnings.push({ code: "slice_truncated", message: `the read policy allows ${maxLines} lines per slice; continue from line ${endLine + 1}` });
  }
  const picked = totalLines === 0 ? [] : lines.slice(startLine - 1, endLine).map((l) => l.replace(/\r$/, ""));
  const content = input.includeLineNumbers === false ? picked.join("\n") : withLineNumbers(picked, startLine);
  return {
    items: [{ ...base, startLine: totalLines === 0 ? 0 : startLine, endLine, totalLines, content, truncated }],
    stats: { truncated },
    evidence: totalLines === 0 ? [] : [{ path: file.path, startLine, endLine, contentHash: currentHash, retrieval: "lexical" }],
    labels,
    warnings,
    freshness,
  };
}
