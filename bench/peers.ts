/**
 * `npm run bench:peers -- --peer PATH --repo DIR [--repo DIR …] [--runs N] [--names N] [--peer-mode MODE]`: repoctx
 * side by side with a peer, codebase-memory-mcp (C, tree-sitter + SQLite; issue #20 item 6), on the same corpora.
 *
 * `--peer` is the peer's built binary (build/c/codebase-memory-mcp of its checkout; without it the bench prints how
 * to build one and exits 2). Each `--repo` is a git work tree. Per corpus and run (default 3), each tool in turn,
 * never both at once, every run from nothing:
 * - index: repoctx `index DIR --store FRESH.db --quiet` with the built CLI; the peer `cli index_repository
 *   --repo-path DIR` (its one-shot CLI; it starts a temporary daemon and an index worker and stops them before it
 *   exits) with HOME, CBM_CACHE_DIR and CBM_RUNTIME_DIR in a fresh temporary folder, so no run reuses another's
 *   index and nothing is written into the corpus. Timed from spawn to exit. Peak RSS: the largest VmHWM of any
 *   process of the run (the spawned one and its descendants, and for the peer every process of its binary, since
 *   its daemon detaches), sampled from /proc every 50 ms, and GNU time's %M of the spawned process;
 * - exact-name queries over MCP stdio with the SDK client: repoctx `serve --repo DIR --store FRESH.db`, tool
 *   `find_symbol` {symbol}; the peer's MCP server (no arguments, same environment as its index), tool
 *   `search_graph` {project, name_pattern: "^NAME$"} (its exact-name search: a regex, matched case-insensitively by
 *   the peer). Both answer in their default form (repoctx compact JSON, the peer its tree rows). One untimed call
 *   first (the time from spawn to its answer is "first answer"), then the N names one after another. An answer
 *   counts as found when it holds a definition named exactly NAME (for the peer: not a Variable, File or Folder).
 *
 * The names (default 20): repoctx's index of the first run, one function or class per file, files sorted by path,
 * every k-th file; the same names for both tools and every run. Printed: a markdown table per corpus (medians over
 * the runs; latency percentiles pooled over all runs' timed calls), with the date and the load before and after.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI_PATH } from "./dist.js";
import { fmtBytes, fmtInt, fmtMs, KIB, median, percentile, storeBytes } from "./stats.js";

const SAMPLE_MS = 50;
/** How long the peer's processes get to exit on their own once its client is closed. */
const EXIT_WAIT_MS = 15_000;
const PEER_PROJECT = "peerbench";
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]{2,}$/;

const BUILD_HINT = `give --peer PATH: the built codebase-memory-mcp binary. To build it (gcc, g++, make, zlib):
  git clone <codebase-memory-mcp repository> /work/data/peers/codebase-memory-mcp
  cd /work/data/peers/codebase-memory-mcp && make -f Makefile.cbm -j2 cbm CC=gcc CXX=g++
then pass --peer /work/data/peers/codebase-memory-mcp/build/c/codebase-memory-mcp`;

const { values } = parseArgs({
  options: {
    peer: { type: "string" },
    repo: { type: "string", multiple: true },
    runs: { type: "string", default: "3" },
    names: { type: "string", default: "20" },
    "peer-mode": { type: "string" },
  },
});
if (!values.peer || !existsSync(values.peer)) {
  console.error(values.peer ? `no peer binary at ${values.peer}\n${BUILD_HINT}` : BUILD_HINT);
  process.exit(2);
}
const peer = realpathSync(values.peer);
const repos = (values.repo ?? []).map((r) => resolve(r));
if (repos.length === 0) throw new Error("give --repo DIR at least once");
const runs = Number(values.runs);
const nameCount = Number(values.names);
const peerMode = values["peer-mode"];

type Tool = "repoctx" | "peer";

interface IndexSample {
  ms: number;
  hwm: number;
  timeRss: number;
  processes: number;
  size: number;
  note: string;
}

