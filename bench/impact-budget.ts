/**
 * What a budget costs an impact bundle (issue #18 part 4): for module-level functions and classes of real
 * repositories, `get_change_impact_context` (api_migration of that symbol, through runTool as an MCP call goes)
 * without a budget, then at 2k, 4k and 8k tokens. Per budget: the share of the unbudgeted answer's call sites
 * (path:line) and related tests (path) still there, how many answers fitted, and the largest whole answer
 * (envelope JSON, o200k) beside its budget. Then `build_context_package` (purpose editing, the same symbol and file) at
 * those budgets beside a 32k one: the share of its call-site and test blocks still there with their text (not a
 * pointer), and the largest `data.rendered`.
 *
 *   npm run bench:impact -- --repo DIR [--repo DIR …] [--symbols N] [--json FILE]
 *
 * Symbols: those defined once in the index, outside tests, with the most references from other files (N per
 * repository, default 12). Each repository is indexed afresh into a temporary store.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { defaultOperatorConfig } from "../src/config/schema.js";
import { silentLogger } from "../src/core/log.js";
import { buildIndex } from "../src/indexer/pipeline.js";
import { findTool } from "../src/mcp/tools/index.js";
import { isTestPath } from "../src/policy/labels.js";
import { tokenCounter } from "../src/query/context-package/tokens.js";
import { runTool } from "../src/service/run-tool.js";
import { currentHead } from "../src/sources/git-head.js";
import { createRequestSources } from "../src/sources/index.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";

const BUDGETS = [2000, 4000, 8000] as const;
const count = tokenCounter("o200k_base");

interface Args {
  repos: string[];
  symbols: number;
  json: string | null;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { repos: [], symbols: 12, json: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--repo") a.repos.push(argv[++i]!);
    else if (argv[i] === "--symbols") a.symbols = Number(argv[++i]);
    else if (argv[i] === "--json") a.json = argv[++i]!;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (a.repos.length === 0) throw new Error("give --repo DIR");
  return a;
}

const labelOf = (root: string) => (basename(root) === "tree" ? basename(dirname(root)) : basename(root));

interface Bundle {
  callSites: { path: string; hits: { startLine: number }[] }[];
  relatedTests: { path: string }[];
}

interface BudgetFigures {
  budget: number;
  answers: number;
  fitted: number;
  callSites: { kept: number; total: number };
  tests: { kept: number; total: number };
  maxTokens: number;
  errors: string[];
}

async function measureRepo(root: string, symbols: number) {
  const base = mkdtempSync(join(tmpdir(), "repoctx-impact-"));
  const store = SqliteStore.open(join(base, "index.db"));
  try {
    const built = await buildIndex({ root, store, maxFileBytes: 1024 * 1024 });
    const index = (await store.getReadyIndex(built.repo.repoId))!;
    const operator = defaultOperatorConfig();
    const head = await currentHead(root);
    const deps = { store, root, logger: silentLogger, readHead: async () => head, operator, sources: createRequestSources(operator, {}) };
    const tool = findTool("get_change_impact_context")!;
    // Candidates: module-level functions and classes defined once, ranked by references from other files.
    const defs = (await store.findSymbols(index.id, { kinds: ["function", "class"], limit: 200_000 })).filter((s) => s.container === null && !isTestPath(s.path) && !s.file.isVendored && !s.file.isGenerated);
    const byName = new Map<string, typeof defs>();
    for (const d of defs) byName.set(d.name, [...(byName.get(d.name) ?? []), d]);
    const ranked: { name: string; path: string; outside: number }[] = [];
    for (const [name, list] of byName) {
      if (list.length !== 1 || name.length < 4) continue;
      const refs = await store.findReferences(index.id, { name, limit: 2000 });
      const outside = new Set(refs.filter((r) => r.path !== list[0]!.path).map((r) => r.path)).size;
      if (outside >= 2) ranked.push({ name, path: list[0]!.path, outside });
    }
    ranked.sort((a, b) => b.outside - a.outside || a.name.localeCompare(b.name));
    const picked = ranked.slice(0, symbols);
    const figures: BudgetFigures[] = BUDGETS.map((budget) => ({ budget, answers: 0, fitted: 0, callSites: { kept: 0, total: 0 }, tests: { kept: 0, total: 0 }, maxTokens: 0, errors: [] as string[] }));
    const unbudgeted: number[] = [];
    for (const s of picked) {
      const args = { candidatePaths: [s.path], symbols: [s.name], changeType: "api_migration", maxFiles: 50 };
      const full = await runTool(tool, args, deps);
      if (!full.ok) continue;
      unbudgeted.push(count(JSON.stringify(full)));
      const fb = (full.data as { bundle: Bundle }).bundle;
      const sites = new Set(fb.callSites.flatMap((g) => g.hits.map((h) => `${g.path}:${h.startLine}`)));
      const tests = new Set(fb.relatedTests.map((t) => t.path));
      for (const f of figures) {
        const env = await runTool(tool, { ...args, budgetTokens: f.budget }, deps);
        f.answers += 1;
        f.callSites.total += sites.size;
        f.tests.total += tests.size;
        if (!env.ok) {
          f.errors.push(`${s.name}: ${(env.data as { error: { message: string } }).error.message}`);
          continue;
        }
        f.fitted += 1;
        f.maxTokens = Math.max(f.maxTokens, count(JSON.stringify(env)));
        const b = (env.data as { bundle: Bundle }).bundle;
        f.callSites.kept += b.callSites.flatMap((g) => g.hits.map((h) => `${g.path}:${h.startLine}`)).filter((k) => sites.has(k)).length;
        f.tests.kept += b.relatedTests.filter((t) => tests.has(t.path)).length;
      }
    }
    unbudgeted.sort((a, b) => a - b);
    const packages = await measurePackages(picked, deps);
    return { repo: labelOf(root), symbols: picked.length, unbudgetedMedian: unbudgeted[Math.floor(unbudgeted.length / 2)] ?? 0, figures, packages };
  } finally {
    await store.close();
    rmSync(base, { recursive: true, force: true });
  }
}

interface PackageBlock {
  kind: string;
  form: string;
  evidence?: { path: string; startLine: number };
}

const PACKAGE_REFERENCE_BUDGET = 32_000;

/** Call-site and test blocks of editing packages at each budget, against the same package at 32k. */
async function measurePackages(picked: { name: string; path: string }[], deps: Parameters<typeof runTool>[2]) {
  const tool = findTool("build_context_package")!;
  const keyOf = (b: PackageBlock) => `${b.kind}:${b.evidence?.path ?? ""}:${b.evidence?.startLine ?? ""}`;
  const content = (env: Awaited<ReturnType<typeof runTool>>, kind: string) =>
    env.ok ? ((env.data as { package: { blocks: PackageBlock[] } }).package.blocks.filter((b) => b.kind === kind && b.form !== "pointer").map(keyOf)) : [];
  const figures = BUDGETS.map((budget) => ({ budget, fitted: 0, answers: 0, callSites: { kept: 0, total: 0 }, tests: { kept: 0, total: 0 }, maxRendered: 0 }));
  for (const s of picked) {
    const args = { purpose: "editing", goal: `Change ${s.name} and keep its callers working`, symbols: [s.name], candidatePaths: [s.path] };
    const full = await runTool(tool, { ...args, budgetTokens: PACKAGE_REFERENCE_BUDGET }, deps);
    if (!full.ok) continue;
    const sites = new Set(content(full, "call_site"));
    const tests = new Set(content(full, "test_file"));
    for (const f of figures) {
      const env = await runTool(tool, { ...args, budgetTokens: f.budget }, deps);
      f.answers += 1;
      f.callSites.total += sites.size;
      f.tests.total += tests.size;
      if (!env.ok) continue;
      f.fitted += 1;
      f.maxRendered = Math.max(f.maxRendered, (env.data as { package: { budget: { usedTokens: number } } }).package.budget.usedTokens);
      f.callSites.kept += content(env, "call_site").filter((k) => sites.has(k)).length;
      f.tests.kept += content(env, "test_file").filter((k) => tests.has(k)).length;
    }
  }
  return figures;
}

