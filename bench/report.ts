/** Figures beside their targets: a plain-text table for stdout and a Markdown section for BENCHMARKS.md. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { BLOCK_FORMS } from "../src/query/context-package/types.js";
import type { Corpus } from "./corpus.js";
import type { MachineInfo } from "./machine.js";
import type { IncrementalMeasurement, IndexMeasurement } from "./measure-index.js";
import type { ContextMeasurement } from "./measure-context.js";
import type { KnowledgeMeasurement } from "./measure-knowledge.js";
import type { OverlayMeasurement } from "./overlay.js";
import type { QueryMeasurement } from "./measure-queries.js";
import type { RgMeasurement } from "./measure-rg.js";
import type { ServeMeasurement } from "./measure-serve.js";
import type { SymbolLookupMeasurement, SymbolStoreFigures } from "./measure-symbols.js";
import { CONTEXT_BUDGETS, describeChangeImpact, describeContextPackage, describeLookup, describeQuery, describeRelatedTests } from "./queries.js";
import type { RankedTiming } from "./measure-ranked.js";
import { GIB, MIB, fmtBytes, fmtInt, fmtMs, max, median, percentile } from "./stats.js";

export const TARGETS = {
  fullIndexS: 180,
  peakIndexRssBytes: 1 * GIB,
  indexSizeRatio: 3,
  queryP50Ms: 10,
  queryP95Ms: 50,
  symbolP50Ms: 10,
  symbolP95Ms: 50,
  serveRssBytes: 250 * MIB,
  incrementalMs: 200,
} as const;

const MS_PER_S = 1000;
const P50 = 50;
const P95 = 95;
const RATIO_DIGITS = 2;

export interface BenchResults {
  date: string;
  command: string;
  machine: MachineInfo;
  corpus: Corpus;
  index: IndexMeasurement;
  /** Set when --reuse-index reused an earlier store: when it was built, and whether the saved figures are its own. */
  reusedIndex: { finishedAt: string | null; figuresOwn: boolean } | null;
  /** Read from the store (not from the index child), so a reused store shows them too. */
  symbols: SymbolStoreFigures;
  queries: QueryMeasurement;
  symbolLookups: SymbolLookupMeasurement;
  /** Time until an edit answers: through the working-tree overlay, and by a one-file incremental reindex. */
  freshness?: { overlay: OverlayMeasurement; incremental: IncrementalMeasurement };
  /** find_related_tests, get_ownership and the knowledge resources (no targets). */
  knowledge: KnowledgeMeasurement;
  /** build_context_package, get_change_impact_context and check_context_freshness (no targets). */
  context: ContextMeasurement;
  /** Ranked retrieval of questions per strategy (issue #8; no targets beyond hybrid within 3x of bm25). */
  ranked?: RankedTiming[];
  rg: RgMeasurement;
  serve: ServeMeasurement;
  /** 1-minute load average at the start, its maximum while the bench ran, and at the end. */
  load: { start: number; max: number; end: number };
}

/** Above this 1-minute load per CPU, other work was competing with the bench and the figures say so. */
const BUSY_LOAD_PER_CPU = 0.5;
const LOAD_DIGITS = 2;

function loadLine(r: BenchResults): string {
  const l = r.load;
  // The build just before the run adds about 1 to the start figure; beyond that, other work was running.
  const busy = l.start > BUSY_LOAD_PER_CPU * r.machine.cpus + 1;
  const figures = `start ${l.start.toFixed(LOAD_DIGITS)}, max ${l.max.toFixed(LOAD_DIGITS)}, end ${l.end.toFixed(LOAD_DIGITS)}`;
  return `load average (1 min): ${figures}${busy ? " (the machine was busy before the bench started: figures are pessimistic)" : ""}`;
}

export interface Row {
  metric: string;
  value: string;
  target: string;
  /** null: informational, no target. */
  met: boolean | null;
}

/** One decimal below 10x, whole numbers above. */
const RATIO_WHOLE_FROM = 10;
const fmtRatio = (x: number): string => (Number.isFinite(x) ? `${x < RATIO_WHOLE_FROM ? x.toFixed(1) : x.toFixed(0)}x` : "n/a");

const mark = (met: boolean | null): string => (met === null ? "" : met ? "met" : "NOT MET");

const PERCENT = 100;
const share = (part: number, whole: number): string => `${((part / whole) * PERCENT).toFixed(0)}%`;

/** The extraction statuses in pipeline order, then any others the store reports. */
const STATUS_ORDER = ["ok", "syntax_errors", "timeout", "failed", "no_grammar", "skipped"];

