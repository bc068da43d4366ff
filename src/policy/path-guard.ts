/**
 * Path guard: every repository-relative path a client sends passes through here before any file-system access.
 *
 * `normalizeRepoPath` is pure (no file system): it rejects anything that is not a plain relative path inside the
 * repository and returns a canonical form (forward slashes, no `.` segments, no repeated or trailing slashes).
 * `resolveInsideRoot` then follows symlinks with `realpath` and makes sure the real target is still inside the real
 * repository root and outside git's own folder. `readFileInsideRoot` is the one way a request reads a work-tree file:
 * only a regular file is opened (a directory, FIFO, socket or device never is), and opening cannot block.
 * Messages never contain host paths: only the client's own (relative) input, truncated.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import { QueryError } from "../core/errors.js";

export type PathRejection =
  | "empty_path"
  | "absolute_path"
  | "traversal"
  | "invalid_characters"
  | "too_long"
  | "symlink_escape"
  | "git_dir"
  | "not_found";

/** Why a guarded path could not be read as a file (besides the guard's own rejections). */
export type ReadRejection = PathRejection | "directory" | "special_file" | "too_large" | "unreadable";

export type NormalizeResult = { ok: true; relPath: string } | { ok: false; reason: PathRejection; message: string };

export type GuardResult =
  | { ok: true; relPath: string; absPath: string; realRelPath: string }
  | { ok: false; reason: PathRejection; message: string };

export type ReadResult =
  | { ok: true; relPath: string; absPath: string; realRelPath: string; bytes: Buffer }
  | { ok: false; reason: ReadRejection; message: string };

/** Longest accepted input, in UTF-16 code units. */
export const MAX_PATH_LENGTH = 1024;
/** How much of the client's input a message may echo. */
const MAX_ECHO_LENGTH = 200;
/** Percent-decoding passes, so that double-encoded (`%252e`) input is seen as well. */
const MAX_DECODE_PASSES = 3;
const HEX_RADIX = 16;

/** C0 controls, DEL and C1 controls. */
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;
/** `%XX`; compiled per call (a global regex carries `lastIndex` state). */
const PERCENT_ESCAPE_SOURCE = "%([0-9a-fA-F]{2})";
const WINDOWS_DRIVE = /^[A-Za-z]:/;
const URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
const PARENT_SEGMENT = "..";

function echo(input: string): string {
  const cut = input.length > MAX_ECHO_LENGTH ? `${input.slice(0, MAX_ECHO_LENGTH)}…` : input;
  return JSON.stringify(cut);
}

function reject<R extends ReadRejection>(reason: R, message: string): { ok: false; reason: R; message: string } {
  return { ok: false, reason, message };
}

/** Decodes `%XX` escapes byte by byte; never throws on malformed or partial escapes. */
function percentDecodeOnce(s: string): string {
  return s.replace(new RegExp(PERCENT_ESCAPE_SOURCE, "g"), (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, HEX_RADIX)));
}

/** The input and each of its successive percent-decodings (until stable), backslashes already turned into `/`. */
function decodedForms(input: string): string[] {
  const forms = [input];
  let current = input;
  for (let i = 0; i < MAX_DECODE_PASSES; i++) {
    const next = percentDecodeOnce(current).replace(/\\/g, "/");
    if (next === current) break;
    forms.push(next);
    current = next;
  }
  return forms;
}

function isAbsoluteLike(p: string): boolean {
  return p.startsWith("/") || p.startsWith("~") || WINDOWS_DRIVE.test(p) || URL_SCHEME.test(p);
}

/** `..` as a segment; surrounding spaces are ignored, since some file systems strip them. */
function hasParentSegment(p: string): boolean {
  return p.split("/").some((seg) => seg.trim() === PARENT_SEGMENT);
}

/** A `.git` segment (any case: some file systems ignore it): git's own folder, or a nested repository's. */
export function hasGitSegment(p: string): boolean {
  return p.split("/").some((seg) => seg.toLowerCase() === ".git");
}

