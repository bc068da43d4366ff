import type { RepoModule } from "../core/knowledge.js";
import type { Confidence, SymbolKind } from "../core/symbols.js";
import type { LabelInput } from "../policy/labels.js";
import type { FileRow, SymbolRow } from "../store/store.js";
import { labelInputOf, type QueryContext } from "./context.js";
import { defaultMeasure, fitBudget } from "./change-impact-budget.js";
import type { Conflict, EffectiveCommand, EffectiveInstructions, ResolvedInstructions } from "./instructions/resolved.js";
import { getInstructions, type InstructionEnv } from "./knowledge/instructions.js";
import { knowledgeOf, requirePath, type Knowledge } from "./knowledge/load.js";
import { getOwnership, type OwnershipItem } from "./knowledge/ownership.js";
import { findRelatedTests, type RelatedTest } from "./knowledge/related-tests.js";
import { riskHintsFor as riskHintsOfFiles, type RiskHint } from "./knowledge/risk-map.js";
import { findSymbol, type SymbolCandidate, type SymbolHit, type SymbolIntent } from "./symbols.js";
import type { EvidenceDraft, Warning } from "../core/evidence.js";
import type { ChangeType } from "./change-types.js";

export { CHANGE_TYPES, type ChangeType } from "./change-types.js";

/** Changes that alter behaviour callers depend on: their callers matter most; other changes follow every reference. */
const CALL_SITE_CHANGES: ReadonlySet<ChangeType> = new Set(["api_migration", "bug_fix", "feature", "dependency_upgrade"]);
export const DEFAULT_MAX_FILES = 12;
/** Definitions listed per candidate file; the total says how many there are. */
const MAX_SYMBOLS_LISTED = 40;
/** Symbols followed when the caller names none: one search each, so a few public ones per change. */
const MAX_DERIVED_SYMBOLS = 10;
const MAX_HITS_PER_FILE = 8;
const MAX_FILE_SYMBOLS = 2000;
/** Definitions worth following to their callers (fields and locals rarely make an API). */
const FOLLOWED_KINDS: ReadonlySet<SymbolKind> = new Set(["class", "interface", "enum", "function", "method", "type", "constant"]);
const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set(["class", "interface", "enum", "type"]);
const RANK: Record<Confidence, number> = { exact: 0, high: 1, medium: 2, low: 3 };

export interface ChangeImpactInput {
  candidatePaths: string[];
  symbols?: string[];
  changeType: ChangeType;
  maxFiles?: number;
  budgetTokens?: number;
}

export interface ChangeImpactEnv extends InstructionEnv {
  /** Tokens `data` takes as the client receives it (after projection); the raw JSON when absent. */
  measure?: (data: { bundle: ChangeImpactBundle }, labels: Map<string, LabelInput>) => number;
  /** Tokens the evidence of a bundle takes as the client receives it; absent: the budget counts `data` alone. */
  measureEvidence?: (evidence: EvidenceDraft[], labels: Map<string, LabelInput>) => number;
}

export interface DefinedSymbol {
  name: string;
  kind: SymbolKind;
  qualifiedName: string;
  startLine: number;
  endLine: number;
  signature: string;
  visibility: string | null;
}

export interface DirectFile {
  path: string;
  indexed: boolean;
  language: string | null;
  lines: number | null;
  contentHash: string | null;
  module: string | null;
  symbolStatus: string | null;
  /** Why the file's text was not analysed: an index skip reason, or `secret_suspect` under the read policy. */
  skipReason: string | null;
  symbols: DefinedSymbol[];
  symbolsTotal: number;
}

export interface CallSite {
  symbol: string;
  startLine: number;
  endLine: number;
  kind: string;
  enclosing: string | null;
  matchType: SymbolHit["matchType"];
  confidence: Confidence;
  reason: string;
  snippet?: string;
}