function symbolRows(r: BenchResults): Row[] {
  const sy = r.symbols;
  const seconds = r.index.wallMs / MS_PER_S;
  const statuses = [...STATUS_ORDER.filter((k) => k in sy.byStatus), ...Object.keys(sy.byStatus).filter((k) => !STATUS_ORDER.includes(k))];
  const treeSitter = sy.byExtractor.find((e) => e.extractor === "tree-sitter");
  const parsedBytes = treeSitter?.bytes ?? 0;
  const parsedSymbols = treeSitter?.symbols ?? sy.symbols;
  const rows: Row[] = [
    { metric: "symbols / references in the store", value: `${fmtInt(sy.symbols)} / ${fmtInt(sy.references)}`, target: "", met: null },
    {
      metric: "  indexed files by extraction status",
      value: [
        ...statuses.map((k) => `${k} ${fmtInt(sy.byStatus[k]!)}`),
        ...sy.byExtractor.filter((e) => e.extractor === "none").map((e) => `not attempted ${fmtInt(e.files)}`),
      ].join(", "),
      target: "",
      met: null,
    },
    {
      metric: "  by extractor (files, bytes, symbols)",
      value: sy.byExtractor
        .map((e) => `${e.extractor} ${fmtInt(e.files)}, ${fmtBytes(e.bytes)}${e.symbols === null ? "" : `, ${fmtInt(e.symbols)}`}`)
        .join("; "),
      target: "",
      met: null,
    },
    {
      metric: "symbol extraction, end-to-end rate",
      value:
        `${(parsedBytes / MIB / seconds).toFixed(1)} MiB/s parsed with tree-sitter, ` +
        `${fmtInt(parsedSymbols / seconds)} symbols/s, ${fmtInt(sy.references / seconds)} references/s`,
      target: "",
      met: null,
    },
    {
      metric: "  (not per-core parser speed)",
      value: "over the full-index wall time: extraction runs in worker threads, concurrently with reading, hashing and inserts",
      target: "",
      met: null,
    },
  ];
  const t = sy.tables;
  if (t) {
    const whole = t.dbFileBytes;
    const part = (label: string, bytes: number): string => `${label} ${fmtBytes(bytes)} (${share(bytes, whole)})`;
    rows.push(
      {
        metric: "  store by table (dbstat, db file)",
        value: [part("trigram text", t.text), part("symbols", t.symbols), part("references", t.references)].join(", "),
        target: "",
        met: null,
      },
      {
        metric: "  store by table, the rest",
        value: [part("file rows", t.files), part("other", t.other), part("free pages", t.free)].join(", "),
        target: "",
        met: null,
      },
    );
    rows.push({
      metric: "  symbol + reference tables",
      value: `${fmtBytes(t.symbols + t.references)} = ${share(t.symbols + t.references, whole)} of the db file, ${((t.symbols + t.references) / r.index.bytes).toFixed(RATIO_DIGITS)}x corpus`,
      target: "",
      met: null,
    });
  } else rows.push({ metric: "  store by table", value: "dbstat not available in this SQLite build", target: "", met: null });
  return rows;
}

function symbolLookupRows(r: BenchResults): Row[] {
  const s = allSamples(r.symbolLookups.perLookup);
  const p50 = percentile(s, P50);
  const p95 = percentile(s, P95);
  return [
    {
      metric: `find_symbol p50 (${r.symbolLookups.perLookup.length} lookups x ${r.symbolLookups.passes}, warm)`,
      value: fmtMs(p50),
      target: `<= ${TARGETS.symbolP50Ms} ms`,
      met: p50 <= TARGETS.symbolP50Ms,
    },
    { metric: "find_symbol p95", value: fmtMs(p95), target: `<= ${TARGETS.symbolP95Ms} ms`, met: p95 <= TARGETS.symbolP95Ms },
    { metric: "find_symbol max", value: fmtMs(max(s)), target: "", met: null },
  ];
}

/** Freshness: the one-file incremental reindex (target) and the overlay that answers until it is done. */
function freshnessRows(r: BenchResults): Row[] {
  const f = r.freshness;
  if (!f) return [];
  const rows: Row[] = f.incremental.runs.map((run, i) => ({
    metric: i === 0 ? `one-file incremental reindex (${f.incremental.path}, ${run.label})` : `  same file, ${run.label}`,
    value: `${fmtMs(run.wallMs)} wall (build ${fmtMs(run.buildMs)}), ${fmtInt(run.extractedFiles)} file(s) parsed, ${fmtInt(run.reusedFiles)} reused, peak RSS ${fmtBytes(run.peakRssBytes)}`,
    target: `<= ${TARGETS.incrementalMs} ms`,
    met: run.wallMs <= TARGETS.incrementalMs,
  }));
  const o = f.overlay;
  rows.push(
    { metric: "working-tree overlay check, clean tree (git status)", value: fmtMs(median(o.cleanMs)), target: "", met: null },
    {
      metric: `edit visible: overlay build with ${o.path} edited`,
      value: `${fmtMs(median(o.editedMs))}, then find_symbol ${fmtMs(median(o.lookupMs))} (${o.found})`,
      target: "",
      met: null,
    },
  );
  return rows;
}

