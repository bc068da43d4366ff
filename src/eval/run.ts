import { realpath } from "node:fs/promises";
import { basename } from "node:path";
import { performance } from "node:perf_hooks";
import { defaultReadPolicy, type ReadPolicy } from "../config/schema.js";
import { buildIndex, updateIndex, type IndexOptions, type IndexProgress } from "../indexer/pipeline.js";
import type { QueryContext } from "../query/context.js";
import { findRelatedTests } from "../query/knowledge/related-tests.js";
import { selectCommits, skipCounts, type CommitSelection, type SelectedCommit, type SkipReason, type SkippedCommit } from "./commits.js";
import { RECALL_CUTOFFS, mean, ranksOf, recallAll, summarizeLatency, summarizeRanks, type LatencySummary, type RetrievalSummary } from "./metrics.js";
import { DEFAULT_MODES, MODES, RANKED_RESULTS, resolveModes, type EvalMode, type ModeRegistry } from "./modes.js";
import { createWorkspace, type EvalWorkspace } from "./workspace.js";

/**
 * `repoctx eval`: how well retrieval finds the files a real change touched, asked at the commit before it.
 * For each selected commit (commits.ts) the index holds exactly the parent's tree — a detached worktree moved
 * from parent to parent, oldest first, its index brought along by in-place updates — so no fix leaks into the
 * answer. Each mode is asked the commit message; the touched source files are the answer; `find_related_tests`
 * is asked with those files and the touched tests are its answer.
 */

/** The temporary index's repository id (the store is private to the run, so any fixed id works). */
const EVAL_REPO_ID = "repoctx-eval";
/** Tests `find_related_tests` returns per question: its default list length. */
export const RELATED_TESTS_RESULTS = 20;
/** Paths of each mode's top results kept per commit in the report, for reading failures. */
const TOP_KEPT = 5;

export type IndexKind = "build" | "update" | "rebuild";

export interface ModeAnswer {
  /** 1-based rank of each target (same order as `targets`), null where not returned. */
  ranks: (number | null)[];
  top: string[];
  latencyMs: number;
  error?: string;
}

export interface RelatedTestsAnswer {
  found: string[];
  /** Share of `testTargets` found; null when the commit changed no existing test. */
  recall: number | null;
  latencyMs: number;
  error?: string;
}

export interface CommitResult extends SelectedCommit {
  /** The commit the index held when asked: always `parent` (the no-leak guarantee, reported for checking). */
  indexedCommit: string | null;
  modes: Record<string, ModeAnswer>;
  relatedTests: RelatedTestsAnswer;
}

export interface ModeSummary extends RetrievalSummary {
  latency: LatencySummary;
  errors: number;
}

export interface EvalReport {
  repo: string;
  head: string;
  options: { commits: number; modes: string[]; rankedResults: number; relatedTestsResults: number; cutoffs: number[] };
  selection: { scanned: number; scanLimit: number; selected: number; skipped: Partial<Record<SkipReason, number>>; skippedCommits: SkippedCommit[] };
  index: { builds: number; updates: number; rebuilds: number; buildMs: number; updateMs: number; files: number };
  modes: Record<string, ModeSummary>;
  relatedTests: { commits: number; recall: number; latency: LatencySummary; errors: number; onlyNewTests: number };
  commits: CommitResult[];
  durationMs: number;
}

export type EvalEvent =
  | { type: "selected"; selected: number; scanned: number }
  | { type: "indexed"; commit: string; kind: IndexKind; ms: number; files: number }
  | { type: "answered"; done: number; total: number; result: CommitResult };

export interface EvalOptions {
  repoRoot: string;
  commits: number;
  /** Mode names (default: every registered mode). */
  modes?: readonly string[];
  registry?: ModeRegistry;
  policy?: ReadPolicy;
  /** Where history is read from (default HEAD). */
  start?: string;
  scanFactor?: number;
  /** Aborting removes the worktree at once; the run then rejects with the abort reason. */
  signal?: AbortSignal;
  onEvent?: (e: EvalEvent) => void;
  onIndexProgress?: (p: IndexProgress) => void;
  /** Milliseconds clock for latencies (injectable). */
  now?: () => number;
}