interface QuerySample {
  firstMs: number;
  latencies: number[];
  found: number;
  serveHwm: number;
  missed: string[];
}

/** Peak VmHWM of a spawned process tree (and, for the peer, of every process of its binary), sampled from /proc. */
class RssSampler {
  private readonly tracked = new Set<number>();
  private readonly seen = new Set<number>();
  private readonly hwm = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly exe: string | null) {}

  start(rootPid: number): void {
    this.tracked.add(rootPid);
    this.tick();
    this.timer = setInterval(() => this.tick(), SAMPLE_MS);
  }

  /** One last sample, then the peak (bytes) and how many processes it covered. */
  stop(): { hwm: number; processes: number } {
    this.tick();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    return { hwm: Math.max(0, ...this.hwm.values()), processes: this.tracked.size };
  }

  /** Tracked processes still alive. */
  alive(): number[] {
    return [...this.tracked].filter((pid) => existsSync(`/proc/${pid}`));
  }

  private tick(): void {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const pid = Number(entry);
      if (!this.seen.has(pid)) {
        const ppid = parentOf(pid);
        if (ppid === null) continue;
        this.seen.add(pid);
        if (this.tracked.has(ppid) || (this.exe !== null && exeOf(pid) === this.exe)) this.tracked.add(pid);
      }
      if (!this.tracked.has(pid)) continue;
      const hwm = vmHwm(pid);
      if (hwm !== null) this.hwm.set(pid, Math.max(hwm, this.hwm.get(pid) ?? 0));
    }
  }
}

function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return null;
  }
}

function exeOf(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return null;
  }
}

function vmHwm(pid: number): number | null {
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * KIB : null;
  } catch {
    return null;
  }
}

/** Processes of the peer's binary that are running now (none may be when a run starts: they would not be ours). */
function peerProcesses(): number[] {
  return readdirSync("/proc")
    .filter((e) => /^\d+$/.test(e))
    .map(Number)
    .filter((pid) => exeOf(pid) === peer);
}

/** Spawn under GNU time, sample its tree until it exits; stdout is kept. */
function timedSpawn(cmd: string, args: string[], env: NodeJS.ProcessEnv, exe: string | null): Promise<{ ms: number; hwm: number; timeRss: number; processes: number; stdout: string }> {
  const timeOut = join(mkdtempSync(join(tmpdir(), "peers-time-")), "time.txt");
  return new Promise((resolveRun, reject) => {
    const sampler = new RssSampler(exe);
    const t = performance.now();
    const child = spawn("/usr/bin/time", ["-f", "%M", "-o", timeOut, cmd, ...args], { env, stdio: ["ignore", "pipe", "pipe"], cwd: tmpdir() });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    sampler.start(child.pid!);
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = performance.now() - t;
      const { hwm, processes } = sampler.stop();
      const timeRss = Number(readFileSync(timeOut, "utf8").trim().split("\n").pop()) * KIB;
      rmSync(dirname(timeOut), { recursive: true, force: true });
      if (code !== 0) reject(new Error(`${basename(cmd)} ${args.join(" ")} exited ${code}:\n${stderr.slice(-4000)}`));
      else resolveRun({ ms, hwm, timeRss, processes, stdout });
    });
  });
}

/** A fresh home, cache and runtime folder for one peer run, and the environment that points it there. */
function peerEnv(dir: string): NodeJS.ProcessEnv {
  for (const d of ["home", "cache", "runtime"]) mkdirSync(join(dir, d), { recursive: true, mode: 0o700 });
  return { ...process.env, HOME: join(dir, "home"), CBM_CACHE_DIR: join(dir, "cache"), CBM_RUNTIME_DIR: join(dir, "runtime"), CBM_LOG_LEVEL: "warn" };
}

async function indexRepoctx(root: string, store: string): Promise<IndexSample> {
  const r = await timedSpawn(process.execPath, [CLI_PATH, "index", root, "--store", store, "--quiet"], process.env, null);
  return { ms: r.ms, hwm: r.hwm, timeRss: r.timeRss, processes: r.processes, size: storeBytes(store).total, note: "" };
}

