import { z } from "zod";
import { searchCode } from "../../query/search.js";
import { defineTool, toToolOutput } from "../../service/tool.js";
import { maxResultsSchema, pathGlobsSchema } from "./common.js";

/** The longest query taken: a whole issue, log or trace fits many times over (ranking reads its first 64 KiB). */
const MAX_QUERY_CHARS = 1024 * 1024;

export const searchCodeSchema = z.strictObject({
  query: z
    .string()
    .min(1)
    .max(MAX_QUERY_CHARS)
    .describe("Text to find: a substring, a regular expression with regex: true, or in hybrid mode a question, a whole issue, a log or a stack trace"),
  mode: z
    .enum(["hybrid", "lexical", "symbol"])
    .default("hybrid")
    .describe("hybrid: text matches plus symbol definitions (a definition outranks a mention); lexical: text only; symbol: definitions whose name starts with the query"),
  caseSensitive: z.boolean().default(false),
  regex: z.boolean().default(false).describe("Treat query as a JavaScript regular expression"),
  paths: pathGlobsSchema("Path globs to search in, e.g. ['src/**/*.ts']; a plain folder name matches everything under it"),
  maxResults: maxResultsSchema("Hits to return (the read policy may lower it)"),
  includeGenerated: z.boolean().optional().describe("Include generated and vendored files (default from the read policy)"),
  semantic: z.boolean().optional().describe("Questions and issue text: also rank by the repository's own embedding (hits found only that way say matchType semantic)"),
  abstain: z.boolean().optional().describe("Questions and issue text: answer stats.abstention.noLocalEvidence instead of weak matches (off by default)"),
});

export const searchCodeTool = defineTool({
  name: "search_code",
  description:
    "Find code by exact text, regular expression or symbol name — or, in hybrid mode, by a question, an issue text or a stack " +
    "trace (a question, words found nowhere as written, a line break or a frame): then ranked retrieval (BM25 over split and " +
    "stemmed identifiers, path and symbol names, then term counts; stack frames and paths named in the query; error messages " +
    "found as written; exact symbol definitions; priors for tests, docs and generated code), each file with its best span and " +
    "the reasons for its score. Results are grouped by file in rank " +
    "order; each hit has path, line range, snippet, content hash, matchType and trust label. Secret-suspect and generated files " +
    "are left out by policy.",
  inputSchema: searchCodeSchema,
  annotations: { title: "Search code", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (args, ctx, deps) => {
    // A misconfigured endpoint is reported by the ranking (semantic_provider_unavailable), not a failed search.
    const endpoint = args.semantic ? deps.sources.embeddings : null;
    const embedQuery = endpoint ? async (text: string) => (await endpoint.embed([text]))[0]! : undefined;
    return toToolOutput(await searchCode(ctx, { ...args, ...(embedQuery ? { embedQuery } : {}) }), "results");
  },
});
