import { defaultStorePath, loadOperatorConfig, resolveRoot } from "../config/resolve.js";
import type { OperatorConfig, ReadPolicy } from "../config/schema.js";
import { lazyExtractor, overlayProvider, type ExtractorSource, type WorkTreeChangeFeed } from "../sources/work-tree-overlay.js";
import { createRequestSources } from "../sources/index.js";
import type { RequestSources } from "../core/sources.js";
import { cachedHeadReader } from "../sources/git-head.js";
import { dirname, join } from "node:path";
import { createLogger, defaultLogFormat, type LogFormat, type Logger } from "../core/log.js";
import { createAuditSink } from "../service/audit.js";
import type { ServerDeps } from "../service/deps.js";
import { openStore } from "../store/open.js";
import { isPostgresUrl, storeLabel } from "../store/store-url.js";
import type { Store } from "../store/store.js";

export interface CommonOptions {
  repo?: string;
  store?: string;
  policy?: string;
  repoId?: string;
  /** `--log-format`: human or json (default: human on a terminal). */
  logFormat?: LogFormat;
}

export interface Setup {
  root: string;
  /**
   * The store as given (`--store`): a SQLite file, or a PostgreSQL URL that may hold a password. Never print it:
   * messages and summaries use `storeLabel`.
   */
  storePath: string;
  /** The store's location for people: the SQLite file, or the URL without its password. */
  storeLabel: string;
  /** The local folder the store writes (its file and the audit copy), so a watcher can ignore it; null for PostgreSQL. */
  storeDir: string | null;
  store: Store;
  policy: ReadPolicy;
  /** The whole operator policy file (instruction layers, task sources); `policy` is its read policy. */
  operator: OperatorConfig;
  /** Task sources and the embeddings endpoint of `operator`, built once. */
  sources: RequestSources;
  /** The one parser of working-tree files, shared by every repository this process serves. */
  extractor: ExtractorSource;
  logger: Logger;
  repoIdOverride?: string;
}

/** Resolves the repository root, the operator policy and the store once, at start; everything else gets them injected. */
export async function setup(opts: CommonOptions, rootArg?: string): Promise<Setup> {
  const root = await resolveRoot(rootArg ?? opts.repo ?? process.cwd());
  const operator = await loadOperatorConfig(opts.policy, [root]);
  const policy = operator.repoContext;
  const storePath = opts.store ?? defaultStorePath(root);
  const store = await openStore(storePath);
  return {
    root,
    storePath,
    storeLabel: storeLabel(storePath),
    storeDir: isPostgresUrl(storePath) ? null : dirname(storePath),
    store,
    policy,
    operator,
    sources: createRequestSources(operator, process.env),
    extractor: lazyExtractor(),
    logger: createLogger(process.stderr, "info", opts.logFormat ?? defaultLogFormat(process.stderr)),
    ...(opts.repoId ? { repoIdOverride: opts.repoId } : {}),
  };
}

/** The repository to serve: the override, else the ready index built from this root, else the store's only one. */
export async function servedRepoId(s: Setup): Promise<string | undefined> {
  if (s.repoIdOverride) return s.repoIdOverride;
  const ready = await s.store.listReadyIndexes();
  return ready.find((i) => i.rootPath === s.root)?.repoId;
}


/** `changes`: a watcher's view of work-tree changes (`watchChanges`), so the overlay is looked at again only after one, at what moved. */
export async function serverDeps(s: Setup, changes?: WorkTreeChangeFeed): Promise<ServerDeps> {
  const repoId = await servedRepoId(s);
  return {
    store: s.store,
    root: s.root,
    ...(repoId ? { repoId } : {}),
    operator: s.operator,
    sources: s.sources,
    logger: s.logger,
    readHead: cachedHeadReader(s.root, Date.now, changes),
    overlay: overlayProvider(s.root, s.store, s.policy.maxIndexedFileBytes, s.extractor, Date.now, changes),
    audit: createAuditSink({ store: s.store, jsonlFile: auditFile(s.storePath), preview: s.policy.auditPreview, logger: s.logger }),
  };
}

/**
 * The audit log's JSON-lines copy sits beside a SQLite store file. A PostgreSQL store has no local folder: its audit
 * log is the store's table alone (`repoctx audit` reads it from any machine).
 */
export function auditFile(storePath: string): string | undefined {
  return isPostgresUrl(storePath) ? undefined : join(dirname(storePath), "audit.jsonl");
}