/** Knowledge tools and resources: informational, no targets. */
function knowledgeRows(r: BenchResults): Row[] {
  const k = r.knowledge;
  const related = allSamples(k.relatedTests);
  const owners = allSamples(k.ownership);
  const tests = k.relatedTests.reduce((n, t) => n + t.outcome.tests, 0);
  const first = k.relatedTests[0];
  const cold = k.resources.map((x) => `${x.uri} ${fmtMs(x.coldMs)} / ${fmtMs(median(x.samplesMs))}`).join("; ");
  return [
    {
      metric: `find_related_tests p50 / p95 (${k.relatedTests.length} lookups x ${k.passes}, warm)`,
      value: `${fmtMs(percentile(related, P50))} / ${fmtMs(percentile(related, P95))} (${fmtInt(tests)} tests found in all)`,
      target: "",
      met: null,
    },
    { metric: "  first find_related_tests call (loads the test-file list)", value: first ? fmtMs(first.firstMs) : "n/a", target: "", met: null },
    {
      metric: `get_ownership p50 / p95 (${k.ownership.length} lookups x ${k.passes}, warm)`,
      value: `${fmtMs(percentile(owners, P50))} / ${fmtMs(percentile(owners, P95))}`,
      target: "",
      met: null,
    },
    { metric: "resources cold / warm p50 (first read loads knowledge)", value: cold, target: "", met: null },
    {
      metric: "knowledge tool and resource errors",
      value: k.errors.length === 0 ? "none" : `${fmtInt(k.errors.reduce((n, e) => n + e.count, 0))} (listed below the tables)`,
      target: "",
      met: null,
    },
  ];
}

/** Context assembly: informational, no targets. */
function contextRows(r: BenchResults): Row[] {
  const c = r.context;
  const built = allSamples(c.packages);
  const impact = allSamples(c.impact);
  const ok = c.packages.filter((p) => p.outcome.ok);
  const perBudget = CONTEXT_BUDGETS.map((b) => {
    const used = ok.filter((p) => p.budgetTokens === b).map((p) => p.outcome.usedTokens);
    const m = median(used);
    return `${fmtInt(b)}: ${fmtInt(m)} (${share(m, b)}), max ${fmtInt(max(used))}`;
  }).join("; ");
  const sum = (f: (p: (typeof c.packages)[number]) => number): number => c.packages.reduce((n, p) => n + f(p), 0);
  const f = c.freshness;
  const rows: Row[] = [
    {
      metric: `build_context_package p50 / p95 (${c.packages.length} packages x ${c.passes}, warm)`,
      value: `${fmtMs(percentile(built, P50))} / ${fmtMs(percentile(built, P95))}, slowest package p50 ${fmtMs(Math.max(...c.packages.map((p) => median(p.samplesMs))))}`,
      target: "",
      met: null,
    },
    { metric: "  first build_context_package call (loads knowledge)", value: c.packages[0] ? fmtMs(c.packages[0].firstMs) : "n/a", target: "", met: null },
    { metric: "  tokens used per package by budget (median over specs)", value: perBudget, target: "", met: null },
    {
      metric: "  blocks included / omitted, evidence, quality accepted",
      value: `${fmtInt(sum((p) => p.outcome.blocks))} / ${fmtInt(sum((p) => p.outcome.omitted))} blocks, ${fmtInt(sum((p) => p.outcome.evidence))} evidence items, accepted ${ok.filter((p) => p.outcome.qualityAccepted).length} of ${c.packages.length}`,
      target: "",
      met: null,
    },
    {
      metric: `get_change_impact_context p50 / p95 (${c.impact.length} lookups x ${c.passes}, warm)`,
      value: `${fmtMs(percentile(impact, P50))} / ${fmtMs(percentile(impact, P95))} (bundles ${c.impact.map((i) => fmtInt(i.outcome.tokens)).join(", ")} tokens)`,
      target: "",
      met: null,
    },
    {
      metric: `check_context_freshness p50 / p95 (1 manifest x ${c.passes}, warm)`,
      value: f ? `${fmtMs(percentile(f.samplesMs, P50))} / ${fmtMs(percentile(f.samplesMs, P95))} (${f.outcome.evidenceChecked} evidence items, ${f.outcome.fresh ? "fresh" : `${f.outcome.stale} stale`})` : "n/a (its package failed)",
      target: "",
      met: null,
    },
    {
      metric: "context assembly errors",
      value: c.errors.length === 0 ? "none" : `${fmtInt(c.errors.reduce((n, e) => n + e.count, 0))} (listed below the tables)`,
      target: "",
      met: null,
    },
  ];
  return rows;
}

function allSamples(perQuery: { samplesMs: number[] }[]): number[] {
  return perQuery.flatMap((t) => t.samplesMs);
}

