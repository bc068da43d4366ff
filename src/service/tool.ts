import type { z } from "zod";
import type { QueryContext, QueryResult } from "../query/context.js";
import type { ServerDeps } from "./deps.js";

export interface ToolAnnotations {
  title: string;
  readOnlyHint: true;
  destructiveHint: false;
  idempotentHint: boolean;
  openWorldHint: false;
}

/** What a handler returns: data for the envelope plus what the projection needs. */
export interface ToolOutput extends Omit<QueryResult<unknown>, "items" | "stats"> {
  data: Record<string, unknown>;
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
export interface ToolDefinition<S extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  inputSchema: S;
  annotations: ToolAnnotations;
  handler: (args: z.infer<S>, ctx: QueryContext, deps: ServerDeps) => Promise<ToolOutput>;
}

export function defineTool<S extends z.ZodObject>(def: ToolDefinition<S>): ToolDefinition {
  return def as unknown as ToolDefinition;
}

/** Shared shape of a query result as a tool output: items under one key, stats beside them. */
export function toToolOutput<T>(result: QueryResult<T>, key: string, single = false): ToolOutput {
  const { items, stats, ...rest } = result;
  return {
    ...rest,
    data: { [key]: single ? (items[0] ?? null) : items, stats },
    truncated: stats.truncated,
  };
}
