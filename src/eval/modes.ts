import type { QueryContext } from "../query/context.js";
import { rankedSearch, type Strategy } from "../query/hybrid/search.js";

/**
 * Retrieval modes the evaluation compares. A mode turns a question into ranked file paths; the harness only ever
 * sees paths, so any retriever (ours, a baseline, an experiment) plugs in by adding an entry here.
 */

/** Files each mode returns: enough for Recall@20 (a reciprocal rank beyond it counts as none). */
export const RANKED_RESULTS = 20;

export type RankFn = (ctx: QueryContext, query: string) => Promise<string[]>;

export interface EvalMode {
  description: string;
  rank: RankFn;
}

export type ModeRegistry = Readonly<Record<string, EvalMode>>;

function viaRankedSearch(strategy: Strategy): RankFn {
  return async (ctx, query) => (await rankedSearch(ctx, { query, strategy, maxResults: RANKED_RESULTS })).items.map((i) => i.path);
}

/** The three columns, compared in one run: lexical only, hybrid, hybrid with the semantic layer. */
export const MODES: ModeRegistry = {
  lexical: { description: "field-weighted BM25 only", rank: viaRankedSearch("bm25") },
  hybrid: { description: "BM25 with symbol, path and graph signals", rank: viaRankedSearch("hybrid") },
  hybrid_semantic: { description: "hybrid plus the repository-trained semantic layer", rank: viaRankedSearch("hybrid_semantic") },
};

export const DEFAULT_MODES: readonly string[] = Object.keys(MODES);

/** The modes asked for, in order, or the names that are not registered. */
export function resolveModes(names: readonly string[], registry: ModeRegistry = MODES): { modes: [string, EvalMode][] } | { unknown: string[] } {
  const unknown = names.filter((n) => !Object.hasOwn(registry, n));
  if (unknown.length > 0) return { unknown };
  return { modes: [...new Set(names)].map((n) => [n, registry[n]!]) };
}
