import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { classifyPath, judgeCommit, parseHistory } from "../src/eval/commits.js";
import { messageSkipReason, queryOf, strippedSubject } from "../src/eval/message.js";
import { percentile, ranksOf, recallAt, reciprocalRank, summarizeLatency, summarizeRanks, summarizeRetrieval } from "../src/eval/metrics.js";
import { MODES, type ModeRegistry } from "../src/eval/modes.js";
import { runEval, type EvalReport } from "../src/eval/run.js";
import { runCli } from "./helpers/cli.js";
import { git } from "./helpers/fixture.js";

/** Functions each evaluated commit adds: none may be in the index the commit is asked at. */
const ADDED_BY: Record<string, string> = {
  "Add bulk discount for large orders in the quote calculation": "bulkDiscountRate",
  "Round formatted prices to two decimals with the currency symbol": "roundToCents",
  "Apply regional tax rates when computing the quote total": "regionalTaxRate",
  "fix: Handle a missing discount code without throwing an error (#12)": "normalizeDiscountCode",
  "Validate quote expiration dates before pricing an order": "isQuoteExpired",
};
const EVALUATED = Object.keys(ADDED_BY);

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}
function append(root: string, path: string, text: string): void {
  write(root, path, readFileSync(join(root, path), "utf8") + text);
}
function commit(root: string, message: string): string {
  git(root, ["add", "-A"]);
  git(root, ["commit", "-q", "-m", message]);
  return git(root, ["rev-parse", "HEAD"]);
}

/**
 * A small pricing library whose history mixes five fair questions with commits the selection must skip (typo,
 * new file only, work in progress, merge, docs only, a six-file sweep, a version bump). Newest first, the first
 * five qualifying commits are exactly the five in ADDED_BY, so the root commit is never reached.
 */
function buildHistoryRepo(base: string): { root: string; shas: Record<string, string> } {
  const root = join(base, "repo");
  mkdirSync(root, { recursive: true });
  git(root, ["init", "-q", "-b", "main"]);
  git(root, ["config", "user.name", "Fixture Author"]);
  git(root, ["config", "user.email", "fixture@example.com"]);
  const shas: Record<string, string> = {};
  const modules = ["pricing", "format", "discount", "tax", "currency", "catalog"];
  for (const m of modules) write(root, `src/${m}.ts`, `// ${m} module\nexport function ${m}Version(): number {\n  return 1;\n}\n`);
  append(root, "src/pricing.ts", "export function quote(sku: string, qty: number): number {\n  return qty * 10;\n}\n");
  write(root, "test/pricing.test.ts", 'import { quote } from "../src/pricing.js";\nquote("a", 1);\n');
  write(root, "test/format.test.ts", 'import { formatVersion } from "../src/format.js";\nformatVersion();\n');
  write(root, "README.md", "# Pricing\n");
  write(root, "package.json", '{ "name": "pricing", "version": "1.0.0" }\n');
  shas.root = commit(root, "Initial pricing library with quote, format and tax modules");

  append(root, "src/pricing.ts", "export function bulkDiscountRate(qty: number): number {\n  return qty > 100 ? 0.1 : 0;\n}\n");
  append(root, "test/pricing.test.ts", "// bulk discount\n");
  shas.bulk = commit(root, EVALUATED[0]!);
  write(root, "package.json", '{ "name": "pricing", "version": "1.1.0" }\n');
  shas.bump = commit(root, "Bump version to 1.1.0");
  append(root, "src/format.ts", "export function roundToCents(x: number): string {\n  return `$${x.toFixed(2)}`;\n}\n");
  append(root, "test/format.test.ts", "// rounding\n");
  shas.round = commit(root, EVALUATED[1]!);
  for (const m of modules) append(root, `src/${m}.ts`, "// Licensed under the MIT license\n");
  shas.sweep = commit(root, "Add the license header to every pricing module");
  write(root, "docs/guide.md", "# Tax rules\n\nRegional rates apply.\n");
  shas.docs = commit(root, "Document the tax rules in the user guide");
  git(root, ["checkout", "-q", "-b", "side"]);
  append(root, "src/currency.ts", "export function toEuro(x: number): number {\n  return x * 0.9;\n}\n");
  shas.side = commit(root, "Add a currency conversion helper for euro prices");
  git(root, ["checkout", "-q", "main"]);
  git(root, ["merge", "-q", "--no-ff", "-m", "Merge branch 'side' into main", "side"]);
  shas.merge = git(root, ["rev-parse", "HEAD"]);
  append(root, "src/tax.ts", "// half done\n");
  shas.wip = commit(root, "WIP tax rework, do not review yet");
  append(root, "src/tax.ts", "export function regionalTaxRate(region: string): number {\n  return region === 'EU' ? 0.2 : 0.07;\n}\n");
  append(root, "src/pricing.ts", "// total includes the regional tax\n");
  shas.tax = commit(root, EVALUATED[2]!);
  append(root, "src/discount.ts", "export function normalizeDiscountCode(code?: string): string {\n  return (code ?? '').trim().toUpperCase();\n}\n");
  shas.discount = commit(root, `${EVALUATED[3]!}\n\nA missing code used to throw.\n\nSigned-off-by: Fixture Author <fixture@example.com>`);
  write(root, "src/logger.ts", "export function log(message: string): void {\n  console.error(message);\n}\n");
  shas.logger = commit(root, "Add a small logger for pricing diagnostics");
  append(root, "src/pricing.ts", "export function isQuoteExpired(validUntil: Date, now: Date): boolean {\n  return now > validUntil;\n}\n");
  append(root, "test/pricing.test.ts", "// expiry\n");
  write(root, "test/expiry.test.ts", 'import { isQuoteExpired } from "../src/pricing.js";\n');
  shas.expiry = commit(root, EVALUATED[4]!);
  append(root, "src/format.ts", "// formating\n");
  shas.typo = commit(root, "Fix typo");
  return { root, shas };
}

