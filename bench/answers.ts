/**
 * What an answer costs the agent that reads it (issue #19), against ripgrep and bare node in one run, per repository:
 *
 * - Lexical search: for identifiers of the repository (a spread of how often they occur), `search_code` mode lexical,
 *   case-sensitive, maxResults 50, through the built server over stdio (the text content the client receives, compact
 *   and full), beside `rg -n -F` on the same tree. Characters and o200k tokens per matched line; whether every line rg
 *   finds is returned (where rg finds at most maxResults lines), among the files the index holds.
 * - `tools/list` of the default set and of all tools, in o200k tokens, as the server sends it.
 * - Start: bare `node -e ''`, and `serve` until its answer to `initialize` arrives on a ready index (median of 7).
 *
 *   npm run bench:answers -- --repo DIR [--repo DIR …] [--identifiers N]
 *
 * Each repository is indexed afresh into a temporary store with the built CLI.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { tokenCounter } from "../src/query/context-package/tokens.js";
import { median } from "./stats.js";

const CLI = resolve("dist/cli/main.js");
const MAX_RESULTS = 50;
const START_RUNS = 7;
const count = tokenCounter("o200k_base");

function parseArgs(argv: string[]): { repos: string[]; identifiers: number } {
  const a = { repos: [] as string[], identifiers: 24 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--repo") a.repos.push(resolve(argv[++i]!));
    else if (argv[i] === "--identifiers") a.identifiers = Number(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (a.repos.length === 0) throw new Error("give --repo DIR at least once");
  return a;
}

function rg(root: string, args: string[]): string {
  const r = spawnSync("rg", ["--hidden", "-g", "!.git", ...args], { cwd: root, encoding: "utf8", maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "pipe"] });
  if (r.error) throw new Error(`ripgrep is needed (apt-get install ripgrep): ${r.error.message}`);
  return r.stdout;
}

/** Identifiers at a spread of frequencies: rank the repository's words by matching lines, take evenly spaced ones. */
function pickIdentifiers(root: string, n: number): string[] {
  const words = new Map<string, number>();
  for (const w of rg(root, ["--no-filename", "--no-line-number", "-o", "\\b[A-Za-z_][A-Za-z0-9_]{5,}\\b"]).split("\n")) {
    if (w) words.set(w, (words.get(w) ?? 0) + 1);
  }
  const ranked = [...words].filter(([w, c]) => c <= 400 && w.length <= 40 && !/^[0-9a-f]+$/.test(w)).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const out: string[] = [];
  for (let i = 0; i < n && ranked.length > 0; i++) out.push(ranked[Math.floor((i * (ranked.length - 1)) / Math.max(1, n - 1))]![0]);
  return [...new Set(out)];
}

async function connect(root: string, store: string, tools?: string): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "serve", "--quiet", "--repo", root, "--store", store, ...(tools ? ["--tools", tools] : [])], stderr: "ignore" });
  const client = new Client({ name: "bench-answers", version: "0" });
  await client.connect(transport);
  return client;
}

async function callText(client: Client, args: Record<string, unknown>): Promise<string> {
  const r = await client.callTool({ name: "search_code", arguments: args });
  return (r.content as { text: string }[])[0]!.text;
}

interface Row {
  id: string;
  rgLines: number;
  rgChars: number;
  lines: number;
  compactChars: number;
  fullChars: number;
  compactTokens: number;
  rgTokens: number;
  missing: number;
}

/**
 * The files and `path:line` keys a compact search answer names: it is text laid out like `rg --heading -n` (a
 * blank line, the path with its facts in parentheses, then `line:text` lines).
 */
function linesOfText(text: string): { got: Set<string>; indexed: Set<string> } {
  const got = new Set<string>();
  const indexed = new Set<string>();
  let path: string | null = null;
  let blank = false;
  for (const line of text.split("\n")) {
    const hit = /^(\d+):/.exec(line);
    if (line === "") blank = true;
    else if (blank) [path, blank] = [line.replace(/ \([^()]*\)$/, ""), false];
    else if (path !== null && hit) got.add(`${path}:${hit[1]}`);
    if (path !== null) indexed.add(path);
  }
  return { got, indexed };
}

async function lexical(root: string, store: string, ids: string[]): Promise<Row[]> {
  const client = await connect(root, store);
  const rows: Row[] = [];
  try {
    for (const id of ids) {
      const rgOut = rg(root, ["-n", "-F", "--no-heading", "--", id]);
      const rgLines = rgOut.split("\n").filter((l) => l.length > 0);
      const args = { query: id, mode: "lexical", caseSensitive: true, maxResults: MAX_RESULTS, includeGenerated: true };
      const compact = await callText(client, args);
      const full = await callText(client, { ...args, verbosity: "full" });
      const { got, indexed } = linesOfText(compact);
      // Lines rg finds in files the answer names: with at most maxResults lines in all, each must be there.
      const expected = rgLines.length <= MAX_RESULTS ? rgLines.map((l) => l.split(":").slice(0, 2).join(":")) : [];
      const missing = expected.filter((k) => indexed.has(k.slice(0, k.lastIndexOf(":"))) && !got.has(k)).length;
      rows.push({
        id,
        rgLines: rgLines.length,
        rgChars: rgOut.length,
        lines: got.size,
        compactChars: compact.length,
        fullChars: full.length,
        compactTokens: count(compact),
        rgTokens: count(rgOut),
        missing,
      });
    }
  } finally {
    await client.close();
  }
  return rows;
}

