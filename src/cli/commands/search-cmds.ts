import type { Command } from "commander";
import type { findSymbolTool } from "../../mcp/tools/find-symbol.js";
import type { getFileSliceTool } from "../../mcp/tools/get-file-slice.js";
import type { searchCodeTool } from "../../mcp/tools/search-code.js";
import type { ToolData } from "../../service/tool.js";
import { positiveInt, withCommon, withSetup } from "../options.js";
import { callTool, report, trustLabelOf } from "../report.js";
import type { CommonOptions } from "../setup.js";

/** `repoctx search`, `symbol` and `slice`: finding code and reading it. */
export function registerSearchCommands(program: Command): void {
  withCommon(program.command("search <query>").description("search indexed code (lexical)"))
    .option("--regex", "treat the query as a regular expression")
    .option("--case-sensitive", "match case")
    .option("--path <glob...>", "limit to paths matching these globs")
    .option("--max <n>", "maximum hits", positiveInt)
    .option("--include-generated", "include generated and vendored files")
    .option("--mode <mode>", "hybrid (default), lexical or symbol")
    .option("--json", "print the envelope as JSON")
    .action(async (query: string, opts: SearchOptions) =>
      withSetup(opts, undefined, async (s) => {
        const { searchCodeTool } = await import("../../mcp/tools/search-code.js");
        const env = await callTool(s, searchCodeTool, {
          query,
          regex: opts.regex ?? false,
          caseSensitive: opts.caseSensitive ?? false,
          ...(opts.path ? { paths: opts.path } : {}),
          ...(opts.max ? { maxResults: opts.max } : {}),
          ...(opts.includeGenerated ? { includeGenerated: true } : {}),
          ...(opts.mode ? { mode: opts.mode } : {}),
        });
        return report(env, opts.json ?? false, formatSearch, process.stdout, process.stderr);
      }),
    );

  withCommon(program.command("symbol <name>").description("find a symbol's definition, references (--refs) or call sites (--calls)"))
    .option("--refs", "every syntactic reference")
    .option("--calls", "call sites only, with the enclosing function")
    .option("--language <id>", "limit to one language")
    .option("--path <glob...>", "limit to paths matching these globs")
    .option("--max <n>", "maximum hits", positiveInt)
    .option("--json", "print the envelope as JSON")
    .action(async (name: string, opts: CommonOptions & { refs?: boolean; calls?: boolean; language?: string; path?: string[]; max?: number; json?: boolean }) =>
      withSetup(opts, undefined, async (s) => {
        const { findSymbolTool } = await import("../../mcp/tools/find-symbol.js");
        const env = await callTool(s, findSymbolTool, {
          symbol: name,
          intent: opts.calls ? "call_sites" : opts.refs ? "references" : "definition",
          ...(opts.language ? { language: opts.language } : {}),
          ...(opts.path ? { paths: opts.path } : {}),
          ...(opts.max ? { maxResults: opts.max } : {}),
        });
        return report(env, opts.json ?? false, formatSymbol, process.stdout, process.stderr);
      }),
    );

  withCommon(program.command("slice <path>").description("print a line range of an indexed file"))
    .option("--lines <a:b>", "line range, e.g. 10:40")
    .option("--expected-hash <sha256:...>", "fail with stale_context if the file's hash differs")
    .option("--no-line-numbers", "print without line numbers")
    .option("--json", "print the envelope as JSON")
    .action(async (path: string, opts: CommonOptions & { lines?: string; expectedHash?: string; lineNumbers: boolean; json?: boolean }) =>
      withSetup(opts, undefined, async (s) => {
        const { getFileSliceTool } = await import("../../mcp/tools/get-file-slice.js");
        const env = await callTool(s, getFileSliceTool, {
          path,
          ...parseLineRange(opts.lines),
          includeLineNumbers: opts.lineNumbers,
          ...(opts.expectedHash ? { expectedContentHash: opts.expectedHash } : {}),
        });
        return report(env, opts.json ?? false, formatSlice, process.stdout, process.stderr);
      }),
    );
}

type SearchOptions = CommonOptions & {
  regex?: boolean;
  caseSensitive?: boolean;
  path?: string[];
  max?: number;
  includeGenerated?: boolean;
  mode?: string;
  json?: boolean;
};

/** grep-like: a header per file, then `line: text` for each matching line. */
export function formatSearch(data: ToolData<typeof searchCodeTool>): string {
  const lines: string[] = [];
  for (const g of data.results) {
    lines.push(`${g.path}  [${trustLabelOf(g) ?? "unlabelled"}]`);
    for (const h of g.hits) {
      const text = h.snippet.split("\n")[h.matchLine - h.startLine] ?? "";
      lines.push(`  ${h.matchLine}: ${text.trim()}`);
    }
  }
  if (data.results.length === 0) lines.push("no matches");
  const followUp = data.stats.followUp;
  if (data.stats.truncated) lines.push(`(truncated: ${typeof followUp === "string" ? followUp : "more results exist"})`);
  return `${lines.join("\n")}\n`;
}

/** `path:line  kind  qualified name or enclosing function  [match type, confidence]`, then the candidates if ambiguous. */
export function formatSymbol(data: ToolData<typeof findSymbolTool>): string {
  const lines = data.hits.map((h) => {
    const what = h.qualifiedName ?? (h.enclosing ? `in ${h.enclosing}` : "");
    return `${h.path}:${h.startLine}  ${h.kind}  ${what}  [${h.matchType}, ${h.confidence}]${h.snippet ? `\n    ${h.snippet}` : ""}`;
  });
  if (data.hits.length === 0) lines.push("no matches");
  if (data.candidates.length > 1) {
    lines.push("ambiguous name; candidates:");
    for (const c of data.candidates) lines.push(`  ${c.qualifiedName}  ${c.path}:${c.startLine}`);
  }
  return `${lines.join("\n")}\n`;
}

export function formatSlice(data: ToolData<typeof getFileSliceTool>): string {
  const slice = data.slice!;
  return slice.content === null ? `(${slice.path}: no text content)\n` : `${slice.content}\n`;
}

/** `a:b`, `a:` or `a` as a line range. */
export function parseLineRange(spec: string | undefined): { startLine?: number; endLine?: number } {
  if (!spec) return {};
  const m = /^(\d+)?(?::(\d+)?)?$/.exec(spec.trim());
  if (!m) return { startLine: Number.NaN };
  return { ...(m[1] ? { startLine: Number(m[1]) } : {}), ...(m[2] ? { endLine: Number(m[2]) } : {}) };
}
