import { statSync } from "node:fs";
import { resolveHttpSettings } from "../../config/http.js";
import { ConfigError, loadOperatorConfig, resolveRoot } from "../../config/resolve.js";
import { auditSink, auditWriter } from "../../service/audit.js";
import type { AuditRecord } from "../../store/store.js";
import type { OperatorConfig } from "../../config/schema.js";
import type { ToolPool, WorkerChange } from "../serve-pool.js";
import { availableParallelism } from "node:os";
import { repoSet } from "../../service/deps.js";
import { targetDeps, withoutHttpSecrets, type ServedTarget } from "../serve-deps.js";
import { createServer, toolCaller, type ToolCaller } from "../../mcp/server.js";
import { CORE_TOOLS } from "../../mcp/tool-names.js";
import { connectStdio } from "../../mcp/transports/stdio.js";
import { createRequestSources } from "../../sources/index.js";
import type { IndexRow } from "../../store/store.js";
import { auditFile, serverDeps, servedRepoId, type Setup } from "../setup.js";
import { watchChanges, watchRepository, type RepositoryWatcher } from "../watch.js";
import { governHeap } from "../heap-governor.js";
import { EXTRACTOR_VERSION } from "../../core/index-format.js";
import { detectInstructionLikeText } from "../../policy/injection.js";
import type { IndexResult, IndexUpdater } from "../../indexer/pipeline.js";

export interface ServeOptions {
  reindex?: boolean;
  quiet?: boolean;
  watch?: boolean;
  /** Tool names to expose (`--tools`; default the core set). */
  tools?: string[];
}

export interface ServeHttpOptions extends ServeOptions {
  /** Work trees named with --repo (none: every ready index in the store, or the current directory). */
  repos: string[];
  host: string;
  port: number;
  /** The --policy file, re-checked against every served root. */
  policyPath?: string;
}

/** Indexes first when the store has no ready index for the setup's root (or with --reindex, or an older extractor). */
async function ensureIndexed(s: Setup, opts: ServeOptions): Promise<string | undefined> {
  const existing = await servedRepoId(s);
  const ready = existing ? await s.store.getReadyIndex(existing) : null;
  const outdated = ready !== null && ready.extractorVersion !== EXTRACTOR_VERSION;
  if (!opts.reindex && ready && !outdated) return ready.repoId;
  const why = !ready ? "no ready index for this repository; indexing first" : outdated ? "the index was built by an older extractor; reindexing" : "reindexing before serving";
  s.logger.log("info", why, { root: s.root });
  const { runIndex } = await import("./index-cmd.js");
  const result = await runIndex(s, { quiet: opts.quiet ?? false });
  s.logger.log("info", "index ready", { repoId: result.repo.repoId, indexVersion: result.indexVersion, files: result.stats.files });
  return result.repo.repoId;
}

/**
 * Rebuilds after changes settle: an in-place update kept warm across changes (parser, repository facts, model),
 * told which files the watcher saw change, else a build. Closing the watcher releases the updater.
 */
function watchIndexed(s: Setup): RepositoryWatcher {
  let updater: Promise<IndexUpdater> | null = null;
  const warm = async (): Promise<{ updater: IndexUpdater; build: () => Promise<IndexResult> }> => {
    const [{ buildIndex, IndexUpdater }, { indexOptions }] = await Promise.all([import("../../indexer/pipeline.js"), import("./index-cmd.js")]);
    const options = await indexOptions(s, { quiet: true });
    updater ??= Promise.resolve(new IndexUpdater(options, s.extractor));
    return { updater: await updater, build: () => buildIndex(options) };
  };
  const watcher = watchRepository(s.root, {
    logger: s.logger,
    // The store folder (its file and audit copy) may lie inside the work tree: its writes are not changes.
    ignore: storeIgnored(s),
    rebuild: async (changed) => {
      const { updater: u, build } = await warm();
      const updated = await u.update(changed);
      if (!updated) u.forget();
      const result = updated ?? (await build());
      s.logger.log("info", "reindexed after a change", {
        repoId: result.repo.repoId,
        indexVersion: result.indexVersion,
        files: result.stats.files,
        how: updated ? (changed ? "update of the changed files" : "update") : "build",
        extracted: result.stats.extractedFiles ?? 0,
        ms: result.stats.durationMs,
      });
    },
  });
  return {
    ready: watcher.ready,
    close() {
      watcher.close();
      void updater?.then((u) => u.close());
    },
  };
}

