/**
 * `npm run bench:localize -- --data FILE [--data FILE …] --mirrors DIR [--per-repo N] [--repos a/b,c/d] [--json OUT]`
 *
 * File-level localization on public benchmark data: for each sampled issue, the repository is checked out at the
 * issue's base commit (a temporary worktree of a local mirror), indexed into a temporary store, and asked with the
 * issue's text as an agent would ask it (`search_code` through the real tool pipeline, schema limits included).
 * A plain BM25 over the same checkout runs in the same invocation as the baseline. Gold = the files the real fix
 * changed that existed at the base commit. Reports per repository and overall: Acc@1/5/10 (a gold file in the top
 * k), Recall@10, MRR, and, where the data has the fix's test patch, related-test recall@10 of `find_related_tests`
 * for the gold files against the fix's test files that already existed.
 *
 * Mirrors: `DIR/<owner>+<name>/repo` (a git directory holding the base commits), the layout the session's fetch tool
 * leaves. Held-out repositories (data.ts HELD_OUT) are never loaded.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { defaultOperatorConfig } from "../src/config/schema.js";
import { silentLogger } from "../src/core/log.js";
import { createWorkspace } from "../src/eval/workspace.js";
import { EXTRACTOR_VERSION } from "../src/core/index-format.js";
import { buildIndex } from "../src/indexer/pipeline.js";
import { findRelatedTestsTool } from "../src/mcp/tools/find-related-tests.js";
import { searchCodeTool } from "../src/mcp/tools/search-code.js";
import type { ServerDeps } from "../src/service/deps.js";
import { runTool } from "../src/service/run-tool.js";
import { createRequestSources } from "../src/sources/index.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { Store } from "../src/store/store.js";
import { Bm25Index } from "./localize/bm25.js";
import { median } from "./stats.js";
import { loadInstances, samplePerRepo, type Instance } from "./localize/data.js";

const REPO_ID = "localize";
/** Files each retriever returns (the tool's ceiling is 50; 20 covers every cut-off reported). */
const RANKED = 20;
const CUTOFFS = [1, 5, 10] as const;
/** The tool's current query cap, to show what the ranker does with the text it is allowed to see. */
const CUT_CHARS = 1000;

interface Args {
  data: string[];
  mirrors: string;
  perRepo: number;
  repos: Set<string> | null;
  json: string | null;
  /** Keep each issue's checkout and index here and reuse them on the next run (ranking changes need no reindex). */
  cache: string | null;
  /** Where in each repository's spacing the sample starts (0 = the usual sample; 0.5 = the instances between). */
  phase: number;
  /** Also ask with the text cut to CUT_CHARS (the old query cap), as a column of its own. */
  cut: boolean;
  /** Also ask with `semantic: true` (the repository-trained embedding), as a column of its own. */
  semantic: boolean;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { data: [], mirrors: "", perRepo: 3, repos: null, json: null, cache: null, phase: 0, cut: false, semantic: false };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i + 1] ?? "";
    if (argv[i] === "--data") a.data.push(v), i++;
    else if (argv[i] === "--mirrors") (a.mirrors = v), i++;
    else if (argv[i] === "--per-repo") (a.perRepo = Number(v)), i++;
    else if (argv[i] === "--repos") (a.repos = new Set(v.toLowerCase().split(","))), i++;
    else if (argv[i] === "--json") (a.json = v), i++;
    else if (argv[i] === "--cache") (a.cache = v), i++;
    else if (argv[i] === "--phase") (a.phase = Number(v)), i++;
    else if (argv[i] === "--cut") a.cut = true;
    else if (argv[i] === "--semantic") a.semantic = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (a.data.length === 0 || !a.mirrors) throw new Error("usage: bench:localize -- --data FILE --mirrors DIR [--per-repo N] [--repos a/b,c/d] [--json OUT]");
  return a;
}

/** The mirror's git directory for `owner/name`, found case-insensitively (`FasterXML+jackson-core`). */
function mirrorOf(mirrors: string, repo: string): string | null {
  const want = repo.replace("/", "+");
  const hit = readdirSync(mirrors).find((d) => d.toLowerCase() === want);
  return hit ? join(mirrors, hit, "repo") : null;
}

