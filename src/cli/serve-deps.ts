import type { OperatorConfig } from "../config/schema.js";
import type { Logger } from "../core/log.js";
import type { RequestSources } from "../core/sources.js";
import type { AuditSink } from "../service/audit.js";
import type { ServerDeps } from "../service/deps.js";
import { cachedHeadReader } from "../sources/git-head.js";
import { overlayProvider, type ExtractorSource, type WorkTreeChangeFeed } from "../sources/work-tree-overlay.js";
import type { Store } from "../store/store.js";

/** One repository `serve --http` serves: its work tree, its id in the store, and whether the work tree is on this machine. */
export interface ServedTarget {
  root: string;
  repoId: string;
  local: boolean;
}

/** What every served repository's deps share in one thread: the store connection, the policy, the sources, the parser. */
export interface DepsContext {
  store: Store;
  operator: OperatorConfig;
  sources: RequestSources;
  logger: Logger;
  extractor: ExtractorSource;
}

/** The operator config the MCP layer sees: everything but the HTTP tokens, which only the transport needs. */
export function withoutHttpSecrets(operator: OperatorConfig): OperatorConfig {
  return { ...operator, http: { ...operator.http, tokens: [] } };
}

/**
 * A served repository's deps; the same in the server's thread and in each worker of its pool. `changes`: the work
 * tree's changes as a watcher saw them, so the overlay is looked at again only after one, at what moved.
 */
export function targetDeps(t: ServedTarget, c: DepsContext, audit: AuditSink, changes?: WorkTreeChangeFeed): ServerDeps {
  return {
    store: c.store,
    root: t.root,
    repoId: t.repoId,
    operator: withoutHttpSecrets(c.operator),
    sources: c.sources,
    logger: c.logger,
    audit,
    ...(t.local
      ? { readHead: cachedHeadReader(t.root, Date.now, changes), overlay: overlayProvider(t.root, c.store, c.operator.repoContext.maxIndexedFileBytes, c.extractor, Date.now, changes) }
      : { readHead: async () => null, workTree: false }),
  };
}
