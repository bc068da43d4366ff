/**
 * References against the compiler's truth (issue #18): for each module-level Python function or class whose name is
 * defined once in the repository, the uses Python's own `ast` and `symtable` see (bench/references/python_truth.py)
 * beside the references the index stores for that name, compared by file and line. Prints recall and precision
 * per repository (micro over all uses, and the share of names with every use found), and the names missed most.
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
import { buildIndex } from "../src/indexer/pipeline.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";

interface Truth {
  defs: Record<string, [string, number][]>;
  uses: Record<string, [string, number][]>;
  unparsed: string[];
}

interface RepoFigures {
  repo: string;
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

async function measure(root: string, keep: string | null): Promise<RepoFigures> {
  const dir = keep ?? mkdtempSync(join(tmpdir(), "repoctx-refs-"));
  const store = SqliteStore.open(join(dir, `${labelOf(root)}.db`));
  try {
    const ready = await store.getReadyIndex("refs");
    const indexId = ready?.id ?? (await buildIndex({ root, store, repoId: "refs", maxFileBytes: defaultOperatorConfig().repoContext.maxIndexedFileBytes })).indexId;
    const files = (await store.listFiles(indexId, { includeSkipped: false })).filter((f) => f.language === "python" && f.symbolStatus === "ok");
    const parsed = new Set(files.map((f) => f.path));
    const truth = JSON.parse(
      execFileSync("python3", [join(import.meta.dirname, "references", "python_truth.py"), root], { input: [...parsed].join("\n"), maxBuffer: 1 << 30 }).toString(),
    ) as Truth;
    for (const p of truth.unparsed) parsed.delete(p);
    const fig: RepoFigures = { repo: labelOf(root), names: 0, truth: 0, found: 0, ours: 0, complete: 0, missed: [], extra: [] };
    for (const [name, where] of Object.entries(truth.defs)) {
      if (where.length !== 1 || name.length < 3) continue;
      // Defined once in the whole index too (a same-named method or a definition in another language would be ambiguous).
      if ((await store.findSymbols(indexId, { name, limit: 3 })).length !== 1) continue;
      const def = `${where[0]![0]}:${where[0]![1]}`;
      const want = counts((truth.uses[name] ?? []).filter(([p]) => parsed.has(p)));
      want.delete(def);
      const refs = await store.findReferences(indexId, { name, limit: 100_000 });
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
  } finally {
    store.close();
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

const args = parseArgs(process.argv.slice(2));
console.log("| repository | names defined once | uses (truth) | recall | precision | names with every use |");
console.log("|---|---|---|---|---|---|");
const all: RepoFigures[] = [];
for (const root of args.repos) {
  const f = await measure(root, args.keep);
  all.push(f);
  console.log(`| ${f.repo} | ${f.names} | ${f.truth} | ${(f.found / Math.max(1, f.truth)).toFixed(3)} | ${(f.found / Math.max(1, f.ours)).toFixed(3)} | ${(f.complete / Math.max(1, f.names)).toFixed(3)} |`);
}
for (const f of all) {
  console.log(`\n${f.repo}: most missed ${f.missed.sort((a, b) => b.missing - a.missing).slice(0, 8).map((m) => `${m.name} −${m.missing} (${m.example})`).join(", ") || "none"}`);
  console.log(`${f.repo}: most extra ${f.extra.sort((a, b) => b.extra - a.extra).slice(0, 8).map((m) => `${m.name} +${m.extra} (${m.example})`).join(", ") || "none"}`);
}
