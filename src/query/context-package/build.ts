import { randomUUID } from "node:crypto";
import type { InstructionPolicy } from "../../config/schema.js";
import type { SymbolRow } from "../../store/store.js";
import type { QueryContext } from "../context.js";
import { QueryError } from "../../core/errors.js";
import type { ResolvedInstructions } from "../instructions/resolved.js";
import type { TaskContract } from "../instructions/rule-sources.js";
import { getInstructions, type InstructionFileView } from "../knowledge/instructions.js";
import { requirePath } from "../knowledge/load.js";
import { matchesQualifier, parseSymbol } from "../symbols.js";
import type { TaskContext } from "../task-context/types.js";
import {
  goalBlock,
  headerBlock,
  instructionsBlock,
  planBlock,
  policyBlock,
  relatedTests,
  repoMapBlock,
  semanticDeltaBlock,
  verificationBlock,
  violationsBlock,
} from "./blocks-policy.js";
import {
  COMMON_CAPITALIZED,
  callSiteBlocks,
  exampleBlocks,
  fileBlock,
  relatedTypeBlocks,
  testBlocks,
} from "./blocks-code.js";
import { diffBlocks, docBlocks, failureBlocks, ownershipBlocks, riskBlocks, secretPaths } from "./blocks-evidence.js";
import { fitToBudget, type Candidate, type Fitted, type OmittedBlock } from "./budget.js";
import { parseUnifiedDiff, type ParsedDiff } from "./diff.js";
import { diffViolations, type DiffViolation } from "./diff-rules.js";
import { FileReader, type LoadedFile, type Span } from "./excerpts.js";
import { valueHash } from "./manifest.js";
import type { ContextManifest, ManifestEvidence } from "./manifest-schema.js";
import { OUTPUT_CONTRACTS, outputContractForms, type OutputContract } from "./output-contracts.js";
import { judgePackage, type QualityVerdict } from "./quality.js";
import { MESSAGE_OVERHEAD_TOKENS } from "./render.js";
import { tokenCounter } from "./tokens.js";
import { summarizeVerifierLog, type VerifierLogSummary } from "./verifier-log.js";
import {
  PRIORITY_ORDER,
  type ContextBlock,
  type ContextPurpose,
  type Priority,
  type RenderTarget,
  type TokenizerName,
} from "./types.js";
import type { EvidenceDraft, Warning } from "../../core/evidence.js";

/** The caller's task contract: the resolver's fields plus what a judge checks a diff against. */
export interface PackageContract extends TaskContract {
  acceptanceCriteria?: string[];
  nonGoals?: string[];
  maxFilesChanged?: number;
  maxLinesChanged?: number;
}

export interface BuildPackageInput {
  purpose: ContextPurpose;
  goal?: string;
  /** The task from the operator's task sources, when the caller named one. */
  task?: TaskContext | null;
  candidatePaths?: string[];
  symbols?: string[];
  /** Old and new API of a migration: the semantic delta, and where the repository already uses the new one. */
  migration?: { from: string; to: string };
  plan?: string[];
  contract?: PackageContract;
  diff?: string;
  verifierOutput?: string;
  budgetTokens: number;
  target: RenderTarget;
  tokenizer: TokenizerName;
  /** Files per list (candidates, call sites, tests); default DEFAULT_MAX_FILES. */
  maxFiles?: number;
}

export interface PackageEnv {
  root: string;
  instructionPolicy: InstructionPolicy;
  now: () => Date;
}

export interface PackageConstraints {
  allowedPaths: string[];
  forbiddenPaths: { glob: string; source: string; ruleId: string }[];
  forbiddenActions: string[];
  requiredActions: string[];
  requiredChecks: string[];
  maxFilesChanged: number | null;
  maxLinesChanged: number | null;
}

export interface PackageTask {
  goal: string;
  source: "caller" | "task_source";
  taskId: string | null;
  title: string | null;
  acceptanceCriteria: string[];
  nonGoals: string[];
}

