/**
 * References against the compiler's truth (issue #18): for each module-level function or class whose name is
 * defined once in the repository, the uses the language's own tools see — Python's `ast` and `symtable`
 * (bench/references/python_truth.py), the TypeScript compiler's parser and checker for TypeScript and JavaScript
 * (bench/references/ts-truth.ts), the JDK compiler's parser for Java (bench/references/JavaTruth.java) — beside the
 * references the index stores for that name, compared by file and line. Prints recall and precision per repository and language (micro over all uses, and the share of names with
 * every use found), and the names missed most.
 *
 *   npm run bench:references -- --repo DIR [--repo DIR …] [--keep DIR]
 *
 * Each repository is indexed afresh into a temporary store (or DIR/<name>.db with --keep).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { defaultOperatorConfig } from "../src/config/schema.js";
import { EXTRACTOR_VERSION } from "../src/core/index-format.js";
import { buildIndex } from "../src/indexer/pipeline.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { Store } from "../src/store/store.js";
import { tsTruth, type Truth } from "./references/ts-truth.js";
import { referenceFits } from "../src/query/symbols.js";

interface RepoFigures {
  repo: string;
  language: string;
  names: number;
  truth: number;
  found: number;
  ours: number;
  complete: number;
  missed: { name: string; missing: number; example: string }[];
  extra: { name: string; extra: number; example: string }[];
}

function parseArgs(argv: string[]): { repos: string[]; keep: string | null } {
  const repos: string[] = [];
  let keep: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--repo") repos.push(argv[++i]!);
    else if (argv[i] === "--keep") keep = argv[++i]!;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (repos.length === 0) throw new Error("give --repo DIR (a checkout of a Python repository)");
  return { repos, keep };
}

function counts(list: [string, number][]): Map<string, number> {
  const m = new Map<string, number>();
  for (const [p, l] of list) m.set(`${p}:${l}`, (m.get(`${p}:${l}`) ?? 0) + 1);
  return m;
}

/** A checkout's name: its folder, or the folder above a bench worktree's `tree`. */
function labelOf(root: string): string {
  const b = basename(root);
  return b === "tree" ? basename(dirname(root)) : b;
}

const FAMILIES: { label: string; languages: string[]; truth: (root: string, paths: string[]) => Truth }[] = [
  {
    label: "Python",
    languages: ["python"],
    truth: (root, paths) =>
      JSON.parse(execFileSync("python3", [join(import.meta.dirname, "references", "python_truth.py"), root], { input: paths.join("\n"), maxBuffer: 1 << 30 }).toString()) as Truth,
  },
  { label: "TS/JS", languages: ["typescript", "tsx", "javascript"], truth: tsTruth },
  {
    label: "Java",
    languages: ["java"],
    truth: (root, paths) =>
      JSON.parse(execFileSync("java", [join(import.meta.dirname, "references", "JavaTruth.java"), root], { input: paths.join("\n"), maxBuffer: 1 << 30 }).toString()) as Truth,
  },
];

async function measure(root: string, keep: string | null): Promise<RepoFigures[]> {
  const dir = keep ?? mkdtempSync(join(tmpdir(), "repoctx-refs-"));
  const store = SqliteStore.open(join(dir, `${labelOf(root)}.db`));
  try {
    const cached = await store.getReadyIndex("refs");
    const ready = cached && cached.extractorVersion === EXTRACTOR_VERSION ? cached : null;
    const indexId = ready?.id ?? (await buildIndex({ root, store, repoId: "refs", maxFileBytes: defaultOperatorConfig().repoContext.maxIndexedFileBytes })).indexId;
    const all = await store.listFiles(indexId, { includeSkipped: false });
    const out: RepoFigures[] = [];
    for (const family of FAMILIES) {
      const files = all.filter((f) => family.languages.includes(f.language ?? "") && f.symbolStatus === "ok" && !f.isGenerated && !/\.d\.[cm]?ts$/.test(f.path));
      if (files.length === 0) continue;
      const parsed = new Set(files.map((f) => f.path));
      const truth = family.truth(root, [...parsed]);
      for (const p of truth.unparsed) parsed.delete(p);
      const fig = await compare(store, indexId, labelOf(root), family.label, truth, parsed);
      if (fig.names > 0) out.push(fig);
    }
    return out;
  } finally {
    store.close();
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

async function compare(store: Store, indexId: string, repo: string, language: string, truth: Truth, parsed: Set<string>): Promise<RepoFigures> {
  const fig: RepoFigures = { repo, language, names: 0, truth: 0, found: 0, ours: 0, complete: 0, missed: [], extra: [] };
  for (const [name, where] of Object.entries(truth.defs)) {
    if (!Object.hasOwn(truth.defs, name)) continue;
    if (where.length !== 1 || name.length < 3) continue;
    // Defined once in the whole index too (a same-named method or a definition in another language would be ambiguous).
    if ((await store.findSymbols(indexId, { name, limit: 3 })).length !== 1) continue;
    const def = `${where[0]![0]}:${where[0]![1]}`;
    const want = counts((truth.uses[name] ?? []).filter(([p]) => parsed.has(p)));
    want.delete(def);
    const [only] = await store.findSymbols(indexId, { name, limit: 1 });
    // As find_symbol answers: a type use never names a constant, a field or a function of that name.
    const refs = (await store.findReferences(indexId, { name, limit: 100_000 })).filter((r) => referenceFits(r.kind, only!.kind));
    const got = counts(refs.filter((r) => parsed.has(r.path)).map((r) => [r.path, r.line] as [string, number]));
    got.delete(def);
    let hit = 0;
    let total = 0;
    let mine = 0;
    let missing: string | null = null;
    let extraAt: string | null = null;
    for (const [k, n] of want) {
      total += n;
      const g = got.get(k) ?? 0;
      hit += Math.min(n, g);
      if (g < n) missing ??= k;
    }
    for (const [k, n] of got) {
      mine += n;
      if (n > (want.get(k) ?? 0)) extraAt ??= k;
    }
    fig.names += 1;
    fig.truth += total;
    fig.found += hit;
    fig.ours += mine;
    if (hit === total) fig.complete += 1;
    if (hit < total) fig.missed.push({ name, missing: total - hit, example: missing! });
    if (mine > hit) fig.extra.push({ name, extra: mine - hit, example: extraAt! });
  }
  return fig;
}

const args = parseArgs(process.argv.slice(2));
console.log("| repository | language | names defined once | uses (truth) | recall | precision | names with every use |");
console.log("|---|---|---|---|---|---|---|");
const all: RepoFigures[] = [];
for (const root of args.repos) {
  for (const f of await measure(root, args.keep)) {
    all.push(f);
    console.log(`| ${f.repo} | ${f.language} | ${f.names} | ${f.truth} | ${(f.found / Math.max(1, f.truth)).toFixed(3)} | ${(f.found / Math.max(1, f.ours)).toFixed(3)} | ${(f.complete / Math.max(1, f.names)).toFixed(3)} |`);
  }
}
for (const f of all) {
  console.log(`\n${f.repo} ${f.language}: most missed ${f.missed.sort((a, b) => b.missing - a.missing).slice(0, 8).map((m) => `${m.name} −${m.missing} (${m.example})`).join(", ") || "none"}`);
  console.log(`${f.repo} ${f.language}: most extra ${f.extra.sort((a, b) => b.extra - a.extra).slice(0, 8).map((m) => `${m.name} +${m.extra} (${m.example})`).join(", ") || "none"}`);
}
