import type { SemanticMeta } from "../core/semantic.js";
import { MODEL_FORMAT, SemanticModel, cosine, lightStem } from "../indexer/semantic/model.js";
import type { QueryContext } from "./context.js";
import type { Retrieval } from "../core/evidence.js";

/**
 * The query side of the semantic layer: the model trained on the repository at index time, loaded once per index,
 * used to add related terms to a query and to rank files by embedding similarity. Everything here is similarity,
 * never evidence that text occurs: results that come from it are labelled `semantic`.
 */

/** The retrieval label of every result this module contributes to. */
export const SEMANTIC_RETRIEVAL = "semantic" satisfies Retrieval;

/**
 * Neighbours below this cosine are not used to expand a query. On the Linux kernel's model, neighbours at 0.6
 * and above are mostly real relatives (timeout → jiffies, msecs; checksum → csum) and below it mostly
 * co-occurring noise.
 */
export const EXPANSION_MIN_COS = 0.6;
/** Expansions per query term: a few related names help recall, more drown the query's own terms. */
export const EXPANSIONS_PER_TERM = 3;
/** An expansion weighs its cosine times this, always below a term the user wrote (weight 1). */
export const EXPANSION_WEIGHT = 0.5;
/** Files denseScores returns by default (best first). */
export const DENSE_LIMIT = 200;

/** Indexes whose semantic data stays loaded: the serving one plus one being swapped in by a reindex. */
const CACHED_INDEXES = 2;

export interface LoadedSemantic {
  model: SemanticModel;
  /** File vectors by file id. They are in the built-in model's space only when `meta.vectors.provider` is builtin. */
  vectors: Map<number, Float32Array>;
  meta: SemanticMeta;
}

export interface Expansion {
  term: string;
  /** In (0, EXPANSION_WEIGHT]: the neighbour's cosine to `from`, discounted. */
  weight: number;
  /** The query term it was found from. */
  from: string;
  cos: number;
  retrieval: typeof SEMANTIC_RETRIEVAL;
}

/** Per store, then per index id@version (an in-place update keeps the id and changes the version). */
const caches = new WeakMap<object, Map<string, Promise<LoadedSemantic | null>>>();

/**
 * The index's semantic model and file vectors, or null when it was built without them (or with a model format
 * this version does not read). Cached per index version.
 */
export function loadSemantic(ctx: QueryContext): Promise<LoadedSemantic | null> {
  const key = `${ctx.index.id}@${ctx.index.indexVersion ?? ""}`;
  // An overlay view is made per call: its semantic data is the base store's.
  const store = (ctx.store as { base?: QueryContext["store"] }).base ?? ctx.store;
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new Map()));
  let loaded = cache.get(key);
  if (!loaded) {
    loaded = load(store, ctx.index.id);
    loaded.catch(() => cache.delete(key));
    cache.set(key, loaded);
    while (cache.size > CACHED_INDEXES) cache.delete(cache.keys().next().value!);
  }
  return loaded;
}

async function load(store: QueryContext["store"], indexId: string): Promise<LoadedSemantic | null> {
  const stored = await store.getSemantic(indexId);
  // A model written in another format (an older repoctx) is as good as none: a reindex trains a new one.
  if (!stored || stored.meta.modelFormat !== MODEL_FORMAT) return null;
  const model = SemanticModel.deserialize(stored.model);
  return { model, vectors: await store.fileVectors(indexId), meta: stored.meta };
}

/**
 * Related sub-words for a query's terms: up to EXPANSIONS_PER_TERM neighbours per term with cosine at least
 * EXPANSION_MIN_COS, leaving out the query's own terms and their inflections. A neighbour of several terms is
 * kept once, with its best weight. Heaviest first.
 */
export function expandQuery(model: SemanticModel, terms: readonly string[]): Expansion[] {
  const own = new Set(terms.map(lightStem));
  const best = new Map<string, Expansion>();
  for (const from of terms) {
    let added = 0;
    for (const n of model.nearest(from, EXPANSIONS_PER_TERM + own.size, EXPANSION_MIN_COS)) {
      if (added >= EXPANSIONS_PER_TERM) break;
      if (own.has(lightStem(n.term))) continue;
      added += 1;
      const weight = n.cos * EXPANSION_WEIGHT;
      const prev = best.get(n.term);
      if (!prev || prev.weight < weight) best.set(n.term, { term: n.term, weight, from, cos: n.cos, retrieval: SEMANTIC_RETRIEVAL });
    }
  }
  return [...best.values()].sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1));
}

/**
 * Files by cosine between the query's embedding (its sub-words through the built-in model) and theirs: the best
 * `limit` with a positive cosine, best first (the map's order), among `candidateFileIds` or all files. Empty when
 * the model knows none of the query's sub-words, or when the vectors are not the built-in model's.
 */
export function denseScores(
  model: SemanticModel,
  vectors: ReadonlyMap<number, Float32Array>,
  queryTerms: readonly string[],
  candidateFileIds?: Iterable<number>,
  limit = DENSE_LIMIT,
): Map<number, number> {
  return rankByVector(model.embed(queryTerms), vectors, candidateFileIds, limit);
}

/**
 * Files by cosine to a query vector of unit length (from the built-in model or the provider that embedded the
 * files), as denseScores. Vectors of other dimensions are skipped.
 */
export function rankByVector(
  query: Float32Array,
  vectors: ReadonlyMap<number, Float32Array>,
  candidateFileIds?: Iterable<number>,
  limit = DENSE_LIMIT,
): Map<number, number> {
  const top = new TopScores(limit);
  if (query.length === 0 || query.every((x) => x === 0)) return new Map();
  const visit = (id: number, v: Float32Array | undefined) => {
    if (!v || v.length !== query.length) return;
    const cos = cosine(query, v);
    if (cos > 0) top.offer(id, cos);
  };
  if (candidateFileIds) for (const id of new Set(candidateFileIds)) visit(id, vectors.get(id));
  else for (const [id, v] of vectors) visit(id, v);
  return top.result();
}

/** The `limit` best (id, score) pairs, kept sorted: most offers on a large repository fall below the floor at once. */
class TopScores {
  private readonly ids: number[] = [];
  private readonly scores: number[] = [];
  constructor(private readonly limit: number) {}

  offer(id: number, score: number): void {
    const n = this.scores.length;
    if (this.limit <= 0 || (n >= this.limit && score <= this.scores[n - 1]!)) return;
    let at = n;
    while (at > 0 && (this.scores[at - 1]! < score || (this.scores[at - 1] === score && this.ids[at - 1]! > id))) at -= 1;
    this.ids.splice(at, 0, id);
    this.scores.splice(at, 0, score);
    if (this.scores.length > this.limit) {
      this.ids.pop();
      this.scores.pop();
    }
  }

  result(): Map<number, number> {
    return new Map(this.ids.map((id, i) => [id, this.scores[i]!]));
  }
}