export interface CallSiteFile {
  path: string;
  module: string | null;
  language: string | null;
  contentHash: string;
  confidence: Confidence;
  reasons: string[];
  hitsTotal: number;
  hits: CallSite[];
}

type Role = "candidate" | "call_site";
export type OwnerHint = OwnershipItem & { role: Role };
export type RiskHintItem = RiskHint & { role: Role; contentHash: string };

export interface VerifierHint {
  command: string;
  purpose: string;
  scope: "module" | "dependent_module" | "single_test" | "instruction";
  module?: string;
  cwd?: string;
  confidence?: Confidence;
  reason: string;
  source: { kind: "manifest" | "related_test" | "instruction_file" | "operator_policy"; path?: string; line?: number; detail?: string };
}

export interface InstructionsInForce {
  outcome: ResolvedInstructions["outcome"];
  reason?: ResolvedInstructions["reason"];
  effectiveInstructionHash: string;
  forbiddenPaths: EffectiveInstructions["forbiddenPaths"];
  forbiddenActions: EffectiveInstructions["forbiddenActions"];
  forbiddenTargets: EffectiveInstructions["forbiddenTargets"];
  commands: EffectiveCommand[];
  conflicts: Conflict[];
  files: { path: string; contentHash: string | null; status: string; loadedFrom: string; modifiedInWorkingTree: boolean }[];
}

export interface TruncatedList {
  list: string;
  /** null: more exist than were counted. */
  total: number | null;
  shown: number;
  reason: string;
}

export interface Coverage {
  changeType: ChangeType;
  intent: SymbolIntent;
  symbolSource: "input" | "candidate_files" | "none";
  symbolsFollowed: string[];
  notIndexed: { path: string; reason: string }[];
  skipped: { path: string; skipReason: string; detail: string | null }[];
  overLimits: { path: string; limit: string; sizeBytes: number; detail: string | null }[];
  noSyntacticReferences: { language: string; symbolStatus: string | null; reason: string; paths: string[] }[];
  symbolsNotFound: string[];
  ambiguousSymbols: { symbol: string; candidates: SymbolCandidate[] }[];
  truncated: TruncatedList[];
  limitations: string[];
}

export interface ChangeImpactBundle {
  directFiles: DirectFile[];
  callSites: CallSiteFile[];
  relatedTests: RelatedTest[];
  ownerHints: OwnerHint[];
  riskHints: RiskHintItem[];
  verifierHints: VerifierHint[];
  instructions: InstructionsInForce;
  coverage: Coverage;
}

export interface ChangeImpactResult {
  bundle: ChangeImpactBundle;
  evidence: EvidenceDraft[];
  labels: Map<string, LabelInput>;
  warnings: Warning[];
  truncated: boolean;
}

/** What the parts of the query share: the files they touched, their labels, warnings and what went unanalysed. */
interface Collector {
  files: Map<string, FileRow>;
  labels: Map<string, LabelInput>;
  warnings: Warning[];
  coverage: Coverage;
}

function keepFile(c: Collector, file: FileRow): void {
  c.files.set(file.path, file);
  c.labels.set(file.path, labelInputOf(file));
}

/** A part's labels and warnings join the bundle's. */
function absorb(c: Collector, part: { labels: Map<string, LabelInput>; warnings: Warning[] }): void {
  for (const [p, l] of part.labels) c.labels.set(p, l);
  c.warnings.push(...part.warnings);
}

/**
 * An evidence bundle for a candidate change: the files themselves, who calls or references their symbols, the tests,
 * owners, risks and commands that bear on it, the instructions in force, and an explicit account of what was not
 * analysed. It presents evidence for the caller to weigh; it never says whether the change is safe.
 */
