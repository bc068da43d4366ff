/**
 * Whether a commit message describes a change well enough to stand in for the task text an agent would get.
 *
 * The evaluation queries with the message, so a message that names nothing ("wip", "bump version", "fix typo")
 * would measure the message, not the retrieval. The heuristic is deliberately simple and explainable:
 *  1. Noise is stripped from the subject first — conventional-commit prefixes (`fix:`, `feat(parser)!:`),
 *     bracketed tags (`[core]`), issue and pull-request references (`#123`, `GH-45`, `(#678)`, `JIRA-9`,
 *     `fixes #12`), because they carry no words a retriever could use.
 *  2. Messages of kinds that never describe behaviour are rejected by pattern, each with its own reason (merge,
 *     revert, release or version bump, dependency bump, work in progress, README edit, formatting or typo fix).
 *  3. What remains must have at least MIN_SUBJECT_WORDS words (a token containing a letter).
 */

/** Subjects shorter than this many words (after stripping) rarely say what changed. */
export const MIN_SUBJECT_WORDS = 4;

/** The query is the message with trailers removed, cut at this many characters (long bodies are mostly detail). */
export const MAX_QUERY_CHARS = 1000;

export type MessageSkipReason = "merge" | "revert" | "release" | "dependency-bump" | "wip" | "readme" | "formatting" | "short-message";

/** Conventional-commit type with optional scope and breaking mark: `fix:`, `feat(parser)!:`, `chore(deps):`. */
const CONVENTIONAL_PREFIX = /^[a-z][\w-]*(\([^)]*\))?!?:\s*/i;
/** Leading bracketed tags: `[core] `, `[WIP] ` (the WIP pattern below sees the original subject). */
const BRACKET_TAG = /^\[[^\]]*\]\s*/;
/** Issue and pull-request references with an optional verb: `fixes #12`, `(#678)`, `GH-45`, `ABC-123`. */
const ISSUE_REF = /\b(?:(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?|refs?|see)\s+)?(?:#\d+|gh-\d+|[A-Z][A-Z0-9]+-\d+)\b|\(#\d+\)|#\d+/gi;
/** A word has at least one letter: numbers and lone punctuation do not describe anything. */
const WORD = /[\p{L}]/u;

/** Rejected kinds, in the order they are tested (the first match names the reason). */
const REJECTIONS: readonly (readonly [MessageSkipReason, RegExp])[] = [
  ["merge", /^merge\b/i],
  ["revert", /^revert\b/i],
  ["wip", /^(wip|tmp|temp)\b|^(fixup|squash|amend)!|\bwip\b/i],
  // "Release 2.3", "Bump version to 1.4.0", "v1.2.3", "Prepare 3.0 release", "[maven-release-plugin] prepare ..."
  ["release", /^(release|prepare|cut|tag)\b.*(\d+\.\d+|release|version)|\bbump(s|ed)?\s+(the\s+)?version\b|^v?\d+\.\d+(\.\d+)?\b|maven-release-plugin|^(update|set)\s+(the\s+)?version\b/i],
  // Dependabot and friends: "Bump lodash from 4.17.20 to 4.17.21", "Update dependency x to v2", "Upgrade foo to 1.2".
  // "Bump Error Prone to 2.50.0", "Bump com.foo:bar (#12)", "Bump the maven group across 1 directory" — a subject
  // opening with "bump" is a version change in practice.
  ["dependency-bump", /^bump(s|ed)?\b|^(update|upgrade)\s+\S+\s+(from\s+\S+\s+)?to\s+v?\d|^(update|upgrade)\s+(the\s+)?(dependency|dependencies|deps)\b|\b(dependabot|renovate)\b/i],
  ["readme", /^(update|edit|improve|fix|tweak|change)[sd]?\s+(the\s+)?readme\b/i],
  // Formatting-only and typo-only changes: the message names a tool or a kind of cosmetic edit, not behaviour.
  ["formatting", /^(format|reformat|lint|prettier|whitespace|style|cleanup|clean up)\b|^(fix|fixed|fixes|correct)\s+(a\s+|some\s+|the\s+)?(typos?|spelling|formatting|lint|whitespace|indentation|style)\b|^(run|apply|applied)\s+(prettier|black|gofmt|rustfmt|clang-format|spotless|eslint --fix)/i],
];

/** Subject without conventional prefix, bracket tags and issue references, whitespace collapsed. */
export function strippedSubject(subject: string): string {
  let s = subject.trim();
  for (let previous = ""; previous !== s; ) {
    previous = s;
    s = s.replace(BRACKET_TAG, "").replace(CONVENTIONAL_PREFIX, "");
  }
  return s.replace(ISSUE_REF, " ").replace(/\s+/g, " ").trim();
}

/** Words of a stripped subject (tokens containing a letter). */
export function descriptiveWords(subject: string): string[] {
  return strippedSubject(subject)
    .split(" ")
    .filter((w) => WORD.test(w));
}

/** null when the message is descriptive; otherwise why it is not. */
export function messageSkipReason(message: string): MessageSkipReason | null {
  const subject = subjectOf(message);
  const stripped = strippedSubject(subject);
  for (const [reason, pattern] of REJECTIONS) if (pattern.test(subject) || pattern.test(stripped)) return reason;
  return descriptiveWords(subject).length < MIN_SUBJECT_WORDS ? "short-message" : null;
}

export function subjectOf(message: string): string {
  return message.trim().split("\n", 1)[0]!.trim();
}

/** `Signed-off-by: …`, `Co-authored-by: …`, `Change-Id: …`: metadata lines git and review tools append. */
const TRAILER = /^[A-Z][A-Za-z]*(-[A-Za-z]+)*-(by|Id|id|on):\s|^(Bug|Fixes|Closes|Link|Cc|Issue|Refs):\s/;

/**
 * The query the evaluation sends: subject and body, trailers removed, trimmed and cut at MAX_QUERY_CHARS —
 * what an agent would paste from an issue. The subject is kept as written (prefixes included): a scope such
 * as `fix(parser):` is part of what the author said.
 */
export function queryOf(message: string): string {
  const lines = message.trim().split("\n");
  while (lines.length > 1 && (TRAILER.test(lines[lines.length - 1]!.trim()) || lines[lines.length - 1]!.trim() === "")) lines.pop();
  const text = lines.join("\n").trim();
  return text.length > MAX_QUERY_CHARS ? text.slice(0, MAX_QUERY_CHARS) : text;
}
