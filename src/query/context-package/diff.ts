/**
 * Unified diffs for context packages (Part 032: judging, verification_repair, pr_summary): which files a change
 * touches, how and by how much, and whether it stays inside the task's path rules. The text comes from the caller
 * and is untrusted: parsing never throws, runs in one pass over the lines, keeps a bounded amount and says what it cut.
 */

/** Input past this many characters is not read (cut at a line boundary): a diff that large is not context. */
export const MAX_DIFF_CHARS = 16 * 1024 * 1024;
/** Files kept in `files`; later files still count in the totals. */
export const MAX_DIFF_FILES = 2000;
/** Hunks kept per file; later hunks still count in the file's added/removed. */
export const MAX_HUNKS_PER_FILE = 1000;
/** Hunk text (headers and lines) kept per file: enough to show a change, bounded for a generated or vendored file. */
export const MAX_HUNK_TEXT_CHARS_PER_FILE = 64 * 1024;
/** Malformed lines listed; garbage input would otherwise list every line. */
export const MAX_MALFORMED = 100;
/** Header lines longer than this are not parsed as headers: no real path is that long. */
const MAX_HEADER_LINE_CHARS = 4096;

export type DiffFileStatus = "added" | "deleted" | "modified" | "renamed" | "copied" | "mode_changed";

export interface DiffHunk {
  /** The `@@ … @@` line. */
  header: string;
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  added: number;
  removed: number;
  /** The hunk's lines, header included, joined by `\n` (CR stripped); partial when the file's text budget ran out. */
  text: string;
}

export interface DiffFile {
  /** The new path, or the old one when the file was deleted. */
  path: string;
  oldPath: string | null;
  newPath: string | null;
  status: DiffFileStatus;
  binary: boolean;
  /** Git file modes (`100644`, `100755`, `120000`) when the diff states them. */
  oldMode: string | null;
  newMode: string | null;
  added: number;
  removed: number;
  hunks: DiffHunk[];
  /** Some of this file's hunks or hunk text were not kept (the counts are still complete). */
  truncated: boolean;
}

export interface DiffMalformed {
  /** 1-based line of the input. */
  line: number;
  reason: string;
}

export interface ParsedDiff {
  files: DiffFile[];
  /** Files in the diff, including any past MAX_DIFF_FILES that `files` does not hold. */
  totalFiles: number;
  totalAdded: number;
  totalRemoved: number;
  /** Something was cut: input, files, hunks, hunk text or the malformed list. */
  truncated: boolean;
  malformed: DiffMalformed[];
}

/** Git's source/destination prefixes: the default and the `diff.mnemonicPrefix` ones. */
const GIT_PREFIX_PAIRS: readonly (readonly [string, string])[] = [
  ["a/", "b/"],
  ["c/", "w/"],
  ["c/", "i/"],
  ["i/", "w/"],
  ["o/", "w/"],
  ["1/", "2/"],
];
/** Without a `diff --git` header only the default pair is git's; `old/` `new/` from `diff -ruN` are real folders. */
const PLAIN_PREFIX_PAIR = GIT_PREFIX_PAIRS[0]!;

const HUNK_HEADER = /^@@ -(\d{1,9})(?:,(\d{1,9}))? \+(\d{1,9})(?:,(\d{1,9}))? @@/;
const EXTENDED_HEADER =
  /^(old mode|new mode|deleted file mode|new file mode|rename from|rename to|rename old|rename new|copy from|copy to) (.+)$/;
const IGNORED_EXTENDED_HEADER = /^(?:index |similarity index |dissimilarity index )/;
const HEADER_START = /^(?:diff --git |--- |\+\+\+ |@@ |rename |copy |Binary files )/;
/** `diff -N` shows a missing file as empty with the epoch as its time (in local time, hence the day before). */
const EPOCH_TIMESTAMP = /^(?:1970-01-01|1969-12-31) /;
const C_ESCAPES: Readonly<Record<string, number>> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };
const OCTAL_ESCAPE = /^[0-7]{1,3}/;

interface DraftHunk extends Omit<DiffHunk, "text"> {
  lines: string[];
}

interface OpenHunk {
  /** null when the hunk is counted but not kept. */
  draft: DraftHunk | null;
  oldLeft: number;
  newLeft: number;
}

/** A side of a `---`/`+++` or `Binary files` line: null is /dev/null; epoch marks a `diff -N` stand-in. */
interface SidePath {
  path: string | null;
  epoch: boolean;
}