interface Answer {
  ranking: string[];
  ms: number;
  rejected?: boolean;
}

interface InstanceResult {
  id: string;
  repo: string;
  gold: string[];
  files: number;
  answers: Record<string, Answer>;
  /** `support`: the helpers, fixtures and snapshots the tool lists apart from the tests to run. */
  relatedTests: { expected: string[]; found: string[]; support?: string[]; symbols?: string[]; foundWithSymbols?: string[]; ms?: number } | null;
}

/** At most this many changed symbols go with the paths, as the tool's schema allows. */
const MAX_CHANGED_SYMBOLS = 20;

/**
 * The symbols a fix changed, as an agent that knows its edit would name them: per changed base line, the innermost
 * definition containing it; the most-touched first.
 */
async function changedSymbolsOf(store: Store, indexId: string, inst: Instance, gold: string[]): Promise<string[]> {
  const touched = new Map<string, number>();
  for (const path of gold) {
    const lines = inst.changedLines[path] ?? [];
    if (lines.length === 0) continue;
    const defs = await store.findSymbols(indexId, { path, limit: 5000 });
    for (const line of lines) {
      const inner = defs.filter((d) => d.startLine <= line && line <= d.endLine).sort((a, b) => a.endLine - a.startLine - (b.endLine - b.startLine))[0];
      if (inner) touched.set(inner.name, (touched.get(inner.name) ?? 0) + 1);
    }
  }
  return [...touched].sort((a, b) => b[1] - a[1]).slice(0, MAX_CHANGED_SYMBOLS).map(([name]) => name);
}

function depsFor(store: Store, root: string): ServerDeps {
  const operator = defaultOperatorConfig();
  return { store, root, operator, sources: createRequestSources(operator, {}), logger: silentLogger, readHead: async () => null, wrapText: false };
}

async function viaTool(deps: ServerDeps, query: string, semantic = false): Promise<Answer> {
  const t0 = performance.now();
  const env = await runTool(searchCodeTool, { query, maxResults: RANKED, ...(semantic ? { semantic: true } : {}) }, deps);
  const ms = performance.now() - t0;
  if (!env.ok) return { ranking: [], ms, rejected: true };
  return { ranking: [...new Set((env.data.results as { path: string }[]).map((r) => r.path))], ms };
}

async function bm25Of(store: Store, indexId: string, paths: string[]): Promise<Bm25Index> {
  const bm25 = new Bm25Index();
  for (const p of paths) {
    const text = await store.getContent(indexId, p);
    if (text !== null) bm25.add(p, text);
  }
  return bm25;
}

interface Checkout {
  root: string;
  store: Store;
  indexId: string;
  dispose(): Promise<void>;
}

/** A temporary worktree and store for the issue, indexed now; gone after. */
async function freshCheckout(inst: Instance, mirror: string): Promise<Checkout> {
  const ws = await createWorkspace(mirror, inst.baseCommit);
  try {
    const built = await buildIndex({ root: ws.root, store: ws.store, repoId: REPO_ID, maxFileBytes: defaultOperatorConfig().repoContext.maxIndexedFileBytes, semantic: true });
    return { root: ws.root, store: ws.store, indexId: built.indexId, dispose: () => ws.dispose() };
  } catch (err) {
    await ws.dispose();
    throw err;
  }
}

/** The issue's worktree and index under the cache folder: made and indexed once, reused by later runs. */
async function cachedCheckout(cache: string, inst: Instance, mirror: string): Promise<Checkout> {
  const dir = join(cache, inst.id.replace(/[^\w.-]/g, "_"));
  const root = join(dir, "tree");
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(root, ".git"))) {
    execFileSync("git", ["-c", "core.hooksPath=/dev/null", "worktree", "add", "--detach", "-q", "-f", root, inst.baseCommit], { cwd: mirror, stdio: "ignore", env: { ...process.env, GIT_LFS_SKIP_SMUDGE: "1" } });
  }
  const store = SqliteStore.open(join(dir, "index.db"));
  // A cached index of another extractor version is rebuilt, as `repoctx index` would (its tables differ).
  const cached = await store.getReadyIndex(REPO_ID);
  const ready = cached && cached.extractorVersion === EXTRACTOR_VERSION ? cached : null;
  const indexId = ready?.id ?? (await buildIndex({ root, store, repoId: REPO_ID, maxFileBytes: defaultOperatorConfig().repoContext.maxIndexedFileBytes, semantic: true })).indexId;
  return { root, store, indexId, dispose: () => store.close() };
}

