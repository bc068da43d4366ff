import { detectGenerated } from "../indexer/classify/generated.js";
import { detectLanguage } from "../indexer/classify/language.js";
import { runGit } from "../indexer/git.js";
import { LANGUAGES, LEXICAL_LANGUAGES } from "../indexer/symbols/languages.js";
import { isDocPath, isTestPath } from "../policy/labels.js";
import { messageSkipReason, queryOf, subjectOf, type MessageSkipReason } from "./message.js";

/**
 * Which commits of a repository's history make fair retrieval questions: recent first-parent commits with a
 * descriptive message (see message.ts) that touch a few source files. The source files are the answer; the tests
 * the commit touched are the answer for `find_related_tests`.
 */

/** A commit touching more source files than this is a sweep (rename, API migration), not a focused change. */
export const MAX_SOURCE_FILES = 4;
/** History read is bounded: at most this many commits per commit asked for, then selection stops short. */
export const SCAN_FACTOR = 20;

export type SkipReason = MessageSkipReason | "root-commit" | "no-source-files" | "too-many-source-files" | "only-new-source-files";

export type PathKind = "source" | "test" | "other";

/** How git said a file changed (`--no-renames`: a rename is a deletion plus an addition). */
export type ChangeStatus = "A" | "M" | "D" | "T";

export interface TouchedFile {
  path: string;
  status: ChangeStatus;
}

export interface SelectedCommit {
  sha: string;
  parent: string;
  subject: string;
  /** What the evaluation asks: subject and body without trailers, capped (message.ts queryOf). */
  query: string;
  /** Source files the commit changed or deleted: they exist at the parent, so a retriever can find them. */
  targets: string[];
  /** Source files the commit added: not findable at the parent, listed for the record. */
  addedSources: string[];
  /** Test files the commit changed or deleted (the related-tests answer). */
  testTargets: string[];
  /** Test files the commit added: not findable at the parent. */
  addedTests: string[];
}

export interface SkippedCommit {
  sha: string;
  subject: string;
  reason: SkipReason;
}

export interface CommitSelection {
  /** The commit history was read from (resolved HEAD unless another start was given). */
  head: string;
  /** Newest first. */
  selected: SelectedCommit[];
  skipped: SkippedCommit[];
  /** Commits examined (selected plus skipped); at most scanLimit. */
  scanned: number;
  scanLimit: number;
}

export interface SelectOptions {
  count: number;
  /** Where history is read from (default HEAD); a commit-ish, never an option. */
  start?: string;
  scanFactor?: number;
}

/** Languages the indexer extracts symbols from (grammar or lexical fallback): what counts as code here. */
function isCodeLanguage(language: string | null): boolean {
  return language !== null && (language in LANGUAGES || LEXICAL_LANGUAGES.has(language));
}

/**
 * Source, test or other, by path alone (the commit's bytes are not read): the indexer's language detection
 * decides code, and generated, vendored, lock and documentation files are never an answer. Tests are code files
 * on the test-path conventions that `find_related_tests` uses, so both sides agree on what a test is.
 */
export function classifyPath(path: string): PathKind {
  if (isDocPath(path) || detectGenerated(path, null).generated) return "other";
  if (!isCodeLanguage(detectLanguage(path))) return "other";
  return isTestPath(path) ? "test" : "source";
}

interface RawCommit {
  sha: string;
  parents: string[];
  message: string;
  files: TouchedFile[];
}

const RECORD = "\x1e";
const FIELD = "\x1f";
const SHA = /^[0-9a-f]{40,64}$/;

/**
 * One `git log` call lists messages and touched files of the whole scan: `-z` keeps any path intact, the record
 * and field separators (ASCII RS, US) do not occur in commit messages in practice.
 */
export async function readHistory(root: string, start: string, limit: number): Promise<RawCommit[]> {
  const format = `--format=${RECORD}%H${FIELD}%P${FIELD}%B${FIELD}`;
  const args = ["log", "--first-parent", "--no-renames", "--name-status", "-z", format, "-n", String(limit)];
  const out = await runGit(root, args, { revs: [start], paths: [] });
  return parseHistory(out.toString("utf8"));
}

/** Parses readHistory's output; exported for tests of odd paths. */
export function parseHistory(text: string): RawCommit[] {
  const commits: RawCommit[] = [];
  for (const record of text.split(RECORD)) {
    if (record.length === 0) continue;
    const [sha = "", parents = "", message = "", rest = ""] = record.split(FIELD);
    if (!SHA.test(sha)) continue;
    const parts = rest.replace(/^[\0\n]+/, "").split("\0");
    const files: TouchedFile[] = [];
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const status = parts[i]!.replace(/^\n/, "").charAt(0) as ChangeStatus;
      if (parts[i + 1]) files.push({ path: parts[i + 1]!, status });
    }
    commits.push({ sha, parents: parents.split(" ").filter((p) => SHA.test(p)), message, files });
  }
  return commits;
}

/** Why a commit is no fair question, or its question and answers. */
export function judgeCommit(c: RawCommit): SelectedCommit | SkipReason {
  if (c.parents.length > 1) return "merge";
  if (c.parents.length === 0) return "root-commit";
  const byMessage = messageSkipReason(c.message);
  if (byMessage) return byMessage;
  const sources = c.files.filter((f) => classifyPath(f.path) === "source");
  const tests = c.files.filter((f) => classifyPath(f.path) === "test");
  if (sources.length === 0) return "no-source-files";
  if (sources.length > MAX_SOURCE_FILES) return "too-many-source-files";
  const existed = (f: TouchedFile) => f.status !== "A";
  const targets = sources.filter(existed).map((f) => f.path);
  if (targets.length === 0) return "only-new-source-files";
  return {
    sha: c.sha,
    parent: c.parents[0]!,
    subject: subjectOf(c.message),
    query: queryOf(c.message),
    targets,
    addedSources: sources.filter((f) => !existed(f)).map((f) => f.path),
    testTargets: tests.filter(existed).map((f) => f.path),
    addedTests: tests.filter((f) => !existed(f)).map((f) => f.path),
  };
}

/** Newest first along the first parent, until `count` commits are selected or the scan limit is reached. */
export async function selectCommits(root: string, opts: SelectOptions): Promise<CommitSelection> {
  const start = opts.start ?? "HEAD";
  const scanLimit = opts.count * (opts.scanFactor ?? SCAN_FACTOR);
  const history = await readHistory(root, start, scanLimit);
  const selection: CommitSelection = { head: history[0]?.sha ?? "", selected: [], skipped: [], scanned: 0, scanLimit };
  for (const c of history) {
    if (selection.selected.length >= opts.count) break;
    selection.scanned += 1;
    const verdict = judgeCommit(c);
    if (typeof verdict === "string") selection.skipped.push({ sha: c.sha, subject: subjectOf(c.message), reason: verdict });
    else selection.selected.push(verdict);
  }
  return selection;
}

/** Skipped commits counted by reason, for the report. */
export function skipCounts(skipped: SkippedCommit[]): Partial<Record<SkipReason, number>> {
  const counts: Partial<Record<SkipReason, number>> = {};
  for (const s of skipped) counts[s.reason] = (counts[s.reason] ?? 0) + 1;
  return counts;
}
