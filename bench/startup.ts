/**
 * `npm run bench:startup [-- --runs n] [--cli PATH …]`: how fast the built CLI starts (issue #19). In one run, the
 * median of `--runs` (default 7) timed starts after one untimed warm-up, each of:
 *
 * - bare `node -e ''` (the floor every figure is compared against);
 * - `node dist/cli/main.js --version`;
 * - `serve --repo R --store S`, from spawn until its answer to an MCP `initialize` request arrives on stdout;
 * - `search --repo R --store S --mode lexical QUERY`, a CLI query on the same index, until the process exits.
 *
 * The fixture is built first: a `git clone` of this checkout into a temp dir, indexed by the same CLI into a
 * SQLite store there. Several `--cli` (another checkout's built `dist/cli/main.js`) are measured in the same run.
 * The target is 5x bare node; nothing asserts on it (tests never assert on wall time).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { CLI_PATH, REPO_ROOT } from "./dist.js";
import { fmtMs, median } from "./stats.js";

const TARGET_RATIO = 5;
const QUERY = "createServer";
const SPAWN_TIMEOUT_MS = 60_000;

const { values } = parseArgs({ options: { runs: { type: "string", default: "7" }, cli: { type: "string", multiple: true } } });
const runs = Number(values.runs);
const clis = values.cli ?? [CLI_PATH];

/** Wall time of one process from spawn until it exits; throws when it fails. */
function timeExit(args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      const ms = performance.now() - t0;
      if (code === 0) resolve(ms);
      else reject(new Error(`node ${args.join(" ")} exited ${code}: ${stderr.slice(0, 2000)}`));
    });
  });
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "repoctx-bench-startup", version: "0" } },
};

/** Spawn `serve` with the initialize line already written to its stdin; the time until the answer's line arrives. */
function timeInitialize(cli: string, repo: string, store: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [cli, "serve", "--repo", repo, "--store", store, "--quiet"], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => finish(new Error(`no initialize answer in ${SPAWN_TIMEOUT_MS} ms: ${stderr.slice(0, 2000)}`)), SPAWN_TIMEOUT_MS);
    function finish(err: Error | null, ms?: number): void {
      clearTimeout(timer);
      child.kill();
      if (err) reject(err);
      else resolve(ms!);
    }
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      const nl = stdout.indexOf("\n");
      if (nl < 0) return;
      const ms = performance.now() - t0;
      const answer = JSON.parse(stdout.slice(0, nl)) as { id?: number; result?: { serverInfo?: unknown } };
      if (answer.id === 1 && answer.result?.serverInfo) finish(null, ms);
      else finish(new Error(`unexpected first stdout line: ${stdout.slice(0, nl)}`));
    });
    child.on("error", (e) => finish(e));
    child.on("exit", (code) => {
      if (!stdout.includes("\n")) finish(new Error(`serve exited ${code} before answering: ${stderr.slice(0, 2000)}`));
    });
    child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
  });
}

async function medianOf(sample: () => Promise<number>): Promise<number> {
  await sample();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await sample());
  return median(samples);
}

function buildFixture(cli: string): { dir: string; repo: string; store: string } {
  const dir = mkdtempSync(join(tmpdir(), "repoctx-startup-"));
  const repo = join(dir, "repo");
  const store = join(dir, "index.db");
  execFileSync("git", ["clone", "--quiet", REPO_ROOT, repo], { stdio: ["ignore", "ignore", "inherit"] });
  execFileSync(process.execPath, [cli, "index", repo, "--store", store, "--quiet"], { stdio: ["ignore", "ignore", "inherit"] });
  return { dir, repo, store };
}

const load = (): string => loadavg().map((x) => x.toFixed(2)).join(" ");
const fixture = buildFixture(clis[0]!);
try {
  process.stdout.write(`machine load before: ${load()} (1, 5, 15 min); ${runs} runs each after 1 warm-up, median\n`);
  const bare = await medianOf(() => timeExit(["-e", ""]));
  const rows: [string, number][] = [["node -e ''", bare]];
  for (const cli of clis) {
    const label = clis.length > 1 ? `${cli}: ` : "";
    rows.push([`${label}--version`, await medianOf(() => timeExit([cli, "--version"]))]);
    rows.push([`${label}serve → initialize answer`, await medianOf(() => timeInitialize(cli, fixture.repo, fixture.store))]);
    const search = [cli, "search", "--repo", fixture.repo, "--store", fixture.store, "--mode", "lexical", QUERY];
    rows.push([`${label}search --mode lexical`, await medianOf(() => timeExit(search))]);
  }
  const target = `target (${TARGET_RATIO}x ${fmtMs(bare * TARGET_RATIO)})`;
  const table = [["what", "median", "x bare node", target], ...rows.map(([name, ms], i) => [name, fmtMs(ms), (ms / bare).toFixed(1), i === 0 ? "" : ms <= bare * TARGET_RATIO ? "met" : "missed"])];
  const widths = table[0]!.map((_, c) => Math.max(...table.map((r) => r[c]!.length)));
  const line = (r: string[]): string => `| ${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join(" | ")} |\n`;
  process.stdout.write(`\n${line(table[0]!)}|${widths.map((w, c) => (c === 0 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|\n`);
  for (const r of table.slice(1)) process.stdout.write(line(r));
  process.stdout.write(`\nmachine load after: ${load()}\n`);
} finally {
  rmSync(fixture.dir, { recursive: true, force: true });
}