export function summaryRows(r: BenchResults): Row[] {
  const ix = r.index;
  const seconds = ix.wallMs / MS_PER_S;
  const ratio = ix.storeAfterClose.total / ix.bytes;
  const q = allSamples(r.queries.perQuery);
  const qp50 = percentile(q, P50);
  const qp95 = percentile(q, P95);
  const rgSamples = allSamples(r.rg.perQuery);
  const rgp50 = percentile(rgSamples, P50);
  const rgp95 = percentile(rgSamples, P95);
  const phases = Object.entries(ix.phasesMs)
    .map(([k, v]) => `${k} ${fmtMs(v)}`)
    .join(", ");
  const skipped = ix.skipped.length > 0 ? ix.skipped.map((s) => `${s.reason} ${fmtInt(s.files)}`).join(", ") : "none";
  const rows: Row[] = [
    { metric: "corpus files (listed by git)", value: fmtInt(ix.files), target: "", met: null },
    { metric: "corpus bytes (listed files)", value: fmtBytes(ix.bytes), target: "", met: null },
    { metric: "full index time", value: `${seconds.toFixed(1)} s`, target: `<= ${TARGETS.fullIndexS} s`, met: seconds <= TARGETS.fullIndexS },
    { metric: "  phases", value: phases, target: "", met: null },
    { metric: "indexed files", value: `${fmtInt(ix.indexedFiles)} (${fmtBytes(ix.indexedBytes)})`, target: "", met: null },
    { metric: "skipped files", value: `${fmtInt(ix.skippedFiles)}: ${skipped}`, target: "", met: null },
    {
      metric: "flagged (indexed)",
      value: `generated ${fmtInt(ix.generated)}, vendored ${fmtInt(ix.vendored)}, secret-suspect ${fmtInt(ix.secretSuspect)}`,
      target: "",
      met: null,
    },
    { metric: "throughput", value: `${fmtInt(ix.files / seconds)} files/s, ${(ix.bytes / MIB / seconds).toFixed(1)} MiB/s`, target: "", met: null },
    {
      metric: "indexer peak RSS (child VmHWM)",
      value: `${fmtBytes(ix.peakRssBytes)} (baseline ${fmtBytes(ix.baselineRssBytes)})`,
      target: `<= ${fmtBytes(TARGETS.peakIndexRssBytes)}`,
      met: ix.peakRssBytes <= TARGETS.peakIndexRssBytes,
    },
    {
      metric: "index size on disk (db+wal+shm)",
      value: `${fmtBytes(ix.storeAfterClose.total)} = ${ratio.toFixed(RATIO_DIGITS)}x corpus (${(ix.storeAfterClose.total / ix.indexedBytes).toFixed(RATIO_DIGITS)}x the indexed text)`,
      target: `<= ${TARGETS.indexSizeRatio}x`,
      met: ratio <= TARGETS.indexSizeRatio,
    },
    {
      metric: "  before close (WAL not yet folded)",
      value: `db ${fmtBytes(ix.storeBeforeClose.db)} + wal ${fmtBytes(ix.storeBeforeClose.wal)} + shm ${fmtBytes(ix.storeBeforeClose.shm)}`,
      target: "",
      met: null,
    },
    ...symbolRows(r),
    {
      metric: `search_code p50 (${r.queries.perQuery.length} queries x ${r.queries.passes}, warm)`,
      value: fmtMs(qp50),
      target: `<= ${TARGETS.queryP50Ms} ms`,
      met: qp50 <= TARGETS.queryP50Ms,
    },
    { metric: "search_code p95", value: fmtMs(qp95), target: `<= ${TARGETS.queryP95Ms} ms`, met: qp95 <= TARGETS.queryP95Ms },
    { metric: "search_code max", value: fmtMs(max(q)), target: "", met: null },
    ...symbolLookupRows(r),
    ...knowledgeRows(r),
    ...contextRows(r),
    ...freshnessRows(r),
  ];
  if (r.rg.available) {
    rows.push(
      { metric: `ripgrep p50 / p95 (x ${r.rg.passes})`, value: `${fmtMs(rgp50)} / ${fmtMs(rgp95)}`, target: "", met: null },
      {
        metric: "ripgrep / repoctx (p50, p95)",
        value: `${fmtRatio(rgp50 / qp50)}, ${fmtRatio(rgp95 / qp95)}`,
        target: "",
        met: null,
      },
    );
  } else rows.push({ metric: "ripgrep", value: "rg not found; baseline skipped", target: "", met: null });
  const s = r.serve;
  const servePeak = s.peakRssBytes;
  rows.push(
    { metric: "serve startup (spawn to MCP handshake)", value: fmtMs(s.startupMs), target: "", met: null },
    {
      metric: "serve RSS after the query list (VmRSS)",
      value: s.rssBytes === null ? "n/a" : `${fmtBytes(s.rssBytes)} (idle ${s.idleRssBytes === null ? "n/a" : fmtBytes(s.idleRssBytes)})`,
      target: "",
      met: null,
    },
    {
      metric: "serve peak RSS (VmHWM)",
      value: servePeak === null ? "n/a" : fmtBytes(servePeak),
      target: `<= ${fmtBytes(TARGETS.serveRssBytes)}`,
      met: servePeak === null ? null : servePeak <= TARGETS.serveRssBytes,
    },
    {
      metric: "serve tools/call p50 / p95 (1 cold pass)",
      value: `${fmtMs(percentile(s.callMs, P50))} / ${fmtMs(percentile(s.callMs, P95))}${s.errors.length > 0 ? `, ${s.errors.length} error(s)` : ""}`,
      target: "",
      met: null,
    },
  );
  return rows;
}

