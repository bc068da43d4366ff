/**
 * In-process latency of the knowledge tools and resources, through the same path an MCP call takes, like
 * measure-queries.ts does for `search_code`, run in a child process of its own (knowledge-child.ts): the index's
 * knowledge is loaded once per process and kept, and find_symbol loads it too, so in the bench's own process the
 * cold figures would depend on what ran before (and the kept knowledge would still read through the store that
 * find_symbol's measurement closed).
 * - the resources `repo://map`, `repo://build-graph` and `repo://risk-map`, read first: each one's first read in
 *   the process is its cold figure (the very first, `repo://map`, also loads the index's knowledge: build graph,
 *   CODEOWNERS rules, the document list), then `passes` timed warm reads;
 * - `find_related_tests` and `get_ownership` over fixed lists: one untimed warm-up pass (the first lookup loads
 *   the list of test files), then `passes` timed passes.
 * Every envelope with ok=false, timed or not, is recorded as an error (tool, category, message, how often); for an
 * internal error the message is the logged exception's, which the envelope only names by correlation id.
 */
import { join } from "node:path";
import type { Envelope } from "../src/service/envelope.js";
import { arr, errorOf, errorRecorder, num, obj, timed, type CallError } from "./call-errors.js";
import { runJsonChild } from "./child.js";
import { REPO_ROOT, loadGitHead, loadResources, loadRunTool, loadSchema, loadSqliteStore, loadTools, benchDeps } from "./dist.js";
import { KNOWLEDGE_RESOURCE_URIS, relatedTestsArgs, type OwnershipLookup, type RelatedTestsLookup } from "./queries.js";
import { timeCalls } from "./time-calls.js";

/** A failed call: the tool or resource and lookup, category, message, how often. */
export type KnowledgeError = CallError;

export interface RelatedTestsOutcome {
  ok: boolean;
  /** Tests returned, and how many of them with high / medium / low confidence. */
  tests: number;
  high: number;
  medium: number;
  low: number;
  /** Tests related before the result cut (stats.candidates). */
  candidates: number;
  truncated: boolean;
  warnings: string[];
  /** The error category when ok is false. */
  error?: string;
}

export interface RelatedTestsTiming {
  lookup: RelatedTestsLookup;
  /** The untimed warm-up call (the first lookup's includes loading the test-file list). */
  firstMs: number;
  samplesMs: number[];
  outcome: RelatedTestsOutcome;
}

export interface OwnershipOutcome {
  ok: boolean;
  paths: number;
  /** Paths a CODEOWNERS rule owns (not `unowned`). */
  owned: number;
  warnings: string[];
  /** The error category when ok is false. */
  error?: string;
}

export interface OwnershipTiming {
  lookup: OwnershipLookup;
  samplesMs: number[];
  outcome: OwnershipOutcome;
}

export interface ResourceOutcome {
  ok: boolean;
  /** What the read returned, in a fixed order per resource (files, modules, hints per risk category...). */
  counts: Record<string, number>;
  truncated: boolean;
  warnings: string[];
  /** The error category when ok is false. */
  error?: string;
}

export interface ResourceTiming {
  uri: string;
  /** The first read of this resource in the process. */
  coldMs: number;
  samplesMs: number[];
  outcome: ResourceOutcome;
}

export interface KnowledgeMeasurement {
  passes: number;
  resources: ResourceTiming[];
  relatedTests: RelatedTestsTiming[];
  ownership: OwnershipTiming[];
  errors: KnowledgeError[];
}

function relatedTestsOutcome(e: Envelope): RelatedTestsOutcome {
  const tests = arr(e.data.tests).map(obj);
  const count = (c: string): number => tests.filter((t) => t.confidence === c).length;
  const error = errorOf(e);
  return {
    ok: e.ok,
    tests: tests.length,
    high: count("high"),
    medium: count("medium"),
    low: count("low"),
    candidates: num(obj(e.data.stats).candidates),
    truncated: e.truncated,
    warnings: e.warnings.map((w) => w.code),
    ...(error ? { error } : {}),
  };
}

function ownershipOutcome(e: Envelope): OwnershipOutcome {
  const paths = arr(e.data.paths).map(obj);
  const error = errorOf(e);
  return {
    ok: e.ok,
    paths: paths.length,
    owned: paths.filter((p) => p.unowned === false).length,
    warnings: e.warnings.map((w) => w.code),
    ...(error ? { error } : {}),
  };
}