interface FileDraft {
  line: number;
  git: boolean;
  prefixes: readonly [string, string] | null;
  headerOld: string | null;
  headerNew: string | null;
  minus: SidePath | null;
  plus: SidePath | null;
  renameFrom: string | null;
  renameTo: string | null;
  copyFrom: string | null;
  copyTo: string | null;
  newFile: boolean;
  deletedFile: boolean;
  oldMode: string | null;
  newMode: string | null;
  binary: boolean;
  added: number;
  removed: number;
  hunkCount: number;
  oldSideEmpty: boolean;
  newSideEmpty: boolean;
  hunks: DraftHunk[];
  textChars: number;
  truncated: boolean;
  kept: boolean;
}

interface ParseState extends ParsedDiff {
  file: FileDraft | null;
  hunk: OpenHunk | null;
  /** The hunk that just ended, for a `\ No newline at end of file` right after it. */
  lastHunk: DraftHunk | null;
  /** header: after `diff --git`, before the first hunk; binary: inside a `GIT binary patch`. */
  mode: "outside" | "header" | "binary";
}

/**
 * Parses `git diff` / `git format-patch` output and plain `diff -u` / `diff -ruN` output. Lines that are not part
 * of a diff (a commit message, `Only in …`) are skipped; lines that break a diff's structure are listed in
 * `malformed`. Never throws.
 */
export function parseUnifiedDiff(text: string): ParsedDiff {
  const st: ParseState = {
    files: [],
    totalFiles: 0,
    totalAdded: 0,
    totalRemoved: 0,
    truncated: false,
    malformed: [],
    file: null,
    hunk: null,
    lastHunk: null,
    mode: "outside",
  };
  const lines = diffLines(text, st);
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (st.hunk && consumeHunkLine(st, line, i + 1)) continue;
    if (handleLine(st, line, lines[i + 1], i + 1)) i += 1;
  }
  if (st.hunk) malformed(st, lines.length, `hunk cut short at end of input: ${st.hunk.oldLeft} old and ${st.hunk.newLeft} new lines missing`);
  finishFile(st);
  if (st.totalFiles === 0 && /\S/.test(text)) malformed(st, 1, "no diff found (no diff --git, ---/+++ or Binary files lines)");
  const { files, totalFiles, totalAdded, totalRemoved, truncated } = st;
  return { files, totalFiles, totalAdded, totalRemoved, truncated, malformed: st.malformed };
}

/** Lines without their CR, cut to MAX_DIFF_CHARS at a line boundary. */
function diffLines(text: string, st: ParseState): string[] {
  let body = text;
  if (body.length > MAX_DIFF_CHARS) {
    const cut = body.lastIndexOf("\n", MAX_DIFF_CHARS);
    body = body.slice(0, cut === -1 ? MAX_DIFF_CHARS : cut);
    st.truncated = true;
  }
  const lines = body.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (let i = 0; i < lines.length; i += 1) {
    const l = lines[i]!;
    if (l.endsWith("\r")) lines[i] = l.slice(0, -1);
  }
  return lines;
}

function malformed(st: ParseState, line: number, reason: string): void {
  if (st.malformed.length < MAX_MALFORMED) st.malformed.push({ line, reason });
  else st.truncated = true;
}

/** One line inside a hunk; false when the line cannot belong to it (the hunk is closed and the line handled anew). */
function consumeHunkLine(st: ParseState, line: string, lineNo: number): boolean {
  const h = st.hunk!;
  const f = st.file!;
  const c = line[0];
  if (c === "\\") {
    // "\ No newline at end of file": part of the hunk, counted on neither side.
  } else if ((c === " " || c === undefined) && h.oldLeft > 0 && h.newLeft > 0) {
    h.oldLeft -= 1;
    h.newLeft -= 1;
  } else if (c === "-" && h.oldLeft > 0) {
    h.oldLeft -= 1;
    f.removed += 1;
    if (h.draft) h.draft.removed += 1;
  } else if (c === "+" && h.newLeft > 0) {
    h.newLeft -= 1;
    f.added += 1;
    if (h.draft) h.draft.added += 1;
  } else {
    malformed(st, lineNo, `hunk cut short: ${h.oldLeft} old and ${h.newLeft} new lines missing`);
    st.hunk = null;
    return false;
  }
  if (h.draft) appendHunkLine(f, h.draft, line);
  if (h.oldLeft === 0 && h.newLeft === 0) {
    st.hunk = null;
    st.lastHunk = h.draft;
  }
  return true;
}

