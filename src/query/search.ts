import type { FileRow } from "../store/store.js";
import { QueryError } from "./errors.js";
import { labelInputOf, type EvidenceDraft, type QueryContext, type QueryResult, type Warning } from "./context.js";
import { compilePathGlobs } from "./paths.js";
import { lexicalScore, type ScoreParts } from "./ranking.js";
import { requiredLiterals } from "./regex-literals.js";

/** The trigram index needs at least this many characters in a fragment. */
const MIN_FRAGMENT = 3;
/** Files verified before ranking, per requested result: bounds work on very common terms. */
const FILES_PER_RESULT = 4;
const MIN_CANDIDATE_FILES = 100;
/** Without an indexable fragment the whole corpus would be scanned: stop after this many bytes. */
const SCAN_BUDGET_BYTES = 256 * 1024 * 1024;
const MAX_HITS_PER_FILE = 5;
const SNIPPET_CONTEXT_LINES = 1;
const MAX_SNIPPET_LINE_CHARS = 400;
const MAX_MATCHES_COUNTED_PER_FILE = 1000;

export type MatchType = "lexical_exact" | "lexical_regex";

export interface SearchInput {
  query: string;
  mode?: "lexical";
  caseSensitive?: boolean;
  regex?: boolean;
  paths?: string[];
  maxResults?: number;
  includeGenerated?: boolean;
}

export interface SearchHit {
  startLine: number;
  endLine: number;
  matchLine: number;
  column: number;
  snippet: string;
  matchType: MatchType;
}

export interface SearchResultGroup {
  path: string;
  language: string | null;
  contentHash: string;
  score: number;
  scoreParts: ScoreParts;
  matchCount: number;
  hits: SearchHit[];
}

