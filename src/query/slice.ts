import { hasGitSegment, normalizeRepoPath, pathError, readFileInsideRoot, statInsideRoot } from "../policy/path-guard.js";
import { QueryError } from "../core/errors.js";
import { labelInputOf, type QueryContext, type QueryResult } from "./context.js";
import { sha256 } from "../core/hash.js";
import type { Warning } from "../core/evidence.js";
import type { FileRow } from "../store/store.js";

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

/** The row a slice serves (a symlink's target, when the request named a symlink) and where it was asked for. */
interface Located {
  file: FileRow;
  /** The requested path when it is a symlink and `file` is its target's row, else null. */
  linkedFrom: string | null;
}

function notIndexed(path: string): QueryError {
  return new QueryError("not_found", `'${path}' is not in the index`, "search_code lists indexed files; reindex after adding files");
}

/**
 * A symlink answers as its target would, and only when the target is itself an indexed file with text inside the
 * root: never a folder, never a file the index skipped (binary, too large, unreadable, another link), never `.git`.
 */
async function linkTarget(ctx: QueryContext, link: string, target: string): Promise<FileRow> {
  if (hasGitSegment(target)) throw pathError({ reason: "git_dir", message: `'${link}' is a symlink into git's own folder (.git), which is never served` });
  const row = target === "" || target === "." ? null : await ctx.store.getFile(ctx.index.id, target);
  if (!row) throw new QueryError("not_found", `'${link}' is a symlink to '${target || "."}', which is not a file in the index`);
  if (row.skipReason !== null) {
    throw new QueryError("query_rejected", `'${link}' is a symlink to '${row.path}', which the index holds no text for (${row.skipReason}); symlinks are followed only to indexed text files`);
  }
  return row;
}

/** The target the index recorded for a symlink row (`-> path`, relative to the root), or null. */
function recordedTarget(row: FileRow): string | null {
  return row.skipReason === "symlink" && row.skipDetail?.startsWith("-> ") ? row.skipDetail.slice(3) : null;
}

async function requestedRow(ctx: QueryContext, relPath: string): Promise<FileRow> {
  const row = await ctx.store.getFile(ctx.index.id, relPath);
  if (!row) throw notIndexed(relPath);
  if (row.skipReason === "symlink_outside_root") throw new QueryError("query_rejected", `'${row.path}' points outside the repository`);
  return row;
}

/** With a work tree: the path guard decides what the path is now (a symlink is followed, a FIFO never opened). */
async function locateInWorkTree(ctx: QueryContext, root: string, input: SliceInput): Promise<Located> {
  const where = await statInsideRoot(root, input.path);
  if (!where.ok) throw pathError(where);
  const requested = await requestedRow(ctx, where.relPath);
  if (where.realRelPath === where.relPath) return { file: requested, linkedFrom: null };
  return { file: await linkTarget(ctx, where.relPath, where.realRelPath), linkedFrom: where.relPath };
}

/** Without a work tree (a replica serving a shared store): the path is checked lexically, links as the index saw them. */
async function locateInIndex(ctx: QueryContext, input: SliceInput): Promise<Located> {
  const normalized = normalizeRepoPath(input.path);
  if (!normalized.ok) throw new QueryError("query_rejected", normalized.message);
  const relPath = normalized.relPath;
  if (hasGitSegment(relPath)) throw pathError({ reason: "git_dir", message: `'${relPath}' is inside git's own folder (.git), which is never served` });
  const requested = await requestedRow(ctx, relPath);
  const target = recordedTarget(requested);
  if (target === null) return { file: requested, linkedFrom: null };
  return { file: await linkTarget(ctx, relPath, target), linkedFrom: relPath };
}

/** The served row's bytes now: from the work tree through the guard, or the indexed text (null when none). */
async function bytesOf(ctx: QueryContext, root: string | null, file: FileRow): Promise<Buffer | null> {
  if (root === null) {
    const text = await ctx.store.getContent(ctx.index.id, file.path);
    return text === null ? null : Buffer.from(text, "utf8");
  }
  const read = await readFileInsideRoot(root, file.path, MAX_SLICE_SOURCE_BYTES);
  if (!read.ok) throw pathError(read);
  if (read.realRelPath !== file.path) throw new QueryError("query_rejected", `'${file.path}' was replaced by a symlink while being read`);
  return read.bytes;
}

/**
 * A line range of one indexed file, read from the work tree through the path guard (or, with `root` null, from
 * the index's text). The hash is of the bytes served now; when they differ from the indexed bytes the result says
 * so, and `expectedContentHash` turns a mismatch into `stale_context`. A symlink is served as its target (see
 * `linkTarget`), and the answer names the target.
 */
export async function getFileSlice(ctx: QueryContext, root: string | null, input: SliceInput): Promise<QueryResult<FileSlice>> {
  const { file, linkedFrom } = root === null ? await locateInIndex(ctx, input) : await locateInWorkTree(ctx, root, input);
  if (file.isSecretSuspect && !ctx.policy.includeSecretSuspectFiles) {
    throw new QueryError("query_rejected", `'${file.path}' is classified as secret-suspect and the read policy does not allow reading it`);
  }
  const read = await bytesOf(ctx, root, file);
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
  if (linkedFrom !== null) warnings.push({ code: "symlink_followed", message: `'${linkedFrom}' is a symlink: served from its target '${file.path}'` });
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
