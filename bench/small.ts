/**
 * `npm run bench:small -- --repo DIR [--repo DIR …] [--runs N] [--cli PATH …]`: how long a first index of a small repository
 * takes (issue #20: a ~700-file repository in ≤ 1.5 s wall, process start included), against a file-level BM25
 * index of the same files built in the same run (the floor an agent's own tooling pays).
 *
 * Per repository, the median of N (default 5) runs of each, one untimed warm-up first:
 * - `repoctx index DIR --store S` with the built CLI into a fresh SQLite file: wall time from spawn to exit, and peak
 *   RSS (GNU time's %M);
 * - the same with the repository's embedding trained (`semantic.train: true` in an operator policy), the cost
 *   that training adds;
 * - the baseline: `git ls-files`, read every file under 1 MiB, split words, build an in-memory inverted index with
 *   document lengths (BM25's inputs), in this process.
 *
 * Several `--cli` (another checkout's built dist/cli/main.js) are measured in the same run, one row each.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { CLI_PATH } from "./dist.js";
import { fmtMs, median } from "./stats.js";

const TARGET_MS = 1500;
const { values } = parseArgs({ options: { repo: { type: "string", multiple: true }, runs: { type: "string", default: "5" }, cli: { type: "string", multiple: true } } });
const clis = (values.cli ?? [CLI_PATH]).map((c) => resolve(c));
const repos = (values.repo ?? []).map((r) => resolve(r));
if (repos.length === 0) throw new Error("give --repo DIR at least once");
const runs = Number(values.runs);

function timedIndex(cli: string, root: string, dir: string, policy: string | null): { ms: number; rssKiB: number } {
  const store = join(dir, `index-${Math.random().toString(36).slice(2)}.db`);
  const args = ["-f", "%M", process.execPath, cli, "index", root, "--store", store, "--quiet", ...(policy ? ["--policy", policy] : [])];
  const t = performance.now();
  const r = spawnSync("/usr/bin/time", args, { encoding: "utf8" });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`index failed: ${r.stderr}`);
  rmSync(store, { force: true });
  for (const ext of ["-wal", "-shm"]) rmSync(store + ext, { force: true });
  const rss = Number(r.stderr.trim().split("\n").pop());
  return { ms, rssKiB: rss };
}

/** Whether this CLI takes `semantic.train` in its policy (one untimed try). */
function trainsOnAsk(cli: string, root: string, dir: string): boolean {
  try {
    timedIndex(cli, root, dir, trainPolicy);
    return true;
  } catch {
    return false;
  }
}

/** The floor: a file-level BM25 index (terms, document frequencies, lengths) of the same tracked files. */
function bm25Baseline(root: string): { ms: number; files: number } {
  const t = performance.now();
  const paths = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8", maxBuffer: 1 << 28 }).split("\0").filter(Boolean);
  const postings = new Map<string, Map<number, number>>();
  const lengths: number[] = [];
  let files = 0;
  paths.forEach((p, id) => {
    let text: string;
    try {
      const full = join(root, p);
      if (statSync(full).size > 1 << 20) return;
      text = readFileSync(full, "utf8");
    } catch {
      return;
    }
    files++;
    let n = 0;
    for (const m of text.toLowerCase().matchAll(/[a-z0-9_]{2,}/g)) {
      n++;
      let post = postings.get(m[0]);
      if (!post) postings.set(m[0], (post = new Map()));
      post.set(id, (post.get(id) ?? 0) + 1);
    }
    lengths[id] = n;
  });
  return { ms: performance.now() - t, files };
}

const dir = mkdtempSync(join(tmpdir(), "repoctx-bench-small-"));
const trainPolicy = join(dir, "train.yml");
writeFileSync(trainPolicy, "semantic:\n  train: true\n");
try {
  console.log(`# small repositories — ${new Date().toISOString()}, load ${loadavg().map((x) => x.toFixed(2)).join(" ")}, ${runs} runs each after a warm-up, median\n`);
  console.log(`| repository | CLI | files | repoctx index (wall, process start included) | peak RSS | with the embedding trained | file-level BM25 in-process | target |`);
  console.log(`|---|---|---:|---:|---:|---:|---:|---|`);
  for (const root of repos) {
    const files = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean).length;
    bm25Baseline(root);
    const base = median(Array.from({ length: runs }, () => bm25Baseline(root).ms));
    for (const cli of clis) {
      timedIndex(cli, root, dir, null);
      const plain = Array.from({ length: runs }, () => timedIndex(cli, root, dir, null));
      // A CLI from before `semantic.train` refuses the key (its policy schema is strict): it trained on every build.
      const knowsTrain = trainsOnAsk(cli, root, dir);
      const trained = knowsTrain ? Array.from({ length: runs }, () => timedIndex(cli, root, dir, trainPolicy)) : plain;
      const ms = median(plain.map((x) => x.ms));
      console.log(
        `| ${basename(root)} | ${cli.replace(/\/dist\/cli\/main\.js$/, "")} | ${files} | ${fmtMs(ms)} | ${(median(plain.map((x) => x.rssKiB)) / 1024).toFixed(0)} MiB | ${fmtMs(median(trained.map((x) => x.ms)))}${knowsTrain ? "" : " (always trained)"} | ${fmtMs(base)} | ≤ ${fmtMs(TARGET_MS)}: ${ms <= TARGET_MS ? "met" : "missed"} |`,
      );
    }
  }
  console.log(`\nload at the end ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
