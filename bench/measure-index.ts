/** Full index build in a child process (fresh store), with the child's own peak RSS and the store's size. */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runJsonChild } from "./child.js";
import { REPO_ROOT } from "./dist.js";
import { storeBytes } from "./stats.js";
import { dropPgSchema, pgSchemaBytes } from "./pg-size.mjs";
import { isPostgresUrl } from "../src/store/store-url.js";

/** Plain JavaScript, run by `node` alone so the TypeScript loader's memory is not charged to the indexer. */
const CHILD_SCRIPT = join(REPO_ROOT, "bench", "index-child.mjs");

export interface StoreFiles {
  db: number;
  wal: number;
  shm: number;
  total: number;
}

/** What bench/index-child.mjs prints. */
export interface IndexChildResult {
  /** The published index's id (absent in results saved by older bench versions). */
  indexId?: string;
  files: number;
  indexedFiles: number;
  skippedFiles: number;
  bytes: number;
  indexedBytes: number;
  wallMs: number;
  /** Wall time per pipeline phase, from the progress callback. */
  phasesMs: Record<string, number>;
  skipped: { reason: string; files: number; examples: string[] }[];
  generated: number;
  vendored: number;
  secretSuspect: number;
  walkSource: string;
  /** RSS once the modules are loaded, before indexing: the floor the peak includes. */
  baselineRssBytes: number;
  peakRssBytes: number;
  /** Store files right after publishing, before the connection closes (the WAL still present). */
  storeBeforeClose: StoreFiles;
  maxFileBytes: number;
  /** The build's own duration (stats.durationMs: before publish) and how many files it parsed or reused. */
  buildMs?: number;
  extractedFiles?: number;
  reusedFiles?: number;
}

export interface IndexMeasurement extends IndexChildResult {
  /** Store files after the child closed its connection (what stays on disk). */
  storeAfterClose: StoreFiles;
  /** The child ran under `--cpu-prof` (its timings include the profiler); set by run.ts when it saves the result. */
  profiled?: boolean;
  /** MachineInfo.codeId of the run that built the index (absent in older results); set by run.ts. */
  codeId?: string | null;
}

export interface IndexRunOptions {
  /** Folder for a V8 CPU profile of the child (`node --cpu-prof`); none when undefined. */
  cpuProfileDir?: string;
}

/** A full build into an empty store: a SQLite file deleted first, or a PostgreSQL store's schema dropped first. */
export async function measureIndex(root: string, location: string, opts: IndexRunOptions = {}): Promise<IndexMeasurement> {
  if (isPostgresUrl(location)) {
    await dropPgSchema(location);
  } else {
    mkdirSync(dirname(location), { recursive: true });
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${location}${suffix}`, { force: true });
  }
  return runIndexChild(root, location, opts);
}

export interface IncrementalMeasurement {
  path: string;
  /** One line appended to the file, then reindexed; then the file restored and reindexed again. */
  runs: { label: string; wallMs: number; buildMs: number; extractedFiles: number; reusedFiles: number; peakRssBytes: number }[];
}

/**
 * One-file incremental reindex, twice: after appending a line to `relPath`, and after restoring it (which also
 * leaves the store matching the corpus again). Each run is a real build into the existing store, in a child.
 */
export async function measureIncremental(root: string, dbPath: string, relPath: string): Promise<IncrementalMeasurement> {
  const file = join(root, relPath);
  const original = readFileSync(file);
  const runs: IncrementalMeasurement["runs"] = [];
  const record = (label: string, m: IndexChildResult) =>
    runs.push({ label, wallMs: m.wallMs, buildMs: m.buildMs ?? m.wallMs, extractedFiles: m.extractedFiles ?? 0, reusedFiles: m.reusedFiles ?? 0, peakRssBytes: m.peakRssBytes });
  try {
    writeFileSync(file, Buffer.concat([original, Buffer.from("\n/* repoctx bench: one-line change */\n")]));
    record("one line appended", await runIndexChild(root, dbPath, {}));
  } finally {
    writeFileSync(file, original);
  }
  record("restored", await runIndexChild(root, dbPath, {}));
  return { path: relPath, runs };
}

async function runIndexChild(root: string, dbPath: string, opts: IndexRunOptions): Promise<IndexMeasurement> {
  const nodeArgs = opts.cpuProfileDir ? ["--cpu-prof", "--cpu-prof-dir", opts.cpuProfileDir] : [];
  const result = await runJsonChild<IndexChildResult>([...nodeArgs, CHILD_SCRIPT, root, dbPath], "index child");
  if (!isPostgresUrl(dbPath)) return { ...result, storeAfterClose: storeBytes(dbPath) };
  const db = await pgSchemaBytes(dbPath);
  return { ...result, storeAfterClose: { db, wal: 0, shm: 0, total: db } };
}
