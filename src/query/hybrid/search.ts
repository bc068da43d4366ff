import { splitIdentifier } from "../../core/terms.js";
import { isDocPath, isMetadataFile, isTestPath } from "../../policy/labels.js";
import type { FileRow } from "../../store/store.js";
import { labelInputOf, type QueryContext, type QueryResult } from "../context.js";
import { knowledgeOf } from "../knowledge/load.js";
import { key, stemOf, testSubject } from "../knowledge/related/names.js";
import { compilePathGlobs, repoRelativePath } from "../paths.js";
import { HYBRID_WEIGHTS as W } from "../ranking.js";
import { denseScores, expandQuery, loadSemantic, rankByVector, type LoadedSemantic } from "../semantic.js";
import { matchesQualifier, parseSymbol } from "../symbols.js";
import { personalizedPageRank } from "./graph.js";
import { parseQuery, stemForMatch, type ParsedQuery } from "./parse.js";
import { bestSpan } from "./spans.js";
import { indexLines, lineOf } from "../snippets.js";
import { frequencyScores, type WeightedTerm } from "./frequency.js";
import { inverseDocumentFrequency } from "../../store/bm25f.js";
import type { EvidenceDraft, Retrieval, Warning } from "../../core/evidence.js";
import { docFamilyOf } from "./copies.js";
import { shorten, textReader, type TextFn } from "../text.js";

/** `bm25`: the lexical baseline; `hybrid`: every signal but the embedding; `hybrid_semantic`: all of them. */
export const STRATEGIES = ["bm25", "hybrid", "hybrid_semantic"] as const;
export type Strategy = (typeof STRATEGIES)[number];

export type RankedMatchType = "stack_frame" | "path_mention" | "verbatim" | "symbol_definition" | "bm25" | "graph_neighbor" | "semantic";

export interface RankedSearchInput {
  query: string;
  strategy: Strategy;
  maxResults?: number;
  paths?: string[];
  includeGenerated?: boolean;
  /** Say `noLocalEvidence` instead of returning weak matches (off by default: not yet calibrated everywhere). */
  abstain?: boolean;
  /** The operator's embeddings endpoint, for an index whose file vectors it made. */
  embedQuery?: (text: string) => Promise<Float32Array>;
}

export interface ScoreReason {
  part: string;
  value: number;
  why: string;
}

export interface RankedHit {
  path: string;
  language: string | null;
  module: string | null;
  contentHash: string;
  score: number;
  /** What brought the file in: the strongest signal among its reasons. */
  matchType: RankedMatchType;
  retrieval: Retrieval;
  reasons: ScoreReason[];
  span: { startLine: number; endLine: number; symbol: { qualifiedName: string; kind: string } | null; matched: string[]; snippet: string };
}

export interface Abstention {
  enabled: boolean;
  noLocalEvidence: boolean;
  /** The best hit's share of query terms found in its span: what decided. */
  score: number;
  threshold: number;
}

/** Lines of a span shown in a hit. */
const SNIPPET_LINES = 12;
const MAX_RESULTS_DEFAULT = 10;
/** Terms sent to the first stage: an issue text can be long, and its heaviest, rarest words matter most. */
const MAX_QUERY_TERMS = 80;
/** Distinct query terms whose document frequency is looked up (in query order); an issue's own words come first. */
const MAX_DF_LOOKUPS = 400;
/** Characters of a query that ranking reads: a long issue with its logs; beyond it the text is cut with a warning. */
const MAX_RANKED_QUERY_CHARS = 64 * 1024;
const MAX_EXPANSIONS = 12;
/** A path on the reporter's machine (absolute, or inside an install of a package) rather than in the repository. */
const ELSEWHERE = /^(\/|~|[A-Za-z]:[\\/])|(^|[\\/])(site-packages|dist-packages|node_modules|\.cargo|pkg[\\/]mod)[\\/]/;
/** Files holding a phrase for it to count (more say little about which is meant), and candidates read to tell. */
const MAX_VERBATIM_FILES = 3;
const MAX_VERBATIM_CANDIDATES = 30;
/** Files a path mention or frame may resolve to (a suffix can be ambiguous). */
const MAX_PATH_MATCHES = 3;
const EXAMPLE_PATH = /(^|\/)(examples?|samples?|demos?)\//i;
/** Anything under a documentation folder, its code too: snippets, examples and configuration of the docs. */
const DOC_FOLDER = /(^|\/)(docs?|documentation)\//i;
/** Type declarations beside an implementation (TypeScript's `.d.ts`/`.d.cts`/`.d.mts`, Python's stubs). */
const DECLARATION_PATH = /\.d\.[cm]?ts$|\.pyi$/i;
/** Issue and pull-request templates, and the project's contribution, conduct, security and release policies. */
const BOILERPLATE_PATH =
  /(^|\/)\.(github|gitlab)\/(ISSUE_TEMPLATE|PULL_REQUEST_TEMPLATE|DISCUSSION_TEMPLATE|issue_templates|merge_request_templates)\/|^(\.github\/|docs\/)?(pull_request_template|issue_template|CONTRIBUTING|CODE_OF_CONDUCT|SECURITY|SUPPORT|GOVERNANCE|FUNDING|MAINTAINERS|Collaborator-Guide|Release-Process)(\.(md|markdown|rst|txt|adoc|ya?ml))?$/i;