/** What must be the same before and after an evaluation: the user's checkout, branch, changes and worktrees. */
function userState(root: string): string {
  return JSON.stringify({
    head: git(root, ["rev-parse", "HEAD"]),
    branch: git(root, ["symbolic-ref", "HEAD"]),
    status: git(root, ["status", "--porcelain=v1", "--untracked-files=all"]),
    worktrees: git(root, ["worktree", "list", "--porcelain"]),
    pricing: readFileSync(join(root, "src/pricing.ts"), "utf8"),
  });
}

function evalTempDirs(): string[] {
  return readdirSync(tmpdir()).filter((n) => n.startsWith("repoctx-eval-"));
}

/** Temporary eval folders that were not there before the suite: another process's runs come and go meanwhile. */
let tempBefore: string[] = [];
function newTempDirs(): string[] {
  return evalTempDirs().filter((d) => !tempBefore.includes(d));
}

/** The same fixed ranking for every question: makes each commit's ranks and the averages computable by hand. */
const FIXED_RANKING = ["src/tax.ts", "src/pricing.ts", "src/pricing.ts", "test/pricing.test.ts"];

describe("repoctx eval on a repository's own history", () => {
  let base: string;
  let root: string;
  let shas: Record<string, string>;
  let stateBefore: string;
  let report: EvalReport;
  /** Per question: [added function found at the parent?, functions added by earlier questions found?] */
  const probes = new Map<string, { ownFound: number; earlierFound: boolean[] }>();

  before(async () => {
    base = mkdtempSync(join(tmpdir(), "repoctx-evaltest-"));
    ({ root, shas } = buildHistoryRepo(base));
    // The user's uncommitted work: must stay as it is and must not reach the evaluated index.
    append(root, "src/pricing.ts", "export function uncommittedHelper(): void {}\n");
    write(root, "scratch.ts", "export const scratch = 1;\n");
    stateBefore = userState(root);
    tempBefore = evalTempDirs();
    const registry: ModeRegistry = {
      lexical: MODES.lexical!,
      fixed: { description: "the same list for every question", rank: async () => FIXED_RANKING },
      probe: {
        description: "records what the index holds when asked",
        rank: async (ctx, query) => {
          const subject = query.split("\n", 1)[0]!;
          const at = EVALUATED.indexOf(subject);
          const count = async (name: string) => (await ctx.store.findSymbols(ctx.index.id, { name, limit: 10 })).length;
          probes.set(subject, {
            ownFound: await count(ADDED_BY[subject]!),
            earlierFound: await Promise.all(EVALUATED.slice(0, at).map(async (s) => (await count(ADDED_BY[s]!)) > 0)),
          });
          if ((await count("uncommittedHelper")) > 0) throw new Error("the user's uncommitted edit reached the index");
          return [];
        },
      },
    };
    report = await runEval({ repoRoot: root, commits: 5, registry });
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  test("selects the five descriptive, focused commits, newest first, and says why each other one was skipped", () => {
    assert.deepEqual(
      report.commits.map((c) => c.subject),
      EVALUATED.map((s) => s.split("\n", 1)[0]),
      "answered oldest first",
    );
    assert.equal(report.selection.selected, 5);
    assert.equal(report.selection.scanned, 12, "stops at the fifth selected commit: the root commit is never read");
    assert.deepEqual(
      report.selection.skippedCommits.map((s) => [s.sha, s.reason]),
      [
        [shas.typo, "formatting"],
        [shas.logger, "only-new-source-files"],
        [shas.wip, "wip"],
        [shas.merge, "merge"],
        [shas.docs, "no-source-files"],
        [shas.sweep, "too-many-source-files"],
        [shas.bump, "release"],
      ],
    );
    assert.ok(!report.selection.skippedCommits.some((s) => s.sha === shas.side), "first parent only: the side branch's commit is not visited");
  });

  test("each question knows its answer: changed source files, new files apart, tests apart", () => {
    const bySubject = new Map(report.commits.map((c) => [c.subject, c]));
    const tax = bySubject.get(EVALUATED[2]!)!;
    assert.deepEqual(tax.targets, ["src/pricing.ts", "src/tax.ts"]);
    assert.equal(tax.parent, shas.wip);
    const expiry = bySubject.get(EVALUATED[4]!)!;
    assert.deepEqual(expiry.targets, ["src/pricing.ts"]);
    assert.deepEqual(expiry.testTargets, ["test/pricing.test.ts"]);
    assert.deepEqual(expiry.addedTests, ["test/expiry.test.ts"], "a test the commit adds cannot be found at its parent");
    const discount = bySubject.get("fix: Handle a missing discount code without throwing an error (#12)")!;
    assert.equal(discount.query, "fix: Handle a missing discount code without throwing an error (#12)\n\nA missing code used to throw.", "trailers are not part of the question");
  });

  test("the index at each parent holds the earlier fixes but never the commit's own", () => {
    for (const c of report.commits) assert.equal(c.indexedCommit, c.parent, `asked ${c.subject} at its parent`);
    assert.equal(probes.size, 5);
    for (const [subject, p] of probes) {
      assert.equal(p.ownFound, 0, `${ADDED_BY[subject]} must not be findable before ${subject}`);
      assert.ok(p.earlierFound.every(Boolean), `earlier fixes are in the index when asking ${subject}`);
    }
    assert.deepEqual({ builds: report.index.builds, updates: report.index.updates, rebuilds: report.index.rebuilds }, { builds: 1, updates: 4, rebuilds: 0 }, "one build, then in-place updates");
  });

  test("ranks and averages come from each mode's own ranking", () => {
    assert.deepEqual(
      report.commits.map((c) => c.modes.fixed!.ranks),
      [[2], [null], [2, 1], [null], [2]],
      "pricing at 2, tax at 1 (a repeated path keeps its first rank), format and discount absent",
    );
    const fixed = report.modes.fixed!;
    assert.equal(fixed.questions, 5);
    assert.deepEqual(fixed.recall, { "@1": 0.1, "@5": 0.6, "@10": 0.6, "@20": 0.6 });
    assert.ok(Math.abs(fixed.mrr - (0.5 + 0 + 1 + 0 + 0.5) / 5) < 1e-12);
    assert.equal(fixed.latency.samples, 5);
    assert.equal(report.modes.probe!.recall["@20"], 0, "an empty ranking finds nothing");
    assert.ok(report.modes.lexical!.questions === 5 && report.modes.lexical!.errors === 0);
  });

  test("related tests: recall over the commits that changed an existing test", () => {
    assert.equal(report.relatedTests.commits, 3, "bulk discount, rounding and expiry changed existing tests");
    assert.equal(report.relatedTests.recall, 1, "pricing.test.ts and format.test.ts are named after the changed files");
    assert.equal(report.relatedTests.errors, 0);
    assert.equal(report.relatedTests.latency.samples, 5);
  });

  test("the temporary worktree and store are gone; the user's HEAD, branch, work tree and worktrees are untouched", () => {
    assert.equal(userState(root), stateBefore);
    assert.deepEqual(newTempDirs(), [], "no temporary folder of ours is left");
  });

  test("an aborted run removes its worktree and rejects", async () => {
    const controller = new AbortController();
    await assert.rejects(
      runEval({
        repoRoot: root,
        commits: 5,
        modes: ["lexical"],
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === "indexed") controller.abort();
        },
      }),
      { name: "AbortError" },
    );
    assert.equal(userState(root), stateBefore);
    assert.deepEqual(newTempDirs(), [], "no temporary folder of ours is left");
  });

  test("unknown modes are refused before anything is created", async () => {
    await assert.rejects(runEval({ repoRoot: root, commits: 5, modes: ["lexical", "nope"] }), /unknown mode: nope/);
    assert.deepEqual(newTempDirs(), [], "no temporary folder of ours is left");
  });

  test("repoctx eval --json prints one JSON report on stdout and progress on stderr", () => {
    const r = runCli(["eval", "--repo", root, "--commits", "2", "--modes", "lexical", "--json"]);
    assert.equal(r.status, 0, r.stderr);
    const json = JSON.parse(r.stdout) as EvalReport;
    assert.deepEqual(json.options.modes, ["lexical"]);
    assert.deepEqual(
      json.commits.map((c) => c.sha),
      [shas.discount, shas.expiry],
    );
    assert.match(r.stderr, /2 commits selected of 4 scanned/);
    assert.equal(userState(root), stateBefore);
  });
});

