import type { OperatorConfig } from "../config/schema.js";
import type { RequestSources } from "../core/sources.js";
import type { Logger } from "../core/log.js";
import type { IndexRow, Store } from "../store/store.js";
import type { AuditSink } from "./audit.js";
import type { WorkingTreeOverlay } from "../store/overlay-store.js";

/** Everything a server needs, injected: no module-level state. */
export interface ServerDeps {
  store: Store;
  /** Real path of the served repository's work tree. */
  root: string;
  /** Which repository in the store to serve; omitted when the store holds exactly one. */
  repoId?: string;
  /**
   * The operator's policy file, resolved once at start: its read policy (`repoContext`) is the one every query runs
   * under, its instruction layers the ones `get_instructions` applies. The only policy a handler sees.
   */
  operator: OperatorConfig;
  /** Task sources and the embeddings endpoint, built once from `operator` and the environment. */
  sources: RequestSources;
  logger: Logger;
  /** The work tree's current HEAD commit (null outside git); used for `stale_index` warnings. */
  readHead: () => Promise<string | null>;
  /** Where each tool call is recorded; absent means no audit (tests that do not look at it). */
  audit?: AuditSink;
  /**
   * The working tree over the ready index (edited, new and deleted files), served fresh from disk; absent means
   * answers come from the index alone, with `file_changed_since_index` warnings for files that changed.
   */
  overlay?: (index: IndexRow) => Promise<WorkingTreeOverlay>;
  /** Wrap documentation and flagged text in the safe wrapper (default true; the CLI prints raw text). */
  wrapText?: boolean;
  /**
   * False when the work tree is not on this machine (the indexer runs elsewhere and the store is shared): answers
   * then come from the index alone, with no freshness check against the disk (default true).
   */
  workTree?: boolean;
  /** Injectable clock for audit timestamps and latency. */
  now?: () => Date;
}

/**
 * Several repositories behind one server, keyed by repoId; each keeps its own deps (store, root, policy, HEAD reader,
 * overlay, audit), so nothing read for one can answer for another. Every member's `repoId` equals its key.
 */
export interface RepoSet {
  readonly repos: ReadonlyMap<string, ServerDeps>;
}

/** What `createServer` serves: one repository (schemas exactly as always) or a set of them. */
export type ServedRepos = ServerDeps | RepoSet;

export function isRepoSet(served: ServedRepos): served is RepoSet {
  return (served as Partial<RepoSet>).repos instanceof Map;
}

/** A set from its members, keyed by their repoIds; fails on a member without one or on a repoId given twice. */
export function repoSet(members: readonly ServerDeps[]): RepoSet {
  const repos = new Map<string, ServerDeps>();
  for (const d of members) {
    if (!d.repoId) throw new Error("every repository in a set needs its repoId");
    if (repos.has(d.repoId)) throw new Error(`repository ${d.repoId} is listed twice`);
    repos.set(d.repoId, d);
  }
  if (repos.size === 0) throw new Error("a repository set needs at least one repository");
  return { repos };
}