/** Test subjects that name no one file: every package has an `index`, every test folder a `conftest`. */
const GENERIC_STEMS = new Set(["index", "init", "conftest", "mod", "main", "setup", "fixtures", "helpers"]);
/** Folders of a layout rather than of a component: they need not appear in a test's path to link it to a source. */
const GENERIC_DIRS = new Set(["src", "lib", "main", "java", "kotlin", "scala", "go", "python", "js", "ts", "app", "source", "sources", "pkg", "internal"]);
/** Folders that hold tests. */
const TEST_DIRS = new Set(["test", "tests", "spec", "specs", "__tests__", "testing", "unit", "integration", "functional", "t"]);
/** Languages of configuration and data rather than code. */
const CONFIG_LANGUAGES = new Set(["json", "yaml", "toml", "xml", "ini", "properties"]);

interface Acc {
  file: FileRow | null;
  fileId: number | null;
  path: string;
  reasons: ScoreReason[];
  line: number | null;
  via: Set<RankedMatchType>;
}

const round = (n: number): number => Math.round(n * 1000) / 1000;

/**
 * Ranked retrieval for a question, an issue text or a stack trace: field-weighted BM25 over split, stemmed
 * identifiers finds candidates; stack frames and path mentions jump to their files and lines; exact symbol
 * definitions, priors by kind of file, personalized PageRank over the reference graph and (optionally) the
 * repository's own embedding re-rank them; each hit comes with its best span and every part of its score.
 */