/** Pure normalization of a client-supplied repository-relative path. */
export function normalizeRepoPath(input: string): NormalizeResult {
  if (typeof input !== "string" || input.trim() === "") {
    return reject("empty_path", "path is empty; give a path relative to the repository root");
  }
  if (input.length > MAX_PATH_LENGTH) {
    return reject("too_long", `path ${echo(input)} is longer than ${MAX_PATH_LENGTH} characters`);
  }
  const slashed = input.replace(/\\/g, "/");
  const forms = decodedForms(slashed);
  if (forms.some((f) => CONTROL_CHARS.test(f))) {
    return reject("invalid_characters", `path ${echo(input)} contains control characters`);
  }
  if (forms.some(isAbsoluteLike)) {
    return reject(
      "absolute_path",
      "absolute, drive, UNC, URL and home-relative (~) paths are not accepted; give a path relative to the repository root",
    );
  }
  if (forms.some(hasParentSegment)) {
    return reject("traversal", `path ${echo(input)} contains a ".." segment; parent-directory references are not accepted`);
  }
  const segments = slashed.split("/").filter((seg) => seg !== "" && seg !== ".");
  if (segments.length === 0) {
    return reject("empty_path", `path ${echo(input)} names the repository root itself, not a file or directory in it`);
  }
  return { ok: true, relPath: segments.join("/") };
}

function isInside(realRoot: string, candidate: string): boolean {
  if (candidate === realRoot) return true;
  const prefix = realRoot.endsWith(path.sep) ? realRoot : realRoot + path.sep;
  return candidate.startsWith(prefix);
}

/**
 * The guard's file system calls are synchronous: each is a few microseconds on a local work tree, where the promise
 * form queues every step behind the process's four libuv threads, which a busy server's worker threads share (a file
 * slice's seven steps waited seconds in line under load).
 */
function tryRealpath(p: string): string | null {
  try {
    return realpathSync.native(p);
  } catch {
    return null;
  }
}

/**
 * For a path that does not resolve: the real location of its deepest existing ancestor, so that a missing file
 * behind a symlink that leaves the root is reported as an escape (and not as a probe of the outside file system).
 */
function realpathOfDeepestAncestor(realRoot: string, relPath: string): string {
  const segments = relPath.split("/");
  for (let n = segments.length - 1; n > 0; n--) {
    const real = tryRealpath(path.join(realRoot, ...segments.slice(0, n)));
    if (real !== null) return real;
  }
  return realRoot;
}

/** The real location's path relative to the real root, with `/` separators ("" for the root itself). */
function relativeToRoot(realRoot: string, real: string): string {
  return real === realRoot ? "" : path.relative(realRoot, real).split(path.sep).join("/");
}

/**
 * Normalizes `input`, then resolves it (following symlinks) under the real `root`. Succeeds only for an existing
 * path whose real location is the root itself or inside it, and neither the request nor its real location inside a
 * `.git` folder (git's objects, config and hooks are never repository content). `relPath` is the normalized
 * request; `absPath` is the real (symlink-free) location to read; `realRelPath` that location relative to the root,
 * which differs from `relPath` exactly when a symlink was followed on the way.
 */
export async function resolveInsideRoot(root: string, input: string): Promise<GuardResult> {
  const normalized = normalizeRepoPath(input);
  if (!normalized.ok) return normalized;
  const { relPath } = normalized;
  const gitDir = () => reject("git_dir", `path ${echo(relPath)} is inside git's own folder (.git), which is never served`);
  if (hasGitSegment(relPath)) return gitDir();

  const realRoot = tryRealpath(root);
  if (realRoot === null) return reject("not_found", "the repository root is not accessible");

  const real = tryRealpath(path.join(realRoot, relPath));
  if (real === null) {
    const ancestor = realpathOfDeepestAncestor(realRoot, relPath);
    if (!isInside(realRoot, ancestor)) {
      return reject("symlink_escape", `path ${echo(relPath)} goes through a symlink that leaves the repository root`);
    }
    return reject("not_found", `path ${echo(relPath)} does not exist in the repository`);
  }
  if (!isInside(realRoot, real)) {
    return reject("symlink_escape", `path ${echo(relPath)} resolves outside the repository root through a symlink`);
  }
  const realRelPath = relativeToRoot(realRoot, real);
  if (hasGitSegment(realRelPath)) return gitDir();
  return { ok: true, relPath, absPath: real, realRelPath };
}

