import type { Envelope } from "../../service/envelope.js";
import { runTool } from "../../service/run-tool.js";
import { findTool } from "../../mcp/tools/index.js";
import type { ErrorCategory } from "../../core/errors.js";
import { EXIT, exitCodeFor } from "../exit-codes.js";
import { serverDeps, type Setup } from "../setup.js";

/** CLI queries run through the same tool pipeline as MCP calls, so policy and projection apply identically. */
export async function callTool(s: Setup, name: string, args: Record<string, unknown>): Promise<Envelope> {
  const def = findTool(name);
  if (!def) throw new Error(`tool ${name} is not registered`);
  // A person reads the CLI's output: text is printed as it is, still redacted and labelled.
  return runTool(def, args, { ...(await serverDeps(s)), wrapText: false });
}

function printWarnings(env: Envelope, err: NodeJS.WritableStream): void {
  for (const w of env.warnings) err.write(`warning: ${w.code}: ${w.message}\n`);
}

/** Prints an envelope as JSON or as text and returns the exit code. */
export function report(
  env: Envelope,
  json: boolean,
  human: (data: Record<string, unknown>) => string,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): number {
  if (json) out.write(`${JSON.stringify(env, null, 2)}\n`);
  if (!env.ok) {
    const e = env.data.error as { category: ErrorCategory; message: string; hint?: string };
    if (!json) err.write(`error (${e.category}): ${e.message}${e.hint ? `\nhint: ${e.hint}` : ""}\n`);
    return exitCodeFor(e.category);
  }
  if (!json) {
    printWarnings(env, err);
    out.write(human(env.data));
  }
  return EXIT.ok;
}

interface Hit {
  startLine: number;
  matchLine: number;
  snippet: string;
}
interface Group {
  path: string;
  hits: Hit[];
  trustLevel?: string;
}

/** grep-like: a header per file, then `line: text` for each matching line. */
export function formatSearch(data: Record<string, unknown>): string {
  const groups = data.results as Group[];
  const stats = data.stats as { truncated: boolean; followUp?: string };
  const lines: string[] = [];
  for (const g of groups) {
    lines.push(`${g.path}  [${g.trustLevel ?? "unlabelled"}]`);
    for (const h of g.hits) {
      const text = h.snippet.split("\n")[h.matchLine - h.startLine] ?? "";
      lines.push(`  ${h.matchLine}: ${text.trim()}`);
    }
  }
  if (groups.length === 0) lines.push("no matches");
  if (stats.truncated) lines.push(`(truncated: ${stats.followUp ?? "more results exist"})`);
  return `${lines.join("\n")}\n`;
}

interface SymbolHitView {
  path: string;
  startLine: number;
  matchType: string;
  confidence: string;
  kind: string;
  qualifiedName?: string;
  enclosing?: string | null;
  snippet?: string;
}

/** `path:line  kind  qualified name or enclosing function  [match type, confidence]`, then the candidates if ambiguous. */
export function formatSymbol(data: Record<string, unknown>): string {
  const hits = data.hits as SymbolHitView[];
  const candidates = data.candidates as { qualifiedName: string; path: string; startLine: number }[];
  const lines = hits.map((h) => {
    const what = h.qualifiedName ?? (h.enclosing ? `in ${h.enclosing}` : "");
    return `${h.path}:${h.startLine}  ${h.kind}  ${what}  [${h.matchType}, ${h.confidence}]${h.snippet ? `\n    ${h.snippet}` : ""}`;
  });
  if (hits.length === 0) lines.push("no matches");
  if (candidates.length > 1) {
    lines.push("ambiguous name; candidates:");
    for (const c of candidates) lines.push(`  ${c.qualifiedName}  ${c.path}:${c.startLine}`);
  }
  return `${lines.join("\n")}\n`;
}

export function formatSlice(data: Record<string, unknown>): string {
  const slice = data.slice as { content: string | null; path: string; contentHash: string };
  return slice.content === null ? `(${slice.path}: no text content)\n` : `${slice.content}\n`;
}

/** `path  [confidence] reasons`, then the command that runs it. */
export function formatRelatedTests(data: Record<string, unknown>): string {
  const tests = data.tests as { path: string; confidence: string; reasons: string[]; testCommandHint: string | null }[];
  const stats = data.stats as { moduleTestCommands: { module: string; command: string | null }[] };
  const lines = tests.map((t) => `${t.path}  [${t.confidence}] ${t.reasons.join(", ")}${t.testCommandHint ? `\n    $ ${t.testCommandHint}` : ""}`);
  if (tests.length === 0) lines.push("no related tests found");
  for (const m of stats.moduleTestCommands) if (m.command) lines.push(`module ${m.module}: $ ${m.command}`);
  return `${lines.join("\n")}\n`;
}

/** `path  owners (reviewers)  ← rule at file:line [confidence]`, then the suggested reviewers. */
export function formatOwnership(data: Record<string, unknown>): string {
  const paths = data.paths as { path: string; owners: string[]; reviewers: string[]; rules: { pattern: string; source: string; line: number }[]; confidence: string }[];
  const lines = paths.map((p) => {
    const who = p.owners.length > 0 ? p.owners.join(" ") : "(unowned)";
    const rev = p.reviewers.length > 0 ? ` (reviewers: ${p.reviewers.join(" ")})` : "";
    const rule = p.rules.map((r) => `${r.pattern} at ${r.source}:${r.line}`).join("; ");
    return `${p.path}  ${who}${rev}${rule ? `  <- ${rule}` : ""}  [${p.confidence}]`;
  });
  const suggested = data.suggestedReviewers as string[];
  if (suggested.length > 0) lines.push(`suggested reviewers: ${suggested.join(" ")}`);
  return `${lines.join("\n")}\n`;
}

