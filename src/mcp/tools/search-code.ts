import { z } from "zod";
import { searchCode } from "../../query/search.js";
import { defineTool, toToolOutput, type CompactData, type CompactJson } from "../../service/tool.js";
import { maxResultsSchema, pathGlobsSchema } from "./common.js";
import { renderSearchText } from "./search-code-text.js";

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
  semantic: z.boolean().optional().describe("Questions and issue text: also rank by the repository's own embedding, where the operator trains one (hits found only that way say matchType semantic)"),
  countOnly: z.boolean().optional().describe("Count matches and matching lines per file (like rg -c) instead of returning them"),
  abstain: z.boolean().optional().describe("Questions and issue text: answer stats.abstention.noLocalEvidence instead of weak matches (off by default)"),
});

export const searchCodeTool = defineTool({
  name: "search_code",
  description:
    "Search the repository instead of grep. An exact identifier, error message or string: mode lexical returns " +
    "every matching line as line:text under its file's heading, like rg --heading -n, files ranked (regex: true for a regular expression, countOnly: true " +
    "to count like rg -c). A question, an issue text, a log or a stack trace: the default hybrid mode ranks " +
    "files by BM25 over split identifiers, paths and symbol names, frames and messages quoted in it, with each " +
    "file's best span and the reasons for its score. mode symbol: definitions whose name starts with the " +
    "query. Generated, vendored and secret-suspect files are left out by the read policy.",
  inputSchema: searchCodeSchema,
  annotations: { title: "Search code", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  compact: compactSearch,
  renderText: renderSearchText,
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
function compactGroup(g: CompactData, lexical: boolean): CompactData {
  const { hits, scoreParts: _parts, matchCount, moreLines, reasons, score, ...rest } = g;
  // Exact matches are in rank order already and their lines are there to count; a ranked file keeps its score.
  const out: CompactData = lexical ? { ...rest } : { ...rest, score: score ?? null, matches: matchCount ?? null };
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

/** Stats that say something the results do not: how many files matched in all, and how to get the rest. */
function compactStats(stats: CompactData): CompactData {
  if (stats.countOnly === true || stats.ranking !== undefined) return stats;
  const out: CompactData = {};
  if (typeof stats.filesMatched === "number" && stats.filesMatched !== stats.files) out.filesMatched = stats.filesMatched;
  if (stats.moreFilesNotScanned === true) out.moreFilesNotScanned = true;
  if (stats.followUp !== undefined) out.followUp = stats.followUp;
  return out;
}

function compactSearch(data: CompactData): CompactData {
  const stats = (data.stats ?? {}) as CompactData;
  const lexical = stats.ranking === undefined;
  const results = Array.isArray(data.results) ? (data.results as CompactData[]).map((g) => compactGroup(g, lexical)) : data.results;
  const shown = compactStats(stats);
  return { results: results ?? [], ...(Object.keys(shown).length > 0 ? { stats: shown } : {}) };
}