export interface QueryRow {
  query: string;
  medianMs: string;
  maxMs: string;
  result: string;
  rgMedianMs: string;
  rgResult: string;
  ratio: string;
}

export function queryRows(r: BenchResults): QueryRow[] {
  return r.queries.perQuery.map((t, i) => {
    const o = t.outcome;
    const rg = r.rg.perQuery[i];
    const m = median(t.samplesMs);
    const rgm = rg ? median(rg.samplesMs) : Number.NaN;
    const warn = o.warnings.length > 0 ? ` ${o.warnings.join(",")}` : "";
    return {
      query: describeQuery(t.query),
      medianMs: fmtMs(m),
      maxMs: fmtMs(max(t.samplesMs)),
      result: o.ok ? `${o.files}/${o.hits}/${o.filesMatched}${o.truncated ? " T" : ""}${warn}` : `error ${o.error ?? ""}`,
      rgMedianMs: rg ? fmtMs(rgm) : "n/a",
      rgResult: rg ? (rg.error ? `error ${rg.error}` : `${fmtInt(rg.files)}/${fmtInt(rg.matches)}`) : "n/a",
      ratio: rg ? fmtRatio(rgm / m) : "n/a",
    };
  });
}

export interface LookupRow {
  lookup: string;
  medianMs: string;
  maxMs: string;
  hits: string;
  definitions: string;
  notes: string;
}

export function lookupRows(r: BenchResults): LookupRow[] {
  return r.symbolLookups.perLookup.map((t) => {
    const o = t.outcome;
    return {
      lookup: describeLookup(t.lookup),
      medianMs: fmtMs(median(t.samplesMs)),
      maxMs: fmtMs(max(t.samplesMs)),
      hits: o.ok ? `${o.hits} (${o.definitionHits}/${o.syntacticHits}/${o.lexicalHits})` : `error ${o.error ?? ""}`,
      definitions: o.ok ? fmtInt(o.definitions) : "",
      notes: [o.truncated ? "T" : "", ...o.warnings].filter((x) => x.length > 0).join(" "),
    };
  });
}

/** Warning codes, repeated ones counted once with their count. */
function warningCodes(codes: string[]): string[] {
  const counts = new Map<string, number>();
  for (const c of codes) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts.entries()].map(([c, n]) => (n > 1 ? `${c} x${n}` : c));
}

const notesOf = (o: { truncated: boolean; warnings: string[] }): string => [o.truncated ? "T" : "", ...warningCodes(o.warnings)].filter((x) => x.length > 0).join(" ");

export function relatedTestRows(r: BenchResults): string[][] {
  return r.knowledge.relatedTests.map((t) => {
    const o = t.outcome;
    return [
      describeRelatedTests(t.lookup),
      fmtMs(median(t.samplesMs)),
      fmtMs(percentile(t.samplesMs, P95)),
      fmtMs(t.firstMs),
      o.ok ? `${o.tests} (${o.high}/${o.medium}/${o.low})` : `error ${o.error ?? ""}`,
      o.ok ? fmtInt(o.candidates) : "",
      notesOf(o),
    ];
  });
}

export function ownershipRows(r: BenchResults): string[][] {
  return r.knowledge.ownership.map((t) => {
    const o = t.outcome;
    return [
      t.lookup.paths.join(", "),
      fmtMs(median(t.samplesMs)),
      fmtMs(percentile(t.samplesMs, P95)),
      o.ok ? `${o.owned}/${o.paths}` : `error ${o.error ?? ""}`,
      notesOf({ truncated: false, warnings: o.warnings }),
    ];
  });
}

export function resourceRows(r: BenchResults): string[][] {
  return r.knowledge.resources.map((t) => {
    const o = t.outcome;
    const counts = Object.entries(o.counts)
      .map(([k, v]) => `${k} ${fmtInt(v)}`)
      .join(", ");
    return [t.uri, fmtMs(t.coldMs), fmtMs(median(t.samplesMs)), fmtMs(percentile(t.samplesMs, P95)), o.ok ? counts : `error ${o.error ?? ""}`, notesOf(o)];
  });
}

