import { z } from "zod";
import { inspectIndex } from "../../query/inspect.js";
import { defineTool, toToolOutput } from "../../service/tool.js";

export const inspectIndexSchema = z.strictObject({});

export const inspectIndexTool = defineTool({
  name: "inspect_index",
  description:
    "Index status: commit, index version, counts, languages, files skipped and why, the read policy in force. " +
    "Call it when an answer looks incomplete or stale.",
  inputSchema: inspectIndexSchema,
  annotations: { title: "Inspect index", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (_args, ctx) => toToolOutput(await inspectIndex(ctx), "index", true),
});
