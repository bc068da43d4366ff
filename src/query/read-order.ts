import type { CandidateFile, CandidatePages, CandidateQuery, Store } from "../store/store.js";
import { TOP_PRIOR, priorScore } from "./ranking.js";

/** Candidates taken from the trigram index (metadata only) and ranked by priors before any text is read. */
export const INDEX_CANDIDATE_LIMIT = 5000;
/** Up to this many candidates are all read, whatever their size (the search's read budget does not apply). */
export const FEW_CANDIDATES = 64;
/** Candidates listed at first where the store lists them in path order; more only while the reading goes on. */
const FIRST_PAGE = 256;
const NEXT_PAGE = 1024;
/** Files whose path holds the query, at most, for reading page by page; past it, every candidate is listed at once. */
const PATH_HOLDERS_LISTED = 64;

/**
 * The files best prior first, ties by path: what a full sort gives, paid only as far as the reader goes. Priors take
 * few distinct values, so the files are grouped by prior and a group is put in path order only when it is reached
 * (a search usually stops within the first), and not at all when it already is (a build stores files in path
 * order, and the index hands candidates back in that order).
 */
export function* byPrior<F extends { path: string }>(files: readonly F[], prior: (f: F) => number): Generator<F> {
  const groups = new Map<number, F[]>();
  for (const f of files) {
    const p = prior(f);
    const group = groups.get(p);
    if (group) group.push(f);
    else groups.set(p, [f]);
  }
  for (const p of [...groups.keys()].sort((a, b) => b - a)) {
    const group = groups.get(p)!;
    let sorted = true;
    for (let i = 1; i < group.length && sorted; i++) sorted = group[i - 1]!.path < group[i]!.path;
    if (!sorted) group.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    yield* group;
  }
}

/** The order an exact search reads its candidates in, and what it knows of them before reading. */
export interface ReadOrder {
  /** Candidates, best prior first (priorScore), ties by path. */
  files: AsyncIterable<CandidateFile>;
  /** At most FEW_CANDIDATES of them: all are read. */
  few: boolean;
  /** Whether the index holds candidates past INDEX_CANDIDATE_LIMIT (once `files` has been read to its end). */
  more(): boolean;
}

export interface ReadOrderInput {
  store: Store;
  indexId: string;
  query: CandidateQuery;
  queryLower: string;
  /** Path globs' own test, past the store's prefix; null when the search has none. */
  pathMatches: ((path: string) => boolean) | null;
  /** Whether the policy lets the file in (without counting it): a path holder the policy leaves out is checked for candidacy. */
  admits: (f: CandidateFile) => boolean;
}

async function* fromList(files: Iterable<CandidateFile>): AsyncGenerator<CandidateFile> {
  yield* files;
}

/**
 * Listing every candidate (up to 5,000 on the kernel) and ordering them all cost ~2.5 ms of a ~10 ms search, most of
 * it for files never read. Where the store lists candidates in path order, they are taken page by page instead:
 * no file can outrank another by its prior alone except by the path bonus (TOP_PRIOR is the highest prior
 * without it), so the files whose path holds the query come first, then each page's files at TOP_PRIOR as they
 * arrive (they are in path order already), and the rest only once every page is in. Same order, same files.
 */
export async function readOrder(input: ReadOrderInput): Promise<ReadOrder> {
  const { store, indexId, query, queryLower } = input;
  const prior = (f: CandidateFile) => priorScore(f, queryLower);
  // Globs filter after listing: only the whole list tells whether few candidates are left.
  const pages = input.pathMatches === null && store.candidatePages ? await store.candidatePages(indexId, query) : null;
  const first = pages ? await pages.page(null, FIRST_PAGE) : null;
  const holders = pages && first?.more ? await pages.pathHolders(queryLower, PATH_HOLDERS_LISTED) : null;
  if (pages && first && holders) {
    let more = false;
    const files = paged(pages, first, holders, input, prior, (m) => (more = m));
    return { files, few: false, more: () => more };
  }
  const all = first && !first.more ? first : await store.candidateFiles(indexId, query, INDEX_CANDIDATE_LIMIT);
  const kept = input.pathMatches === null ? all.files : all.files.filter((f) => input.pathMatches!(f.path));
  return { files: fromList(byPrior(kept, prior)), few: kept.length <= FEW_CANDIDATES, more: () => all.more };
}

async function* paged(
  pages: CandidatePages,
  first: { files: CandidateFile[]; more: boolean },
  holders: CandidateFile[],
  input: ReadOrderInput,
  prior: (f: CandidateFile) => number,
  ended: (more: boolean) => void,
): AsyncGenerator<CandidateFile> {
  const held = new Set(holders.map((f) => f.id));
  const later: CandidateFile[] = [];
  // A path holder that is no candidate is read for nothing (its text cannot match); one the policy leaves out is
  // never read, so it is passed on only as a candidate, for the search to count what it left out.
  const top: CandidateFile[] = [];
  for (const f of holders) {
    if (!input.admits(f) && !(await pages.holds(f.id))) continue;
    (prior(f) >= TOP_PRIOR ? top : later).push(f);
  }
  yield* byPrior(top, prior);
  let page = first;
  let listed = 0;
  for (;;) {
    for (const f of page.files) {
      if (held.has(f.id)) continue;
      if (prior(f) >= TOP_PRIOR) yield f;
      else later.push(f);
    }
    listed += page.files.length;
    if (!page.more || listed >= INDEX_CANDIDATE_LIMIT || page.files.length === 0) break;
    page = await pages.page(page.files[page.files.length - 1]!.id, Math.min(NEXT_PAGE, INDEX_CANDIDATE_LIMIT - listed));
  }
  ended(page.more);
  yield* byPrior(later, prior);
}