export function packageRows(r: BenchResults): string[][] {
  return r.context.packages.map((t) => {
    const o = t.outcome;
    const forms = BLOCK_FORMS.map((k) => o.forms[k] ?? 0).join("/");
    const quality = o.qualityAccepted ? "accepted" : `rejected: ${o.qualityReasons.join(", ")}`;
    const warnings = o.warnings.filter((w) => w !== "context_budget_omitted" && w !== "context_quality_rejected");
    return [
      describeContextPackage(t.spec),
      fmtInt(t.budgetTokens),
      fmtMs(median(t.samplesMs)),
      fmtMs(percentile(t.samplesMs, P95)),
      fmtMs(t.firstMs),
      o.ok ? `${fmtInt(o.usedTokens)} (${share(o.usedTokens, t.budgetTokens)})` : `error ${o.error ?? ""}`,
      o.ok ? `${o.blocks} (${forms})` : "",
      o.ok ? String(o.omitted) : "",
      o.ok ? String(o.evidence) : "",
      o.ok ? quality : "",
      warningCodes(warnings).join(" "),
    ];
  });
}

export function impactRows(r: BenchResults): string[][] {
  return r.context.impact.map((t) => {
    const o = t.outcome;
    return [
      describeChangeImpact(t.lookup),
      fmtMs(median(t.samplesMs)),
      fmtMs(percentile(t.samplesMs, P95)),
      fmtMs(t.firstMs),
      o.ok ? `${o.directFiles} / ${o.callSiteFiles} (${o.callSites}/${fmtInt(o.callSitesTotal)}) / ${o.relatedTests} / ${o.ownerHints} / ${o.riskHints} / ${o.verifierHints}` : `error ${o.error ?? ""}`,
      o.ok ? `${fmtInt(o.tokens)} (${fmtBytes(o.chars)})` : "",
      notesOf(o),
    ];
  });
}

export function contextFreshnessRows(r: BenchResults): string[][] {
  const f = r.context.freshness;
  if (!f) return [];
  const o = f.outcome;
  return [
    [
      f.manifestOf,
      fmtMs(median(f.samplesMs)),
      fmtMs(percentile(f.samplesMs, P95)),
      fmtMs(f.firstMs),
      o.ok
        ? `${o.fresh ? "fresh" : "stale"}: ${o.evidenceChecked}/${o.manifestEvidence} evidence items checked, ${o.instructionSources} instruction file(s), ${o.stale} stale, ${o.notChecked} not checked`
        : `error ${o.error ?? ""}`,
      notesOf({ truncated: false, warnings: o.warnings }),
    ],
  ];
}

const PACKAGE_HEADERS = ["package", "budget", "p50", "p95", "first call", "used tokens", "blocks (full/reduced/pointer)", "omitted", "evidence", "quality", "notes"];
const PACKAGE_NOTE =
  "each spec built at each budget (o200k_base tokens, target local) in this order in a fresh process, before the other two tools; first call = the untimed warm-up, the very first also loads the index's knowledge; used tokens = package.budget.usedTokens (share of the budget); blocks = blocks included by form; omitted = blocks left out for the budget; evidence = manifest evidence items; quality = the rubric's verdict; notes = warnings other than context_budget_omitted";
const IMPACT_HEADERS = ["lookup", "p50", "p95", "first call", "direct / call-site files (sites listed/found) / tests / owners / risks / verifiers", "data tokens (JSON size)", "notes"];
const IMPACT_NOTE = "after the packages, in the same process; data tokens = o200k_base tokens of data as JSON; T = truncated";
const FRESHNESS_HEADERS = ["manifest of", "p50", "p95", "first call", "result", "notes"];
const FRESHNESS_NOTE = "the manifest of the named package from its warm-up build, checked against the clean corpus";

function contextErrorLines(r: BenchResults): string[] {
  return r.context.errors.map((e) => `${e.call}: ${e.category}: ${e.message} (x${e.count})`);
}

const RELATED_HEADERS = ["changed paths / symbols", "p50", "p95", "first call", "tests (high/medium/low)", "candidates", "notes"];
const RELATED_NOTE =
  "tests returned by confidence; candidates = tests related before the result cut (20); first call = the untimed warm-up, the first one loads the test-file list; T = truncated";
const OWNERSHIP_HEADERS = ["paths", "p50", "p95", "owned/paths", "notes"];
const RESOURCE_HEADERS = ["resource", "cold (first read)", "warm p50", "warm p95", "result", "notes"];
const RESOURCE_NOTE =
  "read in this order in a fresh process, before the tools; cold = the first read, the first of all also loads the index's knowledge (build graph, CODEOWNERS rules, documents); warm = the timed reads after it; T = truncated";

function knowledgeErrorLines(r: BenchResults): string[] {
  return r.knowledge.errors.map((e) => `${e.call}: ${e.category}: ${e.message} (x${e.count})`);
}

const LOOKUP_HEADERS = ["lookup", "median", "max", "hits (def/syntactic/lexical)", "definitions", "notes"];
const LOOKUP_NOTE =
  "hits returned, split into definitions, syntactic references and lexical mentions; definitions = matching definitions before the result cut; T = truncated";

const QUERY_HEADERS = ["query", "repoctx median", "max", "files/hits/matched", "rg median", "rg files/matches", "rg/repoctx"];

function padTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? "").length)));
  const line = (cells: string[]): string => cells.map((cell, c) => cell.padEnd(widths[c]!)).join("  ").trimEnd();
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

export function textReport(r: BenchResults): string {
  const m = r.machine;
  const head = [
    `repoctx bench: ${r.corpus.name} (${r.corpus.root})`,
    `${r.date}  ${m.cpus} CPUs, ${m.memory}, ${m.cpuModel}, Node ${m.node}, SQLite ${m.sqlite}`,
    `repoctx ${m.revision}`,
    loadLine(r),
    "",
  ];
  const summary = padTable(
    ["metric", "value", "target", ""],
    summaryRows(r).map((row) => [row.metric, row.value, row.target, mark(row.met)]),
  );
  const perQuery = padTable(
    QUERY_HEADERS,
    queryRows(r).map((q) => [q.query, q.medianMs, q.maxMs, q.result, q.rgMedianMs, q.rgResult, q.ratio]),
  );
  const perLookup = padTable(
    LOOKUP_HEADERS,
    lookupRows(r).map((l) => [l.lookup, l.medianMs, l.maxMs, l.hits, l.definitions, l.notes]),
  );
  const related = padTable(RELATED_HEADERS, relatedTestRows(r));
  const ownership = padTable(OWNERSHIP_HEADERS, ownershipRows(r));
  const resources = padTable(RESOURCE_HEADERS, resourceRows(r));
  const errors = knowledgeErrorLines(r);
  const packages = padTable(PACKAGE_HEADERS, packageRows(r));
  const impact = padTable(IMPACT_HEADERS, impactRows(r));
  const contextFreshness = padTable(FRESHNESS_HEADERS, contextFreshnessRows(r));
  const contextErrors = contextErrorLines(r);
  return (
    `${head.join("\n")}${summary}\n\nsearch_code per query (T = truncated)\n${perQuery}\n\nfind_symbol per lookup (${LOOKUP_NOTE})\n${perLookup}\n` +
    `\nfind_related_tests per lookup (${RELATED_NOTE})\n${related}\n` +
    `\nget_ownership per lookup (owned = paths a CODEOWNERS rule owns)\n${ownership}\n` +
    `\nknowledge resources (${RESOURCE_NOTE})\n${resources}\n` +
    (errors.length > 0 ? `\nknowledge errors\n${errors.join("\n")}\n` : "") +
    `\nbuild_context_package per package (${PACKAGE_NOTE})\n${packages}\n` +
    `\nget_change_impact_context per lookup (${IMPACT_NOTE})\n${impact}\n` +
    `\ncheck_context_freshness (${FRESHNESS_NOTE})\n${contextFreshness}\n` +
    (contextErrors.length > 0 ? `\ncontext assembly errors\n${contextErrors.join("\n")}\n` : "")
  );
}

const mdCell = (s: string): string => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

function mdTable(headers: string[], rows: string[][]): string {
  return [
    `| ${headers.map(mdCell).join(" | ")} |`,
    `| ${headers.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.map(mdCell).join(" | ")} |`),
  ].join("\n");
}

function markerStart(corpus: string): string {
  return `<!-- bench:${corpus}:start -->`;
}
function markerEnd(corpus: string): string {
  return `<!-- bench:${corpus}:end -->`;
}

