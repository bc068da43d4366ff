import type { InstructionPolicy } from "../../config/schema.js";
import type { InstructionFile, InstructionLint, InstructionRule } from "../../core/instructions.js";
import { depthOf } from "./layers.js";

// Size limits (the operator's): applied when rules are served.

export type InstructionFileStatus = "loaded" | "summarized" | "refused";

export interface LimitedInstructionFile extends InstructionFile {
  status: InstructionFileStatus;
  statusReason: string | null;
  /** Rules of the file in force under the limits (all, the essential ones, or none). */
  servedRules: InstructionRule[];
}

/** Files longer than this many lines are flagged FILE_TOO_LONG even under the byte limit. */
export const MAX_INSTRUCTION_LINES = 500;

function essentialBytes(rules: readonly InstructionRule[]): number {
  return rules.filter((r) => r.essential).reduce((n, r) => n + Buffer.byteLength(r.text) + 1, 0);
}

/**
 * Per-file and total limits: a file over the per-file limit is summarized (only commands, forbidden paths and
 * actions, safety and suspicious lines, each with its lines), over four times the limit refused; over the total
 * budget, files further from the root are summarized and then refused first. Every file says what happened.
 */
export function applyInstructionLimits(files: readonly InstructionFile[], policy: Pick<InstructionPolicy, "maxInstructionFileBytes" | "maxInstructionTotalBytes">): LimitedInstructionFile[] {
  const max = policy.maxInstructionFileBytes;
  const order = [...files].sort((a, b) => depthOf(a.scope) - depthOf(b.scope) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  let used = 0;
  const out = new Map<string, LimitedInstructionFile>();
  for (const f of order) {
    const lint: InstructionLint[] = [...f.lint];
    if (f.bytes > max) {
      lint.push({ ruleId: "FILE_TOO_LONG", path: f.path, line: 1, message: `${f.bytes} bytes, over the ${max}-byte limit per instruction file`, suggestion: "Keep instruction files short: build/test commands, forbidden areas, PR expectations." });
    } else if (f.lineCount > MAX_INSTRUCTION_LINES) {
      lint.push({ ruleId: "FILE_TOO_LONG", path: f.path, line: MAX_INSTRUCTION_LINES + 1, message: `${f.lineCount} lines: long instruction files add noise, cost and conflicts`, suggestion: "Move history and background to docs; keep operational rules." });
    }
    let status: InstructionFileStatus;
    let statusReason: string | null = null;
    let served: InstructionRule[];
    if (f.loadedFrom === "not_loaded") {
      status = "refused";
      statusReason = f.notLoadedReason ?? "not loaded";
      served = [];
    } else if (f.bytes > 4 * max) {
      status = "refused";
      statusReason = `${f.bytes} bytes is over four times the per-file limit (${max} bytes): refused, none of its rules are used`;
      served = [];
    } else if (f.bytes > max) {
      status = "summarized";
      statusReason = `${f.bytes} bytes is over the per-file limit (${max} bytes): summarized to its commands, forbidden paths and actions and safety lines`;
      served = f.rules.filter((r) => r.essential);
    } else {
      status = "loaded";
      served = [...f.rules];
    }
    let cost = status === "loaded" ? f.bytes : status === "summarized" ? essentialBytes(f.rules) : 0;
    if (cost > 0 && used + cost > policy.maxInstructionTotalBytes) {
      const summary = essentialBytes(f.rules);
      if (used + summary <= policy.maxInstructionTotalBytes) {
        status = "summarized";
        statusReason = `over the total instruction budget (${policy.maxInstructionTotalBytes} bytes): summarized to its commands, forbidden paths and actions and safety lines`;
        served = f.rules.filter((r) => r.essential);
        cost = summary;
      } else {
        status = "refused";
        statusReason = `over the total instruction budget (${policy.maxInstructionTotalBytes} bytes): refused, none of its rules are used`;
        served = [];
        cost = 0;
      }
    }
    used += cost;
    out.set(f.path, { ...f, lint, status, statusReason, servedRules: served });
  }
  return files.map((f) => out.get(f.path)!);
}