/** What a non-regular file is, for messages. */
function kindOf(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  return "not a regular file";
}

function notRegular(relPath: string, st: Stats): { ok: false; reason: ReadRejection; message: string } {
  if (st.isDirectory()) return reject("directory", `path ${echo(relPath)} is a directory, not a file`);
  return reject("special_file", `path ${echo(relPath)} is ${kindOf(st)}, not a regular file: it is never read`);
}

/** Never blocks on a FIFO swapped in after the check, never follows a symlink swapped in for the last segment. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

function errnoOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

/** The file's first `size` bytes (fewer if it shrank): a file that grows while read never makes this read more. */
function readAtMost(fd: number, size: number): Buffer {
  const buf = Buffer.alloc(size);
  let filled = 0;
  while (filled < size) {
    const bytesRead = readSync(fd, buf, filled, size - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buf.subarray(0, filled);
}

function statOrNull(p: string): Stats | null {
  try {
    return statSync(p);
  } catch {
    return null;
  }
}

/** A guarded path that names a regular file: the guard's answer plus the file's size. */
export type StatResult = (Extract<GuardResult, { ok: true }> & { size: number }) | { ok: false; reason: ReadRejection; message: string };

/** `resolveInsideRoot`, then the file itself: a directory, FIFO, socket or device is refused, never opened. */
export async function statInsideRoot(root: string, input: string): Promise<StatResult> {
  const guard = await resolveInsideRoot(root, input);
  if (!guard.ok) return guard;
  const st = statOrNull(guard.absPath);
  if (st === null) return reject("not_found", `path ${echo(guard.relPath)} does not exist in the repository`);
  if (!st.isFile()) return notRegular(guard.relPath, st);
  return { ...guard, size: st.size };
}

/**
 * Reads a client-named file through `statInsideRoot`: only a regular file of at most `maxBytes` is opened, and what
 * was opened is checked again (a path swapped for a FIFO, device or directory between the check and the open is
 * refused, never read).
 */
export async function readFileInsideRoot(root: string, input: string, maxBytes: number): Promise<ReadResult> {
  const found = await statInsideRoot(root, input);
  if (!found.ok) return found;
  const { size, ...guard } = found;
  const { relPath } = guard;
  const tooLarge = (n: number) => reject("too_large", `path ${echo(relPath)} is too large to read (${n} bytes)`);
  if (size > maxBytes) return tooLarge(size);
  let fd: number;
  try {
    fd = openSync(guard.absPath, OPEN_FLAGS);
  } catch (err) {
    if (errnoOf(err) === "ENOENT") return reject("not_found", `path ${echo(relPath)} does not exist in the repository`);
    if (errnoOf(err) === "ELOOP") return reject("symlink_escape", `path ${echo(relPath)} was replaced by a symlink while being read`);
    return reject("unreadable", `path ${echo(relPath)} cannot be read (${errnoOf(err) ?? "error"})`);
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) return notRegular(relPath, opened);
    if (opened.size > maxBytes) return tooLarge(opened.size);
    return { ...guard, bytes: readAtMost(fd, opened.size) };
  } catch (err) {
    return reject("unreadable", `path ${echo(relPath)} cannot be read (${errnoOf(err) ?? "error"})`);
  } finally {
    closeSync(fd);
  }
}

/**
 * The error a tool answers for a rejected path: a path with nothing to read there (missing, a directory) is
 * `not_found`; one the server will not read (outside the root, into `.git`, a FIFO or device, too large) is
 * `query_rejected`.
 */
export function pathError(r: { reason: ReadRejection; message: string }, hint?: string): QueryError {
  const category = r.reason === "not_found" || r.reason === "directory" ? "not_found" : "query_rejected";
  return new QueryError(category, r.message, hint);
}
