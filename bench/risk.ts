/**
 * Precision of the risk map (issue #18): every hint `riskMap` lists for a checkout is looked up in a labels file
 * (per repository: name, mirror, commit, and one entry per hint — path, line, category, rule, correct, why) and
 * counted per category: hints labelled correct / hints labelled = precision. A hint the labels do not have is
 * "unlabelled" (printed, so the labels can be completed; it must be 0 on the labelled commits); a label no hint
 * matches any more is "stale" (counted: a rule change removed that hint).
 *
 *   npm run bench:risk -- --labels bench/risk/labels.json --repo NAME=DIR [--repo NAME=DIR …] [--json FILE]
 *     [--show-incorrect] [--unlabelled FILE]
 *
 * NAME is a repository's `name` in the labels file, DIR a checkout of its labelled commit (a git work tree: the
 * bench checks its HEAD against the commit). Each checkout is indexed afresh into a temporary SQLite store.
 * `--unlabelled FILE` writes the unlabelled hints as label skeletons (correct: null) to complete by hand.
 * The hints judged are the ones the map lists (at most 30 per category, most confident first); the totals the
 * map found are printed beside them. Labels match a hint by path, line and category (the rule is informational:
 * two rules on one line make one hint).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultReadPolicy } from "../src/config/schema.js";
import { buildIndex } from "../src/indexer/pipeline.js";
import { RISK_CATEGORIES, riskMap, type RiskHint } from "../src/query/knowledge/risk-map.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";

interface Label {
  path: string;
  line: number;
  category: string;
  rule?: string;
  correct: boolean | null;
  why: string;
}

interface LabelledRepo {
  name: string;
  mirror: string;
  commit: string;
  language: string;
  hints: Label[];
}

interface LabelsFile {
  policy?: string[];
  repositories: LabelledRepo[];
}

interface CategoryFigures {
  /** Hints the map found in this category (within its scan bounds) and the ones it listed. */
  found: number;
  listed: number;
  labelled: number;
  correct: number;
  unlabelled: number;
}

interface RepoFigures {
  name: string;
  commit: string;
  language: string;
  categories: Record<string, CategoryFigures>;
  stale: number;
  unlabelled: Label[];
  incorrect: (Label & { rule: string })[];
}

function parseArgs(argv: string[]) {
  const repos: { name: string; dir: string }[] = [];
  let labels: string | null = null;
  let json: string | null = null;
  let unlabelledOut: string | null = null;
  let showIncorrect = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--labels") labels = argv[++i]!;
    else if (a === "--json") json = argv[++i]!;
    else if (a === "--unlabelled") unlabelledOut = argv[++i]!;
    else if (a === "--show-incorrect") showIncorrect = true;
    else if (a === "--repo") {
      const v = argv[++i] ?? "";
      const eq = v.indexOf("=");
      if (eq <= 0) throw new Error(`--repo takes NAME=DIR, got ${v}`);
      repos.push({ name: v.slice(0, eq), dir: v.slice(eq + 1) });
    } else throw new Error(`unknown argument ${a}`);
  }
  if (!labels) throw new Error("give --labels FILE");
  if (repos.length === 0) throw new Error("give --repo NAME=DIR (a checkout of a labelled repository)");
  return { labels, json, unlabelledOut, showIncorrect, repos };
}

const keyOf = (path: string, line: number, category: string) => `${category}\u0000${path}\u0000${line}`;

