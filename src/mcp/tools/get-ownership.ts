import { z } from "zod";
import { getOwnership } from "../../query/knowledge/ownership.js";
import { defineTool, toToolOutput } from "../../service/tool.js";

const MAX_PATHS = 100;
const MAX_PATH_CHARS = 1024;

export const getOwnershipSchema = z.strictObject({
  paths: z
    .array(z.string().min(1).max(MAX_PATH_CHARS))
    .min(1)
    .max(MAX_PATHS)
    .describe("Repository-relative files or folders (they need not exist yet: a planned new file has owners too)"),
});

export const getOwnershipTool = defineTool({
  name: "get_ownership",
  description:
    "Owners and reviewers per path from the CODEOWNERS in force, with the rule (pattern, file, line) that " +
    "decided and a confidence; suggestedReviewers across all paths. A routing hint, never an approval.",
  inputSchema: getOwnershipSchema,
  annotations: { title: "Get ownership", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (args, ctx) => {
    const out = toToolOutput(await getOwnership(ctx, args), "paths");
    return { ...out, data: { ...out.data, suggestedReviewers: out.data.stats.suggestedReviewers } };
  },
});