describe("commit selection heuristics", () => {
  test("descriptive messages pass; noise is stripped before words are counted", () => {
    assert.equal(strippedSubject("feat(parser)!: [core] Accept trailing commas in arrays (#123)"), "Accept trailing commas in arrays");
    for (const ok of [
      "Fix NPE when the config file is missing",
      "fix(cli): print the store path on failure, fixes #88",
      "Release the lock before closing the connection",
      "Update Animal Sniffer to Android API Level 24",
    ]) {
      assert.equal(messageSkipReason(ok), null, ok);
    }
  });

  test("each kind of non-descriptive message has its reason", () => {
    const cases: [string, string][] = [
      ["Merge pull request #5 from a/b", "merge"],
      ['Revert "Add cache"', "revert"],
      ["WIP", "wip"],
      ["fixup! Add cache for quotes", "wip"],
      ["Release 2.3.0", "release"],
      ["Bump version to 1.4.0", "release"],
      ["v1.2.3", "release"],
      ["[maven-release-plugin] prepare release gson-parent-2.13.2", "release"],
      ["Bump lodash from 4.17.20 to 4.17.21", "dependency-bump"],
      ["Bump com.fasterxml.jackson.core:jackson-databind (#3066)", "dependency-bump"],
      ["Update README", "readme"],
      ["Fix typos and grammar issues (#3092)", "formatting"],
      ["Run prettier on the whole tree", "formatting"],
      ["fix: tests", "short-message"],
      ["Cleanup of unused imports in the parser", "formatting"],
      ["Improve error messages (#7)", "short-message"],
    ];
    for (const [subject, reason] of cases) assert.equal(messageSkipReason(subject), reason, subject);
  });

  test("queries keep the body and drop trailers and excess length", () => {
    assert.equal(queryOf("Subject line here\n\nBody text.\n\nCo-authored-by: A <a@x>\nChange-Id: I123\n"), "Subject line here\n\nBody text.");
    assert.equal(queryOf(`Long ${"x".repeat(5000)}`).length, 1000);
  });

  test("paths: code is source, test conventions are tests, docs, data, lock, vendored and generated files are neither", () => {
    const cases: [string, string][] = [
      ["src/quote.ts", "source"],
      ["lib/Foo.java", "source"],
      ["cmd/main.go", "source"],
      ["scripts/build.sh", "source"],
      ["test/quote.test.ts", "test"],
      ["src/test/java/FooTest.java", "test"],
      ["pkg/x_test.go", "test"],
      ["README.md", "other"],
      ["docs/guide.rst", "other"],
      ["package.json", "other"],
      ["config/app.yaml", "other"],
      ["package-lock.json", "other"],
      ["vendor/github.com/x/y.go", "other"],
      ["dist/bundle.js", "other"],
      ["api/v1/service.pb.go", "other"],
      ["assets/logo.png", "other"],
    ];
    for (const [path, kind] of cases) assert.equal(classifyPath(path), kind, path);
  });

  test("history parsing keeps paths with spaces and knows merges and root commits", () => {
    const a = "a".repeat(40);
    const b = "b".repeat(40);
    const c = "c".repeat(40);
    const text =
      `\x1e${a}\x1f${b}\x1fMake the quote service handle odd names\n\x1f\0\nM\0src/with space.ts\0A\0src/new file.ts\0D\0test/old.test.ts\0` +
      `\x1e${b}\x1f${c} ${a}\x1fMerge branch x\n\x1f\0` +
      `\x1e${c}\x1f\x1fInitial commit of everything here\n\x1f\0\nA\0src/a.ts\0`;
    const commits = parseHistory(text);
    assert.equal(commits.length, 3);
    assert.deepEqual(commits[0]!.files, [
      { path: "src/with space.ts", status: "M" },
      { path: "src/new file.ts", status: "A" },
      { path: "test/old.test.ts", status: "D" },
    ]);
    const judged = judgeCommit(commits[0]!);
    assert.ok(typeof judged === "object");
    assert.deepEqual([judged.targets, judged.addedSources, judged.testTargets], [["src/with space.ts"], ["src/new file.ts"], ["test/old.test.ts"]]);
    assert.equal(judgeCommit(commits[1]!), "merge");
    assert.equal(judgeCommit(commits[2]!), "root-commit");
  });
});

