import { isDocPath, isTestPath } from "../policy/labels.js";
import type { FileRow } from "../store/store.js";

/**
 * Every ranking weight, named, in one place. Lexical ranking today: more matches rank higher (diminishing),
 * a path that contains the query ranks higher, file kinds carry priors so source outranks tests, docs and
 * generated code for the same evidence, very large files rank lower, and a definition outranks a mention.
 */
export const WEIGHTS = {
  /** Multiplies log(1 + matches in the file). */
  matchCount: 1.0,
  /** The query text appears in the file's path. */
  pathMatch: 1.5,
  /** Priors by kind of file (added). */
  sourcePrior: 0.5,
  testPrior: 0.3,
  docPrior: 0.2,
  generatedPrior: -0.5,
  vendoredPrior: -0.7,
  /** Per doubling of size above `largeFileBytes`: big files are mostly bundles and data, and cost the most to read. */
  largeFilePerDoubling: -0.15,
  largeFileBytes: 32 * 1024,
  /** The file defines a symbol with exactly the queried name (hybrid and symbol modes). */
  definitionExact: 2.0,
  /** The file defines a symbol whose name starts with the query (symbol mode). */
  definitionPrefix: 1.0,
} as const;

export interface ScoreParts {
  matches: number;
  pathMatch: number;
  prior: number;
  size: number;
  definition?: number;
}

/** What a score needs to know about a file: known before its text is read. */
export type ScoredFile = Pick<FileRow, "path" | "sizeBytes" | "isGenerated" | "isVendored">;

export function lexicalScore(file: ScoredFile, matchCount: number, pathContainsQuery: boolean): { score: number; parts: ScoreParts } {
  let prior: number = WEIGHTS.sourcePrior;
  if (file.isVendored) prior = WEIGHTS.vendoredPrior;
  else if (file.isGenerated) prior = WEIGHTS.generatedPrior;
  else if (isTestPath(file.path)) prior = WEIGHTS.testPrior;
  else if (isDocPath(file.path)) prior = WEIGHTS.docPrior;
  const parts: ScoreParts = {
    matches: WEIGHTS.matchCount * Math.log1p(matchCount),
    pathMatch: pathContainsQuery ? WEIGHTS.pathMatch : 0,
    prior,
    size: file.sizeBytes > WEIGHTS.largeFileBytes ? WEIGHTS.largeFilePerDoubling * Math.log2(file.sizeBytes / WEIGHTS.largeFileBytes) : 0,
  };
  const score = Math.round((parts.matches + parts.pathMatch + parts.prior + parts.size) * 1000) / 1000;
  return { score, parts };
}
