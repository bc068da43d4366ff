/**
 * Ranked retrieval latency for questions and issue text (issue #8): the same fixed questions through each strategy
 * — `bm25` (the lexical baseline), `hybrid`, `hybrid_semantic` — in-process on the bench's store, warm (one untimed
 * pass first). What each returns first is recorded too, so a reader can see the questions are answered.
 */
import { loadRanked, loadSchema, loadSqliteStore } from "./dist.js";
import { timeCalls } from "./time-calls.js";

export const RANKED_STRATEGIES = ["bm25", "hybrid", "hybrid_semantic"] as const;

export interface RankedTiming {
  question: string;
  strategy: (typeof RANKED_STRATEGIES)[number];
  samplesMs: number[];
  top: string | null;
  results: number;
}

export async function measureRanked(dbPath: string, questions: readonly string[], passes: number): Promise<RankedTiming[]> {
  const [{ rankedSearch }, { SqliteStore }, { defaultReadPolicy }] = await Promise.all([loadRanked(), loadSqliteStore(), loadSchema()]);
  const store = SqliteStore.open(dbPath);
  try {
    const index = await store.getReadyIndex();
    if (!index) throw new Error("no ready index in the bench store");
    const ctx = { store, index, policy: defaultReadPolicy() };
    const out: RankedTiming[] = [];
    for (const strategy of RANKED_STRATEGIES) {
      const timed = await timeCalls(questions, passes, (query) => rankedSearch(ctx, { query, strategy, maxResults: 10 }));
      for (const t of timed) out.push({ question: t.item, strategy, samplesMs: t.samplesMs, top: t.warmup.items[0]?.path ?? null, results: t.warmup.items.length });
    }
    return out;
  } finally {
    await store.close();
  }
}