describe("retrieval metrics on hand-made rankings", () => {
  test("ranks are file-level: a path's first position counts, repeats do not push others down", () => {
    assert.deepEqual(ranksOf(["a", "a", "b", "c", "b"], ["b", "c", "z"]), [2, 3, null]);
  });

  test("Recall@k is the share of relevant files within k; MRR uses the first relevant file", () => {
    assert.equal(recallAt([2, 3, null], 1), 0);
    assert.equal(recallAt([2, 3, null], 2), 1 / 3);
    assert.equal(recallAt([2, 3, null], 3), 2 / 3);
    assert.equal(reciprocalRank([4, 2, null]), 0.5);
    assert.equal(reciprocalRank([null]), 0);
    const s = summarizeRetrieval([
      { ranking: ["x", "a"], relevant: ["a"] }, // rank 2
      { ranking: ["b", "y", "c"], relevant: ["b", "c", "d"] }, // ranks 1, 3, null
      { ranking: ["q"], relevant: ["e"] }, // not found
      { ranking: ["q"], relevant: [] }, // nothing to find: left out
    ]);
    assert.equal(s.questions, 3);
    assert.equal(s.recall["@1"], (0 + 1 / 3 + 0) / 3);
    assert.equal(s.recall["@5"], (1 + 2 / 3 + 0) / 3);
    assert.equal(s.mrr, (0.5 + 1 + 0) / 3);
    assert.deepEqual(summarizeRanks([]), { questions: 0, recall: { "@1": 0, "@5": 0, "@10": 0, "@20": 0 }, mrr: 0 });
  });

  test("latency percentiles are nearest-rank", () => {
    const samples = Array.from({ length: 20 }, (_, i) => i + 1);
    assert.equal(percentile(samples, 50), 10);
    assert.equal(percentile(samples, 95), 19);
    assert.equal(percentile([7], 95), 7);
    assert.deepEqual(summarizeLatency([]), { samples: 0, p50Ms: 0, p95Ms: 0 });
  });
});
