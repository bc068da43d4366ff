import type { OwnershipRule } from "../../core/knowledge.js";
import { labelInputOf, type QueryContext, type QueryResult } from "../context.js";
import type { LabelInput } from "../../policy/labels.js";
import { knowledgeOf, requirePath } from "./load.js";
import type { EvidenceDraft, Warning } from "../../core/evidence.js";

export interface OwnershipItem {
  path: string;
  /** Whether the path is a file or folder of the indexed commit (a planned new file may be asked about too). */
  indexed: boolean;
  owners: string[];
  reviewers: string[];
  /** The rule that decided, per section (one in a file without sections): pattern, file and line. */
  rules: { pattern: string; source: string; line: number; section: string | null; optional: boolean }[];
  source: "CODEOWNERS" | null;
  confidence: "high" | "medium" | "none";
  unowned: boolean;
}

export interface OwnershipStats {
  truncated: false;
  codeownersFile: string | null;
  shadowedFiles: string[];
  suggestedReviewers: string[];
}

function ruleRef(r: OwnershipRule): OwnershipItem["rules"][number] {
  return { pattern: r.pattern, source: r.source, line: r.line, section: r.section, optional: r.optional };
}

/**
 * Owners and reviewers of each path from the CODEOWNERS file in force (last matching rule wins per section), with
 * the rule and line that decided. A hint for review routing, never an approval.
 */
export async function getOwnership(ctx: QueryContext, input: { paths: string[] }): Promise<QueryResult<OwnershipItem> & { stats: OwnershipStats }> {
  const k = await knowledgeOf(ctx);
  const paths = [...new Set(input.paths.map(requirePath))];
  const labels = new Map<string, LabelInput>();
  const evidence: EvidenceDraft[] = [];
  const warnings: Warning[] = [];
  const file = k.ownership.path === null ? null : await ctx.store.getFile(ctx.index.id, k.ownership.path);
  if (file) labels.set(file.path, labelInputOf(file));
  if (k.ownership.path === null) {
    warnings.push({ code: "no_codeowners", message: "the repository has no CODEOWNERS file (.github/, root, docs/ or .gitlab/): no path has an owner" });
  }
  if (k.ownership.warnings.length > 0) {
    const lines = k.ownership.warnings.map((w) => w.line).filter((n): n is number => n !== null);
    warnings.push({
      code: "codeowners_invalid_lines",
      message: `${k.ownership.path} has ${k.ownership.warnings.length} line(s) that could not be fully read (line ${lines.join(", ")}); repo://ownership lists them`,
    });
  }
  const counted = new Map<string, number>();
  const cited = new Set<number>();
  const items: OwnershipItem[] = [];
  for (const path of paths) {
    const row = await ctx.store.getFile(ctx.index.id, path);
    if (row) labels.set(row.path, labelInputOf(row));
    const indexed = row !== null || (await ctx.store.listFiles(ctx.index.id, { pathPrefix: `${path}/`, includeSkipped: true })).length > 0;
    // A folder is asked about as a folder, so `dir/` rules match it.
    const d = k.owners(row === null && indexed ? `${path}/` : path);
    for (const who of [...d.owners, ...d.reviewers]) counted.set(who, (counted.get(who) ?? 0) + 1);
    if (file) {
      for (const r of d.rules) {
        if (cited.has(r.line)) continue;
        cited.add(r.line);
        evidence.push({ path: file.path, startLine: r.line, endLine: r.line, contentHash: file.contentHash, retrieval: "metadata" });
      }
    }
    items.push({
      path,
      indexed,
      owners: d.owners,
      reviewers: d.reviewers,
      rules: d.rules.map(ruleRef),
      source: d.rules.length > 0 ? "CODEOWNERS" : null,
      confidence: d.confidence,
      unowned: d.unowned,
    });
  }
  const unowned = items.filter((i) => i.unowned).map((i) => i.path);
  if (unowned.length > 0 && k.ownership.path !== null) {
    warnings.push({ code: "unowned_path", message: `no owner for ${unowned.length} path(s): ${unowned.slice(0, 10).join(", ")}${unowned.length > 10 ? ", …" : ""}` });
  }
  const suggestedReviewers = [...counted.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([who]) => who);
  return {
    items,
    stats: { truncated: false, codeownersFile: k.ownership.path, shadowedFiles: k.ownership.shadowed, suggestedReviewers },
    evidence,
    labels,
    warnings,
  };
}