export interface BuiltPackage {
  package: {
    packageId: string;
    purpose: ContextPurpose;
    target: RenderTarget;
    tokenizer: TokenizerName;
    repository: { repoId: string; baseCommit: string | null; indexVersion: string | null; dirty: boolean };
    task: PackageTask;
    constraints: PackageConstraints;
    authority: { effectiveInstructionHash: string; outcome: ResolvedInstructions["outcome"]; conflicts: number; order: string[] };
    outputContract: OutputContract;
    selection: { paths: string[]; reasons: string[] };
    diffReview: { files: number; added: number; removed: number; violations: DiffViolation[] } | null;
    failure: VerifierLogSummary | null;
    blocks: Omit<ContextBlock, "text">[];
    blockTokens: number[];
    omitted: OmittedBlock[];
    coverage: { notIndexed: string[]; hiddenByPolicy: string[]; symbolsNotFound: string[]; notes: string[] };
    budget: { maxTokens: number; usedTokens: number; messageOverheadTokens: number; priorityOrder: readonly Priority[] };
  };
  rendered: Record<string, unknown>;
  renderedTexts: string[];
  manifest: ContextManifest;
  quality: QualityVerdict;
  evidence: EvidenceDraft[];
  warnings: Warning[];
  /** Paths whose text in the package reads like instructions to an agent. */
  flagged: string[];
}

/** Paths a package is scoped to (instructions, ownership, manifest); a diff may name more. */
const MAX_SCOPE_PATHS = 50;
/** Files per list when the caller does not say. */
export const DEFAULT_MAX_FILES = 8;
/** Identifier-like words of a goal tried as symbol names when the caller names no paths. */
const MAX_GOAL_IDENTIFIERS = 8;

/** Which blocks each purpose gets (Part 032 §15); everything not named is left out. */
const CONTENT: Record<ContextPurpose, ReadonlySet<string>> = {
  planning: new Set(["instructions", "verification", "plan", "semantic_delta", "repo_map", "outlines", "call_sites_reduced", "tests_reduced", "ownership", "risk", "docs"]),
  editing: new Set(["instructions", "verification", "plan", "semantic_delta", "excerpts", "call_sites", "related_types", "tests", "examples", "ownership_optional", "docs"]),
  verification_repair: new Set(["instructions", "verification", "diff", "failure", "excerpts_reduced", "tests"]),
  judging: new Set(["instructions", "verification", "diff", "tests_reduced", "ownership", "risk"]),
  pr_summary: new Set(["verification", "diff", "tests_reduced", "ownership", "risk"]),
};
const NEEDS_DIFF: ReadonlySet<ContextPurpose> = new Set(["verification_repair", "judging", "pr_summary"]);

/** What was left out of a package's scope and why, as the package reports it. */
type PackageCoverage = BuiltPackage["package"]["coverage"];

/** What a package is assembled from once its task, scope, instructions and files are resolved. */
interface PackagePlan {
  input: BuildPackageInput;
  /** The blocks its purpose gets (CONTENT). */
  content: ReadonlySet<string>;
  reader: FileReader;
  maxFiles: number;
  packageId: string;
  task: PackageTask;
  diff: ParsedDiff | null;
  failure: VerifierLogSummary | null;
  coverage: PackageCoverage;
  targets: SymbolRow[];
  selection: { paths: string[]; reasons: string[] };
  scope: string[];
  /** The instructions in force for the scope, with the files they came from. */
  resolved: ResolvedInstructions & { files: InstructionFileView[] };
  constraints: PackageConstraints;
  violations: DiffViolation[];
  contract: OutputContract;
  isWorkingTree: (path: string) => boolean;
  /** The scope's files the read policy lets the package show. */
  files: LoadedFile[];
}

/**
 * A budgeted, trust-wrapped context package for one purpose (Part 032): policy and task first and never dropped,
 * then repository instructions, plan, code evidence as lossless excerpts with line numbers, build and test
 * evidence, examples and optional documents, in that order of priority. Selection is deterministic and separate
 * from rendering; the manifest records every evidence item with its hashes so a later check can prove staleness.
 */
