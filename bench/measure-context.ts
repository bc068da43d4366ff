/**
 * Context assembly: in-process latency and size of `build_context_package`, `get_change_impact_context` and
 * `check_context_freshness`, through the same path an MCP call takes (runTool), in a child process of its own
 * (context-child.ts) for the reason knowledge-child.ts has one: the index's knowledge is loaded once per process and
 * kept, so the first call's figure is only cold in a fresh process.
 * - `build_context_package`: each fixed spec at each budget in CONTEXT_BUDGETS, in that order; one warm-up pass
 *   (timed and shown as "first call": the very first loads the index's knowledge), then `passes` timed passes.
 * - `get_change_impact_context`: a fixed lookup list, the same way.
 * - `check_context_freshness`: the manifest of one package from the warm-up pass, the same way.
 * Every envelope with ok=false, timed or not, is recorded as an error (call-errors.ts).
 */
import { join } from "node:path";
import type { Envelope } from "../src/service/envelope.js";
import { arr, errorOf, errorRecorder, num, obj, timed, type CallError } from "./call-errors.js";
import { runJsonChild } from "./child.js";
import { REPO_ROOT, loadGitHead, loadRunTool, loadSchema, loadSqliteStore, loadTokens, loadTools, benchDeps } from "./dist.js";
import {
  CONTEXT_BUDGETS,
  FRESHNESS_PACKAGE_BUDGET,
  changeImpactArgs,
  contextPackageArgs,
  type ChangeImpactLookup,
  type ContextPackageSpec,
} from "./queries.js";
import { timeCalls } from "./time-calls.js";

export interface PackageOutcome {
  ok: boolean;
  budgetTokens: number;
  /** package.budget.usedTokens: the rendered package, counted with the package's tokenizer. */
  usedTokens: number;
  /** Blocks in the package, and blocks left out for the budget (package.omitted). */
  blocks: number;
  omitted: number;
  /** Blocks per form (full / reduced / pointer) among those included. */
  forms: Record<string, number>;
  /** Evidence items in the manifest. */
  evidence: number;
  qualityAccepted: boolean;
  /** The quality rubric's reason codes when it rejects the package. */
  qualityReasons: string[];
  /** Characters of the rendered package as JSON (data.rendered). */
  renderedChars: number;
  truncated: boolean;
  warnings: string[];
  /** The error category when ok is false. */
  error?: string;
}

export interface PackageTiming {
  spec: ContextPackageSpec;
  budgetTokens: number;
  /** The warm-up call; the very first of the run also loads the index's knowledge. */
  firstMs: number;
  samplesMs: number[];
  outcome: PackageOutcome;
}

export interface ImpactOutcome {
  ok: boolean;
  directFiles: number;
  /** Files with call sites or references listed, the sites listed in them, and the sites found before the cut. */
  callSiteFiles: number;
  callSites: number;
  callSitesTotal: number;
  relatedTests: number;
  ownerHints: number;
  riskHints: number;
  verifierHints: number;
  /** o200k_base tokens and characters of data as the client receives it (JSON). */
  tokens: number;
  chars: number;
  truncated: boolean;
  warnings: string[];
  /** The error category when ok is false. */
  error?: string;
}

export interface ImpactTiming {
  lookup: ChangeImpactLookup;
  firstMs: number;
  samplesMs: number[];
  outcome: ImpactOutcome;
}

export interface FreshnessOutcome {
  ok: boolean;
  fresh: boolean;
  /** Evidence items in the manifest, those the check compared (report.checked), and instruction files checked. */
  manifestEvidence: number;
  evidenceChecked: number;
  instructionSources: number;
  /** Stale items reported, and items not checked (outside the repository, hidden by policy). */
  stale: number;
  notChecked: number;
  warnings: string[];
  /** The error category when ok is false. */
  error?: string;
}

export interface FreshnessTiming {
  /** Which package's manifest: its spec label and budget. */
  manifestOf: string;
  firstMs: number;
  samplesMs: number[];
  outcome: FreshnessOutcome;
}

export interface ContextMeasurement {
  passes: number;
  packages: PackageTiming[];
  impact: ImpactTiming[];
  /** Null when the package it needs failed to build. */
  freshness: FreshnessTiming | null;
  errors: CallError[];
}

const warningCodes = (e: Envelope): string[] => e.warnings.map((w) => w.code);

function packageOutcome(e: Envelope, budgetTokens: number): PackageOutcome {
  const p = obj(e.data.package);
  const blocks = arr(p.blocks).map(obj);
  const forms: Record<string, number> = {};
  for (const b of blocks) forms[String(b.form)] = (forms[String(b.form)] ?? 0) + 1;
  const quality = obj(e.data.quality);
  const error = errorOf(e);
  return {
    ok: e.ok,
    budgetTokens,
    usedTokens: num(obj(p.budget).usedTokens),
    blocks: blocks.length,
    omitted: arr(p.omitted).length,
    forms,
    evidence: arr(obj(e.data.manifest).evidence).length,
    qualityAccepted: quality.accepted === true,
    qualityReasons: arr(quality.reasons).map((r) => String(obj(r).code)),
    renderedChars: e.ok ? JSON.stringify(e.data.rendered).length : 0,
    truncated: e.truncated,
    warnings: warningCodes(e),
    ...(error ? { error } : {}),
  };
}

