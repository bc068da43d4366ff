import type { CandidateFile, FileRow } from "../../store/store.js";
import type { QueryContext } from "../context.js";
import { proseLines } from "./prose.js";

/**
 * A heuristic found in file text: a literal fragment the trigram index narrows candidates with (case-insensitive,
 * at least three characters), and the line pattern that confirms a hit on the code's lines (comments and
 * docstrings are skipped: prose.ts).
 */
export interface ContentRule {
  id: string;
  fragment: string;
  line: RegExp;
  /** Only files whose path passes (e.g. source files of some languages). */
  path?: RegExp;
  /**
   * The pattern names identifiers, not text: string literals holding whitespace (messages, prose) are blanked
   * before it is tested, so `"set the secret_key first"` is no hit while `config["SECRET_KEY"]` still is.
   */
  codeOnly?: boolean;
}

export interface RuleMatch {
  file: FileRow;
  /** First matching lines (1-based), at most MAX_LINES_PER_FILE, and how many lines matched in all. */
  lines: number[];
  matchedLines: number;
}

const MAX_LINES_PER_FILE = 5;
/** Candidate ids fetched per text read allowed: most candidates of a broad fragment fail the path filter. */
const CANDIDATES_PER_READ = 20;

/**
 * Files matching a content rule, at most `maxFiles`, reading at most `maxReads` candidate texts. Vendored and
 * secret-suspect files are left out: hints about them would point at code nobody here edits, or at secrets.
 */
export async function scanContentRule(
  ctx: QueryContext,
  rule: ContentRule,
  limits: { maxFiles: number; maxReads: number; pathPrefix?: string; skip?: (f: CandidateFile) => boolean },
): Promise<{ matches: RuleMatch[]; more: boolean }> {
  // Candidates are ids and paths only (no text): take many, filter by path for free, read only the survivors.
  const { files, more: moreCandidates } = await ctx.store.candidateFiles(
    ctx.index.id,
    { fragments: [rule.fragment], ...(limits.pathPrefix ? { pathPrefix: limits.pathPrefix } : {}) },
    limits.maxReads * CANDIDATES_PER_READ,
  );
  const matches: RuleMatch[] = [];
  let more = moreCandidates;
  let reads = 0;
  for (const f of files) {
    if (f.isVendored || f.isSecretSuspect || (rule.path && !rule.path.test(f.path)) || limits.skip?.(f)) continue;
    if (matches.length >= limits.maxFiles || reads >= limits.maxReads) {
      more = true;
      break;
    }
    reads += 1;
    const cand = await ctx.store.readCandidate(ctx.index.id, f.id);
    if (!cand) continue;
    const lines: number[] = [];
    let matched = 0;
    const text = cand.content.split("\n");
    const skipped = skippedLines(f.path, text);
    for (let i = 0; i < text.length; i++) {
      if (skipped[i] || !lineMatches(rule, text[i]!)) continue;
      matched += 1;
      if (lines.length < MAX_LINES_PER_FILE) lines.push(i + 1);
    }
    if (matched > 0) matches.push({ file: cand.file, lines, matchedLines: matched });
  }
  return { matches, more };
}

/** Whether a rule's pattern matches one line of code (see ContentRule.codeOnly). */
export function lineMatches(rule: ContentRule, line: string): boolean {
  rule.line.lastIndex = 0;
  return rule.line.test(rule.codeOnly ? withoutProseStrings(line) : line);
}

function withoutProseStrings(line: string): string {
  return line.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, (lit) => (/\s/.test(lit) ? '""' : lit));
}

/**
 * Lines (0-based) a rule does not read: comments and docstrings describe code (prose.ts), and a Rust test module
 * (`#[cfg(test)] mod tests { … }`) is test code inside a source file.
 */
export function skippedLines(path: string, lines: readonly string[]): boolean[] {
  const out = proseLines(path, lines);
  if (path.endsWith(".rs")) markRustTestModules(lines, out);
  return out;
}

function markRustTestModules(lines: readonly string[], out: boolean[]): void {
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*#\[cfg\(test\)\]\s*$/.test(lines[i]!)) continue;
    let j = i + 1;
    while (j < lines.length && /^\s*(#\[|$)/.test(lines[j]!)) j++;
    if (j >= lines.length || !/^\s*(pub(\([\w:]+\))?\s+)?mod\s+\w+\s*\{/.test(lines[j]!)) continue;
    // The module runs to the brace closing its `{` (braces inside strings are not told apart: a heuristic).
    let depth = 0;
    let k = j;
    for (; k < lines.length; k++) {
      for (const ch of lines[k]!) depth += ch === "{" ? 1 : ch === "}" ? -1 : 0;
      if (depth <= 0) break;
    }
    for (let m = i; m <= Math.min(k, lines.length - 1); m++) out[m] = true;
    i = k;
  }
}