export async function buildContextPackage(ctx: QueryContext, env: PackageEnv, input: BuildPackageInput): Promise<BuiltPackage> {
  if (NEEDS_DIFF.has(input.purpose) && !input.diff) {
    throw new QueryError("invalid_input", `a ${input.purpose} package is built from a diff: pass diff (unified diff text)`);
  }
  if (input.purpose === "verification_repair" && !input.verifierOutput) {
    throw new QueryError("invalid_input", "a verification_repair package needs verifierOutput (the failing verifier's log)");
  }
  const count = tokenCounter(input.tokenizer);
  const warnings: Warning[] = [];
  const plan = await planPackage(ctx, env, input, warnings);
  const fitted = fitToBudget(await candidateBlocks(ctx, plan), input.budgetTokens, input.target, count);
  const blocks = fitted.blocks;
  const evidence = blocks.flatMap((b) => (b.evidence ? [b.evidence] : []));
  const manifest = manifestOf(ctx, env, plan, fitted, evidence);
  const flagged = [...new Set(fitted.chosen.filter((x) => (x.flagged ?? 0) > 0).map((x) => x.evidence?.path ?? x.title))];
  const pkg = packageOf(ctx, plan, fitted);
  const { task, constraints, contract, resolved } = plan;
  const quality = judgePackage({ purpose: input.purpose, task, constraints, blocks, outputContract: contract, outcome: resolved.outcome });
  if (!quality.accepted) {
    warnings.push({ code: "context_quality_rejected", message: `the package fails the quality rubric: ${quality.reasons.map((r) => r.code).join(", ")}; see data.quality` });
  }
  if (fitted.omitted.length > 0) {
    warnings.push({ code: "context_budget_omitted", message: `${fitted.omitted.length} block(s) did not fit budgetTokens ${input.budgetTokens}; see data.package.omitted` });
  }
  const drafts: EvidenceDraft[] = evidence.map((e) => ({ path: e.path, startLine: e.startLine, endLine: e.endLine, contentHash: e.hash, retrieval: fitted.chosen.find((x) => x.evidence?.path === e.path)?.retrieval ?? "syntactic" }));
  return { package: pkg, rendered: fitted.rendered.payload, renderedTexts: fitted.rendered.texts, manifest, quality, evidence: drafts, warnings, flagged };
}

/**
 * Resolves what the package is about: the task, the named symbols, the paths in scope, the instructions and
 * constraints in force for them, the diff's violations, and the scope's files (what cannot be shown goes to coverage).
 */
async function planPackage(ctx: QueryContext, env: PackageEnv, input: BuildPackageInput, warnings: Warning[]): Promise<PackagePlan> {
  const reader = new FileReader(ctx);
  const maxFiles = input.maxFiles ?? DEFAULT_MAX_FILES;
  const packageId = `ctx_${randomUUID()}`;
  const task = taskOf(input);
  const diff = input.diff ? parseUnifiedDiff(input.diff) : null;
  const failure = input.verifierOutput ? summarizeVerifierLog(input.verifierOutput) : null;
  const coverage: PackageCoverage = { notIndexed: [], hiddenByPolicy: [], symbolsNotFound: [], notes: [] };

  const targets = await resolveTargets(ctx, [...(input.symbols ?? []), ...(input.migration ? [input.migration.from] : [])], coverage);
  const selection = await selectPaths(ctx, input, task, diff, targets);
  const scope = selection.paths.slice(0, MAX_SCOPE_PATHS);
  if (selection.paths.length > MAX_SCOPE_PATHS) coverage.notes.push(`${selection.paths.length - MAX_SCOPE_PATHS} path(s) beyond the first ${MAX_SCOPE_PATHS} were left out of scope`);
  const instr = await getInstructions(ctx, { root: env.root, policy: env.instructionPolicy }, {
    paths: scope,
    ...(input.contract ? { taskContract: input.contract } : {}),
    userTask: task.goal,
  });
  warnings.push(...instr.warnings);
  const resolved = instr.instructions;
  const constraints = constraintsOf(resolved, input.contract);
  const violations = diff ? violationsOf(diff, resolved, constraints) : [];
  const contract = OUTPUT_CONTRACTS[input.purpose];
  const isWorkingTree = (path: string): boolean => (ctx.store as { isOverlaid?: (p: string) => boolean }).isOverlaid?.(path) ?? false;
  const files: LoadedFile[] = [];
  for (const p of scope) {
    const f = await reader.read(p);
    if (f) files.push(f);
    else if (await ctx.store.getFile(ctx.index.id, p)) coverage.hiddenByPolicy.push(p);
    else if (!diff?.files.some((d) => d.path === p && d.status === "added")) coverage.notIndexed.push(p);
  }
  const content = CONTENT[input.purpose];
  return { input, content, reader, maxFiles, packageId, task, diff, failure, coverage, targets, selection, scope, resolved, constraints, violations, contract, isWorkingTree, files };
}

