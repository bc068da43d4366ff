/**
 * Personalized PageRank over a small file graph: rank flows from the first-stage hits (the seeds) along
 * reference edges, so a file that the best hits call into, or that calls them, rises even when it shares few words
 * with the query. Plain power iteration: the graphs here are a few hundred nodes.
 */

export interface Edge {
  from: number;
  to: number;
  weight: number;
}

/** Probability of jumping back to a seed at each step (the usual 0.15–0.3; higher stays closer to the seeds). */
export const RESTART = 0.25;
const ITERATIONS = 20;

/**
 * Scores per node (summing to 1 over the nodes reached). `seeds` maps a node to its restart weight (e.g. its
 * first-stage score); edges are used in both directions, since calling and being called both relate two files.
 */
export function personalizedPageRank(seeds: ReadonlyMap<number, number>, edges: readonly Edge[], restart = RESTART): Map<number, number> {
  const out = new Map<number, { to: number; w: number }[]>();
  const add = (a: number, b: number, w: number) => (out.get(a) ?? out.set(a, []).get(a)!).push({ to: b, w });
  for (const e of edges) {
    if (e.from === e.to || e.weight <= 0) continue;
    add(e.from, e.to, e.weight);
    add(e.to, e.from, e.weight);
  }
  const total = [...seeds.values()].reduce((n, w) => n + Math.max(0, w), 0);
  if (total <= 0) return new Map();
  const restartVec = new Map([...seeds].map(([k, w]) => [k, Math.max(0, w) / total]));
  let rank = new Map(restartVec);
  const outWeight = new Map([...out].map(([k, list]) => [k, list.reduce((n, x) => n + x.w, 0)]));
  for (let i = 0; i < ITERATIONS; i++) {
    const next = new Map<number, number>();
    for (const [k, r] of restartVec) next.set(k, restart * r);
    let dangling = 0;
    for (const [node, r] of rank) {
      const list = out.get(node);
      if (!list) {
        dangling += r;
        continue;
      }
      const sum = outWeight.get(node)!;
      for (const { to, w } of list) next.set(to, (next.get(to) ?? 0) + (1 - restart) * r * (w / sum));
    }
    // Rank stuck in nodes without edges goes back to the seeds, so the scores keep summing to 1.
    for (const [k, r] of restartVec) next.set(k, next.get(k)! + (1 - restart) * dangling * r);
    rank = next;
  }
  return rank;
}