function headOf(dir: string): string | null {
  try {
    return execFileSync("git", ["-C", dir, "rev-parse", "HEAD"], { stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
  } catch {
    return null;
  }
}

async function hintsOf(name: string, dir: string): Promise<{ listed: RiskHint[]; found: Map<string, number> }> {
  const base = mkdtempSync(join(tmpdir(), "repoctx-risk-"));
  const store = SqliteStore.open(join(base, "index.db"));
  try {
    const policy = defaultReadPolicy();
    const built = await buildIndex({ root: dir, store, repoId: `risk-${name}`, maxFileBytes: policy.maxIndexedFileBytes });
    const ctx = { store, index: (await store.getReadyIndex(built.repo.repoId))!, policy };
    const { map } = await riskMap(ctx);
    return { listed: map.categories.flatMap((c) => c.hints), found: new Map(map.categories.map((c) => [c.category, c.total])) };
  } finally {
    await store.close();
    rmSync(base, { recursive: true, force: true });
  }
}

function compare(repo: LabelledRepo, listed: RiskHint[], found: Map<string, number>): RepoFigures {
  const labels = new Map(repo.hints.map((l) => [keyOf(l.path, l.line, l.category), l]));
  const categories: Record<string, CategoryFigures> = {};
  for (const c of RISK_CATEGORIES) categories[c] = { found: found.get(c) ?? 0, listed: 0, labelled: 0, correct: 0, unlabelled: 0 };
  const fig: RepoFigures = { name: repo.name, commit: repo.commit, language: repo.language, categories, stale: 0, unlabelled: [], incorrect: [] };
  const matched = new Set<string>();
  for (const h of listed) {
    const c = categories[h.category]!;
    c.listed += 1;
    const key = keyOf(h.path, h.startLine, h.category);
    const label = labels.get(key);
    if (!label || label.correct === null) {
      c.unlabelled += 1;
      fig.unlabelled.push({ path: h.path, line: h.startLine, category: h.category, rule: h.rule, correct: null, why: "" });
      continue;
    }
    matched.add(key);
    c.labelled += 1;
    if (label.correct) c.correct += 1;
    else fig.incorrect.push({ ...label, rule: h.rule });
  }
  fig.stale = repo.hints.filter((l) => !matched.has(keyOf(l.path, l.line, l.category))).length;
  return fig;
}

const ratio = (n: number, d: number) => (d === 0 ? "—" : (n / d).toFixed(3));

function table(title: string, categories: Record<string, CategoryFigures>): void {
  console.log(`\n${title}\n`);
  console.log("| category | found | listed | labelled | correct | precision | unlabelled |");
  console.log("|---|---|---|---|---|---|---|");
  for (const [name, c] of Object.entries(categories)) {
    if (c.listed === 0 && c.found === 0) continue;
    console.log(`| ${name} | ${c.found} | ${c.listed} | ${c.labelled} | ${c.correct} | ${ratio(c.correct, c.labelled)} | ${c.unlabelled} |`);
  }
}

const args = parseArgs(process.argv.slice(2));
const file = JSON.parse(readFileSync(args.labels, "utf8")) as LabelsFile;
const results: RepoFigures[] = [];
for (const { name, dir } of args.repos) {
  const repo = file.repositories.find((r) => r.name === name);
  if (!repo) throw new Error(`${name}: no such repository in ${args.labels}`);
  const head = headOf(dir);
  if (head !== null && head !== repo.commit) console.warn(`warning: ${name}: ${dir} is at ${head}, the labels are for ${repo.commit}`);
  if (head === null) console.warn(`warning: ${name}: ${dir} is not a git work tree; its commit is not checked`);
  const { listed, found } = await hintsOf(name, dir);
  const fig = compare(repo, listed, found);
  results.push(fig);
  table(`${name} (${repo.mirror} @ ${repo.commit.slice(0, 12)}, ${repo.language}) — stale labels: ${fig.stale}`, fig.categories);
}

const overall: Record<string, CategoryFigures> = {};
for (const c of RISK_CATEGORIES) {
  const sum = (k: keyof CategoryFigures) => results.reduce((n, r) => n + r.categories[c]![k], 0);
  overall[c] = { found: sum("found"), listed: sum("listed"), labelled: sum("labelled"), correct: sum("correct"), unlabelled: sum("unlabelled") };
}
const labelled = Object.values(overall).reduce((n, c) => n + c.labelled, 0);
const correct = Object.values(overall).reduce((n, c) => n + c.correct, 0);
table(`overall (${results.length} repositories, ${[...new Set(results.map((r) => r.language))].length} languages): ${correct}/${labelled} correct, precision ${ratio(correct, labelled)}`, overall);

const below = Object.entries(overall).filter(([, c]) => c.labelled > 0 && c.correct / c.labelled < 0.9);
console.log(`\ncategories below 0.9: ${below.map(([n, c]) => `${n} ${ratio(c.correct, c.labelled)}`).join(", ") || "none"}`);

const unlabelled = results.flatMap((r) => r.unlabelled.map((u) => ({ repo: r.name, ...u })));
console.log(`unlabelled hints: ${unlabelled.length}`);
for (const u of unlabelled) console.log(`  unlabelled ${u.repo} ${u.category} ${u.path}:${u.line} (${u.rule})`);
if (args.showIncorrect) {
  for (const r of results) for (const i of r.incorrect) console.log(`  incorrect ${r.name} ${i.category} ${i.path}:${i.line} (${i.rule}): ${i.why}`);
}
if (args.unlabelledOut) {
  const byRepo = results.map((r) => ({ name: r.name, hints: r.unlabelled }));
  writeFileSync(args.unlabelledOut, JSON.stringify(byRepo, null, 2) + "\n");
}
if (args.json) {
  writeFileSync(args.json, JSON.stringify({ labels: args.labels, repositories: results.map(({ unlabelled: u, incorrect: i, ...r }) => ({ ...r, unlabelled: u.length, incorrect: i })), overall }, null, 2) + "\n");
}