async function indexPeer(root: string, env: NodeJS.ProcessEnv): Promise<IndexSample> {
  const args = ["cli", "index_repository", "--repo-path", root, "--name", PEER_PROJECT, ...(peerMode ? ["--mode", peerMode] : [])];
  const r = await timedSpawn(peer, args, env, peer);
  let note = "";
  try {
    const out = JSON.parse(r.stdout) as { status?: string; nodes?: number; edges?: number };
    note = `${out.status ?? "?"}, ${fmtInt(out.nodes ?? Number.NaN)} nodes, ${fmtInt(out.edges ?? Number.NaN)} edges`;
  } catch {
    note = `unparsed answer: ${r.stdout.slice(0, 200)}`;
  }
  const db = join(env.CBM_CACHE_DIR!, `${PEER_PROJECT}.db`);
  return { ms: r.ms, hwm: r.hwm, timeRss: r.timeRss, processes: r.processes, size: storeBytes(db).total, note };
}

/** N function or class names from repoctx's store: one per file, files sorted by path, every k-th file. */
function pickNames(store: string, n: number): string[] {
  const db = new Database(store, { readonly: true });
  try {
    const ready = db.prepare("SELECT seq, id FROM repo_index WHERE status = 'ready' ORDER BY seq DESC LIMIT 1").get() as { seq: number; id: string } | undefined;
    if (!ready) throw new Error(`${store}: no ready index`);
    const rows = db
      .prepare(
        `SELECT s.name AS name, f.path AS path FROM repo_symbol_${ready.seq} s JOIN repo_file f ON f.id = s.file_id
         WHERE s.kind IN ('function', 'class') ORDER BY f.path, s.start_line, s.name`,
      )
      .all() as { name: string; path: string }[];
    const byFile = new Map<string, string[]>();
    for (const r of rows) if (NAME_RE.test(r.name)) byFile.set(r.path, [...(byFile.get(r.path) ?? []), r.name]);
    const files = [...byFile.keys()].sort();
    const step = Math.max(1, Math.floor(files.length / n));
    const names: string[] = [];
    for (let i = 0; i < files.length && names.length < n; i += step) {
      const name = byFile.get(files[i]!)!.find((x) => !names.includes(x));
      if (name) names.push(name);
    }
    return names;
  } finally {
    db.close();
  }
}

type Ask = (name: string) => Promise<boolean>;

/** One server: spawn, the untimed first call, then every name once, timed; the server's peak RSS at the end. */
async function queryServer(transport: StdioClientTransport, sampler: RssSampler, names: string[], ask: (client: Client) => Ask): Promise<QuerySample> {
  const client = new Client({ name: "repoctx-bench-peers", version: "0" });
  const t = performance.now();
  await client.connect(transport);
  sampler.start(transport.pid!);
  const call = ask(client);
  await call(names[0]!);
  const firstMs = performance.now() - t;
  const latencies: number[] = [];
  const missed: string[] = [];
  let found = 0;
  let serveHwm = 0;
  try {
    for (const name of names) {
      const s = performance.now();
      const ok = await call(name);
      latencies.push(performance.now() - s);
      if (ok) found++;
      else missed.push(name);
    }
  } finally {
    serveHwm = sampler.stop().hwm;
    await client.close();
  }
  return { firstMs, latencies, found, serveHwm, missed };
}

