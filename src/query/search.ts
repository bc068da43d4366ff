import type { FileRow } from "../store/store.js";
import { QueryError } from "../core/errors.js";
import { labelInputOf, type QueryContext, type QueryResult } from "./context.js";
import { compilePathGlobs, type PathMatcher } from "./paths.js";
import { WEIGHTS, lexicalScore, type ScoreParts } from "./ranking.js";
import { INDEX_CANDIDATE_LIMIT, readOrder } from "./read-order.js";
import { requiredLiterals } from "./regex-literals.js";
import { definitionsFor, type DefinitionMatch } from "./search-symbols.js";
import { contextSpan, indexLines, lineOf, snippetOf, type LineIndex } from "./snippets.js";
import { escapeRegex } from "./text.js";
import { looksLikeProse, looksLikeQuestion, looksNatural } from "./hybrid/parse.js";
import { rankedSearch, type RankedMatchType, type ScoreReason } from "./hybrid/search.js";
import type { EvidenceDraft, Warning } from "../core/evidence.js";

/** The trigram index needs at least this many characters in a fragment. */
const MIN_FRAGMENT = 3;
/** Files verified before ranking, per requested result: bounds work on very common terms. */
const FILES_PER_RESULT = 2;
const MIN_CANDIDATE_FILES = 50;
/** Verified files to collect before stopping, at least; more only while hits are still missing. */
const MIN_VERIFIED_FILES = 10;
/** Beyond FEW_CANDIDATES, text read per query is capped here, and results say `truncated`. */
const READ_BUDGET_BYTES = 4 * 1024 * 1024;
/** A `countOnly` search reads up to this much text: it returns no lines, so only reading costs. */
const COUNT_READ_BUDGET_BYTES = 64 * 1024 * 1024;
/** Without an indexable fragment the whole corpus would be scanned: stop after this many bytes. */
const SCAN_BUDGET_BYTES = 256 * 1024 * 1024;
const MAX_MATCHES_COUNTED_PER_FILE = 1000;
/** Longest literal or regular expression searched as written; hybrid mode ranks anything longer. */
const MAX_EXACT_QUERY_CHARS = 4096;

export type SearchMode = "lexical" | "symbol" | "hybrid";
export type MatchType = "lexical_exact" | "lexical_regex" | "symbol_definition" | "lexical_and_symbol" | RankedMatchType;

export interface SearchInput {
  query: string;
  mode?: SearchMode;
  caseSensitive?: boolean;
  regex?: boolean;
  paths?: string[];
  maxResults?: number;
  includeGenerated?: boolean;
  /** Prose and issue text only: add the repository's own embedding to the ranking. */
  semantic?: boolean;
  /** Prose and issue text only: answer `noLocalEvidence` rather than weak matches. */
  abstain?: boolean;
  /** The operator's embeddings endpoint (prose with `semantic`, on an index it embedded). */
  embedQuery?: (text: string) => Promise<Float32Array>;
  /** Exact searches: count matches per file instead of returning lines (like `rg -c`). */
  countOnly?: boolean;
}

export interface SearchHit {
  startLine: number;
  endLine: number;
  matchLine: number;
  column: number;
  snippet: string;
  matchType: MatchType;
  /** For definition hits: what is defined there. */
  symbol?: { kind: string; qualifiedName: string; signature: string };
}

export interface SearchResultGroup {
  path: string;
  language: string | null;
  contentHash: string;
  score: number;
  scoreParts: ScoreParts;
  matchCount: number;
  hits: SearchHit[];
  /** Matching lines of this file past `maxResults`, not shown (the answer says `truncated`). */
  moreLines?: number;
  /** Ranked retrieval: every part of the score with its reason, and the file's module. */
  reasons?: ScoreReason[];
  module?: string | null;
}

interface Match {
  index: number;
  length: number;
}

