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

/** The highest prior a file can have before the path bonus: a size only lowers it. */
export const TOP_PRIOR = Math.max(WEIGHTS.sourcePrior, WEIGHTS.testPrior, WEIGHTS.docPrior, WEIGHTS.generatedPrior, WEIGHTS.vendoredPrior);

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

/** A file's score before any text is read, less the path match: its kind and size, and its path in lower case. */
interface StaticPrior {
  base: number;
  lowerPath: string;
}
/** Per file row object: the store hands out the same slim rows to every query, so each is worked out once. */
const staticPriors = new WeakMap<ScoredFile, StaticPrior>();

/**
 * `lexicalScore(file, 0, path contains the query).score`, for ordering thousands of candidates before any text is
 * read: the file's part is kept per row object, so a query pays only for the path test.
 */
export function priorScore(file: ScoredFile, queryLower: string): number {
  let known = staticPriors.get(file);
  if (!known) {
    const { parts } = lexicalScore(file, 0, false);
    known = { base: parts.matches + parts.prior + parts.size, lowerPath: file.path.toLowerCase() };
    staticPriors.set(file, known);
  }
  return Math.round((known.base + (known.lowerPath.includes(queryLower) ? WEIGHTS.pathMatch : 0)) * 1000) / 1000;
}

/**
 * Ranked retrieval for prose and issue text (src/query/hybrid): every part of a hit's score, named, with the reason
 * each exists. The first stage is field-weighted BM25 (path, symbol names, body) over split, stemmed identifiers;
 * the rest re-rank its candidates.
 */
export const HYBRID_WEIGHTS = {
  /** BM25F field weights: a term in a defined symbol's name or in the path says more than one in the body. */
  fields: { path: 2.0, symbols: 3.0, body: 1.0 },
  /** Plain BM25 over the body only: the lexical baseline `repoctx eval` compares against. */
  bodyOnly: { path: 0, symbols: 0, body: 1.0 },
  /** A query term's weight grows by this times the log of how often the query repeats it. */
  queryTermRepeat: 0.5,
  /** A term of the query's first line (an issue's title) weighs this many times more. */
  titleTerm: 1.5,
  /** A term the query writes as code (backticks, code blocks, identifier-shaped) weighs this many times more. */
  codeTerm: 1.5,
  /**
   * The second look (query/hybrid/frequency.ts): BM25 with term counts over the best `frequencyPool` candidates,
   * the best of them getting this much; the first stage sees only whether a file holds a term.
   */
  termFrequency: 3.0,
  frequencyPool: 30,
  /** Candidates the first stage hands on. */
  firstStage: 100,
  /** The best first-stage score maps to this; the others in proportion. */
  bm25: 3.0,
  /** A stack frame or `path:line` in the query names this file: the strongest evidence a query carries. */
  stackFrame: 6.0,
  /** Each frame further out of the trace counts this much of the one before it. */
  stackFrameDecay: 0.6,
  /** The query names this file's path. */
  pathMention: 4.0,
  /**
   * The file holds a phrase of the query as written (an error message, a quoted string) that few files hold: the
   * message an issue pastes is raised where the fix usually goes, so this is pinned above ranked guesses.
   */
  verbatim: 2.5,
  /** The file defines a symbol the query names exactly (`QuoteService`, `Quote#get`). */
  definitionExact: 2.5,
  /** Priors by kind of file: tests, docs and examples explain behaviour less directly than the code that has it. */
  testPrior: -0.8,
  docPrior: -0.5,
  examplePrior: -0.3,
  generatedPrior: -1.5,
  vendoredPrior: -1.5,
  configPrior: -0.6,
  /**
   * Declaration files (`.d.ts`, `.pyi`): they name every public function of a package, so an issue's words reach
   * them first, while the behaviour an issue reports lives in the implementation.
   */
  declarationPrior: -1.0,
  /**
   * Files no parser reads as code and no other prior covers (locale catalogues, text fixtures, notebooks, man pages,
   * templates, shell helpers): an issue's words match them by accident far more often than a fix changes them.
   */
  nonCodePrior: -1.0,
  /**
   * Issue and pull-request templates and contribution policies: they share an issue's vocabulary by design ("bug
   * report", "steps to reproduce", "version") and a fix never changes them, so they sit below any code the issue's
   * words also reach.
   */
  boilerplatePrior: -2.0,
  /**
   * Another version or translation of documentation ranked higher (`docs/v1.5/manual.yml` under
   * `docs/manual.yml`, `README-ja.md` under `README.md`): it repeats what the agent already has, in a slot a
   * different file could use. It loses this share of its score, of 1 at least (a fixed step left whole manuals in
   * the top five).
   */
  copyShare: 0.6,
  /**
   * A test that matches a behaviour question is evidence about the code it tests: that file (by the test naming
   * conventions) gets this share of the test's BM25 part, so the code under test outranks its test.
   */
  testedBy: 0.9,
  /** Files that may receive a test's evidence, the strongest credits first (a question matches many tests in passing). */
  testedByFiles: 10,
  /** Tests whose evidence is considered, the best-matching first. */
  testedByTests: 20,
  /** Of those, how many may have their tested file looked up by path when the candidates do not hold it. */
  testedByLookups: 5,
  /**
   * Personalized PageRank from the top hits over reference edges (0–1 times this). Off: on 84 benchmark issues
   * (bench:localize, 19 repositories) it moved no gold file in or out of the top 10 while costing a tenth of a
   * ranked answer's time. At 0 the walk is skipped; it is kept (with the store's fileEdges) so that a measurement
   * that finds it useful needs only this number changed.
   */
  graph: 0,
  /** Seeds of the graph walk: the best first-stage hits. */
  graphSeeds: 10,
  /** Files the graph may add that the first stage did not find. */
  graphNewFiles: 10,
  /** Cosine similarity of file and query vectors from the repository's own embedding (0–1 times this). */
  semantic: 1.5,
  /** Files the dense similarity may add that the first stage did not find. */
  semanticNewFiles: 10,
  /** Weight of an expansion term relative to a query term (the expansion's own similarity multiplies it). */
  expansion: 0.5,
  /** Below this term coverage of the best hit, with abstention on, the answer is "no local evidence". */
  abstainCoverage: 0.34,
} as const;