/**
 * Serves one repository over MCP stdio. Indexes first when the store has no ready index for it (or with --reindex);
 * with --watch, rebuilds the index after changes settle while queries keep answering from the last ready one.
 * Progress and logs go to stderr, stdout carries only JSON-RPC.
 */
export async function runServe(s: Setup, opts: ServeOptions): Promise<void> {
  const repoId = await ensureIndexed(s, opts);
  // The work tree's changes, counted and named: a call after a quiet spell skips the overlay's `git status`, and one
  // after an edit asks git about the edited paths alone.
  const changes = watchChanges(s.root, { logger: s.logger, ignore: storeIgnored(s) });
  const server = createServer(await serverDeps(s, changes), opts.tools ?? [...CORE_TOOLS]);
  const { closed } = await connectStdio(server, s.logger);
  // One line on every start, warm or not: a server that says nothing looks hung.
  const ready = repoId ? await s.store.getReadyIndex(repoId) : null;
  s.logger.log("info", "ready", {
    transport: "stdio",
    repoId: repoId ?? null,
    indexVersion: ready?.indexVersion ?? null,
    root: s.root,
    store: s.storeLabel,
    tools: opts.tools?.length ?? CORE_TOOLS.length,
    connect: "JSON-RPC on this process's stdin and stdout: an MCP client starts this command (README 'Adding it to a client')",
  });
  const watcher = opts.watch ? watchIndexed(s) : null;
  const warmup = ready ? warmWhenIdle(s, ready.id) : null;
  await closed;
  if (warmup) clearTimeout(warmup);
  watcher?.close();
  changes.close();
  await server.close();
}

/** How long a started server waits before its warm-up: past the client's first calls, which it would delay. */
const WARM_AFTER_MS = 2000;
/** The index's languages readied, most files first: at most two, the second when it has a quarter of the first's files. */
const WARM_LANGUAGES = 2;
const WARM_SHARE = 4;

/**
 * What a server's first calls would pay, paid while it waits for them, once it has been up a moment (a client's
 * handshake and first calls, often already waiting on stdin, go first): the store's per-index rows (the kernel's 78k
 * slim rows and path signatures, ~0.2 s that its first search paid) and the injection detector's trigger table
 * (~60 ms of the first projection); then the parser, its grammar and compiled queries for the index's most common
 * parsed languages, one parse long enough for the WebAssembly code's optimized tier, the indexer's modules and the
 * credential scan's expressions (~0.3 s of a ~0.5 s first update on the kernel, C), which the first edit paid. The
 * timer does not hold the process open.
 */