async function runInstance(inst: Instance, mirror: string, extra: Args): Promise<InstanceResult | { skipped: string }> {
  const ws = await (extra.cache ? cachedCheckout(extra.cache, inst, mirror) : freshCheckout(inst, mirror)).catch((e: unknown) => e as Error);
  if (ws instanceof Error) return { skipped: `no checkout: ${ws.message.slice(0, 120)}` };
  try {
    const files = (await ws.store.listFiles(ws.indexId, { includeSkipped: false })).map((f) => f.path);
    const present = new Set(files);
    const gold = inst.gold.filter((g) => present.has(g));
    if (gold.length === 0) return { skipped: "no gold file existed at the base commit" };
    const deps = depsFor(ws.store, ws.root);
    const bm25 = await bm25Of(ws.store, ws.indexId, files);
    const t0 = performance.now();
    const baseline = bm25.search(inst.problem, RANKED);
    const answers: Record<string, Answer> = {
      bm25: { ranking: baseline, ms: performance.now() - t0 },
      repoctx: await viaTool(deps, inst.problem),
    };
    if (extra.cut) answers[`repoctx_cut${CUT_CHARS}`] = await viaTool(deps, inst.problem.slice(0, CUT_CHARS));
    if (extra.semantic) answers.repoctx_semantic = await viaTool(deps, inst.problem, true);
    const expected = inst.tests.filter((t) => present.has(t));
    let relatedTests: InstanceResult["relatedTests"] = null;
    if (expected.length > 0) {
      const t1 = performance.now();
      const env = await runTool(findRelatedTestsTool, { changedPaths: gold, maxResults: RANKED }, deps);
      const ms = performance.now() - t1;
      const found = env.ok ? (env.data.tests as { path: string }[]).map((t) => t.path) : [];
      const support = env.ok ? ((env.data.stats as { supportFiles?: { path: string }[] }).supportFiles ?? []).map((s) => s.path) : [];
      const symbols = await changedSymbolsOf(ws.store, ws.indexId, inst, gold);
      const withSymbols = symbols.length > 0 ? await runTool(findRelatedTestsTool, { changedPaths: gold, symbols, maxResults: RANKED }, deps) : env;
      const foundWithSymbols = withSymbols.ok ? (withSymbols.data.tests as { path: string }[]).map((t) => t.path) : [];
      relatedTests = { expected, found, support, symbols, foundWithSymbols, ms };
    }
    return { id: inst.id, repo: inst.repo, gold, files: files.length, answers, relatedTests };
  } finally {
    await ws.dispose();
  }
}

interface Row {
  n: number;
  acc: Record<number, number>;
  recall10: number;
  mrr: number;
  rejected: number;
}

function score(results: InstanceResult[], mode: string): Row {
  const row: Row = { n: results.length, acc: { 1: 0, 5: 0, 10: 0 }, recall10: 0, mrr: 0, rejected: 0 };
  for (const r of results) {
    const a = r.answers[mode]!;
    if (a.rejected) row.rejected += 1;
    const ranks = r.gold.map((g) => a.ranking.indexOf(g) + 1).filter((k) => k > 0);
    const first = ranks.length > 0 ? Math.min(...ranks) : 0;
    for (const k of CUTOFFS) if (first > 0 && first <= k) row.acc[k]! += 1;
    row.recall10 += ranks.filter((k) => k <= 10).length / r.gold.length;
    row.mrr += first > 0 ? 1 / first : 0;
  }
  const n = Math.max(1, row.n);
  for (const k of CUTOFFS) row.acc[k] = row.acc[k]! / n;
  row.recall10 /= n;
  row.mrr /= n;
  return row;
}

