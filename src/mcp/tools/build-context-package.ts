import { z } from "zod";
import { buildContextPackage, DEFAULT_MAX_FILES } from "../../query/context-package/build.js";
import { CONTEXT_PURPOSES, RENDER_TARGETS, TOKENIZERS } from "../../query/context-package/types.js";
import { QueryError } from "../../core/errors.js";
import type { QueryContext } from "../../query/context.js";
import type { ServerDeps } from "../../service/deps.js";
import { defineTool } from "../../service/tool.js";
import { loadTask } from "./get-task-context.js";
import { taskContractSchema } from "./get-instructions.js";
import { TASK_ID_PATTERN } from "../../core/tasks.js";

const MAX_PATHS = 50;
const MAX_PATH_CHARS = 1024;
const MAX_SYMBOLS = 20;
const MAX_SYMBOL_CHARS = 300;
const MAX_GOAL_CHARS = 4000;
const MAX_ITEMS = 50;
const MAX_ITEM_CHARS = 500;
const MAX_PLAN_STEPS = 30;
const MAX_STEP_CHARS = 1000;
/** A diff or a log larger than this is cut by the caller, not by us silently. */
const MAX_DIFF_CHARS = 1_000_000;
const MAX_LOG_CHARS = 2_000_000;
export const MIN_BUDGET_TOKENS = 200;
const MAX_BUDGET_TOKENS = 200_000;
const MAX_FILES = 50;
/** Task comments are not read into a package: they are evidence to fetch with get_task_context, not the task. */
const TASK_LOOKUP = { includeComments: false, maxComments: 0 };

const symbol = z.string().min(1).max(MAX_SYMBOL_CHARS);
const items = z.array(z.string().min(1).max(MAX_ITEM_CHARS)).max(MAX_ITEMS);

export const buildContextPackageSchema = z.strictObject({
  purpose: z.enum(CONTEXT_PURPOSES).describe("planning, editing, verification_repair, judging or pr_summary: each selects different content"),
  goal: z.string().min(1).max(MAX_GOAL_CHARS).optional().describe("What the change must achieve (give goal, taskId or both)"),
  taskId: z.string().min(1).max(101).regex(TASK_ID_PATTERN).optional().describe("A task from the operator's task sources: its objective, acceptance criteria and non-goals"),
  candidatePaths: z.array(z.string().min(1).max(MAX_PATH_CHARS)).max(MAX_PATHS).optional().describe("Repository-relative files the change is about"),
  symbols: z.array(symbol).max(MAX_SYMBOLS).optional().describe("Symbols the change targets (QuoteService#quote): their spans, helpers, types, call sites and tests"),
  migration: z.strictObject({ from: symbol, to: symbol }).optional().describe("Old and new API of a migration: the semantic delta, and existing uses of the new API as examples"),
  plan: z.array(z.string().min(1).max(MAX_STEP_CHARS)).max(MAX_PLAN_STEPS).optional().describe("The current execution plan, one step per item"),
  contract: taskContractSchema
    .extend({
      acceptanceCriteria: items.optional().describe("Testable conditions for done"),
      nonGoals: items.optional(),
      maxFilesChanged: z.number().int().min(1).max(100_000).optional(),
      maxLinesChanged: z.number().int().min(1).max(10_000_000).optional(),
    })
    .optional()
    .describe("The task contract: allowed and forbidden paths, actions, required checks, acceptance criteria, diff limits"),
  diff: z.string().min(1).max(MAX_DIFF_CHARS).optional().describe("Unified diff (git diff) under review: required for judging, verification_repair and pr_summary"),
  verifierOutput: z.string().min(1).max(MAX_LOG_CHARS).optional().describe("The failing verifier's output: required for verification_repair"),
  budgetTokens: z
    .number()
    .int()
    .min(MIN_BUDGET_TOKENS)
    .max(MAX_BUDGET_TOKENS)
    .describe("Token budget of data.rendered (counted with the tokenizer); package, manifest and quality come on top unless return is 'rendered'"),
  return: z
    .enum(["full", "rendered"])
    .default("full")
    .describe("full: rendered plus the package's blocks, manifest and quality; rendered: data.rendered alone, and the whole answer (envelope, evidence and all) within budgetTokens"),
  target: z.enum(RENDER_TARGETS).default("local").describe("Message shape of data.rendered: openai, anthropic, gemini or local (one prompt)"),
  tokenizer: z.enum(TOKENIZERS).default("o200k_base").describe("Encoding the budget is counted in"),
  maxFiles: z.number().int().min(1).max(MAX_FILES).default(DEFAULT_MAX_FILES).describe("Files per list (candidates, call sites)"),
});

export type BuildContextPackageArgs = z.infer<typeof buildContextPackageSchema>;

/** Shared by the tool, the prompts and the CLI: resolve the task, build, and shape the tool output. */
export async function contextPackageOutput(args: BuildContextPackageArgs, ctx: QueryContext, deps: ServerDeps) {
  if (!args.goal && !args.taskId) throw new QueryError("invalid_input", "give goal or taskId: a package needs the task it serves");
  const loaded = args.taskId ? await loadTask({ taskId: args.taskId, ...TASK_LOOKUP }, ctx, deps) : null;
  const built = await buildContextPackage(
    ctx,
    { root: deps.root, instructionPolicy: deps.operator.instructions, now: deps.now ?? (() => new Date()) },
    { ...args, task: loaded?.result.items[0] ?? null },
  );
  return {
    data: args.return === "rendered" ? { rendered: built.rendered } : { package: built.package, rendered: built.rendered, manifest: built.manifest, quality: built.quality },
    evidence: built.evidence,
    labels: new Map(),
    warnings: [...(loaded?.warnings ?? []), ...built.warnings],
    truncated: built.package.omitted.length > 0,
    projected: { flagged: built.flagged },
  };
}

export const buildContextPackageTool = defineTool({
  name: "build_context_package",
  description:
    "A context package for one purpose (planning, editing, verification_repair, judging, pr_summary) within " +
    "budgetTokens: policy, task and output contract first and never dropped, then repository instructions, " +
    "verification commands, code evidence as excerpts with line numbers (target, helpers, types, call sites), " +
    "tests, failure summary, examples and document outlines. data.rendered is the package in the target's " +
    "message shape; data.manifest lists every evidence item with its hashes, for check_context_freshness " +
    "later; data.quality is the rubric's verdict.",
  inputSchema: buildContextPackageSchema,
  annotations: { title: "Build context package", readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: contextPackageOutput,
  // With return: rendered the whole answer (envelope, evidence and identity included) stays within budgetTokens.
  wholeBudget: (a) =>
    a.return === "rendered" ? { tokens: a.budgetTokens, tokenizer: a.tokenizer, min: MIN_BUDGET_TOKENS, rerun: (t) => ({ ...a, budgetTokens: t }) } : null,
});
