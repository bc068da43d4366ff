/**
 * `npm run bench:load [-- options]`: a bounded load generator for `repoctx serve --http`, loopback only, that stops
 * by itself. Per store (SQLite, PostgreSQL or both): index the repository into a fresh store, start the server as a
 * child process, open N real MCP clients (one bearer token each) in waves, run a warm-up, then the measured window,
 * each client looping over a weighted mix of tool calls derived from the repository; then close the clients,
 * SIGTERM the server and report throughput, latency percentiles (overall and per tool), errors, the server's RSS
 * and CPU time, and Markdown tables for BENCHMARKS.md. Every phase has a time limit; on any exit the server, the
 * throwaway PostgreSQL cluster and the temporary files go.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { CLI_PATH, REPO_ROOT } from "./dist.js";
import { closeClient, connectClient, describeError, PhaseStats, probeVariants, runClient, type LoadClient, type Window } from "./load-client.js";
import { assertLoopbackPg, dropSchema, freshSchemaUrl, pgConnections, pgServer, type PgServer } from "./load-pg.js";
import { storeLabel } from "../src/store/store-url.js";
import { storeReport, summaryMarkdown, totalErrors, type StoreKind, type StoreRun } from "./load-report.js";
import { ServerProcess } from "./load-server.js";
import { deriveWorkload, picker, seededRandom, type Workload } from "./load-workload.js";
import { machineInfo } from "./machine.js";

const HELP = `npm run bench:load [-- options]

  --store sqlite|postgres|both   stores to measure, one after the other (default both)
  --clients <n>                  concurrent MCP clients, one bearer token each (default 200)
  --duration <s>                 measured window (default 60)
  --warmup <s>                   warm-up before the window, all clients running (default 5)
  --repo <path>                  repository to serve (default: a clone of this repository's HEAD in a temp folder)
  --pg-url <url>                 PostgreSQL server (loopback) to use; or REPOCTX_BENCH_PG; default: a throwaway
                                 cluster started with scripts/pg-cluster.sh and stopped at the end
  --host 127.0.0.1|::1           loopback address the server binds (default 127.0.0.1)
  --wave <n>                     clients connecting at once (default 20)
  --call-timeout <s>             a call slower than this is an error (default 20)
  --rate-limit <n>               http.rateLimitPerMinute per token (default 1000000: 429s are not what is measured)
  --workers <n>                  http.workers of the served policy: worker threads answering tools/call (0: the server's
                                 own thread; default: the server's default, one per core)
  --seed <n>                     seed of the clients' call sequences (default 1)
  --server-node-options <flags>  NODE_OPTIONS for the server only (e.g. --max-old-space-size=128, to tell garbage
                                 from a leak)
  --json <file>                  also write the figures as JSON
  --keep                         keep the temporary folder (stores, server logs)
`;

const MS_PER_S = 1000;
const INDEX_TIMEOUT_MS = 15 * 60 * MS_PER_S;
const SERVER_START_TIMEOUT_MS = 60 * MS_PER_S;
const PROBE_CONCURRENCY = 4;
/** Probing the mix (about 200 calls, four at a time) normally takes seconds. */
const PROBE_LIMIT_S = 180;
/** Slack on top of warm-up + duration for connecting, draining and closing (the hard limit of a store's run). */
const HARD_SLACK_S = 60;
const CLOSE_TIMEOUT_MS = 10 * MS_PER_S;
const SETTLE_MS = 6 * MS_PER_S;
/** Sessions beyond the clients: the probe client and a margin. */
const SESSION_MARGIN = 16;
/** Bearer tokens must be at least 16 characters; these are 32 hex digits. */
const TOKEN_BYTES = 16;

interface Options {
  stores: StoreKind[];
  clients: number;
  durationS: number;
  warmupS: number;
  repo: string | null;
  pgUrl: string | undefined;
  host: string;
  wave: number;
  callTimeoutMs: number;
  rateLimit: number;
  seed: number;
  json: string | null;
  serverNodeOptions: string | null;
  workers: number | null;
  keep: boolean;
}

