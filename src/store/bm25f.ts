import type { FieldValues, RankQuery } from "./store.js";

/**
 * Field-weighted BM25 (BM25F, Robertson & Zaragoza): each field's match is length-normalized on its own, the
 * fields are summed by their weights, and the sum saturates once per term. A store finds which files hold which
 * term in which fields and scores them with these functions (the SQLite store in dense arrays, the working-tree
 * overlay with scoreFiles), so both rank on one scale. A file's terms are unique per field, so a field either
 * holds a term or not (no term frequency).
 */

/** Term saturation: how quickly a term's score stops growing as more (and heavier) fields hold it. */
export const BM25F_K1 = 1.2;
/**
 * Length normalization per field (BM25F's b): bodies vary most in length and are normalized most; paths are
 * short, and a deep path is no less specific about what its file is.
 */
export const FIELD_LENGTH_NORMALIZATION: Readonly<FieldValues> = { path: 0.3, symbols: 0.5, body: 0.2 };

export const RANK_FIELDS = ["path", "symbols", "body"] as const;
export type RankField = (typeof RANK_FIELDS)[number];
/** Which fields hold a term, a bit per field in RANK_FIELDS order. */
export const FIELD_BIT: Readonly<Record<RankField, number>> = { path: 1, symbols: 2, body: 4 };

/** One query term and the files holding it (file id → field bits), for scoreFiles. */
export interface TermPostings {
  term: string;
  weight: number;
  files: Map<number, number>;
  /** Files holding the term in the whole index, which may be more than `files` (the overlay scores a few files). */
  documentFrequency: number;
}

export interface CorpusStats {
  files: number;
  avgLength: FieldValues;
}

export interface FileScore {
  score: number;
  matched: string[];
}

/** Query terms as the index holds them: lowercase [a-z0-9_] runs (one token each), once each, larger weight kept. */
export function normalizeRankTerms(terms: RankQuery["terms"]): { term: string; weight: number }[] {
  const out = new Map<string, number>();
  for (const { term, weight } of terms) {
    if (!(weight > 0)) continue;
    for (const token of term.toLowerCase().split(/[^a-z0-9_]+/)) {
      if (token.length > 0) out.set(token, Math.max(out.get(token) ?? 0, weight));
    }
  }
  return [...out].map(([term, weight]) => ({ term, weight }));
}

/** Rarer terms count more; never negative (a term in most files still counts a little). */
export function inverseDocumentFrequency(files: number, documentFrequency: number): number {
  return Math.log(1 + (files - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/** BM25F's length normalization of one field of one file: its match counts 1 / (1 - b + b·length/avg). */
export function fieldNorm(field: RankField, length: number, stats: CorpusStats): number {
  const b = FIELD_LENGTH_NORMALIZATION[field];
  const avg = stats.avgLength[field];
  return 1 / (1 - b + b * (avg > 0 ? length / avg : 1));
}

/** A term's score from its field-weighted, length-normalized presence `tf`: rarer terms count more, and it saturates. */
export function saturate(tf: number, idf: number): number {
  return tf > 0 ? (idf * tf * (BM25F_K1 + 1)) / (tf + BM25F_K1) : 0;
}

/** One term's part of a file's score, from the fields that hold it and the file's field lengths. */
export function termScore(fields: number, lengths: FieldValues, stats: CorpusStats, weights: FieldValues, idf: number): number {
  let tf = 0;
  for (const field of RANK_FIELDS) {
    if ((fields & FIELD_BIT[field]) !== 0) tf += weights[field] * fieldNorm(field, lengths[field], stats);
  }
  return saturate(tf, idf);
}

/**
 * Scores every file that holds at least one term: the sum over terms of weight × BM25F part, with the terms each
 * file matched in query order. Files without known lengths (not in the index any more) are left out.
 */
export function scoreFiles(
  postings: TermPostings[],
  stats: CorpusStats,
  weights: FieldValues,
  lengthsOf: (fileId: number) => FieldValues | undefined,
): Map<number, FileScore> {
  const scores = new Map<number, FileScore>();
  for (const p of postings) {
    const idf = inverseDocumentFrequency(stats.files, p.documentFrequency);
    for (const [fileId, fields] of p.files) {
      const lengths = lengthsOf(fileId);
      if (lengths === undefined) continue;
      const part = p.weight * termScore(fields, lengths, stats, weights, idf);
      const entry = scores.get(fileId);
      if (entry) {
        entry.score += part;
        entry.matched.push(p.term);
      } else scores.set(fileId, { score: part, matched: [p.term] });
    }
  }
  return scores;
}
