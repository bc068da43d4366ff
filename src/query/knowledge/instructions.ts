import type { InstructionPolicy } from "../../config/schema.js";
import { INSTRUCTION_HARD_CAP_BYTES } from "../../indexer/knowledge/instructions/load.js";
import type { LabelInput } from "../../policy/labels.js";
import { readFileInsideRoot } from "../../policy/path-guard.js";
import type { QueryContext } from "../context.js";
import type { ResolvedInstructions } from "../instructions/resolved.js";
import type { ResolverRule } from "../instructions/layers.js";
import { PLATFORM_SAFETY_RULES, fileRules, operatorRules, taskContractRules, userTaskRules, type TaskContract } from "../instructions/rule-sources.js";
import { applyInstructionLimits, type LimitedInstructionFile } from "../instructions/limits.js";
import { resolveInstructions } from "../instructions/resolve.js";
import { mayHoldSecret, withholdText } from "../instructions/withhold.js";
import { requirePath } from "./load.js";
import { sha256 } from "../../core/hash.js";
import type { InstructionLint } from "../../core/instructions.js";
import type { EvidenceDraft, Warning, WithheldReason } from "../../core/evidence.js";

/** Evidence items (rule line ranges) one answer cites at most. */
const MAX_EVIDENCE = 200;
/** Modified or uncommitted files named in one warning before "…". */
const MAX_NAMED = 10;

export interface InstructionEnv {
  root: string;
  policy: InstructionPolicy;
}

/** What a client sees of a file: provenance and what the limits did to it. */
export interface InstructionFileView {
  path: string;
  scope: string;
  layer: "repository_instruction" | "directory_instruction";
  sourceKind: string;
  trusted: boolean;
  loadedFrom: string;
  commit: string | null;
  contentHash: string | null;
  bytes: number;
  lineCount: number;
  status: string;
  statusReason: string | null;
  modifiedInWorkingTree: boolean;
  workingTree: string;
  rules: number;
  servedRules: number;
  /** Present when the file's text is not served. */
  withheld?: WithheldReason;
}

function view(f: LimitedInstructionFile): InstructionFileView {
  return {
    path: f.path,
    scope: f.scope,
    layer: f.scope === "" ? "repository_instruction" : "directory_instruction",
    sourceKind: f.sourceKind,
    trusted: f.trusted,
    loadedFrom: f.loadedFrom,
    commit: f.commit,
    contentHash: f.contentHash,
    bytes: f.bytes,
    lineCount: f.lineCount,
    status: f.status,
    statusReason: f.statusReason,
    modifiedInWorkingTree: f.modifiedInWorkingTree,
    workingTree: f.workingTree,
    rules: f.rules.length,
    servedRules: f.servedRules.length,
    ...(f.withheld ? { withheld: f.withheld } : {}),
  };
}

function applies(scope: string, targets: string[]): boolean {
  return scope === "" || targets.some((t) => t === scope || t.startsWith(`${scope}/`));
}

/**
 * Compares committed instruction files with the work tree now (edits after indexing count too). What is no longer a
 * regular file there (a directory, FIFO or device) counts as deleted and is never read; a symlink now, as modified.
 */
async function markWorkingTreeChanges(root: string, files: LimitedInstructionFile[]): Promise<void> {
  for (const f of files) {
    if (f.loadedFrom !== "base_commit" || f.contentHash === null) continue;
    const read = await readFileInsideRoot(root, f.path, INSTRUCTION_HARD_CAP_BYTES);
    const same = read.ok && read.realRelPath === f.path && sha256(read.bytes) === f.contentHash;
    f.workingTree = same ? "unchanged" : read.ok || read.reason === "too_large" ? "modified" : "deleted";
    f.modifiedInWorkingTree = !same;
  }
}

/**
 * The index's instruction files as they may be served: a file that may hold a secret loses its text (see
 * withhold.ts) unless the operator's read policy includes secret-suspect files; then the size limits apply.
 */
