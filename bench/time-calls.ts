/**
 * Warm, repeated timing of one tool over a fixed list, shared by the search_code and find_symbol measurements:
 * one untimed warm-up pass (whose envelopes describe the outcome), then `passes` timed passes in list order.
 */
import { performance } from "node:perf_hooks";

export async function timeCalls<T, E>(
  items: readonly T[],
  passes: number,
  call: (item: T) => Promise<E>,
): Promise<{ item: T; warmup: E; samplesMs: number[] }[]> {
  const out: { item: T; warmup: E; samplesMs: number[] }[] = [];
  for (const item of items) out.push({ item, warmup: await call(item), samplesMs: [] });
  for (let pass = 0; pass < passes; pass++) {
    for (const t of out) {
      const started = performance.now();
      await call(t.item);
      t.samplesMs.push(performance.now() - started);
    }
  }
  return out;
}
