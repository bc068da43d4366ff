/**
 * Retrieval metrics over ranked file lists, as the retrieval literature defines them, so figures compare with
 * published ones: Recall@k is the share of a question's relevant files found in the first k results, averaged
 * over questions (a question with two relevant files and one found scores 0.5); MRR averages 1/rank of the first
 * relevant file (0 when none is returned). Pure functions: the harness feeds them, tests check them by hand.
 */

/** Cut-offs reported for every mode. */
export const RECALL_CUTOFFS = [1, 5, 10, 20] as const;
export type Cutoff = (typeof RECALL_CUTOFFS)[number];

export interface RankedQuestion {
  /** Paths in rank order as a mode returned them (duplicates allowed: the first occurrence counts). */
  ranking: readonly string[];
  relevant: readonly string[];
}

export interface RetrievalSummary {
  questions: number;
  recall: Record<`@${Cutoff}`, number>;
  mrr: number;
}

export interface LatencySummary {
  samples: number;
  p50Ms: number;
  p95Ms: number;
}

/** File-level ranking: each path once, at its first (best) position. */
export function dedupe(ranking: readonly string[]): string[] {
  return [...new Set(ranking)];
}

/** 1-based rank of each relevant path in the deduplicated ranking, null where absent. */
export function ranksOf(ranking: readonly string[], relevant: readonly string[]): (number | null)[] {
  const position = new Map<string, number>();
  dedupe(ranking).forEach((p, i) => position.set(p, i + 1));
  return relevant.map((p) => position.get(p) ?? null);
}

/** Share of the relevant files ranked within k; 0 for a question with nothing to find (summaries leave those out). */
export function recallAt(ranks: readonly (number | null)[], k: number): number {
  if (ranks.length === 0) return 0;
  return ranks.filter((r) => r !== null && r <= k).length / ranks.length;
}

/** 1 / rank of the first relevant file; 0 when none was returned. */
export function reciprocalRank(ranks: readonly (number | null)[]): number {
  const found = ranks.filter((r): r is number => r !== null);
  return found.length === 0 ? 0 : 1 / Math.min(...found);
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

/**
 * Averages per-question Recall@k and reciprocal rank from the ranks of each question's relevant files;
 * questions with nothing relevant are left out.
 */
export function summarizeRanks(questions: readonly (readonly (number | null)[])[]): RetrievalSummary {
  const asked = questions.filter((r) => r.length > 0);
  const recall = {} as Record<`@${Cutoff}`, number>;
  for (const k of RECALL_CUTOFFS) recall[`@${k}`] = mean(asked.map((r) => recallAt(r, k)));
  return { questions: asked.length, recall, mrr: mean(asked.map(reciprocalRank)) };
}

/** The same from rankings and relevant files. */
export function summarizeRetrieval(questions: readonly RankedQuestion[]): RetrievalSummary {
  return summarizeRanks(questions.map((q) => ranksOf(q.ranking, q.relevant)));
}

/** Share of the relevant files anywhere in the list (related tests: the list is already capped). */
export function recallAll(ranking: readonly string[], relevant: readonly string[]): number {
  return recallAt(ranksOf(ranking, relevant), Number.POSITIVE_INFINITY);
}

/** Nearest-rank percentile (p in 0..100) of samples; 0 for none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

/** Milliseconds kept to this many decimals in reports. */
const MS_DECIMALS = 1;

export function summarizeLatency(samplesMs: readonly number[]): LatencySummary {
  const round = (x: number) => Number(x.toFixed(MS_DECIMALS));
  return { samples: samplesMs.length, p50Ms: round(percentile(samplesMs, 50)), p95Ms: round(percentile(samplesMs, 95)) };
}