export async function changeImpact(ctx: QueryContext, env: ChangeImpactEnv, input: ChangeImpactInput): Promise<ChangeImpactResult> {
  const candidates = [...new Set(input.candidatePaths.map(requirePath))];
  const maxFiles = input.maxFiles ?? DEFAULT_MAX_FILES;
  const intent: SymbolIntent = CALL_SITE_CHANGES.has(input.changeType) ? "call_sites" : "references";
  const k = await knowledgeOf(ctx);
  const c: Collector = { files: new Map(), labels: new Map(), warnings: [], coverage: emptyCoverage(input.changeType, intent) };

  const direct = await readCandidates(ctx, k, candidates, c);
  const followed = chooseSymbols(input.symbols, direct.exposed, c.coverage);
  const callSites = await collectCallSites(ctx, followed, intent, new Set(candidates), maxFiles, c);
  const touched = [...candidates, ...callSites.map((g) => g.path)];
  const roleOf = (path: string): Role => (candidates.includes(path) ? "candidate" : "call_site");
  noteUnanalysed(touched.map((p) => c.files.get(p)).filter((f): f is FileRow => f !== undefined && f.skipReason === null), c.coverage);

  const tests = await findRelatedTests(ctx, { changedPaths: candidates, ...(input.symbols ? { symbols: input.symbols } : {}), maxResults: maxFiles });
  absorb(c, tests);
  if (tests.stats.truncated) c.coverage.truncated.push({ list: "relatedTests", total: tests.stats.candidates as number, shown: tests.items.length, reason: "maxFiles" });

  const owners = await getOwnership(ctx, { paths: touched });
  absorb(c, owners);

  const risks = await riskHintsFor(ctx, new Set(touched), roleOf, c);
  const ins = await getInstructions(ctx, env, { paths: candidates });
  absorb(c, ins);
  const instructions = instructionsInForce(ins.instructions);
  const verifiers = await verifierHints(ctx, k, candidates, tests.items, instructions.commands, c);

  const full: ChangeImpactBundle = {
    directFiles: direct.items,
    callSites,
    relatedTests: tests.items,
    ownerHints: owners.items.map((o) => ({ ...o, role: roleOf(o.path) })),
    riskHints: risks,
    verifierHints: verifiers,
    instructions,
    coverage: c.coverage,
  };
  const measure = env.measure ?? defaultMeasure();
  const cited = { tests: tests.evidence, owners: owners.evidence, instructions: ins.evidence };
  // Evidence follows the items kept, so it is counted with each try: the budget holds both.
  const tokens = (b: ChangeImpactBundle) => measure({ bundle: b }, c.labels) + (env.measureEvidence?.(evidenceOf(b, cited, c.files), c.labels) ?? 0);
  const bundle = input.budgetTokens === undefined ? full : fitBudget(full, input.budgetTokens, tokens);
  const evidence = evidenceOf(bundle, cited, c.files);
  return { bundle, evidence, labels: c.labels, warnings: uniqueBy(c.warnings, (w) => `${w.code}\u0000${w.message}`), truncated: bundle.coverage.truncated.length > 0 };
}

function emptyCoverage(changeType: ChangeType, intent: SymbolIntent): Coverage {
  return {
    changeType,
    intent,
    symbolSource: "none",
    symbolsFollowed: [],
    notIndexed: [],
    skipped: [],
    overLimits: [],
    noSyntacticReferences: [],
    symbolsNotFound: [],
    ambiguousSymbols: [],
    truncated: [],
    limitations: [
      intent === "call_sites"
        ? "call sites are matched by name: receiver types are not resolved, and calls made through reflection, dynamic dispatch or built strings are not seen"
        : "references are matched by name (calls, imports, type uses): receiver types are not resolved, and dynamic or reflective uses are not seen",
      "related tests, owners, risks and verifier commands are heuristics from names, folders, manifests and CODEOWNERS: they suggest, they do not decide",
    ],
  };
}

/** The first of each key, in order. */
function uniqueBy<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Candidate files and the symbols to follow.

function skipReasonOf(file: FileRow, ctx: QueryContext): string | null {
  if (file.skipReason !== null) return file.skipReason;
  return file.isSecretSuspect && !ctx.policy.includeSecretSuspectFiles ? "secret_suspect" : null;
}