interface Matcher {
  matchType: MatchType;
  /** Offsets (UTF-16) of matches in `content`, at most `limit`. */
  find(content: string, limit: number): { index: number; length: number }[];
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function buildMatcher(input: SearchInput): Matcher {
  let source = input.regex ? input.query : escapeRegex(input.query);
  let re: RegExp;
  try {
    re = new RegExp(source, input.caseSensitive ? "gm" : "gim");
  } catch (err) {
    throw new QueryError("invalid_input", `invalid regular expression: ${err instanceof Error ? err.message : String(err)}`);
  }
  source = "";
  return {
    matchType: input.regex ? "lexical_regex" : "lexical_exact",
    find(content, limit) {
      const out: { index: number; length: number }[] = [];
      re.lastIndex = 0;
      let m: RegExpExecArray | null;
      while (out.length < limit && (m = re.exec(content)) !== null) {
        out.push({ index: m.index, length: m[0].length });
        if (m[0].length === 0) re.lastIndex += 1;
      }
      return out;
    },
  };
}

/** Fragments for the store's case-insensitive pre-filter; only ASCII ones when the search ignores case. */
function candidateFragments(input: SearchInput): string[] {
  const raw = input.regex ? requiredLiterals(input.query) : [input.query];
  const fragments: string[] = [];
  for (const r of raw) {
    for (const piece of r.split(/[%_]/)) {
      if (piece.length < MIN_FRAGMENT) continue;
      if (!input.caseSensitive && /[^\x00-\x7f]/.test(piece)) continue;
      fragments.push(piece);
    }
  }
  return fragments;
}

/** 1-based line numbers for offsets, computed in one pass over the text. */
function lineStarts(content: string): number[] {
  const starts = [0];
  let i = content.indexOf("\n");
  while (i !== -1) {
    starts.push(i + 1);
    i = content.indexOf("\n", i + 1);
  }
  return starts;
}

function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

function snippetOf(content: string, starts: number[], from: number, to: number): string {
  const lines: string[] = [];
  for (let n = from; n <= to; n++) {
    const s = starts[n - 1]!;
    const e = n < starts.length ? starts[n]! - 1 : content.length;
    let line = content.slice(s, e).replace(/\r$/, "");
    if (line.length > MAX_SNIPPET_LINE_CHARS) line = `${line.slice(0, MAX_SNIPPET_LINE_CHARS)}…`;
    lines.push(line);
  }
  return lines.join("\n");
}

function hitsOf(content: string, matches: { index: number; length: number }[], matchType: MatchType): SearchHit[] {
  const starts = lineStarts(content);
  const totalLines = content.endsWith("\n") ? starts.length - 1 : starts.length;
  const hits: SearchHit[] = [];
  const seenLines = new Set<number>();
  for (const m of matches) {
    const line = lineOf(starts, m.index);
    if (seenLines.has(line)) continue;
    seenLines.add(line);
    const startLine = Math.max(1, line - SNIPPET_CONTEXT_LINES);
    const endLine = Math.min(Math.max(totalLines, 1), line + SNIPPET_CONTEXT_LINES);
    hits.push({
      startLine,
      endLine,
      matchLine: line,
      column: m.index - starts[line - 1]! + 1,
      snippet: snippetOf(content, starts, startLine, endLine),
      matchType,
    });
    if (hits.length >= MAX_HITS_PER_FILE) break;
  }
  return hits;
}

/**
 * Lexical search: case-insensitive substring by default, or a regular expression, pre-filtered by the trigram
 * index and verified on each candidate's text. Hitting a limit returns partial results with `stats.truncated`.
 */
export async function searchCode(ctx: QueryContext, input: SearchInput): Promise<QueryResult<SearchResultGroup>> {
  if (input.query.trim().length === 0) throw new QueryError("invalid_input", "query must not be empty");
  const maxResults = Math.min(input.maxResults ?? ctx.policy.maxSearchResults, ctx.policy.maxSearchResults);
  const includeGenerated = input.includeGenerated ?? ctx.policy.includeGeneratedFilesByDefault;
  const matcher = buildMatcher(input);
  const fragments = candidateFragments(input);
  const pathFilter = compilePathGlobs(input.paths);
  const candidateLimit = Math.max(MIN_CANDIDATE_FILES, maxResults * FILES_PER_RESULT);
  const warnings: Warning[] = [];
  const excluded = { generated: 0, secretSuspect: 0 };
  const queryLower = input.query.toLowerCase();

  const groups: SearchResultGroup[] = [];
  const files = new Map<string, FileRow>();
  let scannedBytes = 0;
  let moreCandidates = false;
  let budgetExhausted = false;
  for await (const cand of ctx.store.searchCandidates(ctx.index.id, { fragments, pathPrefix: pathFilter.prefix })) {
    const f = cand.file;
    if (!pathFilter.matches(f.path)) continue;
    if (groups.length >= candidateLimit) {
      moreCandidates = true;
      break;
    }
    if (fragments.length === 0) {
      scannedBytes += cand.content.length;
      if (scannedBytes > SCAN_BUDGET_BYTES) {
        budgetExhausted = true;
        break;
      }
    }
    const matches = matcher.find(cand.content, MAX_MATCHES_COUNTED_PER_FILE);
    if (matches.length === 0) continue;
    if (f.isSecretSuspect && !ctx.policy.includeSecretSuspectFiles) {
      excluded.secretSuspect += 1;
      continue;
    }
    if ((f.isGenerated || f.isVendored) && !includeGenerated) {
      excluded.generated += 1;
      continue;
    }
    const pathContains = f.path.toLowerCase().includes(queryLower);
    const { score, parts } = lexicalScore(f, matches.length, pathContains);
    files.set(f.path, f);
    groups.push({
      path: f.path,
      language: f.language,
      contentHash: f.contentHash,
      score,
      scoreParts: parts,
      matchCount: matches.length,
      hits: hitsOf(cand.content, matches, matcher.matchType),
    });
  }

  groups.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const items: SearchResultGroup[] = [];
  let returnedHits = 0;
  let droppedHits = false;
  for (const g of groups) {
    if (returnedHits >= maxResults) {
      droppedHits = true;
      break;
    }
    const room = maxResults - returnedHits;
    if (g.hits.length > room) droppedHits = true;
    const hits = g.hits.slice(0, room);
    returnedHits += hits.length;
    items.push({ ...g, hits });
  }
  if (budgetExhausted) {
    warnings.push({
      code: "scan_budget_exhausted",
      message: `the query has no literal of ${MIN_FRAGMENT}+ characters for the index; the scan stopped after ${SCAN_BUDGET_BYTES} bytes`,
    });
  }
  if (excluded.secretSuspect > 0) {
    warnings.push({ code: "secret_suspect_excluded", message: `${excluded.secretSuspect} secret-suspect file(s) matched and were excluded by policy` });
  }
  if (excluded.generated > 0) {
    warnings.push({
      code: "generated_excluded",
      message: `${excluded.generated} generated or vendored file(s) matched and were excluded; set includeGenerated: true to see them`,
    });
  }
  const truncated = moreCandidates || budgetExhausted || droppedHits;
  const evidence: EvidenceDraft[] = items.flatMap((g) =>
    g.hits.map((h) => ({ path: g.path, startLine: h.startLine, endLine: h.endLine, contentHash: g.contentHash, retrieval: "lexical" as const })),
  );
  return {
    items,
    stats: {
      truncated,
      files: items.length,
      hits: returnedHits,
      filesMatched: groups.length,
      moreFilesNotScanned: moreCandidates,
      maxResults,
      ...(truncated
        ? { followUp: `narrow the search with 'paths' globs or a more specific query; maxResults may go up to ${ctx.policy.maxSearchResults}` }
        : {}),
    },
    evidence,
    labels: new Map([...files.values()].map((f) => [f.path, labelInputOf(f)])),
    warnings,
  };
}
