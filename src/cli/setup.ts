import { ConfigError, defaultStorePath, loadOperatorConfig, resolveRoot } from "../config/resolve.js";
import type { OperatorConfig, ReadPolicy } from "../config/schema.js";
import { overlayProvider } from "../indexer/overlay.js";
import { currentHead } from "../indexer/repo-info.js";
import { dirname, join } from "node:path";
import { createLogger, type Logger } from "../log.js";
import { createAuditSink } from "../mcp/audit.js";
import type { ServerDeps } from "../mcp/deps.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
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
  storePath: string;
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
  if (/^postgres(ql)?:\/\//.test(storePath)) throw new ConfigError("PostgreSQL stores are not supported yet; use a SQLite file path");
  const store = SqliteStore.open(storePath);
  return { root, storePath, store, policy, operator, logger: createLogger(process.stderr), ...(opts.repoId ? { repoIdOverride: opts.repoId } : {}) };
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

/** The audit log's JSON-lines copy sits beside the store file. */
export function auditFile(storePath: string): string {
  return join(dirname(storePath), "audit.jsonl");
}
