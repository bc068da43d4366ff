import type { FileRow } from "../../store/store.js";
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
  limits: { maxFiles: number; maxReads: number; pathPrefix?: string },
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
    if (f.isVendored || f.isSecretSuspect || (rule.path && !rule.path.test(f.path))) continue;
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
    // Comments and docstrings describe code; a rule reads the code itself.
    const prose = proseLines(f.path, text);
    for (let i = 0; i < text.length; i++) {
      if (prose[i]) continue;
      rule.line.lastIndex = 0;
      if (!rule.line.test(text[i]!)) continue;
      matched += 1;
      if (lines.length < MAX_LINES_PER_FILE) lines.push(i + 1);
    }
    if (matched > 0) matches.push({ file: cand.file, lines, matchedLines: matched });
  }
  return { matches, more };
}