function impactOutcome(e: Envelope, count: (text: string) => number): ImpactOutcome {
  const b = obj(e.data.bundle);
  const callSites = arr(b.callSites).map(obj);
  const json = e.ok ? JSON.stringify(e.data) : "";
  const error = errorOf(e);
  return {
    ok: e.ok,
    directFiles: arr(b.directFiles).length,
    callSiteFiles: callSites.length,
    callSites: callSites.reduce((n, f) => n + arr(f.hits).length, 0),
    callSitesTotal: callSites.reduce((n, f) => n + num(f.hitsTotal), 0),
    relatedTests: arr(b.relatedTests).length,
    ownerHints: arr(b.ownerHints).length,
    riskHints: arr(b.riskHints).length,
    verifierHints: arr(b.verifierHints).length,
    tokens: e.ok ? count(json) : 0,
    chars: json.length,
    truncated: e.truncated,
    warnings: warningCodes(e),
    ...(error ? { error } : {}),
  };
}

function freshnessOutcome(e: Envelope, manifestEvidence: number): FreshnessOutcome {
  const r = obj(e.data.contextFreshness);
  const checked = obj(r.checked);
  const error = errorOf(e);
  return {
    ok: e.ok,
    fresh: r.fresh === true,
    manifestEvidence,
    evidenceChecked: num(checked.evidence),
    instructionSources: num(checked.instructionSources),
    stale: arr(r.stale).length,
    notChecked: arr(r.notChecked).length,
    warnings: warningCodes(e),
    ...(error ? { error } : {}),
  };
}

export async function measureContext(
  root: string,
  dbPath: string,
  specs: readonly ContextPackageSpec[],
  impactLookups: readonly ChangeImpactLookup[],
  passes: number,
): Promise<ContextMeasurement> {
  const [{ runTool }, { findTool }, { SqliteStore }, { defaultReadPolicy }, { currentHead }, { tokenCounter }] = await Promise.all([
    loadRunTool(),
    loadTools(),
    loadSqliteStore(),
    loadSchema(),
    loadGitHead(),
    loadTokens(),
  ]);
  const tool = (name: string) => {
    const t = findTool(name);
    if (!t) throw new Error(`${name} tool not found`);
    return t;
  };
  const packageTool = tool("build_context_package");
  const impactTool = tool("get_change_impact_context");
  const freshnessTool = tool("check_context_freshness");
  const count = tokenCounter("o200k_base");
  const recorder = errorRecorder();

  const head = await currentHead(root);
  const store = SqliteStore.open(dbPath);
  const deps = await benchDeps({ store, root, logger: recorder.logger, readHead: async () => head });
  try {
    // Packages first: nothing earlier in the process has loaded the index's knowledge.
    const items = specs.flatMap((spec) => CONTEXT_BUDGETS.map((budgetTokens) => ({ spec, budgetTokens })));
    const packageRuns = await timeCalls(items, passes, (i) =>
      timed(async () => recorder.note(`build_context_package ${i.spec.label} @${i.budgetTokens}`, await runTool(packageTool, contextPackageArgs(i.spec, i.budgetTokens), deps))),
    );
    const impactRuns = await timeCalls(impactLookups, passes, (l) =>
      timed(async () => recorder.note(`get_change_impact_context ${l.label}`, await runTool(impactTool, changeImpactArgs(l), deps))),
    );
    const source = packageRuns.find((t) => t.item.budgetTokens === FRESHNESS_PACKAGE_BUDGET && t.warmup.envelope.ok);
    let freshness: FreshnessTiming | null = null;
    if (source) {
      const manifest = source.warmup.envelope.data.manifest;
      const evidence = arr(obj(manifest).evidence).length;
      const [run] = await timeCalls([manifest], passes, (m) =>
        timed(async () => recorder.note("check_context_freshness", await runTool(freshnessTool, { manifest: m }, deps))),
      );
      freshness = {
        manifestOf: `${source.item.spec.label} @${source.item.budgetTokens}`,
        firstMs: run!.warmup.ms,
        samplesMs: run!.samplesMs,
        outcome: freshnessOutcome(run!.warmup.envelope, evidence),
      };
    }
    return {
      passes,
      packages: packageRuns.map((t) => ({
        spec: t.item.spec,
        budgetTokens: t.item.budgetTokens,
        firstMs: t.warmup.ms,
        samplesMs: t.samplesMs,
        outcome: packageOutcome(t.warmup.envelope, t.item.budgetTokens),
      })),
      impact: impactRuns.map((t) => ({ lookup: t.item, firstMs: t.warmup.ms, samplesMs: t.samplesMs, outcome: impactOutcome(t.warmup.envelope, count) })),
      freshness,
      errors: recorder.errors(),
    };
  } finally {
    await store.close();
  }
}

export interface ContextChildInput {
  root: string;
  dbPath: string;
  specs: readonly ContextPackageSpec[];
  impactLookups: readonly ChangeImpactLookup[];
  passes: number;
}

/** Run with the TypeScript loader the bench itself runs under (no memory is measured there). */
const CHILD_SCRIPT = join(REPO_ROOT, "bench", "context-child.ts");

/** measureContext in a fresh process (see the top of this file); its stderr goes to the bench's. */
export async function measureContextInChild(input: ContextChildInput): Promise<ContextMeasurement> {
  return runJsonChild<ContextMeasurement>(["--import", "tsx", CHILD_SCRIPT, JSON.stringify(input)], "context child");
}