export async function rankedSearch(ctx: QueryContext, input: RankedSearchInput): Promise<QueryResult<RankedHit> & { abstention: Abstention }> {
  const warnings: Warning[] = [];
  const q = parseQuery(trimmedQuery(input.query, warnings));
  const maxResults = Math.min(input.maxResults ?? MAX_RESULTS_DEFAULT, ctx.policy.maxSearchResults);
  const includeGenerated = input.includeGenerated ?? ctx.policy.includeGeneratedFilesByDefault;
  const pathFilter = compilePathGlobs(input.paths);
  const accs = new Map<string, Acc>();
  const acc = (path: string, file: FileRow | null, fileId: number | null): Acc => {
    let a = accs.get(path);
    if (!a) accs.set(path, (a = { file, fileId, path, reasons: [], line: null, via: new Set() }));
    a.file ??= file;
    a.fileId ??= fileId;
    return a;
  };
  const textOf = textReader(ctx);
  const reason = (a: Acc, part: string, value: number, why: string, via?: RankedMatchType) => {
    if (value === 0) return;
    a.reasons.push({ part, value: round(value), why });
    if (via) a.via.add(via);
  };

  const semantic = input.strategy === "hybrid_semantic" ? await loadSemantic(ctx) : null;
  if (input.strategy === "hybrid_semantic" && !semantic) {
    warnings.push({ code: "semantic_unavailable", message: "this index has no embedding model; ranked without the semantic signal (an operator turns training on with semantic.train: true in the read policy, then reindexes)" });
  }
  const chosen = await rarestTerms(ctx, q);
  const terms = chosen.terms.map((t) => t.term);
  const weighted = chosen.terms.map(({ term, weight }) => ({ term, weight }));
  if (semantic) {
    for (const e of expandQuery(semantic.model, terms).slice(0, MAX_EXPANSIONS)) weighted.push({ term: e.term, weight: W.expansion * e.weight });
  }
  const first = weighted.length === 0 ? [] : await ctx.store.rankFiles(ctx.index.id, {
    terms: weighted,
    includeSecretSuspect: ctx.policy.includeSecretSuspectFiles,
    weights: input.strategy === "bm25" ? W.bodyOnly : W.fields,
    limit: W.firstStage,
    ...(pathFilter.prefix ? { pathPrefix: pathFilter.prefix } : {}),
  });
  const top = first[0]?.score ?? 0;
  for (const r of first) {
    if (!pathFilter.matches(r.path)) continue;
    reason(acc(r.path, null, r.fileId), "bm25", top > 0 ? (W.bm25 * r.score) / top : 0, `BM25F ${round(r.score)} over path, symbol names and body`, "bm25");
  }

  if (input.strategy !== "bm25") {
    await locate(ctx, q, acc, reason);
    await verbatim(ctx, q, acc, reason, textOf);
    await definitions(ctx, q, acc, reason);
    if (semantic) {
      const dense = await denseFor(semantic, terms, input, warnings);
      const ranked = [...dense].sort((a, b) => b[1] - a[1]);
      let added = 0;
      for (const [fileId, cos] of ranked) {
        const known = [...accs.values()].find((a) => a.fileId === fileId);
        if (!known && added >= W.semanticNewFiles) continue;
        if (cos <= 0) break;
        const a = known ?? (await accFor(ctx, fileId, acc));
        if (!a) continue;
        if (!known) added++;
        reason(a, "semantic", W.semantic * cos, `similar to the query in the repository's own embedding (cosine ${round(cos)})`, "semantic");
      }
    }
  }
  await loadRows(ctx, accs);
  const allowed = [...accs.values()].filter((a) => a.file && isAllowed(ctx, a.file, includeGenerated) && pathFilter.matches(a.path));
  if (input.strategy !== "bm25") {
    for (const a of allowed) priors(a, q, reason);
    if (!q.aboutTests) await testedBy(ctx, allowed, acc, reason);
    if (W.graph > 0) await graphBoost(ctx, allowed, acc, reason);
    await loadRows(ctx, accs);
  }
  const scoreOf = (a: Acc) => round(a.reasons.reduce((n, r) => n + r.value, 0));
  const byScore = (x: { a: Acc; score: number }, y: { a: Acc; score: number }) => y.score - x.score || (x.a.path < y.a.path ? -1 : 1);
  const kept = [...accs.values()].filter((a) => a.file && isAllowed(ctx, a.file, includeGenerated) && pathFilter.matches(a.path));
  if (input.strategy !== "bm25") await frequencyLook(kept.map((a) => ({ a, score: scoreOf(a) })).sort(byScore).slice(0, W.frequencyPool).map((x) => x.a), chosen, reason, textOf);
  const ranked = input.strategy === "bm25" ? kept.map((a) => ({ a, score: scoreOf(a) })).sort(byScore) : withoutCopies(kept, scoreOf, byScore, reason);

  const k = await knowledgeOf(ctx);
  const items: RankedHit[] = [];
  // Spans are found with the terms ranking used (an issue's hundreds of words would only blur them).
  const stems = [...new Set(terms.map(stemForMatch))];
  for (const { a, score } of ranked.slice(0, maxResults)) {
    const hit = await hitFor(ctx, a, score, stems, k.moduleOf(a.path)?.name ?? null, textOf);
    if (hit) items.push(hit);
  }
  const abstention = abstain(items, stems, input.abstain ?? false);
  const returned = abstention.noLocalEvidence ? [] : items;
  const evidence: EvidenceDraft[] = returned.map((h) => ({ path: h.path, startLine: h.span.startLine, endLine: h.span.endLine, contentHash: h.contentHash, retrieval: h.retrieval }));
  return {
    items: returned,
    stats: { truncated: ranked.length > maxResults, strategy: input.strategy, candidates: ranked.length, terms, maxResults },
    evidence,
    labels: new Map(ranked.slice(0, maxResults).map(({ a }) => [a.path, labelInputOf(a.file!)])),
    warnings,
    abstention,
  };
}

