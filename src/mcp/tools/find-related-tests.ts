import { z } from "zod";
import { findRelatedTests } from "../../query/knowledge/related-tests.js";
import { defineTool, toToolOutput } from "../../service/tool.js";
import { maxResultsSchema } from "./common.js";

const MAX_PATHS = 50;
const MAX_PATH_CHARS = 1024;
const MAX_SYMBOLS = 20;
const MAX_SYMBOL_CHARS = 300;

export const findRelatedTestsSchema = z.strictObject({
  changedPaths: z
    .array(z.string().min(1).max(MAX_PATH_CHARS))
    .max(MAX_PATHS)
    .optional()
    .describe("Repository-relative paths of files changed or about to change"),
  symbols: z
    .array(z.string().min(1).max(MAX_SYMBOL_CHARS))
    .max(MAX_SYMBOLS)
    .optional()
    .describe("Symbols changed or about to change: QuoteService, QuoteService#quote, formatQuote"),
  maxResults: maxResultsSchema("Tests to return (the read policy may lower it)"),
});

export const findRelatedTestsTool = defineTool({
  name: "find_related_tests",
  description:
    "Which tests to run for a change to these paths or symbols, best first: naming conventions per ecosystem, " +
    "tests that import or reference the changed code or hold its messages, the module's tests last. Each with " +
    "its reasons, a confidence and a command that runs just that test.",
  inputSchema: findRelatedTestsSchema,
  annotations: { title: "Find related tests", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (args, ctx) => toToolOutput(await findRelatedTests(ctx, args), "tests"),
});
