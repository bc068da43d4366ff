import { lstat, readFile, realpath } from "node:fs/promises";
import { join, sep } from "node:path";
import { countLines, sha256 } from "../core/hash.js";
import type { FileInput, SkipReason } from "../store/store.js";
import { isDocPath } from "../policy/labels.js";
import { detectInstructionLikeText } from "../policy/injection.js";
import { isBinaryContent, isBinaryPath } from "./classify/binary.js";
import { detectGenerated } from "./classify/generated.js";
import { detectLanguage } from "./classify/language.js";
import { secretFileNameReason } from "./classify/secret-names.js";
import type { SecretScanner } from "./secrets.js";

export interface InventoryOptions {
  /** Files larger than this keep their row with `skipReason: too_large` and no indexed text. */
  maxFileBytes: number;
  secretScanner: SecretScanner;
}


const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

function skipped(path: string, reason: SkipReason, detail: string | null, sizeBytes: number, hash: string, mtimeMs: number | null = null): FileInput {
  return {
    path,
    mtimeMs,
    language: detectLanguage(path),
    sizeBytes,
    lineCount: null,
    contentHash: hash,
    isBinary: reason === "binary",
    isGenerated: false,
    isVendored: false,
    generatedReason: null,
    isSecretSuspect: secretFileNameReason(path) !== null,
    secretReasons: [secretFileNameReason(path)].filter((r): r is string => r !== null),
    hasInstructionLikeText: false,
    skipReason: reason,
    skipDetail: detail,
    symbolStatus: null,
    symbolExtractor: null,
    symbolDetail: null,
    content: null,
  };
}

function isInside(realRoot: string, target: string): boolean {
  return target === realRoot || target.startsWith(realRoot + sep);
}

/**
 * One file's inventory row. Never throws for a file's own problems: an unreadable, odd or hostile file becomes a
 * row with a skip reason, so one bad file never stops a run.
 */
export async function inventoryFile(realRoot: string, path: string, opts: InventoryOptions): Promise<FileInput> {
  const abs = join(realRoot, path);
  let stat;
  try {
    stat = await lstat(abs);
  } catch (err) {
    return skipped(path, "unreadable", errorCode(err, "missing from the work tree"), 0, sha256(""));
  }
  if (stat.isSymbolicLink()) {
    let target: string;
    try {
      target = await realpath(abs);
    } catch {
      return skipped(path, "unreadable", "broken symlink", 0, sha256(""));
    }
    if (!isInside(realRoot, target)) return skipped(path, "symlink_outside_root", "target is outside the repository", 0, sha256(""));
    const relTarget = target === realRoot ? "." : target.slice(realRoot.length + 1).split(sep).join("/");
    return skipped(path, "symlink", `-> ${relTarget}`, 0, sha256(relTarget));
  }
  if (!stat.isFile()) return skipped(path, "not_a_file", stat.isDirectory() ? "directory (submodule?)" : "special file", 0, sha256(""));

  let buf: Buffer;
  try {
    buf = await readFile(abs);
  } catch (err) {
    return skipped(path, "unreadable", errorCode(err, "read failed"), stat.size, sha256(""));
  }
  const hash = sha256(buf);
  if (buf.length > opts.maxFileBytes) {
    return skipped(path, "too_large", `${buf.length} bytes > limit ${opts.maxFileBytes}`, buf.length, hash, stat.mtimeMs);
  }
  if (isBinaryPath(path) || isBinaryContent(buf)) return skipped(path, "binary", null, buf.length, hash, stat.mtimeMs);
  let text: string;
  try {
    text = UTF8.decode(buf);
  } catch {
    return skipped(path, "non_utf8", "content is not valid UTF-8", buf.length, hash, stat.mtimeMs);
  }
  const firstLineEnd = text.indexOf("\n");
  const firstLine = firstLineEnd === -1 ? text : text.slice(0, firstLineEnd);
  const gen = detectGenerated(path, text);
  const secretReasons: string[] = [];
  const nameReason = secretFileNameReason(path);
  if (nameReason) secretReasons.push(nameReason);
  for (const finding of await opts.secretScanner.scan(path, text)) {
    const reason = `secret:${finding.ruleId}`;
    if (!secretReasons.includes(reason)) secretReasons.push(reason);
  }
  return {
    path,
    mtimeMs: stat.mtimeMs,
    language: detectLanguage(path, firstLine),
    sizeBytes: buf.length,
    lineCount: countLines(text),
    contentHash: hash,
    isBinary: false,
    isGenerated: gen.generated,
    isVendored: gen.vendored,
    generatedReason: gen.reason,
    isSecretSuspect: secretReasons.length > 0,
    secretReasons,
    hasInstructionLikeText: isDocPath(path) && detectInstructionLikeText(text).length > 0,
    skipReason: null,
    skipDetail: null,
    symbolStatus: null,
    symbolExtractor: null,
    symbolDetail: null,
    content: text,
  };
}

function errorCode(err: unknown, fallback: string): string {
  const code = (err as { code?: unknown }).code;
  return typeof code === "string" ? code : fallback;
}