/** Files by cosine to the query, embedded by whoever embedded the files: the trained model or the operator's endpoint. */
async function denseFor(semantic: LoadedSemantic, terms: string[], input: RankedSearchInput, warnings: Warning[]): Promise<Map<number, number>> {
  if (semantic.meta.vectors.provider === "builtin") return denseScores(semantic.model, semantic.vectors, terms);
  if (!input.embedQuery) {
    warnings.push({ code: "semantic_provider_unavailable", message: `the index's file vectors come from ${semantic.meta.vectors.model ?? "an embeddings endpoint"}, which this server is not configured to reach; ranked without dense similarity` });
    return new Map();
  }
  try {
    return rankByVector(await input.embedQuery(input.query), semantic.vectors);
  } catch (err) {
    warnings.push({ code: "semantic_provider_unavailable", message: `the embeddings endpoint failed (${err instanceof Error ? err.message : String(err)}); ranked without dense similarity` });
    return new Map();
  }
}

/**
 * The query terms sent to the first stage: the MAX_QUERY_TERMS that weigh most, a term's weight (termWeight) times
 * its rarity (inverse document frequency), among the first MAX_DF_LOOKUPS distinct terms in query order; terms no
 * file holds cannot match and are dropped. Ties keep query order.
 */
async function rarestTerms(ctx: QueryContext, q: ParsedQuery): Promise<{ terms: WeightedTerm[]; files: number }> {
  if (q.terms.length === 0) return { terms: [], files: 0 };
  const asked = q.terms.slice(0, MAX_DF_LOOKUPS);
  const stats = await ctx.store.termStats(ctx.index.id, asked);
  const n = stats.files;
  const terms = asked
    .map((term, i) => ({ term, i, df: stats.documentFrequency[i] ?? 0, weight: termWeight(q, term) }))
    .filter((t) => t.df > 0)
    .map((t) => ({ ...t, value: t.weight * inverseDocumentFrequency(n, t.df) }))
    .sort((a, b) => b.value - a.value || a.i - b.i)
    .slice(0, MAX_QUERY_TERMS)
    .map(({ term, weight, df }) => ({ term, weight, df }));
  return { terms, files: n };
}

/**
 * A query term's weight in the first stage: an issue repeats what it is about (log of its count in the query) and
 * its title names it, and code it quotes names the program's own words where prose words are the reporter's.
 */
function termWeight(q: ParsedQuery, term: string): number {
  const n = q.termCounts.get(term) ?? 1;
  return (1 + W.queryTermRepeat * Math.log(n)) * (q.titleTerms.has(term) ? W.titleTerm : 1) * (q.codeTerms.has(term) ? W.codeTerm : 1);
}

/** The first MAX_RANKED_QUERY_CHARS of a query (what ranking reads), with a warning when the rest was left out. */
function trimmedQuery(query: string, warnings: Warning[]): string {
  if (query.length <= MAX_RANKED_QUERY_CHARS) return query;
  warnings.push({
    code: "query_trimmed",
    message: `the query has ${query.length} characters; ranking read the first ${MAX_RANKED_QUERY_CHARS} (put the issue's own words first, logs after)`,
  });
  return query.slice(0, MAX_RANKED_QUERY_CHARS);
}

function isAllowed(ctx: QueryContext, f: FileRow, includeGenerated: boolean): boolean {
  if (f.skipReason !== null) return false;
  if (f.isSecretSuspect && !ctx.policy.includeSecretSuspectFiles) return false;
  return includeGenerated || !(f.isGenerated || f.isVendored);
}

/**
 * Indexed paths for a path as a query names it: exact, else the indexed files sharing the longest run of trailing
 * segments with it: a relative path as a whole, an absolute one (the reporter's machine) by its file name and
 * folder at least (`/usr/lib/python3/site-packages/flask/app.py` → `src/flask/app.py`); only the longest run wins.
 */