/** Every block the package's purpose gets, in priority order, before the budget chooses among them. */
async function candidateBlocks(ctx: QueryContext, plan: PackagePlan): Promise<Candidate[]> {
  const { input, content, reader, maxFiles, diff, failure, coverage, targets, scope, resolved, constraints, violations, contract, isWorkingTree, files } = plan;
  const c: Candidate[] = [];
  c.push(headerBlock(ctx, plan.packageId, input.purpose));
  c.push(policyBlock(resolved, constraints));
  if (diff) c.push(violationsBlock(violations, constraints));
  c.push({ priority: "safety_policy", role: "system", kind: "output_contract", title: "Output contract", forms: outputContractForms(contract), trustLevel: "platform_policy", reason: `what a ${input.purpose} answer must look like`, mandatory: true });
  c.push(goalBlock(plan.task));
  if (content.has("instructions")) c.push(instructionsBlock(resolved));
  const tests = await relatedTests(ctx, files, targets);
  if (content.has("verification")) c.push(...verificationBlock(resolved, constraints, tests));
  if (input.plan?.length && content.has("plan")) c.push(planBlock(input.plan));
  if (input.migration && content.has("semantic_delta")) c.push(...(await semanticDeltaBlock(ctx, input.migration)));
  if (content.has("repo_map")) c.push(await repoMapBlock(ctx, scope));
  if (diff && content.has("diff")) c.push(...diffBlocks(diff, violations, await secretPaths(ctx, diff)));
  if (failure && content.has("failure")) c.push(...(await failureBlocks(ctx, reader, failure, scope, isWorkingTree)));
  const shownFiles = files.slice(0, maxFiles);
  if (files.length > maxFiles) coverage.notes.push(`${files.length - maxFiles} candidate file(s) beyond maxFiles ${maxFiles} were left out`);
  const excerptMode = content.has("excerpts") ? "full" : content.has("excerpts_reduced") ? "reduced" : content.has("outlines") ? "outline" : null;
  const targetSpans = new Map<string, Span[]>();
  if (excerptMode) {
    for (const f of shownFiles) c.push(await fileBlock(ctx, f, targets, excerptMode, isWorkingTree, targetSpans));
  }
  if (content.has("call_sites") || content.has("call_sites_reduced")) {
    c.push(...(await callSiteBlocks(ctx, reader, targets, targetSpans, maxFiles, content.has("call_sites") ? "full" : "reduced", isWorkingTree)));
  }
  if (content.has("related_types")) c.push(...(await relatedTypeBlocks(ctx, reader, files, targets, isWorkingTree)));
  if (content.has("tests") || content.has("tests_reduced")) {
    c.push(...(await testBlocks(ctx, reader, tests, targets, content.has("tests") ? "full" : "reduced", isWorkingTree)));
  }
  if (input.migration && content.has("examples")) c.push(...(await exampleBlocks(ctx, reader, input.migration.to, new Set(scope), isWorkingTree)));
  if (content.has("ownership") || content.has("ownership_optional")) {
    const priority: Priority = content.has("ownership") ? "code_evidence" : "optional_docs";
    c.push(...(await ownershipBlocks(ctx, scope, priority)));
    if (content.has("risk")) c.push(...(await riskBlocks(ctx, scope)));
  }
  if (content.has("docs")) c.push(...(await docBlocks(ctx, reader, scope, targets)));
  return c;
}

