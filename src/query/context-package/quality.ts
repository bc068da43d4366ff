import type { ResolvedInstructions } from "../instructions/resolved.js";
import type { PackageConstraints, PackageTask } from "./build.js";
import type { OutputContract } from "./output-contracts.js";
import { PRIORITY_ORDER, type ContextBlock, type ContextPurpose } from "./types.js";

export type QualityCode =
  | "no_acceptance_criteria"
  | "no_path_constraints"
  | "evidence_without_source"
  | "no_evidence"
  | "repository_instructions_outrank_policy"
  | "output_contract_unverifiable"
  | "instruction_conflict";

export interface QualityVerdict {
  accepted: boolean;
  reasons: { code: QualityCode; message: string }[];
}

export interface PackageUnderReview {
  purpose: ContextPurpose;
  task: Pick<PackageTask, "acceptanceCriteria">;
  constraints: Pick<PackageConstraints, "allowedPaths" | "forbiddenPaths">;
  blocks: readonly Pick<ContextBlock, "kind" | "role" | "priority" | "evidence">[];
  outputContract: Pick<OutputContract, "format" | "schema" | "requirements">;
  outcome: ResolvedInstructions["outcome"];
}

/** Purposes whose answer rests on code or diff evidence: a package without any cannot serve them. */
const NEEDS_EVIDENCE: ReadonlySet<ContextPurpose> = new Set(["editing", "verification_repair", "judging"]);
const POLICY_KINDS = new Set(["platform_policy", "operator_policy", "task_contract", "policy_violations", "output_contract"]);

/**
 * Part 032 §25: a package is rejected, with reasons, when it has no acceptance criteria, no allowed or forbidden
 * paths, evidence without a source, repository instructions placed above policy, or an output contract that
 * cannot be validated. The verdict informs; the caller decides what to do with a rejected package.
 */
export function judgePackage(p: PackageUnderReview): QualityVerdict {
  const reasons: QualityVerdict["reasons"] = [];
  if (p.task.acceptanceCriteria.length === 0) {
    reasons.push({ code: "no_acceptance_criteria", message: "no acceptance criteria: pass contract.acceptanceCriteria or a taskId whose text has them" });
  }
  if (p.constraints.allowedPaths.length === 0 && p.constraints.forbiddenPaths.length === 0) {
    reasons.push({ code: "no_path_constraints", message: "neither allowed nor forbidden paths: pass contract.allowedPaths or contract.forbiddenPaths (or configure operator forbidPaths)" });
  }
  const unsourced = p.blocks.filter((b) => b.evidence && (!b.evidence.path || !b.evidence.hash || !(b.evidence.startLine >= 1) || b.evidence.endLine < b.evidence.startLine));
  if (unsourced.length > 0) {
    reasons.push({ code: "evidence_without_source", message: `${unsourced.length} evidence block(s) lack a path, line range or content hash` });
  }
  if (NEEDS_EVIDENCE.has(p.purpose) && !p.blocks.some((b) => b.evidence || b.kind === "diff_hunks" || b.kind === "diff_summary")) {
    reasons.push({ code: "no_evidence", message: `a ${p.purpose} package holds no code or diff evidence: name candidatePaths or symbols, or raise the budget` });
  }
  if (outranks(p.blocks)) {
    reasons.push({ code: "repository_instructions_outrank_policy", message: "repository instructions appear with policy authority (system role or before a policy block)" });
  }
  if (!p.outputContract.format || (p.outputContract.format === "json" && !p.outputContract.schema) || p.outputContract.requirements.length === 0) {
    reasons.push({ code: "output_contract_unverifiable", message: "the output contract has no format, schema or requirements to validate an answer against" });
  }
  if (p.outcome === "needs_human") {
    reasons.push({ code: "instruction_conflict", message: "the instructions in force conflict at the same level (needs_human); resolve before acting" });
  }
  return { accepted: reasons.length === 0, reasons };
}

function outranks(blocks: PackageUnderReview["blocks"]): boolean {
  const rank = (b: PackageUnderReview["blocks"][number]) => PRIORITY_ORDER.indexOf(b.priority);
  const lastPolicy = Math.max(-1, ...blocks.map((b, i) => (POLICY_KINDS.has(b.kind) ? i : -1)));
  return blocks.some((b, i) => b.kind === "repo_instruction" && (b.role === "system" || i < lastPolicy || rank(b) <= PRIORITY_ORDER.indexOf("safety_policy")));
}