async function resolvePath(ctx: QueryContext, raw: string): Promise<FileRow[]> {
  const rel = repoRelativePath(ctx.index.rootPath, raw).replace(/^\/+/, "");
  const exact = await ctx.store.getFile(ctx.index.id, rel);
  if (exact) return [exact];
  const want = rel.replace(/\\/g, "/").split("/").filter((p) => p.length > 0);
  const base = want[want.length - 1] ?? rel;
  const terms = [...new Set([base.toLowerCase(), ...splitIdentifier(base.replace(/\.[^.]+$/, ""))])].map((term) => ({ term, weight: 1 }));
  const byPath = await ctx.store.rankFiles(ctx.index.id, { terms, weights: { path: 1, symbols: 0, body: 0 }, limit: 200 });
  // A relative path names a file of the repository as a whole suffix; an absolute one is the reporter's machine
  // (a virtualenv, an install prefix), where only its tail can be ours.
  const need = ELSEWHERE.test(raw) ? Math.min(2, want.length) : want.length;
  let best = 0;
  let paths: string[] = [];
  for (const r of byPath) {
    const shared = sharedTail(want, r.path.split("/"));
    if (shared < need || shared < best) continue;
    if (shared > best) [best, paths] = [shared, []];
    paths.push(r.path);
  }
  const out: FileRow[] = [];
  for (const p of paths.sort().slice(0, MAX_PATH_MATCHES)) {
    const f = await ctx.store.getFile(ctx.index.id, p);
    if (f) out.push(f);
  }
  return out;
}

/** How many trailing path segments two paths share. */
function sharedTail(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n += 1;
  return n;
}

type AccFn = (path: string, file: FileRow | null, fileId: number | null) => Acc;
type ReasonFn = (a: Acc, part: string, value: number, why: string, via?: RankedMatchType) => void;

async function locate(ctx: QueryContext, q: ParsedQuery, acc: AccFn, reason: ReasonFn): Promise<void> {
  const seen = new Set<string>();
  for (const [i, loc] of q.locations.entries()) {
    for (const f of await resolvePath(ctx, loc.path)) {
      const a = acc(f.path, f, null);
      if (a.line === null) a.line = loc.line;
      if (seen.has(`frame:${f.path}`)) continue;
      seen.add(`frame:${f.path}`);
      // The innermost frame (listed first) is where it happened; callers further out matter less.
      reason(a, "stack_frame", W.stackFrame * Math.pow(W.stackFrameDecay, i), `the query's stack trace names ${loc.path}:${loc.line} (frame ${i + 1})`, "stack_frame");
    }
  }
  for (const p of q.paths) {
    for (const f of await resolvePath(ctx, p)) {
      if (seen.has(`frame:${f.path}`) || seen.has(`path:${f.path}`)) continue;
      seen.add(`path:${f.path}`);
      reason(acc(f.path, f, null), "path_mention", W.pathMention, `the query names ${p}`, "path_mention");
    }
  }
}

/**
 * Files that hold a phrase of the query as written (an error message, a quoted string): found through the trigram
 * index, checked on the text case-insensitively, in files other than documentation. A phrase found in more than
 * MAX_VERBATIM_FILES files says little about which one is meant and is passed over; the longest phrase a file holds
 * counts, once.
 */
async function verbatim(ctx: QueryContext, q: ParsedQuery, acc: AccFn, reason: ReasonFn, textOf: TextFn): Promise<void> {
  const done = new Set<string>();
  for (const phrase of q.phrases) {
    const lower = phrase.toLowerCase();
    const { files } = await ctx.store.candidateFiles(ctx.index.id, { fragments: [phrase] }, MAX_VERBATIM_CANDIDATES);
    const holding: { id: number; path: string; text: string; at: number }[] = [];
    for (const f of files) {
      // Documentation quotes the same messages (and translations repeat them): code is where a message is raised.
      if (isDocumentation(f.path)) continue;
      const text = (await textOf(f.path))?.toLowerCase() ?? "";
      const at = text.indexOf(lower);
      if (at >= 0) holding.push({ id: f.id, path: f.path, text, at });
      if (holding.length > MAX_VERBATIM_FILES) break;
    }
    if (holding.length === 0 || holding.length > MAX_VERBATIM_FILES) continue;
    for (const h of holding) {
      if (done.has(h.path)) continue;
      done.add(h.path);
      const a = acc(h.path, null, h.id);
      if (a.line === null) a.line = lineOf(indexLines(h.text), h.at);
      reason(a, "verbatim", W.verbatim, `holds "${shorten(phrase, 60)}" as the query writes it`, "verbatim");
    }
  }
}