function warmWhenIdle(s: Setup, indexId: string): NodeJS.Timeout {
  const timer = setTimeout(() => {
    // Between steps, calls that came in meanwhile go first.
    const yieldToCalls = () => new Promise<void>((resolve) => setImmediate(resolve));
    void (async () => {
      await s.store.warm?.(indexId);
      await yieldToCalls();
      detectInstructionLikeText("");
      await yieldToCalls();
      const [{ languageSpec }, summary] = await Promise.all([import("../../indexer/symbols/languages.js"), s.store.summarize(indexId)]);
      const parsed = summary.languages.filter((l) => l.language !== null && languageSpec(l.language) !== undefined).sort((a, b) => b.files - a.files);
      // A second language only where it is a good share of the first (TypeScript beside JavaScript, not the kernel's Python).
      const languages = parsed.filter((l, i) => i < WARM_LANGUAGES && l.files * WARM_SHARE >= parsed[0]!.files).map((l) => l.language!);
      if (languages.length === 0) return;
      const started = Date.now();
      const [{ createSecretScanner }] = await Promise.all([import("../../indexer/secrets.js"), import("../../indexer/pipeline.js")]);
      await createSecretScanner().scan("warm-up", "const token = process.env.TOKEN;\n");
      await yieldToCalls();
      await (await s.extractor()).warm(languages);
      s.logger.log("info", "parser ready", { languages, ms: Date.now() - started });
    })().catch((err: unknown) => s.logger.log("debug", "warm-up failed", { error: err instanceof Error ? err.message : String(err) }));
  }, WARM_AFTER_MS);
  timer.unref();
  return timer;
}

/** The store's folder, when it has one: its writes (and the audit file's) are no change to the work tree. */
function storeIgnored(s: Setup): string[] {
  return s.storeDir ? [s.storeDir] : [];
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

interface Target {
  setup: Setup;
  repoId: string;
  /** The work tree is on this machine (else the store was filled by an indexer elsewhere). */
  local: boolean;
}

/**
 * The repositories `serve --http` serves: each --repo (indexed first when needed); without --repo, every ready index
 * in the store (only --repo-id's, when given), the current directory's indexed first when the store has none.
 */
async function httpTargets(s: Setup, opts: ServeHttpOptions, roots: string[] | null, ready: IndexRow[]): Promise<Target[]> {
  if (roots) {
    const targets: Target[] = [];
    for (const root of roots) {
      const setup = { ...s, root };
      targets.push({ setup, repoId: (await ensureIndexed(setup, opts))!, local: true });
    }
    return targets;
  }
  if (ready.length === 0) return [{ setup: s, repoId: (await ensureIndexed(s, opts))!, local: true }];
  const targets: Target[] = [];
  for (const index of ready) {
    const setup = { ...s, root: index.rootPath };
    const local = isDirectory(index.rootPath);
    const repoId = local && index.rootPath === s.root ? ((await ensureIndexed(setup, opts)) ?? index.repoId) : index.repoId;
    targets.push({ setup, repoId, local });
  }
  return targets;
}

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals): void => {
      process.off("SIGINT", on);
      process.off("SIGTERM", on);
      resolve(signal);
    };
    process.on("SIGINT", on);
    process.on("SIGTERM", on);
  });
}

/**
 * Serves one or several repositories over MCP Streamable HTTP until SIGINT or SIGTERM, then closes sessions and
 * connections. Logs (JSON lines) go to stderr; the `listening` line carries the URL with the port actually bound.
 */