async function servedInstructionFiles(ctx: QueryContext, policy: InstructionPolicy): Promise<LimitedInstructionFile[]> {
  const files = await ctx.store.listInstructionFiles(ctx.index.id);
  const shown = ctx.policy.includeSecretSuspectFiles
    ? files
    : await Promise.all(files.map(async (f) => (mayHoldSecret(f, await ctx.store.getFile(ctx.index.id, f.path)) ? withholdText(f) : f)));
  return applyInstructionLimits(shown, policy);
}

function named(paths: string[]): string {
  return `${paths.slice(0, MAX_NAMED).join(", ")}${paths.length > MAX_NAMED ? ", …" : ""}`;
}

function fileWarnings(files: LimitedInstructionFile[]): Warning[] {
  const warnings: Warning[] = [];
  const modified = files.filter((f) => f.loadedFrom === "base_commit" && f.modifiedInWorkingTree).map((f) => f.path);
  if (modified.length > 0) {
    warnings.push({
      code: "instruction_file_modified",
      message: `instruction file(s) differ from the indexed commit in the work tree (${named(modified)}): the committed text stays in force; a change to instruction files needs human review`,
    });
  }
  const uncommitted = files.filter((f) => f.workingTree === "untracked").map((f) => f.path);
  if (uncommitted.length > 0) {
    warnings.push({ code: "instruction_file_uncommitted", message: `uncommitted instruction file(s) are not loaded (${named(uncommitted)}): commit them to have them apply` });
  }
  if (files.some((f) => f.loadedFrom === "working_tree")) {
    warnings.push({ code: "instructions_from_working_tree", message: "not a git repository (or no commit yet): instruction files were read from the work tree, not from a fixed commit" });
  }
  const withheld = files.filter((f) => f.withheld).map((f) => f.path);
  if (withheld.length > 0) {
    warnings.push({
      code: "instruction_file_withheld",
      message: `instruction file(s) marked secret-suspect (${named(withheld)}): their rules are listed with their lines, their text is withheld; the actions and paths they forbid stay in force, their commands do not. Remove the secret from the file, or have the operator's read policy include secret-suspect files`,
    });
  }
  for (const f of files) {
    if (f.status === "summarized" || (f.status === "refused" && f.workingTree !== "untracked")) {
      warnings.push({ code: `instruction_file_${f.status}`, message: `${f.path}: ${f.statusReason}` });
    }
  }
  return warnings;
}

function lintWarnings(lint: InstructionLint[]): Warning[] {
  const stale = lint.filter((l) => l.ruleId === "STALE_COMMAND");
  const other = lint.filter((l) => l.ruleId !== "STALE_COMMAND");
  const out: Warning[] = [];
  if (stale.length > 0) {
    out.push({ code: "stale_instruction_command", message: `${stale.length} instruction command(s) cannot work in this repository and are not offered: ${stale.slice(0, 5).map((l) => `${l.path}:${l.line} ${l.message}`).join("; ")}` });
  }
  if (other.length > 0) {
    out.push({ code: "instruction_lint", message: `${other.length} instruction lint finding(s): ${[...new Set(other.map((l) => `${l.path}:${l.line} ${l.ruleId}`))].slice(0, 10).join(", ")}` });
  }
  return out;
}

function labelsFor(files: LimitedInstructionFile[]): Map<string, LabelInput> {
  return new Map(files.map((f) => [f.path, { path: f.path, isGenerated: false, hasInstructionLikeText: false }]));
}

function evidenceFor(files: LimitedInstructionFile[]): { evidence: EvidenceDraft[]; truncated: boolean } {
  const evidence: EvidenceDraft[] = [];
  let truncated = false;
  for (const f of files) {
    if (f.contentHash === null) continue;
    for (const r of f.servedRules) {
      if (evidence.length >= MAX_EVIDENCE) {
        truncated = true;
        break;
      }
      evidence.push({ path: f.path, startLine: r.startLine, endLine: r.endLine, contentHash: f.contentHash, retrieval: "metadata" });
    }
  }
  return { evidence, truncated };
}