/** Parsing stopped at a size limit: the file was indexed, but only lexically. */
function overParseLimit(file: FileRow): boolean {
  return file.symbolStatus === "skipped" && file.symbolExtractor === "lexical";
}

async function notIndexedReason(ctx: QueryContext, path: string): Promise<string> {
  const inside = await ctx.store.listFiles(ctx.index.id, { pathPrefix: `${path}/` });
  return inside.length > 0
    ? "a folder, not a file: name the files of the change"
    : "not in the index (a new file, ignored or excluded, or absent at the indexed commit): related by path and name only";
}

function definedSymbol(s: SymbolRow): DefinedSymbol {
  return { name: s.name, kind: s.kind, qualifiedName: s.qualifiedName, startLine: s.startLine, endLine: s.endLine, signature: s.signature, visibility: s.visibility };
}

async function readCandidates(ctx: QueryContext, k: Knowledge, paths: string[], c: Collector): Promise<{ items: DirectFile[]; exposed: SymbolRow[] }> {
  const items: DirectFile[] = [];
  const exposed: SymbolRow[] = [];
  for (const path of paths) {
    const module = k.moduleOf(path)?.name ?? null;
    const file = await ctx.store.getFile(ctx.index.id, path);
    if (!file) {
      c.coverage.notIndexed.push({ path, reason: await notIndexedReason(ctx, path) });
      items.push({ path, indexed: false, language: null, lines: null, contentHash: null, module, symbolStatus: null, skipReason: null, symbols: [], symbolsTotal: 0 });
      continue;
    }
    keepFile(c, file);
    const skip = skipReasonOf(file, ctx);
    if (skip !== null) c.coverage.skipped.push({ path, skipReason: skip, detail: file.skipDetail });
    if (file.skipReason === "too_large") c.coverage.overLimits.push({ path, limit: "indexed file size", sizeBytes: file.sizeBytes, detail: file.skipDetail });
    const rows = skip === null && file.symbolStatus !== null ? await ctx.store.findSymbols(ctx.index.id, { path, limit: MAX_FILE_SYMBOLS }) : [];
    rows.sort((a, b) => a.startLine - b.startLine);
    if (rows.length > MAX_SYMBOLS_LISTED) c.coverage.truncated.push({ list: `directFiles[${path}].symbols`, total: rows.length, shown: MAX_SYMBOLS_LISTED, reason: "symbols listed per file" });
    exposed.push(...rows.filter(isExposed));
    items.push({
      path,
      indexed: true,
      language: file.language,
      lines: file.lineCount,
      contentHash: file.contentHash,
      module,
      symbolStatus: file.symbolStatus,
      skipReason: skip,
      symbols: rows.slice(0, MAX_SYMBOLS_LISTED).map(definedSymbol),
      symbolsTotal: rows.length,
    });
  }
  return { items, exposed };
}

/** Public, or in a language whose extractor records no visibility (then top-level names are what others import). */
function isExposed(s: SymbolRow): boolean {
  if (!FOLLOWED_KINDS.has(s.kind) || s.file.isGenerated) return false;
  return s.visibility === "public" || (s.visibility === null && (s.container === null || s.kind === "method"));
}

/** The caller's symbols, or else the public ones the candidates define: types and top-level names first. */
function chooseSymbols(given: string[] | undefined, exposed: SymbolRow[], coverage: Coverage): string[] {
  if (given && given.length > 0) {
    coverage.symbolSource = "input";
    coverage.symbolsFollowed = [...new Set(given)];
    return coverage.symbolsFollowed;
  }
  const rank = (s: SymbolRow) => (TYPE_KINDS.has(s.kind) ? 0 : s.container === null ? 1 : 2);
  const names = [...new Set(exposed.sort((a, b) => rank(a) - rank(b)).map((s) => s.qualifiedName))];
  if (names.length === 0) {
    coverage.limitations.push("no symbols were given and the candidate files define no public symbols: callers were not searched");
    return [];
  }
  if (names.length > MAX_DERIVED_SYMBOLS) {
    coverage.truncated.push({ list: "symbolsFollowed", total: names.length, shown: MAX_DERIVED_SYMBOLS, reason: "public symbols followed when none are given; name the ones that change in 'symbols'" });
  }
  coverage.symbolSource = "candidate_files";
  coverage.symbolsFollowed = names.slice(0, MAX_DERIVED_SYMBOLS);
  return coverage.symbolsFollowed;
}