/** A file that matched, before hits are built (only the returned files pay for snippets). */
interface Candidate {
  file: FileRow;
  content: string | null;
  matches: Match[];
  definitions: DefinitionMatch[];
  score: number;
  parts: ScoreParts;
}

function buildRegex(input: SearchInput): RegExp {
  try {
    return new RegExp(input.regex ? input.query : escapeRegex(input.query), input.caseSensitive ? "gm" : "gim");
  } catch (err) {
    throw new QueryError("invalid_input", `invalid regular expression: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function findMatches(re: RegExp, content: string, limit: number): Match[] {
  const out: Match[] = [];
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (out.length < limit && (m = re.exec(content)) !== null) {
    out.push({ index: m.index, length: m[0].length });
    if (m[0].length === 0) re.lastIndex += 1;
  }
  return out;
}

/** Fragments for the store's case-insensitive pre-filter; only ASCII ones when the search ignores case. */
function candidateFragments(input: SearchInput): string[] {
  const raw = input.regex ? requiredLiterals(input.query) : [input.query];
  const fragments: string[] = [];
  for (const piece of raw) {
    if (piece.length < MIN_FRAGMENT) continue;
    if (!input.caseSensitive && /[^\x00-\x7f]/.test(piece)) continue;
    fragments.push(piece);
  }
  return fragments;
}

/** Hits for the distinct lines that match, up to `limit`; `lines` counts them all (matches counted per file are capped). */
function lexicalHits(content: string, idx: LineIndex, matches: Match[], matchType: MatchType, limit: number): { hits: SearchHit[]; lines: number } {
  const hits: SearchHit[] = [];
  const seen = new Set<number>();
  for (const m of matches) {
    const line = lineOf(idx, m.index);
    if (seen.has(line)) continue;
    seen.add(line);
    if (hits.length >= limit) continue;
    const span = contextSpan(idx, line);
    hits.push({ ...span, matchLine: line, column: m.index - idx.starts[line - 1]! + 1, snippet: snippetOf(content, idx, span.startLine, span.endLine), matchType });
  }
  return { hits, lines: seen.size };
}

/**
 * Definition hits first: a lexical hit inside a definition's span becomes `lexical_and_symbol`. Every matching line
 * is a hit, up to `limit`; `lines` says how many there are in all, so a cut is never silent.
 */
function hitsFor(c: Candidate, lexicalType: MatchType, limit: number): { hits: SearchHit[]; lines: number } {
  if (c.content === null) return { hits: [], lines: 0 };
  const idx = indexLines(c.content);
  const { hits: lexical, lines } = lexicalHits(c.content, idx, c.matches, lexicalType, limit + c.definitions.length);
  const defHits: SearchHit[] = [];
  let apart = 0;
  for (const d of c.definitions) {
    const symbol = { kind: d.kind, qualifiedName: d.qualifiedName, signature: d.signature };
    const at = lexical.findIndex((h) => h.matchLine >= d.startLine && h.matchLine <= d.endLine);
    if (at >= 0) {
      defHits.push({ ...lexical[at]!, matchType: "lexical_and_symbol", symbol });
      lexical.splice(at, 1);
    } else {
      const span = contextSpan(idx, d.startLine);
      defHits.push({ ...span, matchLine: d.startLine, column: d.startColumn, snippet: snippetOf(c.content, idx, span.startLine, span.endLine), matchType: "symbol_definition", symbol });
      apart += 1;
    }
  }
  return { hits: [...defHits, ...lexical].slice(0, limit), lines: lines + apart };
}

/**
 * search_code. `lexical`: case-insensitive substring by default, or a regular expression, pre-filtered by the
 * trigram index and verified on each candidate's text. `symbol`: definitions whose name matches. `hybrid`: both,
 * with a definition outranking a mention. Hitting a limit returns partial results with `stats.truncated`.
 */
export async function searchCode(ctx: QueryContext, input: SearchInput): Promise<QueryResult<SearchResultGroup>> {
  if (input.query.trim().length === 0) throw new QueryError("invalid_input", "query must not be empty");
  const mode = input.mode ?? "hybrid";
  const tooLongForExact = input.query.length > MAX_EXACT_QUERY_CHARS;
  // A long text in hybrid mode is ranked, whatever it looks like; in the exact modes it is refused, never cut.
  if (tooLongForExact && (mode !== "hybrid" || input.regex)) {
    throw new QueryError(
      "query_rejected",
      `a ${mode}${input.regex ? " regex" : ""} query is at most ${MAX_EXACT_QUERY_CHARS} characters (this one has ${input.query.length})`,
      "search for a shorter, distinctive part of it, or use mode hybrid without regex to rank by the whole text",
    );
  }
  // A count is of the text as written: ranking has nothing to count.
  if (input.countOnly) {
    if (tooLongForExact) throw new QueryError("query_rejected", `a countOnly query is at most ${MAX_EXACT_QUERY_CHARS} characters`, "count a shorter, distinctive part of it");
    return exactSearch(ctx, input, mode);
  }
  const natural = mode === "hybrid" && !input.regex && (tooLongForExact || looksNatural(input.query));
  // Prose, a question, an issue or a trace goes straight to ranking; a short phrase is first looked for as written.
  if (natural && !tooLongForExact && !looksLikeProse(input.query) && !looksLikeQuestion(input.query)) {
    const exact = await exactSearch(ctx, input, mode);
    return exact.items.length > 0 ? exact : naturalSearch(ctx, input);
  }
  if (natural) return naturalSearch(ctx, input);
  return exactSearch(ctx, input, mode);
}

/** What one exact search works from and has gathered so far: its inputs, the matching files, and why it stopped. */
interface ExactSearch {
  ctx: QueryContext;
  input: SearchInput;
  mode: SearchMode;
  maxResults: number;
  includeGenerated: boolean;
  re: RegExp;
  fragments: string[];
  pathFilter: PathMatcher;
  candidateLimit: number;
  queryLower: string;
  /** Files that matched, by path, with their scores. */
  byPath: Map<string, Candidate>;
  /** Files that may match but were left out by policy. */
  excluded: { generated: number; secretSuspect: number };
  moreCandidates: boolean;
  budgetExhausted: boolean;
}

/** The ranked groups an exact search returns, with how many hits they hold and whether some were left out. */
interface ExactGroups {
  items: SearchResultGroup[];
  returnedHits: number;
  droppedHits: boolean;
}

async function exactSearch(ctx: QueryContext, input: SearchInput, mode: SearchMode): Promise<QueryResult<SearchResultGroup>> {
  const asked = Math.min(input.maxResults ?? ctx.policy.maxSearchResults, ctx.policy.maxSearchResults);
  // A count reads every candidate the budgets allow: it has no result limit to stop at.
  const maxResults = input.countOnly ? COUNT_MAX_MATCHES : asked;
  const s: ExactSearch = {
    ctx,
    input,
    mode,
    maxResults,
    includeGenerated: input.includeGenerated ?? ctx.policy.includeGeneratedFilesByDefault,
    re: buildRegex(input),
    fragments: candidateFragments(input),
    pathFilter: compilePathGlobs(input.paths),
    candidateLimit: input.countOnly ? INDEX_CANDIDATE_LIMIT : Math.max(MIN_CANDIDATE_FILES, maxResults * FILES_PER_RESULT),
    queryLower: input.query.toLowerCase(),
    byPath: new Map(),
    excluded: { generated: 0, secretSuspect: 0 },
    moreCandidates: false,
    budgetExhausted: false,
  };
  if (mode !== "symbol" && s.fragments.length > 0) await verifyIndexedCandidates(s);
  else if (mode !== "symbol") await scanWithoutIndex(s);
  if (mode !== "lexical" && !input.regex) await addDefinitions(s);
  if (input.countOnly) return countResult(s);

  const { items, returnedHits, droppedHits } = await rankedGroups(s);
  const warnings = exactWarnings(s);
  const truncated = s.moreCandidates || s.budgetExhausted || droppedHits;
  return {
    items,
    stats: {
      truncated,
      mode,
      files: items.length,
      hits: returnedHits,
      filesMatched: s.byPath.size,
      moreFilesNotScanned: s.moreCandidates,
      maxResults,
      ...(truncated
        ? { followUp: `narrow the search with 'paths' globs or a more specific query; maxResults may go up to ${ctx.policy.maxSearchResults}` }
        : {}),
    },
    evidence: evidenceOf(items),
    labels: new Map([...s.byPath.values()].map((c) => [c.file.path, labelInputOf(c.file)])),
    warnings,
  };
}

/** Files listed with their counts in a `countOnly` answer, most matches first. */
const COUNT_FILES_LISTED = 100;
/** A count stops verifying files after this many matches (it says `truncated`). */
const COUNT_MAX_MATCHES = 100_000;

/** A `countOnly` answer: matches and matching lines per file, no text. */
function countResult(s: ExactSearch): QueryResult<SearchResultGroup> {
  const counted = [...s.byPath.values()].map((c) => ({ path: c.file.path, matches: c.matches.length, lines: matchingLines(c), definitions: c.definitions.length }));
  counted.sort((a, b) => b.matches - a.matches || (a.path < b.path ? -1 : 1));
  const truncated = s.moreCandidates || s.budgetExhausted;
  return {
    items: [],
    stats: {
      truncated,
      mode: s.mode,
      countOnly: true,
      matches: counted.reduce((n, c) => n + c.matches, 0),
      lines: counted.reduce((n, c) => n + c.lines, 0),
      files: counted.length,
      byFile: counted.slice(0, COUNT_FILES_LISTED).map((c) => (c.definitions > 0 ? c : { path: c.path, matches: c.matches, lines: c.lines })),
      ...(counted.length > COUNT_FILES_LISTED ? { moreFiles: counted.length - COUNT_FILES_LISTED } : {}),
      ...(truncated ? { followUp: "the count stopped at the search's read budget: narrow it with 'paths' globs for an exact figure" } : {}),
    },
    evidence: [],
    labels: new Map(),
    warnings: exactWarnings(s),
  };
}

/** Distinct lines holding a match (what `rg -c` counts): the count `lexicalHits` keeps, with no hit built. */
function matchingLines(c: Candidate): number {
  if (c.content === null || c.matches.length === 0) return 0;
  return lexicalHits(c.content, indexLines(c.content), c.matches, "lexical_exact", 0).lines;
}

type PolicyFacts = Pick<FileRow, "isSecretSuspect" | "isGenerated" | "isVendored">;

/** Whether the policy lets a file into the results. */
function admitted(s: ExactSearch, f: PolicyFacts): boolean {
  return !(f.isSecretSuspect && !s.ctx.policy.includeSecretSuspectFiles) && !((f.isGenerated || f.isVendored) && !s.includeGenerated);
}

/** Whether the policy lets a file into the results; counts the ones it leaves out. */
function allowed(s: ExactSearch, f: PolicyFacts): boolean {
  if (admitted(s, f)) return true;
  if (f.isSecretSuspect && !s.ctx.policy.includeSecretSuspectFiles) s.excluded.secretSuspect += 1;
  else s.excluded.generated += 1;
  return false;
}

/** Verifies one file's text against the query and keeps it, scored, when it matches and the policy allows it. */
function consider(s: ExactSearch, f: FileRow, content: string): void {
  const matches = findMatches(s.re, content, MAX_MATCHES_COUNTED_PER_FILE);
  if (matches.length === 0 || !allowed(s, f)) return;
  const { score, parts } = lexicalScore(f, matches.length, f.path.toLowerCase().includes(s.queryLower));
  s.byPath.set(f.path, { file: f, content, matches, definitions: [], score, parts });
}

/** Lexical search with indexable fragments: candidates from the trigram index, read and verified best-first until enough match. */
async function verifyIndexedCandidates(s: ExactSearch): Promise<void> {
  const { ctx, pathFilter } = s;
  const order = await readOrder({
    store: ctx.store,
    indexId: ctx.index.id,
    query: { fragments: s.fragments, pathPrefix: pathFilter.prefix },
    queryLower: s.queryLower,
    pathMatches: (s.input.paths?.length ?? 0) > 0 ? pathFilter.matches : null,
    admits: (f) => admitted(s, f),
  });
  let hitsInHand = 0;
  let bytesRead = 0;
  // With few candidates, read them all: a byte budget would only drop files that do match.
  const budget = order.few ? Number.POSITIVE_INFINITY : s.input.countOnly ? COUNT_READ_BUDGET_BYTES : READ_BUDGET_BYTES;
  let stopped = false;
  for await (const slim of order.files) {
    const enough = s.byPath.size >= MIN_VERIFIED_FILES && hitsInHand >= s.maxResults;
    if (enough || s.byPath.size >= s.candidateLimit || bytesRead >= budget) {
      stopped = true;
      break;
    }
    // Files the policy leaves out are not read; the warning says they may match.
    if (!allowed(s, slim)) continue;
    const cand = await ctx.store.readCandidate(ctx.index.id, slim.id);
    if (cand === null) continue;
    bytesRead += cand.content.length;
    consider(s, cand.file, cand.content);
    const c = s.byPath.get(slim.path);
    if (c) hitsInHand += c.matches.length;
  }
  s.moreCandidates = stopped || order.more();
}

/** Lexical search with no indexable fragment: every file's text is scanned, up to SCAN_BUDGET_BYTES. */
async function scanWithoutIndex(s: ExactSearch): Promise<void> {
  let scannedBytes = 0;
  await s.ctx.store.scanCandidates(s.ctx.index.id, { fragments: s.fragments, pathPrefix: s.pathFilter.prefix }, (cand) => {
    if (!s.pathFilter.matches(cand.file.path)) return true;
    if (s.byPath.size >= s.candidateLimit) {
      s.moreCandidates = true;
      return false;
    }
    scannedBytes += cand.content.length;
    if (scannedBytes > SCAN_BUDGET_BYTES) {
      s.budgetExhausted = true;
      return false;
    }
    consider(s, cand.file, cand.content);
    return true;
  });
}

/** Definitions whose name matches: each joins its file's candidate (or makes one) and adds the definition bonus once. */
async function addDefinitions(s: ExactSearch): Promise<void> {
  const defs = await definitionsFor(s.ctx, s.input.query, { prefix: s.mode === "symbol", pathFilter: s.pathFilter, limit: s.candidateLimit });
  for (const d of defs) {
    if (!allowed(s, d.file)) continue;
    let c = s.byPath.get(d.file.path);
    if (!c) {
      const { score, parts } = lexicalScore(d.file, 0, d.file.path.toLowerCase().includes(s.queryLower));
      c = { file: d.file, content: null, matches: [], definitions: [], score, parts };
      s.byPath.set(d.file.path, c);
    }
    if (c.definitions.length === 0) {
      const bonus = d.exact ? WEIGHTS.definitionExact : WEIGHTS.definitionPrefix;
      c.score = Math.round((c.score + bonus) * 1000) / 1000;
      c.parts = { ...c.parts, definition: bonus };
    }
    c.definitions.push(d);
  }
}

/** The matching files best first, each with its hits, until maxResults hits are returned. */
async function rankedGroups(s: ExactSearch): Promise<ExactGroups> {
  const ranked = [...s.byPath.values()].sort((a, b) => b.score - a.score || (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0));
  const items: SearchResultGroup[] = [];
  let returnedHits = 0;
  let droppedHits = false;
  const lexicalType: MatchType = s.input.regex ? "lexical_regex" : "lexical_exact";
  for (const c of ranked) {
    if (returnedHits >= s.maxResults) {
      droppedHits = true;
      break;
    }
    c.content ??= await s.ctx.store.getContent(s.ctx.index.id, c.file.path);
    const room = s.maxResults - returnedHits;
    const { hits, lines } = hitsFor(c, lexicalType, room);
    const more = Math.max(0, lines - hits.length);
    if (more > 0) droppedHits = true;
    returnedHits += hits.length;
    const f = c.file;
    items.push({ path: f.path, language: f.language, contentHash: f.contentHash, score: c.score, scoreParts: c.parts, matchCount: c.matches.length, hits, ...(more > 0 ? { moreLines: more } : {}) });
  }
  return { items, returnedHits, droppedHits };
}

/** What the search could not look at: a scan cut short, and files the policy left out that may match. */
function exactWarnings(s: ExactSearch): Warning[] {
  const warnings: Warning[] = [];
  if (s.budgetExhausted) {
    warnings.push({
      code: "scan_budget_exhausted",
      message: `the query has no literal of ${MIN_FRAGMENT}+ characters for the index; the scan stopped after ${SCAN_BUDGET_BYTES} bytes`,
    });
  }
  if (s.excluded.secretSuspect > 0) {
    warnings.push({ code: "secret_suspect_excluded", message: `${s.excluded.secretSuspect} secret-suspect file(s) may match and were left out by policy` });
  }
  if (s.excluded.generated > 0) {
    warnings.push({
      code: "generated_excluded",
      message: `${s.excluded.generated} generated or vendored file(s) may match and were left out; set includeGenerated: true to see them`,
    });
  }
  return warnings;
}

/** One evidence item per returned hit; definition hits count as symbol retrieval. */
function evidenceOf(items: SearchResultGroup[]): EvidenceDraft[] {
  return items.flatMap((g) =>
    g.hits.map((h) => ({
      path: g.path,
      startLine: h.startLine,
      endLine: h.endLine,
      contentHash: g.contentHash,
      retrieval: h.matchType === "symbol_definition" || h.matchType === "lexical_and_symbol" ? ("symbol" as const) : ("lexical" as const),
    })),
  );
}

/**
 * A question, an issue text or a stack trace in hybrid mode: ranked retrieval, each file with its best span as
 * the one hit, its score's parts as reasons, and what decided abstention when it was asked for.
 */
async function naturalSearch(ctx: QueryContext, input: SearchInput): Promise<QueryResult<SearchResultGroup>> {
  const r = await rankedSearch(ctx, {
    query: input.query,
    strategy: input.semantic ? "hybrid_semantic" : "hybrid",
    ...(input.maxResults !== undefined ? { maxResults: input.maxResults } : {}),
    ...(input.paths ? { paths: input.paths } : {}),
    ...(input.includeGenerated !== undefined ? { includeGenerated: input.includeGenerated } : {}),
    ...(input.abstain !== undefined ? { abstain: input.abstain } : {}),
    ...(input.embedQuery ? { embedQuery: input.embedQuery } : {}),
  });
  const items: SearchResultGroup[] = r.items.map((h) => ({
    path: h.path,
    language: h.language,
    contentHash: h.contentHash,
    score: h.score,
    scoreParts: { matches: 0, pathMatch: 0, prior: 0, size: 0 },
    matchCount: h.span.matched.length,
    hits: [
      {
        startLine: h.span.startLine,
        endLine: h.span.endLine,
        matchLine: h.span.startLine,
        column: 1,
        snippet: h.span.snippet,
        matchType: h.matchType,
        ...(h.span.symbol ? { symbol: { kind: h.span.symbol.kind, qualifiedName: h.span.symbol.qualifiedName, signature: "" } } : {}),
      },
    ],
    reasons: h.reasons,
    module: h.module,
  }));
  const { abstention, ...rest } = r;
  return { ...rest, items, stats: { ...r.stats, mode: "hybrid", ranking: "natural_language", files: items.length, abstention } };
}