/** With `withSupport`, an expected file the tool lists among its support files (a helper the fix edited) counts as found. */
function testRecall(results: InstanceResult[], withSupport = false, withSymbols = false): { n: number; recall10: number } {
  const withTests = results.filter((r) => r.relatedTests);
  const sum = withTests.reduce((s, r) => {
    const t = r.relatedTests!;
    const found = new Set([...(withSymbols ? (t.foundWithSymbols ?? t.found) : t.found).slice(0, 10), ...(withSupport ? (t.support ?? []) : [])]);
    return s + t.expected.filter((e) => found.has(e)).length / t.expected.length;
  }, 0);
  return { n: withTests.length, recall10: withTests.length > 0 ? sum / withTests.length : Number.NaN };
}

/**
 * One line per repository: related-test recall@10 from the changed paths, the same counting the support files listed
 * apart, and from the paths with the changed symbols (the definitions the fix's hunks touch) as an agent would give them.
 */
function printTestRecall(results: InstanceResult[]): void {
  const repos = [...new Set(results.map((r) => r.repo))].sort();
  const line = (repo: string, rs: InstanceResult[]) =>
    `related tests ${repo}: R@10 ${fmt(testRecall(rs).recall10)}, with support files ${fmt(testRecall(rs, true).recall10)}, paths and symbols ${fmt(testRecall(rs, false, true).recall10)} (${testRecall(rs).n}), p50 ${median(rs.flatMap((r) => (r.relatedTests?.ms === undefined ? [] : [r.relatedTests.ms]))).toFixed(1)} ms`;
  for (const repo of repos) console.log(line(repo, results.filter((r) => r.repo === repo)));
  console.log(line("ALL", results));
}

function fmt(x: number): string {
  return Number.isNaN(x) ? "—" : x.toFixed(3);
}

function printTable(results: InstanceResult[], modes: string[]): void {
  const repos = [...new Set(results.map((r) => r.repo))].sort();
  console.log("| repository | n | files (median) | mode | Acc@1 | Acc@5 | Acc@10 | Recall@10 | MRR | p50 ms | rejected | related tests R@10 (n) |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const repo of [...repos, "ALL"]) {
    const rs = repo === "ALL" ? results : results.filter((r) => r.repo === repo);
    const t = testRecall(rs);
    for (const m of modes) {
      const s = score(rs, m);
      const tests = m === "repoctx" ? `${fmt(t.recall10)} (${t.n})` : "";
      const ms = median(rs.map((r) => r.answers[m]!.ms));
      console.log(`| ${repo} | ${s.n} | ${median(rs.map((r) => r.files))} | ${m} | ${fmt(s.acc[1]!)} | ${fmt(s.acc[5]!)} | ${fmt(s.acc[10]!)} | ${fmt(s.recall10)} | ${fmt(s.mrr)} | ${ms.toFixed(1)} | ${s.rejected} | ${tests} |`);
    }
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const all = args.data.flatMap((f) => loadInstances(f));
  const sample = samplePerRepo(all, args.perRepo, args.repos, args.phase);
  console.error(`${sample.length} instances from ${new Set(sample.map((i) => i.repo)).size} repositories (${all.length} loaded, held-out repositories left out)`);
  const results: InstanceResult[] = [];
  const skipped: { id: string; why: string }[] = [];
  for (const [i, inst] of sample.entries()) {
    const mirror = mirrorOf(args.mirrors, inst.repo);
    const r = mirror ? await runInstance(inst, mirror, args) : { skipped: `no mirror of ${inst.repo} under ${args.mirrors}` };
    if ("skipped" in r) skipped.push({ id: inst.id, why: r.skipped });
    else results.push(r);
    console.error(`[${i + 1}/${sample.length}] ${inst.id}: ${"skipped" in r ? `skipped (${r.skipped})` : `${r.files} files, gold ${r.gold.length}`}`);
  }
  const modes = results.length > 0 ? Object.keys(results[0]!.answers) : [];
  printTable(results, modes);
  printTestRecall(results);
  for (const s of skipped) console.log(`skipped ${s.id}: ${s.why}`);
  if (args.json) writeFileSync(args.json, `${JSON.stringify({ results, skipped }, null, 2)}\n`);
}

await main();
