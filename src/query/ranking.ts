import { isDocPath, isTestPath } from "../policy/labels.js";
import type { FileRow } from "../store/store.js";

/**
 * Every ranking weight, named, in one place. Lexical ranking today: more matches rank higher (diminishing),
 * a path that contains the query ranks higher, and file kinds carry priors so source outranks tests, docs and
 * generated code for the same evidence.
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
} as const;

export interface ScoreParts {
  matches: number;
  pathMatch: number;
  prior: number;
}

export function lexicalScore(file: FileRow, matchCount: number, pathContainsQuery: boolean): { score: number; parts: ScoreParts } {
  let prior: number = WEIGHTS.sourcePrior;
  if (file.isVendored) prior = WEIGHTS.vendoredPrior;
  else if (file.isGenerated) prior = WEIGHTS.generatedPrior;
  else if (isTestPath(file.path)) prior = WEIGHTS.testPrior;
  else if (isDocPath(file.path)) prior = WEIGHTS.docPrior;
  const parts: ScoreParts = {
    matches: WEIGHTS.matchCount * Math.log1p(matchCount),
    pathMatch: pathContainsQuery ? WEIGHTS.pathMatch : 0,
    prior,
  };
  const score = Math.round((parts.matches + parts.pathMatch + parts.prior) * 1000) / 1000;
  return { score, parts };
}
