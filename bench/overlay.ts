/**
 * How long until an edit is visible through the working-tree overlay: appends a function to one file of the
 * prepared corpus, measures the overlay build (git status, then inventory and symbols of the changed file) and a
 * find_symbol of the new function through it, then restores the file. Part of `npm run bench`; also runnable
 * alone on the Linux corpus and its bench store as `npm run bench:overlay`. Prints figures; asserts nothing.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { defaultReadPolicy } from "../src/config/schema.js";
import { buildOverlay, lazyExtractor } from "../src/sources/work-tree-overlay.js";
import { testDeps } from "../test/helpers/deps.js";
import { silentLogger } from "../src/core/log.js";
import { runTool } from "../src/service/run-tool.js";
import { findTool } from "../src/mcp/tools/index.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { BENCH_DIR } from "./corpus.js";
import type { WorkingTreeOverlay } from "../src/store/overlay-store.js";

const PASSES = 5;
const PROBE = "overlay_probe_function_xyz";

export interface OverlayMeasurement {
  path: string;
  bytes: number;
  cleanMs: number[];
  editedMs: number[];
  lookupMs: number[];
  /** Where find_symbol found the new function, and the envelope's freshness. */
  found: string;
}

function probeLine(path: string): string {
  if (/\.(c|h|cc|cpp|go|java|rs)$/.test(path)) return `\nint ${PROBE}(void) { return 42; }\n`;
  return `\nfunction ${PROBE}() { return 42; }\n`;
}

export async function measureOverlay(root: string, dbPath: string, relPath: string, passes = PASSES): Promise<OverlayMeasurement> {
  const store = SqliteStore.open(dbPath);
  const index = await store.getReadyIndex();
  if (!index) throw new Error("the bench store has no ready index");
  const file = join(root, relPath);
  const original = readFileSync(file);
  const maxBytes = defaultReadPolicy().maxIndexedFileBytes;
  const extractor = lazyExtractor();
  const out: OverlayMeasurement = { path: relPath, bytes: original.length, cleanMs: [], editedMs: [], lookupMs: [], found: "" };
  try {
    for (let i = 0; i < passes; i++) {
      const s = performance.now();
      await buildOverlay(root, store, index, maxBytes, extractor);
      out.cleanMs.push(performance.now() - s);
    }
    writeFileSync(file, `${original.toString("utf8")}${probeLine(relPath)}`);
    let overlay: WorkingTreeOverlay | null = null;
    for (let i = 0; i < passes; i++) {
      const s = performance.now();
      overlay = await buildOverlay(root, store, index, maxBytes, extractor);
      out.editedMs.push(performance.now() - s);
    }
    const deps = testDeps({ store, root, logger: silentLogger, readHead: async () => index.baseCommit, overlay: async () => overlay! });
    for (let i = 0; i < passes; i++) {
      const s = performance.now();
      const env = await runTool(findTool("find_symbol")!, { symbol: PROBE }, deps);
      out.lookupMs.push(performance.now() - s);
      const hits = (env.data as { hits?: { path: string; startLine: number }[] }).hits ?? [];
      out.found = `${env.freshness}: ${hits.map((h) => `${h.path}:${h.startLine}`).join(", ") || "not found"}`;
    }
  } finally {
    writeFileSync(file, original);
    await store.close();
  }
  return out;
}

function median(ms: number[]): string {
  return [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)]!.toFixed(1);
}

async function main(): Promise<void> {
  const root = join(BENCH_DIR, "corpus", "linux");
  const db = join(BENCH_DIR, "store", "linux.db");
  if (!existsSync(root) || !existsSync(db)) throw new Error("run `npm run bench` first: it prepares the corpus and its store");
  const m = await measureOverlay(root, db, "kernel/sched/core.c");
  process.stdout.write(
    [
      `overlay check, clean work tree (git status): median ${median(m.cleanMs)} ms`,
      `overlay build, ${m.path} edited (${m.bytes} bytes): median ${median(m.editedMs)} ms`,
      `find_symbol ${PROBE} through the overlay: median ${median(m.lookupMs)} ms, ${m.found}`,
    ].join("\n") + "\n",
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((err: unknown) => {
    process.stderr.write(`bench:overlay: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
