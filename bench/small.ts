/**
 * `npm run bench:small -- --repo DIR [--repo DIR …] [--runs N]`: how long a first index of a small repository
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
const { values } = parseArgs({ options: { repo: { type: "string", multiple: true }, runs: { type: "string", default: "5" } } });
const repos = (values.repo ?? []).map((r) => resolve(r));
if (repos.length === 0) throw new Error("give --repo DIR at least once");
const runs = Number(values.runs);

function timedIndex(root: string, dir: string, policy: string | null): { ms: number; rssKiB: number } {
  const store = join(dir, `index-${Math.random().toString(36).slice(2)}.db`);
  const args = ["-f", "%M", process.execPath, CLI_PATH, "index", root, "--store", store, "--quiet", ...(policy ? ["--policy", policy] : [])];
  const t = performance.now();
  const r = spawnSync("/usr/bin/time", args, { encoding: "utf8" });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`index failed: ${r.stderr}`);
  rmSync(store, { force: true });
  for (const ext of ["-wal", "-shm"]) rmSync(store + ext, { force: true });
  const rss = Number(r.stderr.trim().split("\n").pop());
  return { ms, rssKiB: rss };
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
  console.log(`| repository | files | repoctx index (wall, process start included) | peak RSS | with the embedding trained | file-level BM25 in-process | target |`);
  console.log(`|---|---:|---:|---:|---:|---:|---|`);
  for (const root of repos) {
    timedIndex(root, dir, null);
    const plain = Array.from({ length: runs }, () => timedIndex(root, dir, null));
    const trained = Array.from({ length: runs }, () => timedIndex(root, dir, trainPolicy));
    bm25Baseline(root);
    const base = Array.from({ length: runs }, () => bm25Baseline(root));
    const ms = median(plain.map((x) => x.ms));
    const files = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean).length;
    console.log(
      `| ${basename(root)} | ${files} | ${fmtMs(ms)} | ${(median(plain.map((x) => x.rssKiB)) / 1024).toFixed(0)} MiB | ${fmtMs(median(trained.map((x) => x.ms)))} | ${fmtMs(median(base.map((x) => x.ms)))} | ≤ ${fmtMs(TARGET_MS)}: ${ms <= TARGET_MS ? "met" : "missed"} |`,
    );
  }
  console.log(`\nload at the end ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
