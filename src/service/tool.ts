import type { z } from "zod";
import type { QueryContext, QueryResult } from "../query/context.js";
import type { ServerDeps } from "./deps.js";
import type { TokenizerName } from "../query/context-package/types.js";

export interface ToolAnnotations {
  title: string;
  readOnlyHint: true;
  destructiveHint: false;
  idempotentHint: boolean;
  openWorldHint: false;
}

/** A tool's `data`: an object of named parts (`results`, `stats`, `bundle`, …). */
export type ToolDataShape = Record<string, unknown>;

/** What a handler returns: data for the envelope plus what the projection needs. */
export interface ToolOutput<D extends ToolDataShape = ToolDataShape> extends Omit<QueryResult<unknown>, "items" | "stats"> {
  data: D;
  truncated: boolean;
  /**
   * Set when the handler already applied the projection's text rules itself (redaction, instruction-like text
   * flagged, wrapping), because it had to count tokens of the final text: the envelope then only re-redacts,
   * which cannot change text already redacted, and takes the handler's flagged paths.
   */
  projected?: { flagged: string[] };
}

/**
 * One tool: its name, its schema (written once, as zod; the JSON schema is derived), its annotations and a handler
 * that receives arguments already validated against that schema.
 */
export interface ToolDefinition<S extends z.ZodObject = z.ZodObject, D extends ToolDataShape = ToolDataShape> {
  name: string;
  description: string;
  inputSchema: S;
  annotations: ToolAnnotations;
  handler: (args: z.infer<S>, ctx: QueryContext, deps: ServerDeps) => Promise<ToolOutput<D>>;
  /** For a tool whose budget argument bounds the whole answer: that budget, for these arguments (null: none given). */
  wholeBudget?: (args: z.infer<S>) => WholeBudget | null;
  /**
   * The tool's own step toward its compact answer (MCP's default `verbosity`), run on its data before the shared one
   * (which groups items by file and folds evidence in): e.g. search hits as matched lines alone.
   */
  compact?: (data: CompactData) => CompactData;
  /**
   * The compact answer's data as lines of text, for a tool whose answer reads best as text (search hits as
   * `line:text` under each file, like `rg --heading -n`); without it the compact answer is JSON.
   */
  renderText?: (data: CompactData) => string[];
}

/** Data as the compact answer handles it: plain JSON. */
export type CompactData = { [key: string]: CompactJson };
export type CompactJson = null | boolean | number | string | CompactJson[] | CompactData;

/** A budget on a whole answer: its size, the encoding it is counted in, and the arguments for a smaller try. */
export interface WholeBudget {
  tokens: number;
  tokenizer: TokenizerName;
  /** The least the handler's own budget may be given. */
  min: number;
  rerun(handlerBudget: number): Record<string, unknown>;
}

/**
 * A tool with its schema type kept for its handler and its data type kept for callers (the CLI's formatters read
 * the same type the handler returns); in lists it is a plain ToolDefinition.
 */
export function defineTool<S extends z.ZodObject, D extends ToolDataShape>(def: ToolDefinition<S, D>): ToolDefinition<z.ZodObject, D> {
  return def as unknown as ToolDefinition<z.ZodObject, D>;
}

/** The data a tool's envelope carries, as its handler returns it (the projection then adds trust labels and redaction notes). */
export type ToolData<T> = T extends ToolDefinition<z.ZodObject, infer D> ? D : never;

/** A query result as a tool's data: the items under `key`, or with `single` the first item (null when none), and the stats. */
export function toToolOutput<R extends QueryResult<unknown>, K extends string>(result: R, key: K, single: true): ToolOutput<Record<K, R["items"][number] | null> & { stats: R["stats"] }>;
export function toToolOutput<R extends QueryResult<unknown>, K extends string>(result: R, key: K, single?: false): ToolOutput<Record<K, R["items"]> & { stats: R["stats"] }>;
export function toToolOutput<R extends QueryResult<unknown>, K extends string>(result: R, key: K, single = false): ToolOutput {
  const { items, stats, ...rest } = result;
  return {
    ...rest,
    data: { [key]: single ? (items[0] ?? null) : items, stats },
    truncated: stats.truncated,
  };
}
