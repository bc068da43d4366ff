import { queryTermCounts } from "../../core/terms.js";
import { BM25F_K1 as K1, inverseDocumentFrequency } from "../../store/bm25f.js";
import { porterStem } from "../../store/porter.js";

/**
 * The first stage knows only whether a file holds a term (the index keeps terms once per field), so a file that
 * mentions an issue's subject once ranks with one built around it. This second look counts: for the best
 * candidates it reads the text and scores BM25 with term frequencies over the query's chosen terms (stemmed as the
 * index stems them), length-normalized among those candidates.
 */

/** Length normalization of the second look (term saturation is the first stage's K1). */
const B = 0.5;
/** Characters of a file read for counting: a term's frequency in the first 256 KiB says what the file is about. */
const MAX_COUNTED_CHARS = 256 * 1024;
/** Up to this many distinct stems, occurrences are found by substring search; more, by splitting the text once. */
const MAX_SCANNED_TERMS = 12;
/** Characters per term of code, roughly: puts a scanned text's length on the scale of a tokenized one. */
const CHARS_PER_TERM = 6;

export interface WeightedTerm {
  term: string;
  weight: number;
  /** Files holding the term in the whole index. */
  df: number;
}

/** Each text's BM25 score with term frequencies over `terms`, scaled so the best is 1 (0 when nothing matched). */
export function frequencyScores(texts: readonly string[], terms: readonly WeightedTerm[], files: number): number[] {
  // Each stem's weighted rarity (the larger where two terms share a stem).
  const wanted = new Map<string, number>();
  for (const t of terms) {
    const stem = porterStem(t.term);
    const idf = inverseDocumentFrequency(files, t.df) * t.weight;
    if ((wanted.get(stem) ?? 0) < idf) wanted.set(stem, idf);
  }
  const capped = texts.map((t) => (t.length > MAX_COUNTED_CHARS ? t.slice(0, MAX_COUNTED_CHARS) : t));
  const counted = wanted.size <= MAX_SCANNED_TERMS ? capped.map((t) => scanned(t, wanted)) : capped.map((t) => tokenized(t, wanted));
  const avg = counted.reduce((s, c) => s + c.length, 0) / Math.max(1, counted.length);
  const scores = counted.map(({ tf, length }) => {
    let score = 0;
    for (const [stem, f] of tf) score += (wanted.get(stem)! * f * (K1 + 1)) / (f + K1 * (1 - B + (B * length) / Math.max(1, avg)));
    return score;
  });
  const best = Math.max(0, ...scores);
  return scores.map((s) => (best > 0 ? s / best : 0));
}

interface Counted {
  tf: Map<string, number>;
  /** The text's length, in the unit its counting uses (terms, or characters / CHARS_PER_TERM). */
  length: number;
}

/** Few terms (a question): each stem's occurrences found by substring search, which costs less than splitting the text. */
function scanned(text: string, wanted: ReadonlyMap<string, unknown>): Counted {
  const lower = text.toLowerCase();
  const tf = new Map<string, number>();
  for (const stem of wanted.keys()) {
    let n = 0;
    for (let i = lower.indexOf(stem); i !== -1; i = lower.indexOf(stem, i + stem.length)) n += 1;
    if (n > 0) tf.set(stem, n);
  }
  return { tf, length: text.length / CHARS_PER_TERM };
}

/** Many terms (an issue): the text split into terms once, each stemmed as the index stems it. */
function tokenized(text: string, wanted: ReadonlyMap<string, unknown>): Counted {
  const stems = new Map<string, string>();
  const tf = new Map<string, number>();
  let length = 0;
  for (const [term, n] of queryTermCounts(text)) {
    length += n;
    let stem = stems.get(term);
    if (stem === undefined) stems.set(term, (stem = porterStem(term)));
    if (wanted.has(stem)) tf.set(stem, (tf.get(stem) ?? 0) + n);
  }
  return { tf, length };
}