export async function runServeHttp(base: Setup, opts: ServeHttpOptions): Promise<void> {
  if (opts.repos.length > 1 && base.repoIdOverride) throw new ConfigError("--repo-id names one repository; with several --repo, each is served under its own id");
  const roots = opts.repos.length > 0 ? await Promise.all(opts.repos.map((r) => resolveRoot(r))) : null;
  const ready = roots ? [] : (await base.store.listReadyIndexes()).filter((i) => !base.repoIdOverride || i.repoId === base.repoIdOverride);
  // The policy must lie outside every work tree served from this machine (and is read before any is indexed); the
  // current directory counts only when it is the one served.
  const local = roots ?? (ready.length === 0 ? [base.root] : ready.map((i) => i.rootPath).filter(isDirectory));
  const operator = await loadOperatorConfig(opts.policyPath, local);
  const s: Setup = { ...base, operator, policy: operator.repoContext, sources: createRequestSources(operator, process.env) };
  // Settings first: a host that needs tokens and has none fails before anything is indexed.
  const settings = resolveHttpSettings(operator.http, { host: opts.host, port: opts.port });
  const targets = await httpTargets(s, opts, roots, ready);
  const jsonlFile = auditFile(s.storePath);
  const writeAudit = auditWriter({ store: s.store, ...(jsonlFile ? { jsonlFile } : {}), logger: s.logger });
  const audit = auditSink(writeAudit, operator.repoContext.auditPreview);
  for (const t of targets.filter((x) => !x.local)) {
    s.logger.log("warn", "work tree not on this machine: serving from the index alone, without freshness checks against the files or file slices", { repoId: t.repoId });
  }
  const served: ServedTarget[] = targets.map((t) => ({ root: t.setup.root, repoId: t.repoId, local: t.local }));
  const ids = served.map((t) => t.repoId);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice) throw new ConfigError(`two --repo work trees have the same repository id ${twice}; give each its own --store`);
  // Each local work tree's changes, counted and named here and told to every worker of the pool: a quiet tree skips
  // the overlay's `git status`, an edit is asked about alone.
  let pool = null as ToolPool | null;
  const changes = served.map((t, target) =>
    t.local ? watchChanges(t.root, { logger: s.logger, ignore: storeIgnored(s) }, (file, known) => pool?.broadcast({ target, file, known })) : null,
  );
  const deps = served.map((t, i) => targetDeps(t, s, audit, changes[i] ?? undefined));
  const tools = opts.tools ?? [...CORE_TOOLS];
  const repos = deps.length === 1 ? deps[0]! : repoSet(deps);
  const greeting = () => changes.flatMap((c, target) => (c ? [{ target, file: null, known: c.epoch() !== null }] : []));
  const closeChanges = () => {
    for (const c of changes) c?.close();
  };
  // The server's thread holds 200 sessions in ~26 MiB live; left to itself V8 let its heap reach 130–150 MiB.
  const governor = governHeap();
  const server = await (async () => {
    pool = await toolPool(s, { operator, served, tools, writeAudit, local: toolCaller(repos, tools), greeting });
    const { startHttpServer } = await import("../../mcp/transports/http.js");
    return startHttpServer({ served: repos, tools, ...(pool ? { callTool: pool.call } : {}), settings, logger: s.logger });
  })().catch(async (err: unknown) => {
    closeChanges();
    await pool?.close();
    throw err;
  });
  const watchers = opts.watch ? targets.filter((t) => t.local).map((t) => watchIndexed({ ...t.setup, ...(targets.length > 1 ? { repoIdOverride: t.repoId } : {}) })) : [];
  const signal = await untilSignal();
  s.logger.log("info", "shutting down", { signal });
  for (const w of watchers) w.close();
  closeChanges();
  governor.stop();
  await server.close();
  await pool?.close();
}

/** Workers by default at most: each holds ~42 MiB of code and modules and its own caches of the index. */
const DEFAULT_MAX_WORKERS = 8;

/**
 * The worker threads answering tools/call (`http.workers`, default one per core up to 8), each with its own store connection;
 * none with `workers: 0`.
 */
async function toolPool(
  s: Setup,
  o: {
    operator: OperatorConfig;
    served: ServedTarget[];
    tools: string[];
    writeAudit: (rec: AuditRecord) => Promise<void>;
    local: ToolCaller;
    greeting: () => WorkerChange[];
  },
): Promise<ToolPool | null> {
  const size = o.operator.http.workers ?? Math.min(availableParallelism(), DEFAULT_MAX_WORKERS);
  if (size === 0) return null;
  const { ToolPool } = await import("../serve-pool.js");
  const init = { storePath: s.storePath, operator: withoutHttpSecrets(o.operator), targets: o.served, tools: o.tools };
  const indexes = await Promise.all(o.served.map((t) => s.store.getReadyIndex(t.repoId)));
  const files = indexes.reduce((n, i) => n + (i?.stats?.files ?? 0), 0);
  return ToolPool.start({ size, init, logger: s.logger, writeAudit: o.writeAudit, local: o.local, files, greeting: o.greeting });
}
