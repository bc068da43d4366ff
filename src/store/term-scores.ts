import { FIELD_BIT, RANK_FIELDS, fieldNorm, inverseDocumentFrequency, saturate, type CorpusStats, type RankField } from "./bm25f.js";
import type { FieldValues, RankQuery, RankedFile } from "./store.js";

/**
 * BM25F over a whole index in dense arrays, shared by the stores (each reads postings and field lengths its own
 * way). A query term in common words matches tens of thousands of files on a large repository; per-file maps and
 * objects made scoring an issue-length query on the Linux kernel take ~300 ms, while these arrays, indexed by
 * file id − `base`, keep it to the index lookups.
 */

/** Every file's BM25F field normalizers (see fieldNorm), precomputed: they do not depend on the query. */
export interface TermSizes {
  stats: CorpusStats;
  /** The smallest file id with terms; arrays are indexed by id − base. */
  base: number;
  norms: Record<RankField, Float64Array>;
  /** 1 where the file id has terms. */
  has: Uint8Array;
}

/** One file's term count per field: [file id, path, symbols, body]. */
export type TermSizeRow = readonly [fileId: number, path: number, symbols: number, body: number];

/** The normalizers of an index's files, from every file's field lengths in file id order. */
export function termSizesFromRows(rows: readonly TermSizeRow[]): TermSizes {
  const sum: FieldValues = { path: 0, symbols: 0, body: 0 };
  for (const [, path, symbols, body] of rows) {
    sum.path += path;
    sum.symbols += symbols;
    sum.body += body;
  }
  const n = Math.max(rows.length, 1);
  const stats: CorpusStats = { files: rows.length, avgLength: { path: sum.path / n, symbols: sum.symbols / n, body: sum.body / n } };
  const base = rows[0]?.[0] ?? 0;
  const size = rows.length === 0 ? 0 : rows[rows.length - 1]![0] - base + 1;
  const norms = { path: new Float64Array(size), symbols: new Float64Array(size), body: new Float64Array(size) };
  const has = new Uint8Array(size);
  for (const [id, path, symbols, body] of rows) {
    const j = id - base;
    has[j] = 1;
    norms.path[j] = fieldNorm("path", path, stats);
    norms.symbols[j] = fieldNorm("symbols", symbols, stats);
    norms.body[j] = fieldNorm("body", body, stats);
  }
  return { stats, base, norms, has };
}

/** Scores accumulated term by term; which terms each file matched is kept as bits. */
export class DenseScores {
  readonly scores: Float64Array;
  /** Slots (id − base) that matched any term, in first-match order. */
  readonly touched: number[] = [];
  private readonly fields: Uint8Array;
  private readonly matchedBits: Uint32Array;
  private readonly words: number;

  constructor(
    private readonly sizes: TermSizes,
    private readonly weights: FieldValues,
    termCount: number,
  ) {
    const size = sizes.has.length;
    this.scores = new Float64Array(size);
    this.fields = new Uint8Array(size);
    this.words = Math.ceil(termCount / 32);
    this.matchedBits = new Uint32Array(size * this.words);
  }

  /** Adds term number `index`: the file ids holding it, per field in RANK_FIELDS order. */
  addTerm(index: number, weight: number, idsByField: readonly (readonly number[])[]): void {
    const { base, has, norms } = this.sizes;
    const slots: number[] = [];
    RANK_FIELDS.forEach((field, f) => {
      const bit = FIELD_BIT[field];
      for (const id of idsByField[f]!) {
        const j = id - base;
        if (j < 0 || j >= has.length || has[j] === 0) continue;
        if (this.fields[j] === 0) slots.push(j);
        this.fields[j]! |= bit;
      }
    });
    const idf = inverseDocumentFrequency(this.sizes.stats.files, slots.length);
    const w = this.weights;
    const word = index >>> 5;
    const mask = 1 << (index & 31);
    for (const j of slots) {
      const bits = this.fields[j]!;
      const tf =
        (bits & FIELD_BIT.path ? w.path * norms.path[j]! : 0) +
        (bits & FIELD_BIT.symbols ? w.symbols * norms.symbols[j]! : 0) +
        (bits & FIELD_BIT.body ? w.body * norms.body[j]! : 0);
      if (this.scores[j] === 0 && !this.anyMatched(j)) this.touched.push(j);
      this.scores[j]! += weight * saturate(tf, idf);
      this.matchedBits[j * this.words + word]! |= mask;
      this.fields[j] = 0;
    }
  }

  private anyMatched(j: number): boolean {
    for (let k = 0; k < this.words; k++) if (this.matchedBits[j * this.words + k] !== 0) return true;
    return false;
  }

  /** The term numbers slot `j` matched, ascending. */
  matched(j: number): number[] {
    const out: number[] = [];
    for (let k = 0; k < this.words; k++) {
      const bits = this.matchedBits[j * this.words + k]!;
      for (let b = 0; b < 32; b++) if (bits & (1 << b)) out.push(k * 32 + b);
    }
    return out;
  }
}

/** What rankFiles needs to know of a file to keep it and name it (the store's slim row). */
export interface RankableFile {
  path: string;
  isSecretSuspect: boolean;
}

/**
 * The best `query.limit` files of the scored ones, best first (ties by path): files the policy or the path prefix
 * leave out are dropped after scoring (statistics are the whole index's), and only files scoring at least the
 * limit-th best score are built into results.
 */
export function topRanked(
  scores: DenseScores,
  base: number,
  terms: readonly { term: string }[],
  query: Pick<RankQuery, "limit" | "pathPrefix" | "includeSecretSuspect">,
  fileOf: (fileId: number) => RankableFile | undefined,
): RankedFile[] {
  const eligible = scores.touched.filter((j) => {
    const f = fileOf(j + base);
    return f !== undefined && (!f.isSecretSuspect || query.includeSecretSuspect) && (!query.pathPrefix || f.path.startsWith(query.pathPrefix));
  });
  // A numeric sort of the scores alone finds the threshold.
  const sorted = Float64Array.from(eligible, (j) => scores.scores[j]!).sort();
  const threshold = sorted.length > query.limit ? sorted[sorted.length - query.limit]! : Number.NEGATIVE_INFINITY;
  const top = eligible
    .filter((j) => scores.scores[j]! >= threshold)
    .map((j): RankedFile => ({ path: fileOf(j + base)!.path, fileId: j + base, score: scores.scores[j]!, matched: scores.matched(j).map((i) => terms[i]!.term) }));
  return top.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1)).slice(0, query.limit);
}
