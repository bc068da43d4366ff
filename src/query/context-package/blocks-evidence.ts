/** Diff, verifier output, ownership, risk and documents as context-package blocks. */
import { isTestPath } from "../../policy/labels.js";
import { redactText } from "../../policy/redact.js";
import type { SymbolRow } from "../../store/store.js";
import type { QueryContext } from "../context.js";
import { repoRelativePath } from "../paths.js";
import { knowledgeOf } from "../knowledge/load.js";
import { getOwnership } from "../knowledge/ownership.js";
import { riskHintsFor } from "../knowledge/risk-map.js";
import type { Candidate } from "./budget.js";
import type { ParsedDiff } from "./diff.js";
import { diffSummary, type DiffViolation } from "./diff-rules.js";
import { FileReader, evidenceFor, guardText } from "./excerpts.js";
import type { VerifierLogSummary } from "./verifier-log.js";
import type { Priority } from "./types.js";
import { excerptCandidate, spansAround, titleFor } from "./blocks-code.js";

const MAX_DOCS = 3;
const MAX_DOC_HEADINGS = 12;
const DOCS_SCANNED = 300;
const MAX_HINTS = 15;
const MAX_FAILURE_LOCATIONS = 5;

/**
 * Diff files whose text is not shown: secret-suspect in the index (unless the read policy includes them), or named
 * like a secret. A diff is the caller's text, but the read policy is the operator's, and it applies to it as well.
 */
export async function secretPaths(ctx: QueryContext, diff: ParsedDiff): Promise<Set<string>> {
  const out = new Set<string>();
  for (const f of diff.files) {
    for (const p of [f.oldPath, f.newPath]) {
      if (!p) continue;
      const row = await ctx.store.getFile(ctx.index.id, p);
      if ((row?.isSecretSuspect && !ctx.policy.includeSecretSuspectFiles) || redactText(p).text !== p) out.add(f.path);
    }
  }
  return out;
}

export function diffBlocks(diff: ParsedDiff, violations: DiffViolation[], hidden: Set<string>): Candidate[] {
  const summary = diffSummary(diff);
  const head = `${diff.files.length} file(s) changed, +${diff.totalAdded} −${diff.totalRemoved}${diff.truncated ? " (diff cut at its limits)" : ""}`;
  const s = guardText([head, ...summary].join("\n"), "tool_output", { source: "diff" });
  const sr = guardText([head, ...summary.slice(0, 10), ...(summary.length > 10 ? [`… ${summary.length - 10} more`] : [])].join("\n"), "tool_output", { source: "diff" });
  const out: Candidate[] = [{ priority: "code_evidence", role: "user", kind: "diff_summary", title: "Diff summary", forms: [{ form: "full", text: s.text }, { form: "reduced", text: sr.text }], trustLevel: "tool_output", reason: "what the change touches", mandatory: true, flagged: s.flaggedSpans }];
  const violating = new Set(violations.map((v) => v.path).filter((p): p is string => !!p));
  const files = [...diff.files].sort((a, b) => Number(violating.has(b.path)) - Number(violating.has(a.path)));
  for (const f of files) {
    const hunks = hidden.has(f.path) ? "(the hunks of a file the read policy treats as holding secrets are not shown)" : f.hunks.map((h) => h.text).join("\n");
    const full = guardText(hunks || "(no text hunks)", "tool_output", { source: `diff:${f.path}` });
    const reduced = guardText(f.hunks.map((h) => `${h.header} (+${h.added} −${h.removed})`).join("\n") || "(no text hunks)", "tool_output", { source: `diff:${f.path}` });
    out.push({
      priority: "code_evidence",
      role: "user",
      kind: "diff_hunks",
      title: `Diff of ${redactText(f.path).text} (${f.status}, +${f.added} −${f.removed})${violating.has(f.path) ? " — VIOLATES POLICY" : ""}`,
      forms: [{ form: "full", text: full.text }, { form: "reduced", text: reduced.text }, { form: "pointer", text: `(${f.hunks.length} hunk(s) not included for budget)` }],
      trustLevel: full.trustLevel,
      reason: "the change under review",
      flagged: full.flaggedSpans,
    });
  }
  return out;
}