/** The figures that show a resource read did something. */
function resourceCounts(uri: string, data: Record<string, unknown>): Record<string, number> {
  if (uri === "repo://map") {
    const m = obj(data.map);
    return {
      "indexed files": num(obj(m.files).indexed),
      languages: arr(m.languages).length,
      "modules listed": arr(m.modules).length,
      entrypoints: arr(m.entrypoints).length,
      docs: num(obj(m.docs).total),
    };
  }
  if (uri === "repo://build-graph") {
    const g = obj(data.buildGraph);
    return {
      modules: num(g.moduleCount),
      edges: arr(g.edges).length,
      "build systems": arr(g.buildSystems).length,
      "manifest warnings": arr(g.warnings).length,
    };
  }
  if (uri === "repo://risk-map") {
    const categories = arr(obj(data.riskMap).categories).map(obj);
    const counts: Record<string, number> = { hints: categories.reduce((n, c) => n + num(c.total), 0) };
    for (const c of categories) counts[String(c.category)] = num(c.total);
    return counts;
  }
  return {};
}

function resourceOutcome(uri: string, e: Envelope): ResourceOutcome {
  const error = errorOf(e);
  return {
    ok: e.ok,
    counts: e.ok ? resourceCounts(uri, e.data) : {},
    truncated: e.truncated,
    warnings: e.warnings.map((w) => w.code),
    ...(error ? { error } : {}),
  };
}

export async function measureKnowledge(
  root: string,
  dbPath: string,
  relatedLookups: readonly RelatedTestsLookup[],
  ownershipLookups: readonly OwnershipLookup[],
  passes: number,
): Promise<KnowledgeMeasurement> {
  const [{ runTool }, { findTool }, { RESOURCES }, { SqliteStore }, { defaultReadPolicy }, { currentHead }] = await Promise.all([
    loadRunTool(),
    loadTools(),
    loadResources(),
    loadSqliteStore(),
    loadSchema(),
    loadGitHead(),
  ]);
  const relatedTool = findTool("find_related_tests");
  if (!relatedTool) throw new Error("find_related_tests tool not found");
  const ownershipTool = findTool("get_ownership");
  if (!ownershipTool) throw new Error("get_ownership tool not found");
  const resources = KNOWLEDGE_RESOURCE_URIS.map((uri) => {
    const r = RESOURCES.find((x) => x.uri === uri);
    if (!r) throw new Error(`resource ${uri} not found`);
    return r;
  });

  const recorder = errorRecorder();
  const note = recorder.note;

  const head = await currentHead(root);
  const store = SqliteStore.open(dbPath);
  const deps = await benchDeps({ store, root, logger: recorder.logger, readHead: async () => head });
  try {
    // Resources first: nothing earlier in the process has loaded the index's knowledge.
    const resourceRuns = await timeCalls(resources, passes, (r) => timed(async () => note(r.uri, await runTool(r.reader, {}, deps))));
    const relatedRuns = await timeCalls(relatedLookups, passes, (l) =>
      timed(async () => note(`find_related_tests ${l.label}`, await runTool(relatedTool, relatedTestsArgs(l), deps))),
    );
    const ownershipRuns = await timeCalls(ownershipLookups, passes, async (l) =>
      note(`get_ownership ${l.label}`, await runTool(ownershipTool, { paths: l.paths }, deps)),
    );
    return {
      passes,
      resources: resourceRuns.map((t) => ({
        uri: t.item.uri,
        coldMs: t.warmup.ms,
        samplesMs: t.samplesMs,
        outcome: resourceOutcome(t.item.uri, t.warmup.envelope),
      })),
      relatedTests: relatedRuns.map((t) => ({
        lookup: t.item,
        firstMs: t.warmup.ms,
        samplesMs: t.samplesMs,
        outcome: relatedTestsOutcome(t.warmup.envelope),
      })),
      ownership: ownershipRuns.map((t) => ({ lookup: t.item, samplesMs: t.samplesMs, outcome: ownershipOutcome(t.warmup) })),
      errors: recorder.errors(),
    };
  } finally {
    await store.close();
  }
}

export interface KnowledgeChildInput {
  root: string;
  dbPath: string;
  relatedLookups: readonly RelatedTestsLookup[];
  ownershipLookups: readonly OwnershipLookup[];
  passes: number;
}

/** Run with the TypeScript loader the bench itself runs under (no memory is measured there). */
const CHILD_SCRIPT = join(REPO_ROOT, "bench", "knowledge-child.ts");

/** measureKnowledge in a fresh process (see the top of this file); its stderr goes to the bench's. */
export async function measureKnowledgeInChild(input: KnowledgeChildInput): Promise<KnowledgeMeasurement> {
  return runJsonChild<KnowledgeMeasurement>(["--import", "tsx", CHILD_SCRIPT, JSON.stringify(input)], "knowledge child");
}