interface ImpactView {
  directFiles: { path: string; indexed: boolean; language: string | null; lines: number | null; module: string | null; skipReason: string | null; symbolsTotal: number }[];
  callSites: { path: string; confidence: string; hitsTotal: number; hits: { startLine: number; enclosing: string | null; matchType: string; snippet?: string }[] }[];
  relatedTests: { path: string; confidence: string; reasons: string[]; testCommandHint: string | null }[];
  ownerHints: { path: string; role: string; owners: string[] }[];
  riskHints: { category: string; confidence: string; path: string; startLine: number; reason: string }[];
  verifierHints: { command: string; purpose: string; scope: string; source: { kind: string; path?: string; line?: number } }[];
  instructions: { outcome: string; effectiveInstructionHash: string; forbiddenPaths: { glob: string; ruleId: string }[]; forbiddenActions: { action: string }[] };
  coverage: {
    notIndexed: { path: string; reason: string }[];
    skipped: { path: string; skipReason: string }[];
    overLimits: { path: string; limit: string; sizeBytes: number }[];
    noSyntacticReferences: { language: string; reason: string; paths: string[] }[];
    symbolsNotFound: string[];
    ambiguousSymbols: { symbol: string; candidates: unknown[] }[];
    truncated: { list: string; total: number | null; shown: number; reason: string }[];
    limitations: string[];
  };
}

function section(title: string, rows: string[]): string[] {
  return rows.length > 0 ? [`${title}:`, ...rows.map((r) => `  ${r}`)] : [];
}

/** The bundle section by section, then what was not analysed: a person sees the gaps as plainly as the hits. */
export function formatChangeImpact(data: Record<string, unknown>): string {
  const b = data.bundle as ImpactView;
  const c = b.coverage;
  const direct = b.directFiles.map((d) =>
    !d.indexed ? `${d.path}  (not indexed)` : d.skipReason ? `${d.path}  (skipped: ${d.skipReason})` : `${d.path}  ${d.language ?? "?"}, ${d.lines ?? "?"} lines, module ${d.module ?? "-"}, ${d.symbolsTotal} symbols`,
  );
  const calls = b.callSites.flatMap((g) => [
    `${g.path}  [${g.confidence}]`,
    ...g.hits.map((h) => `  ${h.startLine}: ${h.snippet ?? ""}  (${h.enclosing ? `in ${h.enclosing}, ` : ""}${h.matchType})`),
    ...(g.hitsTotal > g.hits.length ? [`  … ${g.hitsTotal - g.hits.length} more`] : []),
  ]);
  const tests = b.relatedTests.map((t) => `${t.path}  [${t.confidence}] ${t.reasons.join(", ")}`);
  const owners = b.ownerHints.map((o) => `${o.path}  ${o.owners.join(" ") || "(unowned)"}  (${o.role})`);
  const risks = b.riskHints.map((r) => `[${r.confidence}] ${r.category}  ${r.path}:${r.startLine}  ${r.reason}`);
  const verify = b.verifierHints.map((v) => `$ ${v.command}  (${v.purpose}, ${v.scope}; from ${v.source.path ?? v.source.kind}${v.source.line ? `:${v.source.line}` : ""})`);
  const rules = [
    `outcome ${b.instructions.outcome}, ${b.instructions.effectiveInstructionHash}`,
    ...b.instructions.forbiddenPaths.map((f) => `forbidden path ${f.glob}  (${f.ruleId})`),
    ...(b.instructions.forbiddenActions.length > 0 ? [`forbidden actions: ${b.instructions.forbiddenActions.map((a) => a.action).join(", ")}`] : []),
  ];
  const gaps = [
    ...c.notIndexed.map((n) => `not indexed: ${n.path}  (${n.reason})`),
    ...c.skipped.map((s) => `skipped: ${s.path}  (${s.skipReason})`),
    ...c.overLimits.map((o) => `over ${o.limit} limit: ${o.path}  (${o.sizeBytes} bytes)`),
    ...c.noSyntacticReferences.map((n) => `no syntactic references in ${n.language}: ${n.paths.join(", ")}  (${n.reason})`),
    ...c.symbolsNotFound.map((s) => `symbol not found: ${s}`),
    ...c.ambiguousSymbols.map((a) => `ambiguous symbol: ${a.symbol} (${a.candidates.length} definitions)`),
    ...c.truncated.map((t) => `truncated: ${t.list}  ${t.shown} of ${t.total ?? "more"} (${t.reason})`),
    ...c.limitations,
  ];
  const lines = [
    ...section("candidate files", direct),
    ...section("call sites", calls),
    ...section("related tests", tests),
    ...section("owners", owners),
    ...section("risks", risks),
    ...section("verifier hints", verify),
    ...section("instructions", rules),
    ...section("not analysed", gaps),
  ];
  return `${lines.join("\n")}\n`;
}

export function formatJson(data: Record<string, unknown>): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}

/** `a:b`, `a:` or `a` as a line range. */
export function parseLineRange(spec: string | undefined): { startLine?: number; endLine?: number } {
  if (!spec) return {};
  const m = /^(\d+)?(?::(\d+)?)?$/.exec(spec.trim());
  if (!m) return { startLine: Number.NaN };
  return { ...(m[1] ? { startLine: Number(m[1]) } : {}), ...(m[2] ? { endLine: Number(m[2]) } : {}) };
}