async function toolsListTokens(root: string, store: string, tools?: string): Promise<{ tools: number; tokens: number }> {
  const client = await connect(root, store, tools);
  try {
    const list = await client.listTools();
    return { tools: list.tools.length, tokens: count(JSON.stringify(list)) };
  } finally {
    await client.close();
  }
}

/** Milliseconds from spawn to the answer to `initialize` on stdout. */
function timeInitialize(root: string, store: string): Promise<number> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, "serve", "--quiet", "--repo", root, "--store", store], { stdio: ["pipe", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes('"id":1')) {
        const ms = performance.now() - started;
        child.kill();
        done(ms);
      }
    });
    child.once("error", fail);
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "b", version: "0" } } })}\n`);
  });
}

function timeBareNode(): number {
  const t = performance.now();
  spawnSync(process.execPath, ["-e", ""]);
  return performance.now() - t;
}

const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : "-");

async function benchRepo(root: string, identifiers: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bench-answers-"));
  const store = join(dir, "index.db");
  try {
    const built = spawnSync(process.execPath, [CLI, "index", root, "--store", store, "--quiet"], { encoding: "utf8" });
    if (built.status !== 0) throw new Error(`index failed: ${built.stderr}`);
    const rows = await lexical(root, store, pickIdentifiers(root, identifiers));
    console.log(`\n## ${basename(root)} — lexical search_code (compact, the default) beside rg -n -F, maxResults ${MAX_RESULTS}\n`);
    console.log("| identifier | rg lines | returned | missing | rg chars/line | compact chars/line | ratio | full chars/line | compact tokens/line | rg tokens/line |");
    console.log("|---|---|---|---|---|---|---|---|---|---|");
    for (const r of rows) {
      const shown = Math.min(r.rgLines, MAX_RESULTS);
      console.log(
        `| ${r.id} | ${r.rgLines} | ${r.lines} | ${r.missing} | ${(r.rgChars / Math.max(1, r.rgLines)).toFixed(0)} | ${(r.compactChars / Math.max(1, r.lines)).toFixed(0)} | ` +
          `${ratio(r.compactChars / Math.max(1, r.lines), r.rgChars / Math.max(1, r.rgLines))} | ${(r.fullChars / Math.max(1, r.lines)).toFixed(0)} | ` +
          `${(r.compactTokens / Math.max(1, r.lines)).toFixed(1)} | ${(r.rgTokens / Math.max(1, r.rgLines)).toFixed(1)} |${shown === 0 ? " (none)" : ""}`,
      );
    }
    const perLine = (f: (r: Row) => number, n: (r: Row) => number) => median(rows.filter((r) => n(r) > 0).map((r) => f(r) / n(r)));
    const rgPer = perLine((r) => r.rgChars, (r) => r.rgLines);
    const compactPer = perLine((r) => r.compactChars, (r) => r.lines);
    const fullPer = perLine((r) => r.fullChars, (r) => r.lines);
    const totals = rows.reduce((a, r) => ({ rg: a.rg + r.rgChars, rgL: a.rgL + r.rgLines, c: a.c + r.compactChars, l: a.l + r.lines }), { rg: 0, rgL: 0, c: 0, l: 0 });
    console.log(
      `\nmedian chars per matched line: rg ${rgPer.toFixed(0)}, compact ${compactPer.toFixed(0)} (${ratio(compactPer, rgPer)}×, target ≤ 2×), full ${fullPer.toFixed(0)} (${ratio(fullPer, rgPer)}×); ` +
        `pooled: compact ${ratio(totals.c / Math.max(1, totals.l), totals.rg / Math.max(1, totals.rgL))}×; lines rg found but not returned: ${rows.reduce((n, r) => n + r.missing, 0)}`,
    );
    // By how many lines rg finds: an answer's identity and evidence (commit, index version, a file's hash and trust)
    // is paid once, so one-line answers cost most per line.
    for (const [label, lo, hi] of [["1 line", 1, 1], ["2-9 lines", 2, 9], ["10+ lines", 10, Infinity]] as const) {
      const bucket = rows.filter((r) => r.rgLines >= lo && r.rgLines <= hi && r.lines > 0);
      if (bucket.length === 0) continue;
      const c = bucket.reduce((n, r) => n + r.compactChars, 0) / bucket.reduce((n, r) => n + r.lines, 0);
      const g = bucket.reduce((n, r) => n + r.rgChars, 0) / bucket.reduce((n, r) => n + r.rgLines, 0);
      console.log(`  ${label}: ${bucket.length} identifiers, compact ${c.toFixed(0)} vs rg ${g.toFixed(0)} chars per line (${ratio(c, g)}×)`);
    }
    const core = await toolsListTokens(root, store);
    const all = await toolsListTokens(root, store, "all");
    console.log(`tools/list: default ${core.tools} tools ${core.tokens} o200k tokens (target ≤ 3,000), all ${all.tools} tools ${all.tokens}`);
    const bare: number[] = [];
    const init: number[] = [];
    timeBareNode();
    await timeInitialize(root, store);
    for (let i = 0; i < START_RUNS; i++) {
      bare.push(timeBareNode());
      init.push(await timeInitialize(root, store));
    }
    const b = median(bare);
    const s = median(init);
    console.log(`start: bare node ${b.toFixed(0)} ms, serve initialize ${s.toFixed(0)} ms (${ratio(s, b)}× bare node, target ≤ 5×), median of ${START_RUNS}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  console.log(`# answers bench — ${new Date().toISOString()}, load ${loadavg().map((x) => x.toFixed(2)).join(" ")}, rg ${rg(".", ["--version"]).split("\n")[0]}`);
  for (const repo of args.repos) await benchRepo(repo, args.identifiers);
  console.log(`\nload at the end ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
}

await main();
