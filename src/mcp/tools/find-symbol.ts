import { z } from "zod";
import { SYMBOL_KINDS } from "../../core/symbols.js";
import { findSymbol } from "../../query/symbols.js";
import { defineTool, toToolOutput, type CompactJson } from "../../service/tool.js";
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
  countOnly: z.boolean().optional().describe("Count hits per file and confidence instead of returning them (how big is a rename?)"),
});

export const findSymbolTool = defineTool({
  name: "find_symbol",
  description:
    "Where a symbol is defined (intent definition), every use of it (references: calls, types, imports and " +
    "values passed around; what a rename must touch) or only its calls (call_sites). Resolved by scope and " +
    "import over syntax trees (and a SCIP index where one was given); each hit has a confidence, an ambiguous " +
    "name lists its candidates instead of guessing, and text mentions where no grammar exists say so. " +
    "countOnly: true sizes a change before reading it.",
  inputSchema: findSymbolSchema,
  annotations: { title: "Find symbol", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  compact: (data) => ({ ...data, hits: Array.isArray(data.hits) ? data.hits.map(dropPlainReason) : (data.hits ?? []) }),
  handler: async (args, ctx) => {
    const out = toToolOutput(await findSymbol(ctx, args), "hits");
    return { ...out, data: { ...out.data, candidates: out.data.stats.candidates } };
  },
});

/** A reason that says no more than the hit's kind does ("call of 'quote'") is left out of the compact answer. */
function dropPlainReason(hit: CompactJson): CompactJson {
  if (hit === null || typeof hit !== "object" || Array.isArray(hit)) return hit;
  const { reason, ...rest } = hit;
  return typeof reason === "string" && /^\w+ of '[^']*'$/.test(reason) ? rest : hit;
}
