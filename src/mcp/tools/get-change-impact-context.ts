import { z } from "zod";
import { projectData, projectEvidence } from "../../policy/projection.js";
import { CHANGE_TYPES, DEFAULT_MAX_FILES, changeImpact } from "../../query/change-impact.js";
import { tokenCounter } from "../../query/context-package/tokens.js";
import { defineTool } from "../../service/tool.js";

const MAX_PATHS = 50;
const MAX_PATH_CHARS = 1024;
const MAX_SYMBOLS = 20;
const MAX_SYMBOL_CHARS = 300;
const MAX_FILES_CEILING = 100;
const MIN_BUDGET_TOKENS = 200;
const MAX_BUDGET_TOKENS = 200_000;
/** The encoding budgets are counted in, as for context packages. */
const BUDGET_TOKENIZER = "o200k_base";

export const getChangeImpactContextSchema = z.strictObject({
  candidatePaths: z
    .array(z.string().min(1).max(MAX_PATH_CHARS))
    .min(1)
    .max(MAX_PATHS)
    .describe("Repository-relative files the candidate patch changes or adds"),
  symbols: z
    .array(z.string().min(1).max(MAX_SYMBOL_CHARS))
    .max(MAX_SYMBOLS)
    .optional()
    .describe("Symbols the patch changes (QuoteService#quote, formatQuote); when absent, the public symbols the candidate files define are followed"),
  changeType: z
    .enum(CHANGE_TYPES)
    .describe("What kind of change: api_migration, bug_fix, feature and dependency_upgrade follow call sites; the others follow every reference"),
  maxFiles: z
    .number()
    .int()
    .min(1)
    .max(MAX_FILES_CEILING)
    .default(DEFAULT_MAX_FILES)
    .describe("Files listed in callSites and in relatedTests, each"),
  budgetTokens: z
    .number()
    .int()
    .min(MIN_BUDGET_TOKENS)
    .max(MAX_BUDGET_TOKENS)
    .optional()
    .describe("Trim the bundle so that the whole answer (envelope, data and evidence, as the text content carries it) fits this many o200k_base tokens; coverage and forbidden paths are never trimmed, and what was is listed in coverage.truncated"),
});

export const getChangeImpactContextTool = defineTool({
  name: "get_change_impact_context",
  description:
    "Before editing: what a change to these paths or symbols touches. The files with the symbols they define, " +
    "call sites or references outside them, related tests with commands, owners, risk hints, verifier " +
    "commands, the repository instructions in force for those paths, and what was not analysed. Evidence, " +
    "never a verdict; budgetTokens bounds the whole answer.",
  inputSchema: getChangeImpactContextSchema,
  annotations: { title: "Get change impact context", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (args, ctx, deps) => {
    const policy = deps.operator.instructions;
    const count = tokenCounter(BUDGET_TOKENIZER);
    // The budget is for what the client receives: measured after the projection runTool applies.
    const measure = (data: object, labels: Parameters<typeof projectData>[1]) =>
      count(JSON.stringify(projectData(data, labels, { index: ctx.index, wrapText: deps.wrapText ?? true }).value));
    const measureEvidence = (evidence: Parameters<typeof projectEvidence>[0], labels: Parameters<typeof projectEvidence>[2]) =>
      count(JSON.stringify(projectEvidence(evidence, ctx.index, labels, new Set(), new Set())));
    const r = await changeImpact(ctx, { root: deps.root, policy, measure, measureEvidence }, args);
    return { data: { bundle: r.bundle }, evidence: r.evidence, labels: r.labels, warnings: r.warnings, truncated: r.truncated };
  },
  wholeBudget: (a) =>
    a.budgetTokens === undefined ? null : { tokens: a.budgetTokens, tokenizer: BUDGET_TOKENIZER, min: MIN_BUDGET_TOKENS, rerun: (t) => ({ ...a, budgetTokens: t }) },
});