const ratio = (p: { kept: number; total: number }) => (p.total === 0 ? "n/a" : (p.kept / p.total).toFixed(3));

const args = parseArgs(process.argv.slice(2));
const results = [];
for (const root of args.repos) results.push(await measureRepo(root, args.symbols));
console.log("| repository | symbols | unbudgeted answer (median tokens) | budget | fitted | call-site recall | related-test recall | largest answer |");
console.log("|---|---|---|---|---|---|---|---|");
for (const r of results) {
  for (const f of r.figures) {
    console.log(`| ${r.repo} | ${r.symbols} | ${r.unbudgetedMedian} | ${f.budget} | ${f.fitted}/${f.answers} | ${ratio(f.callSites)} (${f.callSites.kept}/${f.callSites.total}) | ${ratio(f.tests)} (${f.tests.kept}/${f.tests.total}) | ${f.maxTokens} |`);
  }
}
console.log("");
console.log("| repository | package budget | fitted | call-site blocks kept | test blocks kept | largest rendered |");
console.log("|---|---|---|---|---|---|");
for (const r of results) {
  for (const f of r.packages) console.log(`| ${r.repo} | ${f.budget} | ${f.fitted}/${f.answers} | ${ratio(f.callSites)} (${f.callSites.kept}/${f.callSites.total}) | ${ratio(f.tests)} (${f.tests.kept}/${f.tests.total}) | ${f.maxRendered} |`);
}
for (const r of results) for (const f of r.figures) for (const e of f.errors) console.log(`${r.repo} @${f.budget}: ${e}`);
if (args.json) writeFileSync(args.json, JSON.stringify(results, null, 2));
