import type { Envelope } from "../../mcp/envelope.js";
import { runTool } from "../../mcp/run-tool.js";
import { findTool } from "../../mcp/tools/index.js";
import type { ErrorCategory } from "../../query/errors.js";
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