function say(message: string): void {
  process.stderr.write(`bench:load: ${message}\n`);
}

/** A bad option: reported as its message alone. */
class UsageError extends Error {}

function positiveInt(name: string, v: string | undefined, dflt: number, min = 1): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got ${v}`);
  return n;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      store: { type: "string" },
      clients: { type: "string" },
      duration: { type: "string" },
      warmup: { type: "string" },
      repo: { type: "string" },
      "pg-url": { type: "string" },
      host: { type: "string" },
      wave: { type: "string" },
      "call-timeout": { type: "string" },
      "rate-limit": { type: "string" },
      seed: { type: "string" },
      workers: { type: "string" },
      json: { type: "string" },
      "server-node-options": { type: "string" },
      keep: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const store = values.store ?? "both";
  if (!["sqlite", "postgres", "both"].includes(store)) throw new UsageError(`--store must be sqlite, postgres or both, got ${store}`);
  const host = values.host ?? "127.0.0.1";
  // Loopback only: the load never leaves this machine.
  if (host !== "127.0.0.1" && host !== "::1") throw new UsageError(`--host must be a loopback address (127.0.0.1 or ::1), got ${host}`);
  const pgUrl = values["pg-url"] ?? (process.env.REPOCTX_BENCH_PG?.trim() || undefined);
  if (pgUrl !== undefined) {
    try {
      assertLoopbackPg(pgUrl);
    } catch (err) {
      throw new UsageError(err instanceof Error ? err.message : String(err));
    }
  }
  return {
    stores: store === "both" ? ["sqlite", "postgres"] : [store as StoreKind],
    clients: positiveInt("clients", values.clients, 200),
    durationS: positiveInt("duration", values.duration, 60),
    warmupS: positiveInt("warmup", values.warmup, 5, 0),
    repo: values.repo ? resolve(values.repo) : null,
    pgUrl,
    host,
    wave: positiveInt("wave", values.wave, 20),
    callTimeoutMs: positiveInt("call-timeout", values["call-timeout"], 20) * MS_PER_S,
    rateLimit: positiveInt("rate-limit", values["rate-limit"], 1_000_000),
    seed: positiveInt("seed", values.seed, 1, 0),
    json: values.json ?? null,
    serverNodeOptions: values["server-node-options"] ?? null,
    workers: values.workers === undefined ? null : positiveInt("workers", values.workers, 0, 0),
    keep: values.keep ?? false,
  };
}

/** Everything to undo on any exit, synchronously (exit handlers cannot wait). */
const cleanups: (() => void)[] = [];
let cleanedUp = false;
function cleanupSync(): void {
  if (cleanedUp) return;
  cleanedUp = true;
  for (const f of cleanups.reverse()) {
    try {
      f();
    } catch {
      // best effort
    }
  }
}
process.on("exit", cleanupSync);
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(sig, () => {
    say(`${sig}: stopping`);
    cleanupSync();
    process.exit(130);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A clean clone of this repository's HEAD: the served tree does not change while other work goes on here. */
function cloneSelf(dest: string): string {
  execFileSync("git", ["clone", "--quiet", "--shared", REPO_ROOT, dest], { stdio: ["ignore", "ignore", "inherit"] });
  return dest;
}

async function runIndex(repo: string, store: string, policy: string): Promise<number> {
  const t0 = performance.now();
  await new Promise<void>((resolveRun, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, "index", repo, "--store", store, "--policy", policy, "--quiet"], { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (c: Buffer) => (err = (err + c.toString("utf8")).slice(-4000)));
    const timer = setTimeout(() => child.kill("SIGKILL"), INDEX_TIMEOUT_MS);
    cleanups.push(() => child.kill("SIGKILL"));
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolveRun();
      else reject(new Error(`repoctx index failed (code ${code}, signal ${signal}):\n${err}`));
    });
  });
  return performance.now() - t0;
}

/** Past `seconds`, the phase is abandoned: server, cluster and temporary files go, and the bench exits 3. */
function watchdog(phase: string, seconds: number): NodeJS.Timeout {
  const t = setTimeout(() => {
    say(`${phase} passed its time limit of ${seconds} s; killing the server and stopping`);
    cleanupSync();
    process.exit(3);
  }, seconds * MS_PER_S);
  t.unref();
  return t;
}

function addCount(m: Map<string, number>, key: string): void {
  m.set(key, (m.get(key) ?? 0) + 1);
}

interface Prepared {
  repo: string;
  workload: Workload;
  policy: string;
  tmp: string;
}

async function measureStore(kind: StoreKind, o: Options, p: Prepared, pg: PgServer | null): Promise<StoreRun> {
  const dir = join(p.tmp, kind);
  mkdirSync(dir, { recursive: true });
  let location: string;
  let schema: string | null = null;
  if (kind === "sqlite") {
    location = join(dir, "index.db");
  } else {
    const fresh = freshSchemaUrl(pg!.url);
    location = fresh.url;
    schema = fresh.schema;
  }
  say(`${kind}: indexing ${p.repo} into ${storeLabel(location)}`);
  const indexMs = await runIndex(p.repo, location, p.policy);
  say(`${kind}: indexed in ${(indexMs / MS_PER_S).toFixed(1)} s; starting the server`);

  const tokens = Array.from({ length: o.clients + 1 }, () => randomBytes(TOKEN_BYTES).toString("hex"));
  const probeToken = tokens.pop()!;
  const loadStart = loadavg();
  const server = await ServerProcess.start({
    cli: CLI_PATH,
    repos: [p.repo],
    store: location,
    policy: p.policy,
    host: o.host,
    tokens: [...tokens, probeToken],
    logFile: join(dir, "server.log"),
    nodeOptions: o.serverNodeOptions,
    startTimeoutMs: SERVER_START_TIMEOUT_MS,
  });
  cleanups.push(() => server.kill());
  say(`${kind}: server pid ${server.pid} at ${server.url}`);
  const health = await fetch(new URL("/healthz", server.url)).then((r) => r.status, (e: unknown) => describeError(e));
  if (health !== 200) say(`${kind}: GET /healthz answered ${health} (expected 200)`);
  server.startSampling();
  const idle = server.sample();

  // Probe: every argument set once, through one client; only those that succeed go into the mix.
  const asyncErrors = new Map<string, number>();
  let countAsync = false;
  const onAsyncError = (_id: number, err: Error): void => {
    if (countAsync) addCount(asyncErrors, describeError(err).slice(0, 300));
  };
  const probeLimit = watchdog(`${kind}: probing`, PROBE_LIMIT_S);
  const probeClient = await connectClient({ url: server.url, token: probeToken, id: 0, timeoutMs: o.callTimeoutMs, onAsyncError });
  const probeStart = performance.now();
  const probe = await probeVariants(probeClient, p.workload.kinds, o.callTimeoutMs, PROBE_CONCURRENCY);
  await closeClient(probeClient, CLOSE_TIMEOUT_MS);
  clearTimeout(probeLimit);
  const variants = probe.kinds.reduce((s, k) => s + k.variants.length, 0);
  say(`${kind}: probed ${variants + probe.dropped.length} argument sets in ${((performance.now() - probeStart) / MS_PER_S).toFixed(1)} s, ${probe.dropped.length} dropped`);
  if (probe.kinds.length === 0) throw new Error("every probe call failed; see the server log");

  // From here the run is bounded: warm-up + duration + slack, then everything is killed.
  const hard = watchdog(`${kind}: the load phase`, o.warmupS + o.durationS + HARD_SLACK_S);

  const connectErrors = new Map<string, number>();
  const clients: LoadClient[] = [];
  const connectStart = performance.now();
  for (let i = 0; i < tokens.length; i += o.wave) {
    const wave = tokens.slice(i, i + o.wave).map((token, j) =>
      connectClient({ url: server.url, token, id: i + j + 1, timeoutMs: o.callTimeoutMs, onAsyncError }).then(
        (c) => clients.push(c),
        (err: unknown) => addCount(connectErrors, describeError(err).slice(0, 300)),
      ),
    );
    await Promise.all(wave);
  }
  say(`${kind}: ${clients.length}/${o.clients} clients connected in ${((performance.now() - connectStart) / MS_PER_S).toFixed(1)} s`);
  const afterConnect = server.sample();

  const warm = new PhaseStats();
  const measured = new PhaseStats();
  const now = performance.now();
  const window: Window = { start: now + o.warmupS * MS_PER_S, end: now + (o.warmupS + o.durationS) * MS_PER_S };
  countAsync = true;
  const loops = clients.map((c) => runClient(c, picker(probe.kinds, seededRandom(o.seed * 1_000_003 + c.id)), window, warm, measured, o.callTimeoutMs));
  let lastEnd = window.end;
  const tracked = loops.map((l) => l.then(() => (lastEnd = Math.max(lastEnd, performance.now()))));

  await sleep(Math.max(0, window.start - performance.now()));
  const windowStart = server.sample();
  const pgCpu0 = kind === "postgres" ? (pg?.cpuS() ?? null) : null;
  const genCpu0 = process.cpuUsage();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  say(`${kind}: warm-up done, measuring for ${o.durationS} s`);
  await sleep(Math.max(0, window.end - performance.now()));
  const windowEnd = server.sample();
  const pgCpu1 = kind === "postgres" ? (pg?.cpuS() ?? null) : null;
  const genCpu = process.cpuUsage(genCpu0);
  loopDelay.disable();
  const pgAtEnd = kind === "postgres" ? await pgConnections(location) : null;
  await Promise.all(tracked);
  countAsync = false;
  say(`${kind}: window closed (${measured.all.length} calls, ${measured.errors} errors); closing the clients`);

  const closeErrors = new Map<string, number>();
  // All at once: a DELETE each, bounded by one timeout, whatever state the server is in.
  for (const m of await Promise.all(clients.map((c) => closeClient(c, CLOSE_TIMEOUT_MS)))) if (m) addCount(closeErrors, m.slice(0, 300));
  await sleep(MS_PER_S);
  const afterClose = server.sample();
  const pgAfterClose = kind === "postgres" ? await pgConnections(location) : null;
  // Past Node's 5 s keep-alive timeout: what is still open now is held by the server, not by idle connections.
  await sleep(SETTLE_MS);
  const settled = server.sample();
  const exit = await server.stop();
  clearTimeout(hard);
  if (schema && pg && !pg.owned) await dropSchema(location, schema).catch((err: unknown) => say(`could not drop schema ${schema}: ${describeError(err)}`));

  return {
    store: kind,
    location: storeLabel(location),
    indexMs,
    clientsRequested: o.clients,
    clientsConnected: clients.length,
    connectMs: clients.map((c) => c.connectMs),
    connectErrors,
    warmupS: o.warmupS,
    durationS: o.durationS,
    drainMs: lastEnd - window.start,
    mixKinds: probe.kinds.length,
    mixVariants: variants,
    dropped: probe.dropped,
    warm,
    measured,
    asyncErrors,
    closeErrors,
    server: {
      idle,
      afterConnect,
      windowStart,
      windowEnd,
      afterClose,
      settled,
      rssSeries: server.rssSeries,
      sampledMaxRss: server.maxRss,
      exit,
      log: server.log,
      logFile: join(dir, "server.log"),
      ...(kind === "postgres"
        ? { pgConnections: { windowEnd: pgAtEnd, afterClose: pgAfterClose }, pgCpuS: pgCpu0 !== null && pgCpu1 !== null ? pgCpu1 - pgCpu0 : null }
        : {}),
    },
    generator: {
      cpuS: (genCpu.user + genCpu.system) / 1e6,
      eventLoopP99Ms: loopDelay.percentile(99) / 1e6,
      eventLoopMaxMs: loopDelay.max / 1e6,
    },
    loadAvg: { start: loadStart, end: loadavg() },
    settings: {
      maxSessions: o.clients + SESSION_MARGIN,
      rateLimitPerMinute: o.rateLimit,
      tokens: `${o.clients} + 1 (probe) via REPOCTX_HTTP_TOKENS`,
      workers: o.workers,
      nodeOptions: o.serverNodeOptions,
    },
  };
}

function toJson(runs: StoreRun[]): unknown {
  const mapToObj = (m: Map<string, unknown>): Record<string, unknown> => Object.fromEntries(m);
  return runs.map((r) => ({
    ...r,
    connectErrors: mapToObj(r.connectErrors),
    asyncErrors: mapToObj(r.asyncErrors),
    closeErrors: mapToObj(r.closeErrors),
    warm: { calls: r.warm.all.length, errors: r.warm.errors },
    measured: {
      calls: r.measured.all.length,
      errors: r.measured.errors,
      errorKinds: mapToObj(r.measured.errorKinds),
      latencyMs: r.measured.all,
      byTool: Object.fromEntries([...r.measured.byTool].map(([t, xs]) => [t, xs.length])),
    },
    server: { ...r.server, log: { ...r.server.log, problems: mapToObj(r.server.log.problems) } },
  }));
}

async function main(): Promise<number> {
  const o = parseOptions(process.argv.slice(2));
  const m = machineInfo(REPO_ROOT);
  const load = loadavg();
  say(`${o.stores.join(" + ")}: ${o.clients} clients, ${o.warmupS} s warm-up + ${o.durationS} s; load average ${load.map((x) => x.toFixed(2)).join(" ")} on ${cpus().length} cores`);
  if (load[0]! > cpus().length * 1.5) say(`warning: the machine is already busy (1-minute load ${load[0]!.toFixed(2)}); figures will be lower than on a quiet machine`);

  const tmp = mkdtempSync(join(tmpdir(), "repoctx-load-"));
  if (!o.keep) cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
  else say(`keeping ${tmp}`);
  const repo = o.repo ?? cloneSelf(join(tmp, "repo"));
  const workload = deriveWorkload(repo, join(tmp, "tasks"));
  // The operator policy: the task snapshots, and HTTP limits that let every client in and never answer 429.
  const policy = join(tmp, "policy.yaml");
  writeFileSync(
    policy,
    JSON.stringify(
      {
        taskSources: [{ type: "local", dir: join(tmp, "tasks") }],
        http: { maxSessions: o.clients + SESSION_MARGIN, rateLimitPerMinute: o.rateLimit, ...(o.workers !== null ? { workers: o.workers } : {}) },
      },
      null,
      2,
    ),
  );
  say(`repository ${repo}${o.repo ? "" : " (a clone of this repository's HEAD)"}: ${workload.files} source files and ${workload.definitions} definitions in the mix`);

  let pg: PgServer | null = null;
  if (o.stores.includes("postgres")) {
    pg = await pgServer(REPO_ROOT, o.pgUrl);
    const owned = pg;
    cleanups.push(() => owned.stopSync());
    say(`PostgreSQL: ${storeLabel(pg.url)}${pg.owned ? " (throwaway cluster)" : ""}`);
  }

  const runs: StoreRun[] = [];
  for (const kind of o.stores) {
    const run = await measureStore(kind, o, { repo, workload, policy, tmp }, pg);
    runs.push(run);
    process.stdout.write(`${storeReport(run)}\n\n`);
  }
  const cores = cpus().length;
  process.stdout.write(
    `${summaryMarkdown(runs, { cpuModel: m.cpuModel, cores, memory: m.memory, node: m.node, platform: m.platform, revision: m.revision })}\n`,
  );
  if (o.json) writeFileSync(o.json, JSON.stringify({ machine: m, options: o, runs: toJson(runs) }, null, 2));
  const failed = runs.some((r) => totalErrors(r) > 0 || r.clientsConnected < r.clientsRequested);
  if (failed) say("errors under load: see the reports above");
  return failed ? 1 : 0;
}

// Exit explicitly: the run is over, whatever keep-alive sockets or timers a library left behind.
main().then((code) => {
  cleanupSync();
  process.exit(code);
}).catch((err: unknown) => {
  say(`failed: ${err instanceof UsageError ? `${err.message} (--help lists the options)` : err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  cleanupSync();
  process.exit(2);
});