async function definitions(ctx: QueryContext, q: ParsedQuery, acc: AccFn, reason: ReasonFn): Promise<void> {
  const seen = new Set<string>();
  for (const id of q.identifiers) {
    const { name, qualified } = parseSymbol(id);
    const found = (await ctx.store.findSymbols(ctx.index.id, { name, limit: 20 })).filter((s) => s.name === name && matchesQualifier(s, qualified));
    // Docs, examples and tests define names of their own for illustration; where the code defines the name, that is the one meant.
    const inCode = found.filter((s) => !isIllustration(s.path));
    const rows = inCode.length > 0 ? inCode : found;
    for (const s of rows) {
      if (seen.has(s.path)) continue;
      seen.add(s.path);
      const a = acc(s.path, s.file, null);
      if (a.line === null) a.line = s.startLine;
      reason(a, "definition_exact", W.definitionExact, `defines ${s.qualifiedName}, which the query names`, "symbol_definition");
    }
  }
}

/** The second look with term frequencies over the best candidates (see frequency.ts). */
async function frequencyLook(pool: Acc[], chosen: { terms: WeightedTerm[]; files: number }, reason: ReasonFn, textOf: TextFn): Promise<void> {
  if (pool.length < 2 || chosen.terms.length === 0) return;
  const texts = await Promise.all(pool.map(async (a) => (await textOf(a.path)) ?? ""));
  const scores = frequencyScores(texts, chosen.terms, chosen.files);
  pool.forEach((a, i) => reason(a, "term_frequency", W.termFrequency * scores[i]!, "how often it uses the query's terms, among the best candidates (BM25 with counts)"));
}

/** Documentation: a doc file anywhere, or anything under a documentation folder (its code too). */
function isDocumentation(path: string): boolean {
  return isDocPath(path) || DOC_FOLDER.test(path);
}

/** Code the program is made of: parsed as code, not documentation (a test's credit goes only there). */
function isCode(f: FileRow | null): boolean {
  return !!f && f.symbolStatus !== null && !isDocumentation(f.path);
}

/** Documentation, examples and tests: code written to show or exercise the program, not the program. */
function isIllustration(path: string): boolean {
  return isTestPath(path) || isDocumentation(path) || EXAMPLE_PATH.test(path);
}

/**
 * Documentation that is another version or translation of one ranked above it (its path the same once version and
 * locale parts are taken out) loses copyShare of its score: the first of each family keeps its place.
 */
function withoutCopies(
  kept: Acc[],
  scoreOf: (a: Acc) => number,
  byScore: (x: { a: Acc; score: number }, y: { a: Acc; score: number }) => number,
  reason: ReasonFn,
): { a: Acc; score: number }[] {
  const sorted = kept.map((a) => ({ a, score: scoreOf(a) })).sort(byScore);
  const byPath = new Map<string, string>();
  const byName = new Map<string, string>();
  let moved = false;
  for (const x of sorted) {
    if (x.a.file?.symbolStatus !== null && !isDocumentation(x.a.path)) continue;
    const family = docFamilyOf(x.a.path);
    const above = byPath.get(family.path) ?? (family.translationOf !== null ? byName.get(family.translationOf) : undefined);
    if (above === undefined) {
      byPath.set(family.path, x.a.path);
      const name = family.path.slice(family.path.lastIndexOf("/") + 1);
      if (!byName.has(name)) byName.set(name, x.a.path);
      continue;
    }
    reason(x.a, "prior", -W.copyShare * Math.max(1, x.score), `another version or translation of ${above}, ranked above`);
    x.score = scoreOf(x.a);
    moved = true;
  }
  return moved ? sorted.sort(byScore) : sorted;
}

async function accFor(ctx: QueryContext, fileId: number, acc: AccFn): Promise<Acc | null> {
  const c = await ctx.store.readCandidate(ctx.index.id, fileId);
  return c ? acc(c.file.path, c.file, fileId) : null;
}

async function loadRows(ctx: QueryContext, accs: Map<string, Acc>): Promise<void> {
  for (const a of accs.values()) a.file ??= await ctx.store.getFile(ctx.index.id, a.path);
}