// ---------------------------------------------------------------------------------------------------------------
// Call sites.

async function collectCallSites(ctx: QueryContext, symbols: string[], intent: SymbolIntent, candidates: Set<string>, maxFiles: number, c: Collector): Promise<CallSiteFile[]> {
  const byPath = new Map<string, { first: SymbolHit; hits: CallSite[]; seen: Set<string> }>();
  for (const symbol of symbols) {
    const r = await findSymbol(ctx, { symbol, intent, maxResults: ctx.policy.maxSearchResults });
    absorb(c, r);
    if (r.stats.definitions === 0) c.coverage.symbolsNotFound.push(symbol);
    if (r.stats.ambiguous) c.coverage.ambiguousSymbols.push({ symbol, candidates: r.stats.candidates as SymbolCandidate[] });
    if (r.stats.truncated) c.coverage.truncated.push({ list: `callSites:${symbol}`, total: null, shown: r.items.length, reason: "the read policy's maxSearchResults" });
    for (const h of r.items) {
      if (candidates.has(h.path)) continue;
      let g = byPath.get(h.path);
      if (!g) byPath.set(h.path, (g = { first: h, hits: [], seen: new Set() }));
      const key = `${h.startLine}:${h.column}:${h.matchType}`;
      if (g.seen.has(key)) continue;
      g.seen.add(key);
      g.hits.push({ symbol, startLine: h.startLine, endLine: h.endLine, kind: h.kind, enclosing: h.enclosing ?? null, matchType: h.matchType, confidence: h.confidence, reason: h.reason, ...(h.snippet !== undefined ? { snippet: h.snippet } : {}) });
    }
  }
  const groups = [...byPath.values()].map(({ first, hits }) => callSiteFile(first, hits)).sort(groupOrder);
  if (groups.length > maxFiles) c.coverage.truncated.push({ list: "callSites", total: groups.length, shown: maxFiles, reason: "maxFiles" });
  const kept = groups.slice(0, maxFiles);
  for (const g of kept) {
    if (g.hitsTotal > g.hits.length) c.coverage.truncated.push({ list: `callSites[${g.path}].hits`, total: g.hitsTotal, shown: g.hits.length, reason: "hits listed per file" });
    const file = await ctx.store.getFile(ctx.index.id, g.path);
    if (file) keepFile(c, file);
  }
  return kept;
}

function callSiteFile(first: SymbolHit, hits: CallSite[]): CallSiteFile {
  hits.sort((a, b) => RANK[a.confidence] - RANK[b.confidence] || a.startLine - b.startLine);
  const counts = new Map<string, number>();
  for (const h of hits) counts.set(`${h.symbol}: ${h.matchType}`, (counts.get(`${h.symbol}: ${h.matchType}`) ?? 0) + 1);
  return {
    path: first.path,
    module: first.module ?? null,
    language: first.language,
    contentHash: first.contentHash,
    confidence: hits[0]!.confidence,
    reasons: [...counts].map(([what, n]) => `${what} x${n}`),
    hitsTotal: hits.length,
    hits: hits.slice(0, MAX_HITS_PER_FILE),
  };
}

function groupOrder(a: CallSiteFile, b: CallSiteFile): number {
  const syntactic = (g: CallSiteFile) => g.hits.filter((h) => h.matchType !== "lexical_mention").length;
  return RANK[a.confidence] - RANK[b.confidence] || syntactic(b) - syntactic(a) || b.hitsTotal - a.hitsTotal || a.path.localeCompare(b.path);
}