/** An answer's text: the compact answer (repoctx's default verbosity), the peer's default tree rows. */
function answerText(r: Record<string, unknown>): string {
  return ((r["content"] ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? "").join("");
}

const NOT_DEFINITIONS = new Set(["Variable", "Folder", "File", "Module", "Project", "Package"]);

interface Hit {
  qualifiedName?: string;
  hits?: Hit[];
}

const askRepoctx =
  (client: Client): Ask =>
  async (name) => {
    const r = await client.callTool({ name: "find_symbol", arguments: { symbol: name } });
    const text = answerText(r);
    if (r.isError) throw new Error(`find_symbol ${name}: ${text.slice(0, 500)}`);
    const body = JSON.parse(text) as { data?: { hits?: Hit[] } };
    // An ambiguous name's hits are grouped by file: { path, hits: [...] }.
    const flat = (hits: Hit[]): Hit[] => hits.flatMap((h) => [h, ...flat(h.hits ?? [])]);
    return flat(body.data?.hits ?? []).some((h) => (h.qualifiedName ?? "").split(/[.#:]/).pop() === name);
  };

/** The peer's default answer: a `prefix (file):` header per group, then `  name label lines in out` rows. */
const askPeer =
  (client: Client): Ask =>
  async (name) => {
    const r = await client.callTool({ name: "search_graph", arguments: { project: PEER_PROJECT, name_pattern: `^${name}$` } });
    const text = answerText(r);
    if (r.isError) throw new Error(`search_graph ${name}: ${text.slice(0, 500)}`);
    return text.split("\n").some((line) => {
      const cells = line.startsWith("  ") ? line.trim().split(/\s+/) : [];
      return cells[0] === name && cells[1] !== undefined && !NOT_DEFINITIONS.has(cells[1]);
    });
  };

async function queryRepoctx(root: string, store: string, names: string[]): Promise<QuerySample> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_PATH, "serve", "--quiet", "--repo", root, "--store", store], env: { ...process.env } as Record<string, string>, stderr: "pipe" });
  return queryServer(transport, new RssSampler(null), names, askRepoctx);
}

async function queryPeer(env: NodeJS.ProcessEnv, names: string[]): Promise<QuerySample> {
  const transport = new StdioClientTransport({ command: peer, args: [], env: env as Record<string, string>, stderr: "pipe", cwd: env.HOME });
  const sampler = new RssSampler(peer);
  const sample = await queryServer(transport, sampler, names, askPeer);
  await reapPeer(sampler);
  return sample;
}

/** Wait for the peer's processes of this run (its daemon outlives the client by a moment) to exit; end stragglers. */
async function reapPeer(sampler: RssSampler): Promise<void> {
  const deadline = performance.now() + EXIT_WAIT_MS;
  while (sampler.alive().length > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  for (const pid of sampler.alive()) {
    console.error(`peer process ${pid} still running ${EXIT_WAIT_MS} ms after its client closed: ending it`);
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
}

interface Corpus {
  root: string;
  files: number;
  bytes: number;
  commit: string;
}

function describeCorpus(root: string): Corpus {
  const paths = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8", maxBuffer: 1 << 28 }).split("\0").filter(Boolean);
  let bytes = 0;
  for (const p of paths) {
    try {
      bytes += statSync(join(root, p)).size;
    } catch {
      // deleted in the work tree
    }
  }
  const commit = execFileSync("git", ["rev-parse", "--short=12", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  return { root, files: paths.length, bytes, commit };
}

function describePeer(): string {
  const dir = dirname(peer);
  try {
    const top = execFileSync("git", ["rev-parse", "--show-toplevel"], { cwd: dir, encoding: "utf8" }).trim();
    const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: top, encoding: "utf8" }).trim();
    const changed = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: top, encoding: "utf8" }).split("\n").filter(Boolean).length;
    return `${peer} (commit ${commit}${changed ? `, ${changed} tracked files changed locally` : ""})`;
  } catch {
    return `${peer} (not in a git checkout)`;
  }
}

interface ToolRuns {
  index: IndexSample[];
  query: QuerySample[];
}

