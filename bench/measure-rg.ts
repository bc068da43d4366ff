/**
 * ripgrep baseline on the same queries: the same case-insensitive substring / regex semantics, the same path
 * globs, hidden files included and .git excluded (like `git ls-files`), files over the index's size limit
 * skipped. Output is per-file match counts, so printing costs little. rg scans every file and counts every
 * match; repoctx stops after enough matching files for its result limit (see README caveats).
 */
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import type { BenchQuery } from "./queries.js";

const RG = "rg";
/** rg exits 1 when nothing matched; that is a result, not a failure. */
const RG_NO_MATCH = 1;

export interface RgTiming {
  query: BenchQuery;
  samplesMs: number[];
  files: number;
  matches: number;
  error?: string;
}

export interface RgMeasurement {
  available: boolean;
  version: string | null;
  passes: number;
  perQuery: RgTiming[];
}

export function rgArgs(q: BenchQuery, maxFileBytes: number): string[] {
  const args = ["--hidden", "--no-config", "--count-matches", "--max-filesize", String(maxFileBytes), "-i", "-g", "!.git"];
  if (!q.regex) args.push("-F");
  for (const p of q.paths ?? []) args.push("-g", p);
  args.push("-e", q.query, ".");
  return args;
}

function run(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(RG, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

async function version(): Promise<string | null> {
  try {
    const r = await run(["--version"], process.cwd());
    return r.code === 0 ? (r.stdout.split("\n")[0] ?? null) : null;
  } catch {
    return null;
  }
}

/** Sums `path:count` lines (the count follows the last colon). */
function countsOf(stdout: string): { files: number; matches: number } {
  let files = 0;
  let matches = 0;
  for (const line of stdout.split("\n")) {
    const colon = line.lastIndexOf(":");
    if (colon === -1) continue;
    files += 1;
    matches += Number(line.slice(colon + 1)) || 0;
  }
  return { files, matches };
}

export async function measureRg(root: string, queries: readonly BenchQuery[], passes: number, maxFileBytes: number): Promise<RgMeasurement> {
  const v = await version();
  if (!v) return { available: false, version: null, passes, perQuery: [] };
  const perQuery: RgTiming[] = queries.map((query) => ({ query, samplesMs: [], files: 0, matches: 0 }));
  // Pass 0 is an untimed warm-up (page cache), like the repoctx measurement.
  for (let pass = 0; pass <= passes; pass++) {
    for (const t of perQuery) {
      const started = performance.now();
      const r = await run(rgArgs(t.query, maxFileBytes), root);
      if (pass > 0) t.samplesMs.push(performance.now() - started);
      if (r.code !== 0 && r.code !== RG_NO_MATCH) t.error = r.stderr.trim().split("\n")[0] ?? `exit ${r.code}`;
      Object.assign(t, countsOf(r.stdout));
    }
  }
  return { available: true, version: v, passes, perQuery };
}
