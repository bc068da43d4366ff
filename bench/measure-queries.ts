/**
 * In-process lexical query latency through the same path an MCP call takes (schema validation → ready index →
 * search → policy projection → envelope), without the JSON-RPC transport. Warm: one untimed pass first.
 */
import { performance } from "node:perf_hooks";
import { loadLog, loadOpenStore, loadGitHead, loadRunTool, loadSchema, loadTools, benchDeps } from "./dist.js";
import { searchArgs, type BenchQuery } from "./queries.js";
import { timeCalls } from "./time-calls.js";

export interface QueryOutcome {
  ok: boolean;
  /** Files returned / hits returned / files that matched before ranking cut (from the envelope's stats). */
  files: number;
  hits: number;
  filesMatched: number;
  truncated: boolean;
  warnings: string[];
  error?: string;
}

export interface QueryTiming {
  query: BenchQuery;
  samplesMs: number[];
  outcome: QueryOutcome;
}

export interface QueryMeasurement {
  passes: number;
  perQuery: QueryTiming[];
  /** One `git rev-parse HEAD` (the stale-index check); the bench reads HEAD once instead, see README. */
  readHeadMs: number;
}

function outcomeOf(envelope: { ok: boolean; data: Record<string, unknown>; warnings: { code: string }[]; truncated: boolean }): QueryOutcome {
  const stats = (envelope.data.stats ?? {}) as Record<string, unknown>;
  const num = (v: unknown): number => (typeof v === "number" ? v : 0);
  const error = envelope.ok ? undefined : JSON.stringify(envelope.data.error);
  return {
    ok: envelope.ok,
    files: num(stats.files),
    hits: num(stats.hits),
    filesMatched: num(stats.filesMatched),
    truncated: envelope.truncated,
    warnings: envelope.warnings.map((w) => w.code),
    ...(error ? { error } : {}),
  };
}

export async function measureQueries(root: string, location: string, queries: readonly BenchQuery[], passes: number): Promise<QueryMeasurement> {
  const [{ runTool }, { findTool }, { openStore }, { defaultReadPolicy }, { silentLogger }, { currentHead }] = await Promise.all([
    loadRunTool(),
    loadTools(),
    loadOpenStore(),
    loadSchema(),
    loadLog(),
    loadGitHead(),
  ]);
  const tool = findTool("search_code");
  if (!tool) throw new Error("search_code tool not found");
  const headStart = performance.now();
  const head = await currentHead(root);
  const readHeadMs = performance.now() - headStart;
  const store = await openStore(location);
  const deps = await benchDeps({ store, root, logger: silentLogger, readHead: async () => head });
  try {
    const timed = await timeCalls(queries, passes, (q) => runTool(tool, searchArgs(q), deps));
    const perQuery: QueryTiming[] = timed.map((t) => ({ query: t.item, samplesMs: t.samplesMs, outcome: outcomeOf(t.warmup) }));
    return { passes, perQuery, readHeadMs };
  } finally {
    await store.close();
  }
}
