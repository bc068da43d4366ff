// @ts-check
/**
 * Child process of the bench: one index build (into an empty store: a full build; else as `repoctx index` does), so the peak RSS it reports is the indexer's own.
 * Plain JavaScript on purpose: run under `node` alone, without the TypeScript loader the rest of the bench uses
 * (that loader adds about 80 MiB of RSS, which would be charged to the indexer). Types are checked via JSDoc.
 * Usage: node bench/index-child.mjs <root> <store.db | postgres://…>. Prints one JSON line (IndexChildResult) on stdout.
 */
import { readFileSync, statSync } from "node:fs";
import { performance } from "node:perf_hooks";

const KIB = 1024;
const DIST = new URL("../dist/", import.meta.url);

/** @typedef {import("./measure-index.js").IndexChildResult} IndexChildResult */
/** @typedef {import("./measure-index.js").StoreFiles} StoreFiles */

/** @param {string} name @returns {number | null} bytes of a /proc/self/status field */
function procField(name) {
  try {
    const m = new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, "m").exec(readFileSync("/proc/self/status", "utf8"));
    return m ? Number(m[1]) * KIB : null;
  } catch {
    return null;
  }
}

/** @param {string} path */
function sizeOf(path) {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * What a store takes: a SQLite file with its WAL and shared memory, or a PostgreSQL schema's tables with their
 * indexes and TOAST (pg_total_relation_size), as `db`.
 * @param {string} location @returns {Promise<StoreFiles>}
 */
async function storeSize(location) {
  if (!/^postgres(ql)?:\/\//i.test(location)) return storeFiles(location);
  const { pgSchemaBytes } = await import("./pg-size.mjs");
  const db = await pgSchemaBytes(location);
  return { db, wal: 0, shm: 0, total: db };
}

/** @param {string} dbPath @returns {StoreFiles} */
function storeFiles(dbPath) {
  const db = sizeOf(dbPath);
  const wal = sizeOf(`${dbPath}-wal`);
  const shm = sizeOf(`${dbPath}-shm`);
  return { db, wal, shm, total: db + wal + shm };
}

async function main() {
  const [root, dbPath] = process.argv.slice(2);
  if (!root || !dbPath) throw new Error("usage: index-child.mjs <root> <store.db | postgres://…>");
  /** @type {[typeof import("../src/indexer/pipeline.js"), typeof import("../src/store/open.js"), typeof import("../src/config/schema.js")]} */
  const [{ buildIndex, updateIndex }, { openStore }, { defaultReadPolicy }] = await Promise.all([
    import(new URL("indexer/pipeline.js", DIST).href),
    import(new URL("store/open.js", DIST).href),
    import(new URL("config/schema.js", DIST).href),
  ]);
  const maxFileBytes = defaultReadPolicy().maxIndexedFileBytes;
  const baselineRssBytes = procField("VmRSS") ?? process.memoryUsage().rss;

  const store = await openStore(dbPath);
  /** @type {Record<string, number>} */
  const phasesMs = {};
  const started = performance.now();
  // "setup" is repository inspection (git rev-parse/status) before the pipeline reports its first phase.
  let phase = "setup";
  let phaseStart = started;
  const options = {
    root,
    store,
    maxFileBytes,
    /** @param {{ phase: string }} p */
    onProgress: (p) => {
      if (p.phase === phase) return;
      const now = performance.now();
      phasesMs[phase] = now - phaseStart;
      phase = p.phase;
      phaseStart = now;
    },
  };
  // As `repoctx index` does: a store with a ready index is updated in place when few files changed.
  const result = (await updateIndex(options)) ?? (await buildIndex(options));
  const wallMs = performance.now() - started;
  const summary = await store.summarize(result.indexId);
  const storeBeforeClose = await storeSize(dbPath);
  await store.close();

  // VmHWM is the kernel's high-water mark; maxRSS (KiB) is the same figure from getrusage, used off Linux.
  const peakRssBytes = procField("VmHWM") ?? process.resourceUsage().maxRSS * KIB;
  /** @type {IndexChildResult} */
  const out = {
    indexId: result.indexId,
    files: result.stats.files,
    indexedFiles: result.stats.indexedFiles,
    skippedFiles: result.stats.skippedFiles,
    bytes: result.stats.bytes,
    indexedBytes: result.stats.indexedBytes,
    wallMs,
    phasesMs,
    skipped: summary.skipped,
    generated: summary.generated,
    vendored: summary.vendored,
    secretSuspect: summary.secretSuspect,
    walkSource: result.walkSource,
    baselineRssBytes,
    peakRssBytes,
    storeBeforeClose,
    maxFileBytes,
    buildMs: result.stats.durationMs,
    extractedFiles: result.stats.extractedFiles ?? 0,
    reusedFiles: result.stats.reusedFiles ?? 0,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((err) => {
  process.stderr.write(`index-child: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
