/**
 * Path guard: every repository-relative path a client sends passes through here before any file-system access.
 *
 * `normalizeRepoPath` is pure (no file system): it rejects anything that is not a plain relative path inside the
 * repository and returns a canonical form (forward slashes, no `.` segments, no repeated or trailing slashes).
 * `resolveInsideRoot` then follows symlinks with `realpath` and makes sure the real target is still inside the real
 * repository root. Messages never contain host paths: only the client's own (relative) input, truncated.
 */
import { realpath } from "node:fs/promises";
import path from "node:path";

export type PathRejection =
  | "empty_path"
  | "absolute_path"
  | "traversal"
  | "invalid_characters"
  | "too_long"
  | "symlink_escape"
  | "not_found";

export type NormalizeResult = { ok: true; relPath: string } | { ok: false; reason: PathRejection; message: string };

export type GuardResult =
  | { ok: true; relPath: string; absPath: string }
  | { ok: false; reason: PathRejection; message: string };

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

function reject(reason: PathRejection, message: string): { ok: false; reason: PathRejection; message: string } {
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

async function tryRealpath(p: string): Promise<string | null> {
  try {
    return await realpath(p);
  } catch {
    return null;
  }
}

/**
 * For a path that does not resolve: the real location of its deepest existing ancestor, so that a missing file
 * behind a symlink that leaves the root is reported as an escape (and not as a probe of the outside file system).
 */
async function realpathOfDeepestAncestor(realRoot: string, relPath: string): Promise<string> {
  const segments = relPath.split("/");
  for (let n = segments.length - 1; n > 0; n--) {
    const real = await tryRealpath(path.join(realRoot, ...segments.slice(0, n)));
    if (real !== null) return real;
  }
  return realRoot;
}

/**
 * Normalizes `input`, then resolves it (following symlinks) under the real `root`. Succeeds only for an existing
 * path whose real location is the root itself or inside it. `relPath` is the normalized request; `absPath` is the
 * real (symlink-free) location to read.
 */
export async function resolveInsideRoot(root: string, input: string): Promise<GuardResult> {
  const normalized = normalizeRepoPath(input);
  if (!normalized.ok) return normalized;
  const { relPath } = normalized;

  const realRoot = await tryRealpath(root);
  if (realRoot === null) return reject("not_found", "the repository root is not accessible");

  const real = await tryRealpath(path.join(realRoot, relPath));
  if (real === null) {
    const ancestor = await realpathOfDeepestAncestor(realRoot, relPath);
    if (!isInside(realRoot, ancestor)) {
      return reject("symlink_escape", `path ${echo(relPath)} goes through a symlink that leaves the repository root`);
    }
    return reject("not_found", `path ${echo(relPath)} does not exist in the repository`);
  }
  if (!isInside(realRoot, real)) {
    return reject("symlink_escape", `path ${echo(relPath)} resolves outside the repository root through a symlink`);
  }
  return { ok: true, relPath, absPath: real };
}