/** A line outside any hunk. True when it also consumed `next` (a `---`/`+++` pair). */
function handleLine(st: ParseState, line: string, next: string | undefined, lineNo: number): boolean {
  const justEnded = st.lastHunk;
  st.lastHunk = null;
  if (line.length > MAX_HEADER_LINE_CHARS) {
    if (st.mode !== "binary" && HEADER_START.test(line)) malformed(st, lineNo, `header line over ${MAX_HEADER_LINE_CHARS} characters`);
    if (st.mode === "header") st.mode = "outside";
    return false;
  }
  if (line.startsWith("diff --git ")) {
    startGitFile(st, line.slice("diff --git ".length), lineNo);
    return false;
  }
  if (st.mode === "binary") return false;
  if (line.startsWith("@@")) {
    openHunk(st, line, lineNo);
    return false;
  }
  if (line.startsWith("--- ")) {
    if (next?.startsWith("+++ ")) {
      setSidePaths(st, line.slice(4), next.slice(4), lineNo);
      return true;
    }
    if (st.mode === "header") malformed(st, lineNo, "--- line without a +++ line after it");
  }
  if (st.mode === "header" && st.file && readExtendedHeader(st.file, line)) return false;
  if (line.startsWith("Binary files ") && line.endsWith(" differ")) {
    binaryFiles(st, line.slice("Binary files ".length, -" differ".length), lineNo);
  } else if (line === "GIT binary patch" && st.file) {
    st.file.binary = true;
    st.mode = "binary";
  } else if (line.startsWith("\\") && justEnded && st.file) {
    appendHunkLine(st.file, justEnded, line);
  } else if (line === "-- ") {
    // format-patch's signature separator: what follows belongs to no file.
    finishFile(st);
  } else if (st.mode === "header") {
    st.mode = "outside";
  }
  return false;
}

function newDraft(st: ParseState, line: number, git: boolean, prefixes: readonly [string, string] | null): FileDraft {
  return {
    line,
    git,
    prefixes,
    headerOld: null,
    headerNew: null,
    minus: null,
    plus: null,
    renameFrom: null,
    renameTo: null,
    copyFrom: null,
    copyTo: null,
    newFile: false,
    deletedFile: false,
    oldMode: null,
    newMode: null,
    binary: false,
    added: 0,
    removed: 0,
    hunkCount: 0,
    oldSideEmpty: true,
    newSideEmpty: true,
    hunks: [],
    textChars: 0,
    truncated: false,
    kept: st.files.length < MAX_DIFF_FILES,
  };
}

function startGitFile(st: ParseState, rest: string, lineNo: number): void {
  finishFile(st);
  const pair = splitGitHeader(rest);
  if (!pair) malformed(st, lineNo, "unparseable diff --git header");
  const prefixes = pair ? (GIT_PREFIX_PAIRS.find(([o, n]) => pair[0].startsWith(o) && pair[1].startsWith(n)) ?? null) : null;
  const f = newDraft(st, lineNo, true, prefixes);
  if (pair) {
    f.headerOld = cleanPath(stripPrefix(pair[0], prefixes?.[0]));
    f.headerNew = cleanPath(stripPrefix(pair[1], prefixes?.[1]));
  }
  st.file = f;
  st.mode = "header";
}

/**
 * The two names of `diff --git A B`. Either may be C-quoted. Unquoted names may hold spaces, so the usual case
 * (the same name on both sides) is split in the middle, as git itself does; a rename's names come from its
 * `rename from`/`rename to` lines anyway.
 */
function splitGitHeader(rest: string): [string, string] | null {
  if (rest.startsWith('"')) {
    const a = unquoteC(rest, 0);
    if (!a || rest[a.end] !== " ") return null;
    const b = quotedOrPlain(rest.slice(a.end + 1));
    return b === null ? null : [a.value, b];
  }
  const q = rest.lastIndexOf(' "');
  if (q > 0 && rest.endsWith('"')) {
    const b = unquoteC(rest, q + 1);
    if (b && b.end === rest.length) return [rest.slice(0, q), b.value];
  }
  if (rest.length % 2 === 1) {
    const mid = (rest.length - 1) / 2;
    const a = rest.slice(0, mid);
    const b = rest.slice(mid + 1);
    if (rest[mid] === " " && (a === b || (a[1] === "/" && b[1] === "/" && a.slice(2) === b.slice(2)))) return [a, b];
  }
  for (const [o, n] of GIT_PREFIX_PAIRS) {
    const i = rest.startsWith(o) ? rest.indexOf(` ${n}`) : -1;
    if (i > 0) return [rest.slice(0, i), rest.slice(i + 1)];
  }
  const sp = rest.indexOf(" ");
  return sp > 0 ? [rest.slice(0, sp), rest.slice(sp + 1)] : null;
}