async function runCorpus(corpus: Corpus): Promise<{ names: string[]; results: Record<Tool, ToolRuns> }> {
  const results: Record<Tool, ToolRuns> = { repoctx: { index: [], query: [] }, peer: { index: [], query: [] } };
  let names: string[] = [];
  for (let run = 1; run <= runs; run++) {
    const dir = mkdtempSync(join(tmpdir(), "peers-"));
    try {
      const store = join(dir, "repoctx.db");
      results.repoctx.index.push(await indexRepoctx(corpus.root, store));
      if (run === 1) names = pickNames(store, nameCount);
      if (names.length === 0) throw new Error(`${corpus.root}: repoctx's index has no function or class names`);
      results.repoctx.query.push(await queryRepoctx(corpus.root, store, names));
      const stray = peerProcesses();
      if (stray.length > 0) throw new Error(`processes of ${peer} are running (${stray.join(", ")}), not started by this bench: stop them first`);
      const env = peerEnv(join(dir, "peer"));
      results.peer.index.push(await indexPeer(corpus.root, env));
      results.peer.query.push(await queryPeer(env, names));
      console.error(`${basename(corpus.root)}: run ${run}/${runs} done`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { names, results };
}

const range = (xs: number[], f: (x: number) => string): string => (xs.length > 1 ? ` (${f(Math.min(...xs))}–${f(Math.max(...xs))})` : "");

function row(tool: string, r: ToolRuns, how: string, n: number): string {
  const ms = r.index.map((s) => s.ms);
  const hwm = r.index.map((s) => Math.max(s.hwm, s.timeRss));
  const lat = r.query.flatMap((q) => q.latencies);
  const found = Math.min(...r.query.map((q) => q.found));
  const cells = [
    tool,
    `${fmtMs(median(ms))}${range(ms, fmtMs)}`,
    how,
    `${fmtBytes(median(hwm))}${range(hwm, fmtBytes)}`,
    fmtBytes(median(r.index.map((s) => s.size))),
    fmtMs(median(r.query.map((q) => q.firstMs))),
    fmtMs(percentile(lat, 50)),
    fmtMs(percentile(lat, 95)),
    `${found}/${n}`,
    fmtBytes(median(r.query.map((q) => q.serveHwm))),
  ];
  return `| ${cells.join(" | ")} |`;
}

function report(corpus: Corpus, names: string[], results: Record<Tool, ToolRuns>): void {
  console.log("");
  console.log(`### ${basename(corpus.root)}: ${fmtInt(corpus.files)} tracked files, ${fmtBytes(corpus.bytes)}, commit ${corpus.commit} (${corpus.root})`);
  console.log("");
  console.log("| tool | index wall, median (min–max) | index timed as | index peak RSS, median (min–max) | index size | first answer | exact name p50 | p95 | found (worst run) | server peak RSS |");
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  console.log(row("repoctx", results.repoctx, "`repoctx index`, spawn → exit", names.length));
  console.log(row("codebase-memory-mcp", results.peer, "`cli index_repository`, spawn → exit (daemon + worker)", names.length));
  console.log("");
  const procs = results.peer.index.map((s) => s.processes);
  console.log(`Runs: ${runs}, ${names.length} names × ${runs} servers per tool. Peer index: ${results.peer.index.map((s) => s.note).join("; ")}; ${Math.max(...procs)} peer processes sampled per index run.`);
  console.log(`Names: ${names.join(", ")}`);
  for (const [tool, r] of Object.entries(results)) {
    const missed = [...new Set(r.query.flatMap((q) => q.missed))];
    if (missed.length > 0) console.log(`Not found by ${tool === "peer" ? "codebase-memory-mcp" : tool}: ${missed.join(", ")}`);
  }
}

async function main(): Promise<void> {
  const fmtLoad = (): string => loadavg().map((x) => x.toFixed(2)).join(" ");
  const loadStart = fmtLoad();
  const started = new Date().toISOString();
  const corpora = repos.map(describeCorpus);
  const out: { corpus: Corpus; names: string[]; results: Record<Tool, ToolRuns> }[] = [];
  for (const corpus of corpora) out.push({ corpus, ...(await runCorpus(corpus)) });
  console.log(`## peers bench — ${started}, load ${loadStart} at start, ${fmtLoad()} at the end`);
  console.log("");
  console.log(`repoctx: ${CLI_PATH} (node ${process.version}); codebase-memory-mcp: ${describePeer()}${peerMode ? `, --mode ${peerMode}` : ", its default mode"}`);
  for (const o of out) report(o.corpus, o.names, o.results);
}

await main();