export function operatorLayerRules(policy: InstructionPolicy): ResolverRule[] {
  return [...PLATFORM_SAFETY_RULES, ...operatorRules("organization_policy", policy.organization), ...operatorRules("runtime_policy", policy.runtime)];
}

export interface GetInstructionsInput {
  paths: string[];
  taskContract?: TaskContract;
  userTask?: string;
}

/**
 * The effective instruction set for changes to `paths`: every layer from platform safety down to untrusted
 * content, the rules in effect with provenance, conflicts with winner and reason, lint, and a stable hash.
 */
export async function getInstructions(
  ctx: QueryContext,
  env: InstructionEnv,
  input: GetInstructionsInput,
): Promise<{ instructions: ResolvedInstructions & { files: InstructionFileView[]; lint: InstructionLint[] }; evidence: EvidenceDraft[]; labels: Map<string, LabelInput>; warnings: Warning[]; truncated: boolean }> {
  // No paths: only the rules for the whole repository (root scope) apply.
  const targets = input.paths.length > 0 ? [...new Set(input.paths.map(requirePath))] : [""];
  const all = await servedInstructionFiles(ctx, env.policy);
  const relevant = all.filter((f) => applies(f.scope, targets));
  await markWorkingTreeChanges(env.root, relevant);
  const rules: ResolverRule[] = [
    ...operatorLayerRules(env.policy),
    ...taskContractRules(input.taskContract),
    ...userTaskRules(input.userTask),
    ...relevant.flatMap((f) => fileRules(f, f.servedRules)),
  ];
  const resolved = resolveInstructions({ targetPaths: targets, rules, ...(input.taskContract?.allowedPaths ? { allowedPaths: input.taskContract.allowedPaths } : {}) });
  const lint = relevant.flatMap((f) => f.lint);
  const warnings = [...fileWarnings(relevant), ...lintWarnings(lint)];
  if (resolved.outcome === "needs_human") {
    warnings.push({ code: "instruction_conflict", message: `needs_human: ${resolved.conflicts.filter((c) => c.resolution === "needs_human").length} instruction conflict(s) cannot be resolved automatically; see data.instructions.conflicts` });
  }
  if (resolved.effective.forbiddenTargets.length > 0) {
    warnings.push({ code: "forbidden_target", message: `target path(s) a change may not touch: ${named([...new Set(resolved.effective.forbiddenTargets.map((f) => f.path))])}` });
  }
  const { evidence, truncated } = evidenceFor(relevant);
  return { instructions: { ...resolved, files: relevant.map(view), lint }, evidence, labels: labelsFor(relevant), warnings, truncated };
}

/** Everything repo://instructions serves: every file with its rules, status and lint, and the operator layers. */
export async function instructionsOverview(ctx: QueryContext, env: InstructionEnv) {
  const all = await servedInstructionFiles(ctx, env.policy);
  await markWorkingTreeChanges(env.root, all);
  const operator = operatorLayerRules(env.policy).map((r) => ({ id: r.id, layer: r.layer, text: r.text, category: r.category, claims: r.claims, trustLevel: r.trustLevel }));
  const files = all.map((f) => ({
    ...view(f),
    rules: f.rules.map((r) => ({ ...r, path: f.path, commit: f.commit, contentHash: f.contentHash, served: f.servedRules.includes(r) })),
    lint: f.lint,
  }));
  const { evidence, truncated } = evidenceFor(all);
  return {
    overview: {
      files,
      operatorLayers: operator,
      limits: { maxInstructionFileBytes: env.policy.maxInstructionFileBytes, maxInstructionTotalBytes: env.policy.maxInstructionTotalBytes },
    },
    evidence,
    labels: labelsFor(all),
    warnings: [...fileWarnings(all), ...lintWarnings(all.flatMap((f) => f.lint))],
    truncated,
  };
}