function quotedOrPlain(s: string): string | null {
  if (!s.startsWith('"')) return s;
  const q = unquoteC(s, 0);
  return q && q.end === s.length ? q.value : null;
}

/**
 * A C-quoted name as git writes it (`"a/sp\303\251 ce.txt"`): octal escapes are UTF-8 bytes. Returns the value and
 * the index after the closing quote, or null when the quote is not closed.
 */
function unquoteC(s: string, start: number): { value: string; end: number } | null {
  const encoder = new TextEncoder();
  const bytes: number[] = [];
  let run = start + 1;
  const flush = (to: number): void => {
    if (to > run) for (const b of encoder.encode(s.slice(run, to))) bytes.push(b);
  };
  for (let i = start + 1; i < s.length; i += 1) {
    const c = s[i]!;
    if (c === '"') {
      flush(i);
      return { value: new TextDecoder().decode(Uint8Array.from(bytes)), end: i + 1 };
    }
    if (c !== "\\") continue;
    flush(i);
    const e = s[i + 1] ?? "";
    const octal = OCTAL_ESCAPE.exec(s.slice(i + 1, i + 4));
    if (octal) {
      bytes.push(parseInt(octal[0], 8) & 0xff);
      i += octal[0].length;
    } else {
      for (const b of encoder.encode(C_ESCAPES[e] !== undefined ? String.fromCharCode(C_ESCAPES[e]) : e)) bytes.push(b);
      i += 1;
    }
    run = i + 1;
  }
  return null;
}

