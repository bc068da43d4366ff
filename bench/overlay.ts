/**
 * `npm run bench:overlay`: how long until an edit is visible through the working-tree overlay on the prepared Linux
 * corpus and its bench store (run `npm run bench` first). Appends a function to one file, measures the overlay
 * build (git status, then inventory and symbols of the changed file) and a find_symbol of the new function through
 * it, then restores the file. Prints figures; asserts nothing.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { defaultReadPolicy } from "../src/config/schema.js";
import { buildOverlay, type WorkingTreeOverlay } from "../src/indexer/overlay.js";
import { silentLogger } from "../src/log.js";
import { runTool } from "../src/mcp/run-tool.js";
import { findTool } from "../src/mcp/tools/index.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { BENCH_DIR } from "./corpus.js";

const PASSES = 5;
const EDITED = "kernel/sched/core.c";
const PROBE = "overlay_probe_function_xyz";

function median(ms: number[]): string {
  return [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)]!.toFixed(1);
}

async function main(): Promise<void> {
  const root = join(BENCH_DIR, "corpus", "linux");
  const db = join(BENCH_DIR, "store", "linux.db");
  if (!existsSync(root) || !existsSync(db)) throw new Error("run `npm run bench` first: it prepares the corpus and its store");
  const store = SqliteStore.open(db);
  const index = await store.getReadyIndex();
  if (!index) throw new Error("the bench store has no ready index");
  const file = join(root, EDITED);
  const original = readFileSync(file);
  const maxBytes = defaultReadPolicy().maxIndexedFileBytes;
  try {
    const clean: number[] = [];
    for (let i = 0; i < PASSES; i++) {
      const s = performance.now();
      await buildOverlay(root, store, index, maxBytes);
      clean.push(performance.now() - s);
    }
    writeFileSync(file, `${original.toString("utf8")}\nint ${PROBE}(void) { return 42; }\n`);
    const edited: number[] = [];
    let overlay: WorkingTreeOverlay | null = null;
    for (let i = 0; i < PASSES; i++) {
      const s = performance.now();
      overlay = await buildOverlay(root, store, index, maxBytes);
      edited.push(performance.now() - s);
    }
    const deps = { store, root, policy: defaultReadPolicy(), logger: silentLogger, readHead: async () => index.baseCommit, overlay: async () => overlay! };
    const lookups: number[] = [];
    let found = "";
    for (let i = 0; i < PASSES; i++) {
      const s = performance.now();
      const env = await runTool(findTool("find_symbol")!, { symbol: PROBE }, deps);
      lookups.push(performance.now() - s);
      found = `${env.freshness}: ${JSON.stringify((env.data as { hits?: { path: string; startLine: number }[] }).hits?.map((h) => `${h.path}:${h.startLine}`))}`;
    }
    process.stdout.write(
      [
        `overlay check, clean work tree (git status): median ${median(clean)} ms`,
        `overlay build, ${EDITED} edited (${original.length} bytes): median ${median(edited)} ms`,
        `find_symbol ${PROBE} through the overlay: median ${median(lookups)} ms, ${found}`,
      ].join("\n") + "\n",
    );
  } finally {
    writeFileSync(file, original);
    await store.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:overlay: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
