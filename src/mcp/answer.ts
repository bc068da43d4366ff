import { z } from "zod";
import { tokenCounter } from "../query/context-package/tokens.js";
import type { Envelope } from "../service/envelope.js";
import { invalidInput } from "../service/errors.js";
import type { ToolDefinition } from "../service/tool.js";
import { compactEnvelope, type JsonObject } from "./answer-compact.js";
import { fitAnswer } from "./answer-fit.js";
import { renderAnswerText } from "./answer-text.js";

/**
 * Arguments every tool takes over MCP, about the answer rather than the question: how much of it (`verbosity`) and
 * how large at most (`maxTokens`). They are taken out before the tool's own schema sees the arguments.
 */
export const MIN_MAX_TOKENS = 150;
const MAX_MAX_TOKENS = 1_000_000;
/** The least budget the tools with one of their own accept; below it, the answer's bound alone trims. */
const MIN_TOOL_BUDGET = 200;
/** The encoding `maxTokens` counts in, as context packages count by default. */
const ANSWER_TOKENIZER = "o200k_base" as const;

export const answerArgsShape = {
  verbosity: z.enum(["compact", "full"]).optional().describe("compact (default): each fact once, grouped by file; full: every field, evidence per item"),
  maxTokens: z
    .number()
    .int()
    .min(MIN_MAX_TOKENS)
    .max(MAX_MAX_TOKENS)
    .optional()
    .describe("Most tokens (o200k) this answer may take; what is left out is counted in `omitted`"),
};
const answerArgs = z.object(answerArgsShape);

export interface AnswerOptions {
  verbosity: "compact" | "full";
  maxTokens: number | null;
}

export type SplitArgs = { ok: true; answer: AnswerOptions; rest: Record<string, unknown> } | { ok: false; error: ReturnType<typeof invalidInput> };

/** The answer options and the tool's own arguments. */
export function splitAnswerArgs(raw: unknown): SplitArgs {
  const args = raw !== null && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const { verbosity, maxTokens, ...rest } = args;
  const parsed = answerArgs.safeParse({ verbosity, maxTokens });
  if (!parsed.success) return { ok: false, error: invalidInput(parsed.error) };
  return { ok: true, answer: { verbosity: parsed.data.verbosity ?? "compact", maxTokens: parsed.data.maxTokens ?? null }, rest: raw === args ? rest : (raw as Record<string, unknown>) };
}

/**
 * A tool with a token budget of its own (`budgetTokens`) is asked to fit within `maxTokens` from the start, so it
 * chooses what to keep; the answer's bound then only trims what the tool's own fit did not count.
 */
export function withBudgetFrom(def: ToolDefinition, args: Record<string, unknown>, maxTokens: number | null): Record<string, unknown> {
  if (maxTokens === null || !("budgetTokens" in def.inputSchema.shape)) return args;
  const asked = typeof args.budgetTokens === "number" ? args.budgetTokens : maxTokens;
  return { ...args, budgetTokens: Math.max(Math.min(asked, maxTokens), MIN_TOOL_BUDGET) };
}

export interface Answer {
  /** What the text content carries (and, for a full answer, structured content too). */
  body: JsonObject;
  /** The text content: the body as JSON, or as the tool's text rendering of a compact answer. */
  text: string;
  isError: boolean;
  full: boolean;
}

/** The envelope as the client receives it: compact or full, within maxTokens (counted on the text it is sent as). */
export function shapeAnswer(envelope: Envelope, def: ToolDefinition | undefined, opts: AnswerOptions): Answer {
  const full = opts.verbosity === "full";
  const body = full ? (envelope as unknown as JsonObject) : compactEnvelope(envelope, def?.compact);
  const renderData = full ? undefined : def?.renderText;
  const render = (b: JsonObject): string => (renderData ? renderAnswerText(b, renderData) : JSON.stringify(b));
  if (opts.maxTokens === null) return { body, text: render(body), isError: !envelope.ok, full };
  const fitted = fitAnswer(body, opts.maxTokens, tokenCounter(ANSWER_TOKENIZER), render);
  if (fitted) return { body: fitted.answer, text: render(fitted.answer), isError: !envelope.ok, full };
  const error: JsonObject = {
    ok: false,
    tool: envelope.tool,
    repoId: envelope.repoId,
    data: { error: { category: "invalid_input", message: `maxTokens ${opts.maxTokens} cannot hold this answer's identity and warnings`, hint: "raise maxTokens" } },
    truncated: false,
  };
  return { body: error, text: JSON.stringify(error), isError: true, full };
}
