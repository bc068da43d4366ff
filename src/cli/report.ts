import type { z } from "zod";
import type { ErrorData, Envelope } from "../service/envelope.js";
import type { ToolDataShape, ToolDefinition } from "../service/tool.js";
import { EXIT, exitCodeFor } from "./exit-codes.js";
import type { Setup } from "./setup.js";

/**
 * CLI queries run through the same tool pipeline as MCP calls, so policy and projection apply identically. The
 * envelope is typed by the tool's definition: its data is what that tool's handler returns, projected.
 */
export async function callTool<D extends ToolDataShape>(s: Setup, def: ToolDefinition<z.ZodObject, D>, args: Record<string, unknown>): Promise<Envelope<D>> {
  const [{ runTool }, { serverDeps }] = await Promise.all([import("../service/run-tool.js"), import("./setup.js")]);
  // A person reads the CLI's output: text is printed as it is, still redacted and labelled.
  return (await runTool(def, args, { ...(await serverDeps(s)), wrapText: false })) as Envelope<D>;
}

/** The trust label the projection gave an item that names an indexed path (absent: the item names none). */
export function trustLabelOf(item: object): string | undefined {
  return (item as { trustLevel?: string }).trustLevel;
}

/** Prints an envelope as JSON or as text and returns the exit code. */
export function report<D extends ToolDataShape>(
  env: Envelope<D>,
  json: boolean,
  human: (data: D) => string,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): number {
  if (json) out.write(`${JSON.stringify(env, null, 2)}\n`);
  if (!env.ok) {
    const e = (env.data as { error?: ErrorData }).error!;
    if (!json) err.write(`error (${e.category}): ${e.message}${e.hint ? `\nhint: ${e.hint}` : ""}\n`);
    return exitCodeFor(e.category);
  }
  if (!json) {
    printWarnings(env, err);
    out.write(human(env.data));
  }
  return EXIT.ok;
}

export function printWarnings(env: Envelope, err: NodeJS.WritableStream): void {
  for (const w of env.warnings) err.write(`warning: ${w.code}: ${w.message}\n`);
}