/** The manifest of a fitted package: its identity, budget, scope, evidence and the hashes of what governed it. */
function manifestOf(ctx: QueryContext, env: PackageEnv, plan: PackagePlan, fitted: Fitted, evidence: ManifestEvidence[]): ContextManifest {
  const { input, resolved } = plan;
  const instructionSources = resolved.files.filter((f) => f.contentHash !== null).map((f) => ({ path: f.path, hash: f.contentHash! }));
  return {
    manifestVersion: 1,
    contextPackageId: plan.packageId,
    purpose: input.purpose,
    repoId: ctx.index.repoId,
    baseCommit: ctx.index.baseCommit,
    indexVersion: ctx.index.indexVersion,
    createdAt: env.now().toISOString(),
    target: input.target,
    tokenizer: input.tokenizer,
    budgetTokens: input.budgetTokens,
    tokenEstimate: fitted.rendered.tokenCount,
    scopePaths: plan.scope,
    evidence,
    instructionSources,
    constraintsHash: valueHash(plan.constraints),
    effectiveInstructionHash: resolved.effectiveInstructionHash,
    outputContract: plan.contract.name,
  };
}

/** The package as data.package reports it: what it serves, under which authority, and what the budget kept. */
function packageOf(ctx: QueryContext, plan: PackagePlan, fitted: Fitted): BuiltPackage["package"] {
  const { input, resolved, diff } = plan;
  return {
    packageId: plan.packageId,
    purpose: input.purpose,
    target: input.target,
    tokenizer: input.tokenizer,
    repository: { repoId: ctx.index.repoId, baseCommit: ctx.index.baseCommit, indexVersion: ctx.index.indexVersion, dirty: ctx.index.dirty },
    task: plan.task,
    constraints: plan.constraints,
    authority: {
      effectiveInstructionHash: resolved.effectiveInstructionHash,
      outcome: resolved.outcome,
      conflicts: resolved.conflicts.length,
      order: ["platform_policy", "operator_policy", "task_contract", "user_task", "repository_instructions", "evidence"],
    },
    outputContract: plan.contract,
    selection: plan.selection,
    diffReview: diff ? { files: diff.files.length, added: diff.totalAdded, removed: diff.totalRemoved, violations: plan.violations } : null,
    failure: plan.failure,
    blocks: fitted.blocks.map(({ text: _text, ...meta }) => meta),
    blockTokens: fitted.blockTokens,
    omitted: fitted.omitted,
    coverage: plan.coverage,
    budget: { maxTokens: input.budgetTokens, usedTokens: fitted.rendered.tokenCount, messageOverheadTokens: MESSAGE_OVERHEAD_TOKENS, priorityOrder: PRIORITY_ORDER },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Task, targets, scope and constraints.

function taskOf(input: BuildPackageInput): PackageTask {
  const t = input.task ?? null;
  const goal = input.goal ?? t?.objective ?? t?.title ?? "";
  if (goal.trim().length === 0) throw new QueryError("invalid_input", "give goal or taskId: a package needs the task it serves");
  return {
    goal,
    source: input.goal ? "caller" : "task_source",
    taskId: t?.id ?? null,
    title: t?.title ?? null,
    acceptanceCriteria: [...(input.contract?.acceptanceCriteria ?? []), ...(t?.acceptanceCriteria.map((a) => a.text) ?? [])],
    nonGoals: [...(input.contract?.nonGoals ?? []), ...(t?.nonGoals.map((a) => a.text) ?? [])],
  };
}

/** Definitions of the symbols the caller named, most specific first; names with none are reported. */
async function resolveTargets(ctx: QueryContext, names: string[], coverage: { symbolsNotFound: string[] }): Promise<SymbolRow[]> {
  const out: SymbolRow[] = [];
  for (const n of [...new Set(names)]) {
    const { name, qualified } = parseSymbol(n);
    const rows = (await ctx.store.findSymbols(ctx.index.id, { name, limit: 50 })).filter((s) => matchesQualifier(s, qualified));
    const allowed = rows.filter((s) => ctx.policy.includeSecretSuspectFiles || !s.file.isSecretSuspect);
    if (allowed.length === 0) coverage.symbolsNotFound.push(n);
    out.push(...allowed.slice(0, 5));
  }
  return out;
}

/** Identifier-like words of prose: CamelCase, snake_case, camelCase, Class#method. */
function identifiersIn(text: string): string[] {
  const words = text.match(/\b[A-Za-z_][A-Za-z0-9_]*(?:[#.][A-Za-z_][A-Za-z0-9_]*)?\b/g) ?? [];
  const idLike = words.filter((w) => !COMMON_CAPITALIZED.has(w) && (/[a-z][A-Z]/.test(w) || /_/.test(w) || /#/.test(w) || /^[A-Z][a-z]+[A-Z]/.test(w)));
  return [...new Set(idLike)].slice(0, MAX_GOAL_IDENTIFIERS);
}

/**
 * The paths the package is about: the caller's, the diff's, the task's linked files, the named symbols'
 * definition files, and — when nothing else names any — definitions of identifiers in the goal.
 */
async function selectPaths(ctx: QueryContext, input: BuildPackageInput, task: PackageTask, diff: ParsedDiff | null, targets: SymbolRow[]): Promise<{ paths: string[]; reasons: string[] }> {
  const paths = new Set<string>();
  const reasons: string[] = [];
  const add = (p: string, why: string) => {
    if (!paths.has(p)) reasons.push(`${p}: ${why}`);
    paths.add(p);
  };
  for (const p of input.candidatePaths ?? []) add(requirePath(p), "candidate path from the caller");
  for (const f of diff?.files ?? []) {
    for (const p of [f.newPath, f.oldPath]) if (p) add(requirePath(p), "changed in the diff");
  }
  for (const l of input.task?.links ?? []) if (l.type === "repo_path" && l.exists && l.path && !l.inSuspiciousText) add(l.path, `linked from task ${input.task!.id}`);
  for (const t of targets) add(t.path, `defines ${t.qualifiedName}`);
  if (paths.size === 0) {
    for (const id of identifiersIn(task.goal)) {
      const { name, qualified } = parseSymbol(id);
      const defs = (await ctx.store.findSymbols(ctx.index.id, { name, limit: 10 })).filter((s) => matchesQualifier(s, qualified) && !s.file.isSecretSuspect);
      for (const d of defs.slice(0, 2)) add(d.path, `defines ${d.qualifiedName}, named in the goal`);
    }
  }
  return { paths: [...paths], reasons };
}

function constraintsOf(resolved: ResolvedInstructions, contract: PackageContract | undefined): PackageConstraints {
  const policyForbidden = resolved.effective.forbiddenPaths.filter((f) => f.layer !== "repository_instruction" && f.layer !== "directory_instruction");
  return {
    allowedPaths: [...(contract?.allowedPaths ?? [])],
    forbiddenPaths: policyForbidden.map((f) => ({ glob: f.glob, source: f.layer, ruleId: f.ruleId })),
    forbiddenActions: resolved.effective.forbiddenActions.map((a) => a.action),
    requiredActions: resolved.effective.requiredActions.map((a) => a.action),
    requiredChecks: [...(contract?.requiredChecks ?? [])],
    maxFilesChanged: contract?.maxFilesChanged ?? null,
    maxLinesChanged: contract?.maxLinesChanged ?? null,
  };
}

/** The diff against every forbidden path in force (policy and repository files) and the contract's limits. */
function violationsOf(diff: ParsedDiff, resolved: ResolvedInstructions, constraints: PackageConstraints): DiffViolation[] {
  const repoForbidden = resolved.effective.forbiddenPaths
    .filter((f) => f.layer === "repository_instruction" || f.layer === "directory_instruction")
    .map((f) => ({ glob: f.glob, source: f.layer, ruleId: f.ruleId }));
  return diffViolations(diff, {
    forbidden: [...constraints.forbiddenPaths, ...repoForbidden],
    ...(constraints.allowedPaths.length > 0 ? { allowed: constraints.allowedPaths } : {}),
    ...(constraints.maxFilesChanged !== null ? { maxFilesChanged: constraints.maxFilesChanged } : {}),
    ...(constraints.maxLinesChanged !== null ? { maxLinesChanged: constraints.maxLinesChanged } : {}),
  });
}