export async function failureBlocks(ctx: QueryContext, reader: FileReader, log: VerifierLogSummary, scope: string[], isWorkingTree: (p: string) => boolean): Promise<Candidate[]> {
  const failures = log.failures.map((f) => `- ${f.test}${f.message ? `: ${f.message}` : ""} (log line ${f.line})`);
  const head = [`Verifier ${log.command ? `\`${log.command}\`` : "output"}: ${log.lineCount} lines${log.exitCode !== null ? `, exit code ${log.exitCode}` : ""}; ${log.failures.length} failure(s).`, ...failures];
  const locs = log.locations.slice(0, 10).map((l) => `- ${l.path}:${l.line}${l.column ? `:${l.column}` : ""} ${l.text}`);
  const excerpt = log.errorExcerpt ? [`Log lines ${log.errorExcerpt.startLine}-${log.errorExcerpt.endLine}:`, log.errorExcerpt.text] : [];
  const pointer = "The full log is the caller's; it is not stored by repoctx.";
  const forms = [
    [...head, ...(locs.length ? ["Locations:", ...locs] : []), ...excerpt, pointer],
    [...head, ...(locs.length ? ["Locations:", ...locs.slice(0, 3)] : []), pointer],
    [head[0]!, ...failures.slice(0, 3)],
  ].map((lines, i) => ({ form: (i === 0 ? "full" : "reduced") as "full" | "reduced", text: guardText(lines.join("\n"), "tool_output", { source: "verifier output" }).text }));
  const out: Candidate[] = [{ priority: "build_test_evidence", role: "user", kind: "failure_summary", title: "Failure summary", forms, trustLevel: "tool_output", reason: "what failed and where", mandatory: true }];
  for (const loc of log.locations.slice(0, MAX_FAILURE_LOCATIONS)) {
    const path = await locate(ctx, loc.path, scope);
    if (!path) continue;
    const f = await reader.read(path);
    if (!f || loc.line > f.lines.length) continue;
    const { spans } = await spansAround(ctx, f, [loc.line]);
    out.push(excerptCandidate(f, spans, { priority: "build_test_evidence", kind: "failure_location", why: `failure location ${path}:${loc.line}`, reducedSpans: [{ start: loc.line, end: loc.line }], workingTree: isWorkingTree(path), retrieval: "heuristic" }));
  }
  return out;
}

/** A path from a log (absolute, relative, or a Java package path) as an indexed path, preferring changed files. */
export async function locate(ctx: QueryContext, raw: string, scope: string[]): Promise<string | null> {
  const rel = repoRelativePath(ctx.index.rootPath, raw);
  if (!rel.startsWith("/") && (await ctx.store.getFile(ctx.index.id, rel))) return rel;
  const suffix = `/${rel.replace(/^\/+/, "")}`;
  return scope.find((p) => `/${p}`.endsWith(suffix)) ?? null;
}

// ---------------------------------------------------------------------------------------------------------------
// Ownership, risk, documents.

export async function ownershipBlocks(ctx: QueryContext, scope: string[], priority: Priority): Promise<Candidate[]> {
  if (scope.length === 0) return [];
  const r = await getOwnership(ctx, { paths: scope.slice(0, 50) });
  const lines = r.items.map((o) => `- ${o.path}: ${o.unowned ? "unowned" : o.owners.join(" ") || "no owner"}${o.reviewers.length ? `; reviewers ${o.reviewers.join(" ")}` : ""}${o.rules[0] ? ` (${o.rules[0].source}:${o.rules[0].line} ${o.rules[0].pattern})` : ""}`);
  if (lines.length === 0) return [];
  const g = guardText(["Owners (review routing hints, not approvals):", ...lines].join("\n"), "repo_metadata", { source: r.stats.codeownersFile ?? "CODEOWNERS" });
  return [{ priority, role: "user", kind: "ownership", title: "Ownership", forms: [{ form: "full", text: g.text }], trustLevel: "repo_metadata", reason: "who reviews changes to these paths" }];
}

export async function riskBlocks(ctx: QueryContext, scope: string[]): Promise<Candidate[]> {
  const { hints: all } = await riskHintsFor(ctx, scope);
  const hints = all.slice(0, MAX_HINTS);
  if (hints.length === 0) return [];
  const g = guardText(["Risk hints (heuristics, not verdicts):", ...hints.map((h) => `- ${h.category} ${h.path}:${h.startLine} — ${h.reason} (${h.confidence})`)].join("\n"), "tool_output", { source: "risk map" });
  return [{ priority: "code_evidence", role: "user", kind: "risk", title: "Risk", forms: [{ form: "full", text: g.text }], trustLevel: "tool_output", reason: "risky areas among these paths" }];
}

/** Documents that name the targets or the candidate files: outline plus a pointer, never the whole text. */
export async function docBlocks(ctx: QueryContext, reader: FileReader, scope: string[], targets: SymbolRow[]): Promise<Candidate[]> {
  const k = await knowledgeOf(ctx);
  const terms = [...new Set([...targets.map((t) => t.name), ...scope.map((p) => p.split("/").pop()!.replace(/\.[^.]+$/, "")).filter((n) => n.length >= 4)])];
  if (terms.length === 0) return [];
  const docs = (await k.docs()).filter((d) => !isTestPath(d.path)).slice(0, DOCS_SCANNED);
  const out: Candidate[] = [];
  for (const d of docs) {
    if (out.length >= MAX_DOCS) break;
    const f = await reader.read(d.path);
    if (!f) continue;
    const named = terms.filter((t) => f.content.includes(t));
    if (named.length === 0) continue;
    const headings = d.headings.slice(0, MAX_DOC_HEADINGS).map((h) => `${"  ".repeat(Math.max(0, h.level - 1))}- ${h.text} (line ${h.line})`);
    const body = [`${d.title ?? d.path} — mentions ${named.join(", ")}`, ...headings, `Full text: resource repo://docs/${encodeURIComponent(d.docId)}`].join("\n");
    const g = guardText(body, f.trustLevel, { source: d.path }, f.content);
    const span = [{ start: 1, end: Math.max(1, f.lines.length) }];
    out.push({ priority: "optional_docs", role: "user", kind: "doc_summary", title: titleFor(f, span, "document outline"), forms: [{ form: "full", text: g.text }], trustLevel: g.trustLevel, reason: `names ${named.join(", ")}`, evidence: evidenceFor(f, span, "doc_summary", false), retrieval: "lexical", flagged: g.flaggedSpans });
  }
  return out;
}
