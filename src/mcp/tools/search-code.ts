import { z } from "zod";
import { searchCode } from "../../query/search.js";
import { defineTool, toToolOutput, type CompactData, type CompactJson } from "../../service/tool.js";
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
  countOnly: z.boolean().optional().describe("Count matches and matching lines per file (like rg -c) instead of returning them"),
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
  compact: compactSearch,
  handler: async (args, ctx, deps) => {
    // A misconfigured endpoint is reported by the ranking (semantic_provider_unavailable), not a failed search.
    const endpoint = args.semantic ? deps.sources.embeddings : null;
    const embedQuery = endpoint ? async (text: string) => (await endpoint.embed([text]))[0]! : undefined;
    return toToolOutput(await searchCode(ctx, { ...args, ...(embedQuery ? { embedQuery } : {}) }), "results");
  },
});

const LINE_MATCHES = new Set(["lexical_exact", "lexical_regex", "symbol_definition", "lexical_and_symbol"]);

/**
 * A result file in the compact answer: exact matches as `[line, text]` pairs (the matched line alone, once per line,
 * like `rg -n`; a definition adds what it defines), a ranked hit as its span and snippet, reasons as short lines.
 */
function compactGroup(g: CompactData): CompactData {
  const { hits, scoreParts: _parts, matchCount, moreLines, reasons, ...rest } = g;
  const out: CompactData = { ...rest, matches: matchCount ?? null };
  const list = Array.isArray(hits) ? (hits as CompactData[]) : [];
  const lines: CompactJson[] = [];
  const seen = new Set<number>();
  const spans: CompactData[] = [];
  for (const h of list) {
    const symbol = h.symbol as { kind?: string; qualifiedName?: string } | undefined;
    const defines = symbol?.qualifiedName ? `${symbol.kind ?? "symbol"} ${symbol.qualifiedName}` : null;
    if (!LINE_MATCHES.has(String(h.matchType))) {
      spans.push({ lines: `${h.startLine}-${h.endLine}`, matchType: h.matchType ?? null, ...(defines ? { defines } : {}), snippet: h.snippet ?? "" });
      continue;
    }
    const at = Number(h.matchLine);
    if (seen.has(at)) continue;
    seen.add(at);
    const text = String(h.snippet ?? "").split("\n")[at - Number(h.startLine)] ?? String(h.snippet ?? "");
    lines.push(defines ? [at, text, `defines ${defines}`] : [at, text]);
  }
  if (lines.length > 0) out.lines = lines;
  if (spans.length > 0) out.spans = spans;
  if (typeof moreLines === "number") out.moreLines = moreLines;
  if (Array.isArray(reasons)) {
    out.why = (reasons as CompactData[]).map((r) => `${r.part} ${Number(r.value) >= 0 ? "+" : ""}${r.value}: ${r.why}`);
  }
  return out;
}

function compactSearch(data: CompactData): CompactData {
  const results = Array.isArray(data.results) ? (data.results as CompactData[]).map(compactGroup) : data.results;
  return { ...data, results: results ?? [] };
}