export function markdownSection(r: BenchResults): string {
  const m = r.machine;
  const lines = [
    markerStart(r.corpus.name),
    `## Corpus: ${r.corpus.name}`,
    "",
    `- Date: ${r.date}`,
    `- Machine: ${m.cpus} CPUs (nproc), ${m.memory} RAM, ${m.cpuModel}; ${m.platform}; Node ${m.node}; SQLite ${m.sqlite}`,
    `- Corpus: ${r.corpus.source} → \`${r.corpus.root.replace(/^.*\/\.bench\//, ".bench/")}\`, ${fmtInt(r.index.files)} files, ${fmtBytes(r.index.bytes)}`,
    ...r.corpus.notes.map((n) => `- Preparation: ${n}`),
    `- repoctx: ${m.revision}`,
    ...(r.reusedIndex
      ? [
          `- Index: reused with \`--reuse-index\` (built ${r.reusedIndex.finishedAt ?? "at an unknown time"}); the full-index figures are those of that build${r.reusedIndex.figuresOwn ? "" : " **(saved figures do not match the store)**"}`,
        ]
      : []),
    `- Machine ${loadLine(r)}`,
    `- Command: \`${r.command}\``,
    r.rg.version ? `- Baseline: ${r.rg.version}` : "- Baseline: ripgrep not installed",
    "",
    mdTable(
      ["metric", "value", "target", "status"],
      summaryRows(r).map((row) => [row.metric.trim(), row.value, row.target, mark(row.met)]),
    ),
    "",
    "Per `search_code` query (`files/hits/matched`: files and hits returned, files that matched before the ranking cut; T = truncated):",
    "",
    mdTable(
      QUERY_HEADERS,
      queryRows(r).map((q) => [`\`${q.query}\``, q.medianMs, q.maxMs, q.result, q.rgMedianMs, q.rgResult, q.ratio]),
    ),
    "",
    `Per \`find_symbol\` lookup (${LOOKUP_NOTE}):`,
    "",
    mdTable(
      LOOKUP_HEADERS,
      lookupRows(r).map((l) => [`\`${l.lookup}\``, l.medianMs, l.maxMs, l.hits, l.definitions, l.notes]),
    ),
    "",
    `Per \`find_related_tests\` lookup (${RELATED_NOTE}):`,
    "",
    mdTable(
      RELATED_HEADERS,
      relatedTestRows(r).map(([what, ...rest]) => [`\`${what}\``, ...rest]),
    ),
    "",
    "Per `get_ownership` lookup (owned = paths a CODEOWNERS rule owns):",
    "",
    mdTable(
      OWNERSHIP_HEADERS,
      ownershipRows(r).map(([what, ...rest]) => [`\`${what}\``, ...rest]),
    ),
    "",
    `Knowledge resources (${RESOURCE_NOTE}):`,
    "",
    mdTable(
      RESOURCE_HEADERS,
      resourceRows(r).map(([uri, ...rest]) => [`\`${uri}\``, ...rest]),
    ),
    ...(r.knowledge.errors.length > 0 ? ["", "Knowledge errors:", "", ...knowledgeErrorLines(r).map((l) => `- ${mdCell(l)}`)] : []),
    "",
    `Context assembly: per \`build_context_package\` package (${PACKAGE_NOTE}):`,
    "",
    mdTable(
      PACKAGE_HEADERS,
      packageRows(r).map(([what, ...rest]) => [`\`${what}\``, ...rest]),
    ),
    "",
    `Per \`get_change_impact_context\` lookup (${IMPACT_NOTE}):`,
    "",
    mdTable(
      IMPACT_HEADERS,
      impactRows(r).map(([what, ...rest]) => [`\`${what}\``, ...rest]),
    ),
    "",
    `\`check_context_freshness\` (${FRESHNESS_NOTE}):`,
    "",
    mdTable(FRESHNESS_HEADERS, contextFreshnessRows(r)),
    ...(r.context.errors.length > 0 ? ["", "Context assembly errors:", "", ...contextErrorLines(r).map((l) => `- ${mdCell(l)}`)] : []),
    ...(r.ranked ? ["", RANKED_NOTE, "", mdTable(RANKED_HEADERS, rankedRows(r)), "", rankedSummary(r)] : []),
    markerEnd(r.corpus.name),
  ];
  return lines.join("\n");
}

const RANKED_NOTE =
  "Ranked retrieval for questions and issue text (`search_code` hybrid on prose; warm p50/p95 over the passes, top hit of the warm-up; " +
  "`bm25` is the lexical baseline, `hybrid` adds frames, paths, definitions, priors, tests and the reference graph, `hybrid_semantic` the repository's own embedding):";
const RANKED_HEADERS = ["question", "strategy", "p50", "p95", "top hit"];

function rankedRows(r: BenchResults): string[][] {
  return (r.ranked ?? []).map((t) => [mdCell(t.question.split("\n")[0]!.slice(0, 70)), t.strategy, fmtMs(median(t.samplesMs)), fmtMs(percentile(t.samplesMs, 95)), mdCell(t.top ?? "(none)")]);
}

/** Per strategy over all questions, and hybrid's ratio to the lexical baseline (target: within 3x). */
function rankedSummary(r: BenchResults): string {
  const by = (s: string) => (r.ranked ?? []).filter((t) => t.strategy === s).flatMap((t) => t.samplesMs);
  const bm25 = by("bm25");
  const parts = ["bm25", "hybrid", "hybrid_semantic"].map((s) => {
    const x = by(s);
    return `${s} p50 ${fmtMs(median(x))} / p95 ${fmtMs(percentile(x, 95))}${s === "bm25" ? "" : ` (${(median(x) / median(bm25)).toFixed(1)}x / ${(percentile(x, 95) / percentile(bm25, 95)).toFixed(1)}x of bm25; target <= 3x)`}`;
  });
  return `All questions: ${parts.join("; ")}.`;
}

const BENCHMARKS_HEADER = `# Benchmarks

Figures from \`npm run bench\` (see bench/README.md for what is measured and how). Each corpus has one section;
a re-run replaces its own section.
`;

/** Replaces this corpus's section in BENCHMARKS.md, or appends it; other sections are left as they are. */
export function updateBenchmarksFile(file: string, section: string, corpus: string): void {
  const current = existsSync(file) ? readFileSync(file, "utf8") : BENCHMARKS_HEADER;
  const start = current.indexOf(markerStart(corpus));
  const end = current.indexOf(markerEnd(corpus));
  let next: string;
  if (start !== -1 && end > start) next = current.slice(0, start) + section + current.slice(end + markerEnd(corpus).length);
  else next = `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
}
