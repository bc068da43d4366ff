import type { QueryContext } from "../query/context.js";

/**
 * TEMPORARY BASELINE — stands in for `rankedSearch` from src/query/hybrid/search.ts until that module lands, so
 * the evaluation harness runs end to end. It has the same signature; swapping the import in modes.ts replaces it.
 *
 * What it does (deliberately simple, no text is read): the query's words are matched against each file's path
 * parts and against symbol names starting with the word (the store's case-insensitive name-prefix lookup); each
 * matched word adds its inverse document frequency, path matches weighing more than symbol matches. The
 * strategy is ignored: every strategy ranks the same here.
 */

export type RankStrategy = "bm25" | "hybrid" | "hybrid_semantic";

export interface RankedSearchInput {
  query: string;
  strategy: RankStrategy;
  maxResults: number;
}

export interface RankedSearchResult {
  items: { path: string; score: number }[];
}

/** Words shorter than this are too common to rank by. */
const MIN_WORD = 3;
/** Distinct query words looked up at most (each costs one symbol lookup). */
const MAX_WORDS = 32;
/** Symbols read per word: a very common prefix stops here (its IDF is low anyway). */
const SYMBOLS_PER_WORD = 500;
/** A file path naming the word says more than one symbol among many starting with it. */
const PATH_WEIGHT = 2;
const SYMBOL_WEIGHT = 1;
/** Words shorter than this match path parts only exactly; longer ones also as a prefix (index ~ indexer). */
const PREFIX_MATCH_MIN = 5;

/** English function words and the verbs commit messages and issues open with: they name no code. */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "the and for with from into that this when then than not but are was were has have had its it's can cannot " +
    "should would could will also only now new use used using add adds added fix fixes fixed make makes made " +
    "allow allows let lets get gets set sets update updates updated remove removes removed change changes changed " +
    "support supports more less some any all each every one two which what where who why how there their them " +
    "they our out via per instead before after because without within about still just does doesn don't like"
  ).split(" "),
);

/** Lower-case sub-words of identifiers and prose: camelCase, snake_case, kebab-case and paths split apart. */
export function subWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

function queryWords(query: string): string[] {
  const words = subWords(query).filter((w) => w.length >= MIN_WORD && !STOP_WORDS.has(w) && !/^\d+$/.test(w));
  return [...new Set(words)].slice(0, MAX_WORDS);
}

function partMatches(part: string, word: string): boolean {
  if (part === word) return true;
  if (Math.min(part.length, word.length) < PREFIX_MATCH_MIN) return false;
  return part.startsWith(word) || word.startsWith(part);
}

/** The temporary baseline; see the file comment. */
export async function rankedSearch(ctx: QueryContext, input: RankedSearchInput): Promise<RankedSearchResult> {
  const words = queryWords(input.query);
  if (words.length === 0) return { items: [] };
  const files = (await ctx.store.listFiles(ctx.index.id)).filter((f) => f.skipReason === null && f.language !== null && !f.isVendored);
  const known = new Set(files.map((f) => f.path));
  const parts = new Map(files.map((f) => [f.path, new Set(subWords(f.path))]));
  const scores = new Map<string, number>();
  for (const word of words) {
    const byPath = files.filter((f) => [...parts.get(f.path)!].some((p) => partMatches(p, word))).map((f) => f.path);
    const symbols = await ctx.store.findSymbols(ctx.index.id, { namePrefix: word, limit: SYMBOLS_PER_WORD });
    const bySymbol = new Set(symbols.map((s) => s.path).filter((p) => known.has(p)));
    const df = new Set([...byPath, ...bySymbol]).size;
    if (df === 0) continue;
    const idf = Math.log(1 + files.length / df);
    for (const p of byPath) scores.set(p, (scores.get(p) ?? 0) + PATH_WEIGHT * idf);
    for (const p of bySymbol) scores.set(p, (scores.get(p) ?? 0) + SYMBOL_WEIGHT * idf);
  }
  const items = [...scores]
    .map(([path, score]) => ({ path, score }))
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, input.maxResults);
  return { items };
}
