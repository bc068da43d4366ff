import { defaultStorePath, loadOperatorConfig, resolveRoot } from "../config/resolve.js";
import type { OperatorConfig, ReadPolicy } from "../config/schema.js";
import { overlayProvider } from "../indexer/overlay.js";
import { currentHead } from "../indexer/repo-info.js";
import { dirname, join } from "node:path";
import { createLogger, type Logger } from "../core/log.js";
import { createAuditSink } from "../mcp/audit.js";
import type { ServerDeps } from "../mcp/deps.js";
import { openStore } from "../store/open.js";
import { isPostgresUrl, storeLabel } from "../store/store-url.js";
import type { Store } from "../store/store.js";

/** HEAD is re-read at most this often for stale-index warnings. */
const HEAD_CACHE_MS = 1000;

export interface CommonOptions {
  repo?: string;
  store?: string;
  policy?: string;
  repoId?: string;
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
    logger: createLogger(process.stderr),
    ...(opts.repoId ? { repoIdOverride: opts.repoId } : {}),
  };
}

/** The repository to serve: the override, else the ready index built from this root, else the store's only one. */
export async function servedRepoId(s: Setup): Promise<string | undefined> {
  if (s.repoIdOverride) return s.repoIdOverride;
  const ready = await s.store.listReadyIndexes();
  return ready.find((i) => i.rootPath === s.root)?.repoId;
}

export function cachedHeadReader(root: string, now: () => number = Date.now): () => Promise<string | null> {
  let cached: { at: number; value: Promise<string | null> } | null = null;
  return () => {
    const t = now();
    if (!cached || t - cached.at > HEAD_CACHE_MS) cached = { at: t, value: currentHead(root) };
    return cached.value;
  };
}

export async function serverDeps(s: Setup): Promise<ServerDeps> {
  const repoId = await servedRepoId(s);
  return {
    store: s.store,
    root: s.root,
    ...(repoId ? { repoId } : {}),
    policy: s.policy,
    operator: s.operator,
    logger: s.logger,
    readHead: cachedHeadReader(s.root),
    overlay: overlayProvider(s.root, s.store, s.policy.maxIndexedFileBytes),
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