function stripPrefix(path: string, prefix: string | undefined): string {
  return prefix && path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** "" is no path; a leading `./` (from `diff -u ./x ./y`) is not part of the repository path. */
function cleanPath(path: string): string | null {
  const p = path.startsWith("./") ? path.slice(2) : path;
  return p === "" ? null : p;
}

/** One side of `--- NAME<TAB>time`: quoted or up to the tab; /dev/null is null. */
function readSidePath(raw: string): SidePath {
  if (raw.startsWith('"')) {
    const q = unquoteC(raw, 0);
    if (q) return { path: q.value === "/dev/null" ? null : q.value, epoch: EPOCH_TIMESTAMP.test(raw.slice(q.end).trimStart()) };
  }
  const tab = raw.indexOf("\t");
  const name = tab === -1 ? raw : raw.slice(0, tab);
  return { path: name === "/dev/null" ? null : name, epoch: tab !== -1 && EPOCH_TIMESTAMP.test(raw.slice(tab + 1)) };
}

function setSidePaths(st: ParseState, minusRaw: string, plusRaw: string, lineNo: number): void {
  const minus = readSidePath(minusRaw);
  const plus = readSidePath(plusRaw);
  let f = st.file;
  if (!(f && f.git && st.mode === "header")) {
    finishFile(st);
    f = newDraft(st, lineNo, false, plainPrefixes(minus.path, plus.path));
    st.file = f;
  }
  f.minus = { path: minus.path === null ? null : cleanPath(stripPrefix(minus.path, f.prefixes?.[0])), epoch: minus.epoch };
  f.plus = { path: plus.path === null ? null : cleanPath(stripPrefix(plus.path, f.prefixes?.[1])), epoch: plus.epoch };
  st.mode = "outside";
}

/** Without a git header, `a/` and `b/` are stripped only when every named side carries its own. */
function plainPrefixes(minus: string | null, plus: string | null): readonly [string, string] | null {
  const [o, n] = PLAIN_PREFIX_PAIR;
  if (minus === null && plus === null) return null;
  return (minus === null || minus.startsWith(o)) && (plus === null || plus.startsWith(n)) ? PLAIN_PREFIX_PAIR : null;
}

function readExtendedHeader(f: FileDraft, line: string): boolean {
  if (IGNORED_EXTENDED_HEADER.test(line)) return true;
  const m = EXTENDED_HEADER.exec(line);
  if (!m) return false;
  const value = m[2]!;
  const path = (): string | null => cleanPath(quotedOrPlain(value) ?? value);
  switch (m[1]) {
    case "old mode": f.oldMode = value; break;
    case "new mode": f.newMode = value; break;
    case "deleted file mode": f.deletedFile = true; f.oldMode = value; break;
    case "new file mode": f.newFile = true; f.newMode = value; break;
    case "rename from": case "rename old": f.renameFrom = path(); break;
    case "rename to": case "rename new": f.renameTo = path(); break;
    case "copy from": f.copyFrom = path(); break;
    case "copy to": f.copyTo = path(); break;
  }
  return true;
}

/** `Binary files A and B differ`: part of the git file being read, or a file of its own in `diff -r` output. */
function binaryFiles(st: ParseState, names: string, lineNo: number): void {
  if (st.file && st.mode === "header") {
    st.file.binary = true;
    return;
  }
  const pair = splitBinaryNames(names);
  if (!pair) {
    malformed(st, lineNo, "unparseable Binary files line");
    return;
  }
  setSidePaths(st, pair[0], pair[1], lineNo);
  st.file!.binary = true;
}

function splitBinaryNames(names: string): [string, string] | null {
  if (names.startsWith('"')) {
    const a = unquoteC(names, 0);
    return a && names.startsWith(" and ", a.end) ? [names.slice(0, a.end), names.slice(a.end + 5)] : null;
  }
  const i = names.indexOf(" and ");
  return i > 0 ? [names.slice(0, i), names.slice(i + 5)] : null;
}

function openHunk(st: ParseState, line: string, lineNo: number): void {
  st.mode = "outside";
  const f = st.file;
  if (!f) {
    malformed(st, lineNo, "hunk header before any file header");
    return;
  }
  const m = HUNK_HEADER.exec(line);
  if (!m) {
    malformed(st, lineNo, line.startsWith("@@@") ? "combined (merge) diff hunks are not supported" : "unparseable hunk header");
    return;
  }
  const oldStart = Number(m[1]);
  const oldLines = Number(m[2] ?? "1");
  const newStart = Number(m[3]);
  const newLines = Number(m[4] ?? "1");
  f.hunkCount += 1;
  f.oldSideEmpty &&= oldStart === 0 && oldLines === 0;
  f.newSideEmpty &&= newStart === 0 && newLines === 0;
  let draft: DraftHunk | null = null;
  if (f.kept && f.hunks.length < MAX_HUNKS_PER_FILE) {
    draft = { header: line, oldStart, oldLines, newStart, newLines, added: 0, removed: 0, lines: [] };
    f.hunks.push(draft);
    appendHunkLine(f, draft, line);
  } else if (f.kept) {
    f.truncated = true;
  }
  st.hunk = oldLines + newLines > 0 ? { draft, oldLeft: oldLines, newLeft: newLines } : null;
}

/** Keeps a line of hunk text while the file's budget lasts; after the first cut none is kept, so no text has gaps. */
function appendHunkLine(f: FileDraft, draft: DraftHunk, line: string): void {
  if (f.truncated) return;
  if (f.textChars + line.length + 1 > MAX_HUNK_TEXT_CHARS_PER_FILE) {
    f.truncated = true;
    return;
  }
  f.textChars += line.length + 1;
  draft.lines.push(line);
}

function finishFile(st: ParseState): void {
  const f = st.file;
  st.file = null;
  st.hunk = null;
  st.mode = "outside";
  if (!f) return;
  const file = finalizeFile(f);
  if (!file) {
    malformed(st, f.line, "file header without a usable path");
    return;
  }
  st.totalFiles += 1;
  st.totalAdded += file.added;
  st.totalRemoved += file.removed;
  if (f.kept) st.files.push(file);
  else st.truncated = true;
  if (file.truncated) st.truncated = true;
}

function finalizeFile(f: FileDraft): DiffFile | null {
  let oldPath = f.renameFrom ?? f.copyFrom ?? (f.minus ? f.minus.path : f.headerOld);
  let newPath = f.renameTo ?? f.copyTo ?? (f.plus ? f.plus.path : f.headerNew);
  const plainAdded = !f.git && f.hunkCount > 0 && f.oldSideEmpty && f.minus?.epoch === true;
  const plainDeleted = !f.git && f.hunkCount > 0 && f.newSideEmpty && f.plus?.epoch === true;
  if (f.newFile || plainAdded) oldPath = null;
  if (f.deletedFile || plainDeleted) newPath = null;
  const path = newPath ?? oldPath;
  if (path === null) return null;
  let status: DiffFileStatus;
  if (oldPath === null) status = "added";
  else if (newPath === null) status = "deleted";
  else if (f.renameFrom !== null || f.renameTo !== null) status = "renamed";
  else if (f.copyFrom !== null || f.copyTo !== null) status = "copied";
  else if (f.oldMode !== null && f.newMode !== null && f.hunkCount === 0 && !f.binary) status = "mode_changed";
  else status = "modified";
  return {
    path,
    oldPath,
    newPath,
    status,
    binary: f.binary,
    oldMode: f.oldMode,
    newMode: f.newMode,
    added: f.added,
    removed: f.removed,
    hunks: f.hunks.map(({ lines, ...h }) => ({ ...h, text: lines.join("\n") })),
    truncated: f.truncated,
  };
}