export class UnknownModeError extends Error {
  constructor(readonly unknown: string[]) {
    super(`unknown mode${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}`);
    this.name = "UnknownModeError";
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function timed<T>(now: () => number, body: () => Promise<T>): Promise<{ value?: T; error?: string; ms: number }> {
  const t0 = now();
  try {
    const value = await body();
    return { value, ms: now() - t0 };
  } catch (err) {
    return { error: errorText(err), ms: now() - t0 };
  }
}

/** Brings the workspace's index to its current checkout: a first build, else an in-place update, else a rebuild. */
async function syncIndex(ws: EvalWorkspace, opts: EvalOptions, first: boolean): Promise<{ kind: IndexKind; files: number }> {
  // Every strategy is measured, hybrid_semantic too: the embedding is trained.
  const base: IndexOptions = { root: ws.root, store: ws.store, repoId: EVAL_REPO_ID, maxFileBytes: (opts.policy ?? defaultReadPolicy()).maxIndexedFileBytes, semantic: true };
  const withProgress = opts.onIndexProgress ? { ...base, onProgress: opts.onIndexProgress } : base;
  if (first) return { kind: "build", files: (await buildIndex(withProgress)).stats.files };
  const updated = await updateIndex(base);
  if (updated) return { kind: "update", files: updated.stats.files };
  return { kind: "rebuild", files: (await buildIndex(withProgress)).stats.files };
}

async function answer(ctx: QueryContext, commit: SelectedCommit, modes: [string, EvalMode][], now: () => number): Promise<Omit<CommitResult, keyof SelectedCommit>> {
  const answers: Record<string, ModeAnswer> = {};
  for (const [name, mode] of modes) {
    const r = await timed(now, () => mode.rank(ctx, commit.query));
    const ranking = r.value ?? [];
    answers[name] = { ranks: ranksOf(ranking, commit.targets), top: [...new Set(ranking)].slice(0, TOP_KEPT), latencyMs: r.ms, ...(r.error ? { error: r.error } : {}) };
  }
  const changedPaths = [...commit.targets, ...commit.addedSources];
  const t = await timed(now, async () => (await findRelatedTests(ctx, { changedPaths, maxResults: RELATED_TESTS_RESULTS })).items.map((i) => i.path));
  const found = t.value ?? [];
  const relatedTests: RelatedTestsAnswer = {
    found,
    recall: commit.testTargets.length > 0 ? recallAll(found, commit.testTargets) : null,
    latencyMs: t.ms,
    ...(t.error ? { error: t.error } : {}),
  };
  return { indexedCommit: ctx.index.baseCommit, modes: answers, relatedTests };
}

/** Per-mode figures and related-tests figures over every answered commit. */
export function summarize(results: readonly CommitResult[], modeNames: readonly string[]): Pick<EvalReport, "modes" | "relatedTests"> {
  const modes: Record<string, ModeSummary> = {};
  for (const name of modeNames) {
    const answers = results.map((c) => c.modes[name]!);
    modes[name] = {
      ...summarizeRanks(answers.map((a) => a.ranks)),
      latency: summarizeLatency(answers.map((a) => a.latencyMs)),
      errors: answers.filter((a) => a.error !== undefined).length,
    };
  }
  const withTests = results.filter((c) => c.relatedTests.recall !== null);
  return {
    modes,
    relatedTests: {
      commits: withTests.length,
      recall: mean(withTests.map((c) => c.relatedTests.recall!)),
      latency: summarizeLatency(results.map((c) => c.relatedTests.latencyMs)),
      errors: results.filter((c) => c.relatedTests.error !== undefined).length,
      onlyNewTests: results.filter((c) => c.testTargets.length === 0 && c.addedTests.length > 0).length,
    },
  };
}

function emptyReport(repo: string, selection: CommitSelection, opts: EvalOptions, modeNames: string[]): EvalReport {
  return {
    repo,
    head: selection.head,
    options: { commits: opts.commits, modes: modeNames, rankedResults: RANKED_RESULTS, relatedTestsResults: RELATED_TESTS_RESULTS, cutoffs: [...RECALL_CUTOFFS] },
    selection: {
      scanned: selection.scanned,
      scanLimit: selection.scanLimit,
      selected: selection.selected.length,
      skipped: skipCounts(selection.skipped),
      skippedCommits: selection.skipped,
    },
    index: { builds: 0, updates: 0, rebuilds: 0, buildMs: 0, updateMs: 0, files: 0 },
    ...summarize([], modeNames),
    commits: [],
    durationMs: 0,
  };
}

function recordIndexing(index: EvalReport["index"], kind: IndexKind, ms: number, files: number): void {
  if (kind === "update") {
    index.updates += 1;
    index.updateMs += ms;
  } else {
    index[kind === "build" ? "builds" : "rebuilds"] += 1;
    index.buildMs += ms;
  }
  index.files = files;
}

/** Runs the whole evaluation; the worktree and the temporary store are gone when it settles, however it ends. */
export async function runEval(opts: EvalOptions): Promise<EvalReport> {
  const now = opts.now ?? (() => performance.now());
  const started = now();
  const registry = opts.registry ?? MODES;
  const resolved = resolveModes(opts.modes ?? (opts.registry ? Object.keys(registry) : DEFAULT_MODES), registry);
  if ("unknown" in resolved) throw new UnknownModeError(resolved.unknown);
  const modeNames = resolved.modes.map(([n]) => n);
  const root = await realpath(opts.repoRoot);
  opts.signal?.throwIfAborted();
  const selection = await selectCommits(root, { count: opts.commits, ...(opts.start ? { start: opts.start } : {}), ...(opts.scanFactor ? { scanFactor: opts.scanFactor } : {}) });
  opts.onEvent?.({ type: "selected", selected: selection.selected.length, scanned: selection.scanned });
  const report = emptyReport(basename(root), selection, opts, modeNames);
  const chronological = [...selection.selected].reverse();
  if (chronological.length === 0) {
    report.durationMs = now() - started;
    return report;
  }
  opts.signal?.throwIfAborted();
  const ws = await createWorkspace(root, chronological[0]!.parent);
  const onAbort = () => ws.disposeSync();
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const policy = opts.policy ?? defaultReadPolicy();
    // The worktree starts at the oldest parent; the index follows the checkout, parent by parent.
    let indexedAt: string | null = null;
    for (const [i, commit] of chronological.entries()) {
      opts.signal?.throwIfAborted();
      if (commit.parent !== indexedAt) {
        if (indexedAt !== null) await ws.checkout(commit.parent);
        const t0 = now();
        const { kind, files } = await syncIndex(ws, opts, indexedAt === null);
        const ms = now() - t0;
        indexedAt = commit.parent;
        recordIndexing(report.index, kind, ms, files);
        opts.onEvent?.({ type: "indexed", commit: commit.parent, kind, ms, files });
      }
      opts.signal?.throwIfAborted();
      const index = await ws.store.getReadyIndex(EVAL_REPO_ID);
      if (!index) throw new Error("the evaluation index is not ready");
      const result: CommitResult = { ...commit, ...(await answer({ store: ws.store, index, policy }, commit, resolved.modes, now)) };
      report.commits.push(result);
      opts.onEvent?.({ type: "answered", done: i + 1, total: chronological.length, result });
    }
  } finally {
    opts.signal?.removeEventListener("abort", onAbort);
    await ws.dispose();
  }
  Object.assign(report, summarize(report.commits, modeNames));
  report.durationMs = now() - started;
  return report;
}