function priors(a: Acc, q: ParsedQuery, reason: ReasonFn): void {
  const f = a.file!;
  if (f.isVendored) reason(a, "prior", W.vendoredPrior, "vendored code");
  else if (f.isGenerated) reason(a, "prior", W.generatedPrior, "generated code");
  else if (BOILERPLATE_PATH.test(f.path)) reason(a, "prior", W.boilerplatePrior, "an issue or pull-request template or a contribution policy");
  else if (isTestPath(f.path)) {
    if (!q.aboutTests) reason(a, "prior", W.testPrior, "a test: it exercises the behaviour, the code under test has it");
  } else if (isDocumentation(f.path)) reason(a, "prior", W.docPrior, "documentation");
  else if (EXAMPLE_PATH.test(f.path)) reason(a, "prior", W.examplePrior, "example code");
  else if (DECLARATION_PATH.test(f.path)) reason(a, "prior", W.declarationPrior, "a declaration file: the behaviour is in the implementation");
  else if (isMetadataFile(f.path) || CONFIG_LANGUAGES.has(f.language ?? "")) reason(a, "prior", W.configPrior, "configuration or a manifest: it names behaviour, the code has it");
  else if (f.symbolStatus === null) reason(a, "prior", W.nonCodePrior, "not parsed as code (text, data, a template or a script)");
}

/**
 * A test matching a behaviour question points at the code it tests: that file (same name without the test
 * affix, found among the candidates or by its path) gets a share of the test's BM25 part.
 */
async function testedBy(ctx: QueryContext, allowed: Acc[], acc: AccFn, reason: ReasonFn): Promise<void> {
  const credit = new Map<Acc, { value: number; test: string }>();
  const bm25Of = (a: Acc) => a.reasons.find((r) => r.part === "bm25")?.value ?? 0;
  // The strongest tests only: each one not matched to a candidate costs a path lookup.
  const tests = allowed.filter((a) => isTestPath(a.path) && bm25Of(a) > 0).sort((x, y) => bm25Of(y) - bm25Of(x)).slice(0, W.testedByTests);
  for (const [rank, t] of tests.entries()) {
    const bm25 = bm25Of(t);
    const subject = key(testSubject(t.path));
    if (bm25 <= 0 || subject.length === 0 || GENERIC_STEMS.has(subject)) continue;
    const among = allowed.find((a) => !isTestPath(a.path) && key(stemOf(a.path)) === subject && linkedByPath(t.path, a.path));
    // Looking the tested file up by path costs a pass over the index: only for the strongest few tests.
    const s = among ?? (rank < W.testedByLookups ? await testedFile(ctx, t.path, subject, acc) : null);
    // One test's evidence per file, the strongest: ten tests of a module do not make it ten times as likely.
    if (s && W.testedBy * bm25 > (credit.get(s)?.value ?? 0)) credit.set(s, { value: W.testedBy * bm25, test: t.path });
  }
  // A question matches many tests in passing; only the strongest few lend their evidence.
  const strongest = [...credit].filter(([s]) => isCode(s.file)).sort((x, y) => y[1].value - x[1].value).slice(0, W.testedByFiles);
  for (const [s, c] of strongest) reason(s, "tested_by", c.value, `its test ${c.test} matches the question`);
}

/** The file a test is named after, found by its stem among the indexed paths near the test, when the ranking missed it. */
async function testedFile(ctx: QueryContext, testPath: string, subject: string, acc: AccFn): Promise<Acc | null> {
  const found = await ctx.store.rankFiles(ctx.index.id, { terms: splitIdentifier(testSubject(testPath)).map((term) => ({ term, weight: 1 })), weights: { path: 1, symbols: 0, body: 0 }, limit: 20 });
  const hit = found.find((r) => !isTestPath(r.path) && key(stemOf(r.path)) === subject && linkedByPath(testPath, r.path));
  if (!hit) return null;
  const s = acc(hit.path, null, hit.fileId);
  s.file ??= await ctx.store.getFile(ctx.index.id, hit.path);
  return s.file && isAllowed(ctx, s.file, false) ? s : null;
}

/**
 * A test names the file it tests only along its own path: either every folder of the source, beyond the layout's
 * generic ones (`src`, `lib`, `main`, `java`, …), also appears in the test's path (`src/test/java/com/acme/FooTest`
 * → `src/main/java/com/acme/Foo`), or below the folders they share the test sits only in test folders
 * (`pkg/tests/test_foo.py` → `pkg/core/foo.py`). `packages/resolver/test/cache.test.js` tests
 * `packages/resolver/cache.js`, not `packages/legacy/cache.js`.
 */
function linkedByPath(testPath: string, sourcePath: string): boolean {
  const testDirs = testPath.toLowerCase().split("/").slice(0, -1);
  const sourceDirs = sourcePath.toLowerCase().split("/").slice(0, -1);
  const inTestPath = new Set(testDirs);
  if (sourceDirs.every((d) => GENERIC_DIRS.has(d) || inTestPath.has(d))) return true;
  let shared = 0;
  while (shared < testDirs.length && shared < sourceDirs.length && testDirs[shared] === sourceDirs[shared]) shared += 1;
  return testDirs.slice(shared).every((d) => GENERIC_DIRS.has(d) || TEST_DIRS.has(d));
}

