import { z } from "zod";
import { SYMBOL_KINDS } from "../../core/symbols.js";
import { findSymbol } from "../../query/symbols.js";
import { defineTool, toToolOutput } from "../../service/tool.js";
import { maxResultsSchema, pathGlobsSchema } from "./common.js";

const MAX_SYMBOL_CHARS = 300;
const MAX_LANGUAGE_CHARS = 50;

export const findSymbolSchema = z.strictObject({
  symbol: z.string().min(1).max(MAX_SYMBOL_CHARS).describe("A name (getQuote) or a qualified name (QuoteService#getQuote, com.acme.QuoteService#getQuote)"),
  intent: z
    .enum(["definition", "references", "call_sites"])
    .default("definition")
    .describe("definition: where it is declared; references: every syntactic use; call_sites: calls only, with the enclosing function"),
  language: z.string().min(1).max(MAX_LANGUAGE_CHARS).optional().describe("Limit to one language id, e.g. java, typescript, python"),
  kind: z.enum(SYMBOL_KINDS).optional().describe("Limit definitions to one kind"),
  paths: pathGlobsSchema("Path globs to search in"),
  maxResults: maxResultsSchema("Hits to return (the read policy may lower it)"),
});

export const findSymbolTool = defineTool({
  name: "find_symbol",
  description:
    "Find where a symbol is defined, referenced or called, from tree-sitter symbols and references (lexical mentions where no grammar " +
    "exists, marked low confidence). Each hit has path, lines, matchType (symbol_definition, syntactic_reference, lexical_mention), " +
    "confidence and the enclosing symbol; an ambiguous name lists its candidates instead of guessing.",
  inputSchema: findSymbolSchema,
  annotations: { title: "Find symbol", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (args, ctx) => {
    const out = toToolOutput(await findSymbol(ctx, args), "hits");
    return { ...out, data: { ...out.data, candidates: out.data.stats.candidates } };
  },
});