/** Files whose references were not extracted syntactically: callers there are lexical mentions at best. */
function noteUnanalysed(files: FileRow[], coverage: Coverage): void {
  const groups = new Map<string, Coverage["noSyntacticReferences"][number]>();
  for (const f of files) {
    if (overParseLimit(f)) coverage.overLimits.push({ path: f.path, limit: "parse size", sizeBytes: f.sizeBytes, detail: f.symbolDetail });
    if (f.symbolExtractor === "tree-sitter" && f.symbolStatus === "ok") continue;
    const key = `${f.language}\u0000${f.symbolStatus}`;
    const g = groups.get(key) ?? { language: f.language ?? "unknown", symbolStatus: f.symbolStatus, reason: unanalysedReason(f), paths: [] };
    g.paths.push(f.path);
    groups.set(key, g);
  }
  coverage.noSyntacticReferences.push(...groups.values());
}

function unanalysedReason(f: FileRow): string {
  switch (f.symbolStatus) {
    case null:
      return "no symbol extraction for this kind of file: only lexical mentions are found";
    case "syntax_errors":
      return "parsed with syntax errors: references may be incomplete";
    case "no_grammar":
      return "no grammar: lexical definitions only, no references";
    default:
      return `extraction ${f.symbolStatus}${f.symbolDetail ? ` (${f.symbolDetail})` : ""}: lexical definitions only, no references`;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Risks, instructions and verifier commands.

async function riskHintsFor(ctx: QueryContext, paths: Set<string>, roleOf: (p: string) => Role, c: Collector): Promise<RiskHintItem[]> {
  const risk = await riskHintsOfFiles(ctx, [...paths].filter((p) => c.files.has(p)));
  if (risk.truncated) c.coverage.limitations.push(`risk hints are capped per file; a file with more lists its first ones`);
  return risk.hints
    .map((h) => ({ ...h, role: roleOf(h.path), contentHash: c.files.get(h.path)!.contentHash }))
    .sort((a, b) => RANK[a.confidence] - RANK[b.confidence] || (a.role === b.role ? 0 : a.role === "candidate" ? -1 : 1) || a.path.localeCompare(b.path));
}

function instructionsInForce(r: Awaited<ReturnType<typeof getInstructions>>["instructions"]): InstructionsInForce {
  const e = r.effective;
  return {
    outcome: r.outcome,
    ...(r.reason ? { reason: r.reason } : {}),
    effectiveInstructionHash: r.effectiveInstructionHash,
    forbiddenPaths: e.forbiddenPaths,
    forbiddenActions: e.forbiddenActions,
    forbiddenTargets: e.forbiddenTargets,
    commands: Object.values(e.commands).flat(),
    conflicts: r.conflicts,
    files: r.files.map((f) => ({ path: f.path, contentHash: f.contentHash, status: f.status, loadedFrom: f.loadedFrom, modifiedInWorkingTree: f.modifiedInWorkingTree })),
  };
}

function moduleHints(m: RepoModule, scope: "module" | "dependent_module", why: string): VerifierHint[] {
  const source = { kind: "manifest" as const, path: m.manifest, ...(m.commandSource ? { detail: m.commandSource } : {}) };
  const out: VerifierHint[] = [];
  if (m.testCommand) out.push({ command: m.testCommand, purpose: "test", scope, module: m.name, reason: `tests of module ${m.name}, ${why}`, source });
  if (m.buildCommand && scope === "module") out.push({ command: m.buildCommand, purpose: "build", scope, module: m.name, reason: `builds module ${m.name}, ${why}`, source });
  return out;
}

async function verifierHints(ctx: QueryContext, k: Knowledge, candidates: string[], tests: RelatedTest[], commands: EffectiveCommand[], c: Collector): Promise<VerifierHint[]> {
  const hints: VerifierHint[] = [];
  const modules = new Map<string, RepoModule>();
  for (const path of candidates) {
    const m = k.moduleOf(path);
    if (m && !modules.has(m.manifest)) {
      modules.set(m.manifest, m);
      hints.push(...moduleHints(m, "module", `which contains ${path}`));
    }
  }
  for (const m of [...modules.values()]) {
    for (const d of k.graph.modules.filter((x) => x.dependsOn.includes(m.name) && !modules.has(x.manifest))) {
      hints.push(...moduleHints(d, "dependent_module", `which depends on ${m.name}`));
    }
  }
  for (const t of tests) {
    if (!t.testCommandHint) continue;
    hints.push({ command: t.testCommandHint, purpose: "test", scope: "single_test", ...(t.module ? { module: t.module } : {}), confidence: t.confidence, reason: `runs ${t.path} (${t.reasons.join(", ")})`, source: { kind: "related_test", path: t.path } });
  }
  for (const cmd of commands) {
    const shown = `${cmd.appliesTo.slice(0, 3).join(", ")}${cmd.appliesTo.length > 3 ? ", …" : ""}`;
    hints.push({
      command: cmd.command,
      purpose: cmd.purpose,
      scope: "instruction",
      cwd: cmd.cwd,
      reason: `${cmd.layer} rule ${cmd.ruleId}, in force for ${shown}`,
      source: cmd.path ? { kind: "instruction_file", path: cmd.path, ...(cmd.line !== undefined ? { line: cmd.line } : {}) } : { kind: "operator_policy", detail: cmd.ruleId },
    });
  }
  // Manifests are cited as evidence: their rows give the label and the hash.
  for (const manifest of new Set(hints.filter((h) => h.source.kind === "manifest").map((h) => h.source.path!))) {
    const f = await ctx.store.getFile(ctx.index.id, manifest);
    if (f) keepFile(c, f);
  }
  return uniqueBy(hints, (h) => `${h.command}\u0000${h.source.path ?? h.source.detail}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Evidence for what the bundle finally holds.

function evidenceOf(
  b: ChangeImpactBundle,
  from: { tests: EvidenceDraft[]; owners: EvidenceDraft[]; instructions: EvidenceDraft[] },
  files: Map<string, FileRow>,
): EvidenceDraft[] {
  const out: EvidenceDraft[] = [];
  const whole = (f: FileRow | undefined, retrieval: EvidenceDraft["retrieval"]) => {
    if (f && f.skipReason === null) out.push({ path: f.path, startLine: 1, endLine: Math.max(1, f.lineCount ?? 1), contentHash: f.contentHash, retrieval });
  };
  for (const d of b.directFiles) if (d.skipReason === null) whole(files.get(d.path), "metadata");
  for (const g of b.callSites) {
    for (const h of g.hits) out.push({ path: g.path, startLine: h.startLine, endLine: h.endLine, contentHash: g.contentHash, retrieval: h.matchType === "lexical_mention" ? "lexical" : "syntactic" });
  }
  const tests = new Set(b.relatedTests.map((t) => t.path));
  out.push(...from.tests.filter((e) => tests.has(e.path)));
  for (const r of b.riskHints) out.push({ path: r.path, startLine: r.startLine, endLine: r.endLine, contentHash: r.contentHash, retrieval: "heuristic" });
  const ruleLines = new Set(b.ownerHints.flatMap((o) => o.rules.map((r) => `${r.source}:${r.line}`)));
  out.push(...from.owners.filter((e) => ruleLines.has(`${e.path}:${e.startLine}`)));
  // Instruction commands are cited by the instruction evidence below (every served rule's lines).
  for (const v of b.verifierHints) if (v.source.kind === "manifest") whole(files.get(v.source.path!), "metadata");
  out.push(...from.instructions);
  return uniqueBy(out, (e) => `${e.path}:${e.startLine}:${e.endLine}:${e.retrieval}`);
}