/** Rank flows from the best hits along reference edges; neighbours they call (or that call them) rise. */
async function graphBoost(ctx: QueryContext, allowed: Acc[], acc: AccFn, reason: ReasonFn): Promise<void> {
  const scored = allowed.map((a) => ({ a, s: a.reasons.reduce((n, r) => n + r.value, 0) })).filter((x) => x.s > 0).sort((x, y) => y.s - x.s).slice(0, W.graphSeeds);
  const seedIds = new Map<number, number>();
  const missing = await ctx.store.fileIds(ctx.index.id, scored.filter(({ a }) => a.fileId === null).map(({ a }) => a.path));
  for (const { a, s } of scored) {
    a.fileId ??= missing.get(a.path) ?? null;
    if (a.fileId !== null) seedIds.set(a.fileId, s);
  }
  if (seedIds.size < 2) return;
  const edges = await ctx.store.fileEdges(ctx.index.id, [...seedIds.keys()], 2000);
  if (edges.length === 0) return;
  const rank = personalizedPageRank(seedIds, edges);
  // Relative to the best-ranked seed: a neighbour rises in proportion to how much of the seeds' rank reaches it.
  const max = Math.max(...[...rank.entries()].filter(([id]) => seedIds.has(id)).map(([, r]) => r), 0);
  if (max <= 0) return;
  const byId = new Map(allowed.filter((a) => a.fileId !== null).map((a) => [a.fileId!, a]));
  const languages = new Set(scored.map(({ a }) => a.file?.language).filter((l): l is string => !!l));
  let added = 0;
  for (const [id, r] of [...rank].sort((x, y) => y[1] - x[1])) {
    if (seedIds.has(id)) continue;
    let a = byId.get(id) ?? null;
    if (!a) {
      if (added >= W.graphNewFiles) continue;
      a = await accFor(ctx, id, acc);
      if (!a) continue;
      added++;
    }
    // Edges join equal names; across languages an equal name is a coincidence, not a call.
    if (!a.file?.language || !languages.has(a.file.language)) continue;
    reason(a, "graph", (W.graph * r) / max, "referenced by or referencing the best hits (personalized PageRank)", "graph_neighbor");
  }
}

const PRIORITY: RankedMatchType[] = ["stack_frame", "path_mention", "verbatim", "symbol_definition", "bm25", "graph_neighbor", "semantic"];

async function hitFor(ctx: QueryContext, a: Acc, score: number, stems: readonly string[], module: string | null, textOf: TextFn): Promise<RankedHit | null> {
  const f = a.file!;
  const content = await textOf(f.path);
  if (content === null) return null;
  const lines = content.split("\n");
  const symbols = await ctx.store.findSymbols(ctx.index.id, { path: f.path, limit: 2000 });
  const span = bestSpan(lines, symbols, stems, a.line);
  const matchType = PRIORITY.find((m) => a.via.has(m)) ?? "bm25";
  // Found only by the embedding: similar, not evidence of a match.
  const retrieval: Retrieval = matchType === "semantic" ? "semantic" : matchType === "symbol_definition" ? "symbol" : matchType === "graph_neighbor" ? "syntactic" : "lexical";
  const end = Math.min(span.endLine, span.startLine + SNIPPET_LINES - 1);
  return {
    path: f.path,
    language: f.language,
    module,
    contentHash: f.contentHash,
    score,
    matchType,
    retrieval,
    reasons: a.reasons,
    span: { ...span, snippet: lines.slice(span.startLine - 1, end).join("\n") },
  };
}

function abstain(items: RankedHit[], stems: readonly string[], enabled: boolean): Abstention {
  const best = items[0];
  const strong = best && (best.matchType === "stack_frame" || best.matchType === "path_mention" || best.matchType === "verbatim" || best.matchType === "symbol_definition");
  const score = strong ? 1 : best && stems.length > 0 ? round(best.span.matched.length / stems.length) : 0;
  return { enabled, noLocalEvidence: enabled && score < W.abstainCoverage, score, threshold: W.abstainCoverage };
}
