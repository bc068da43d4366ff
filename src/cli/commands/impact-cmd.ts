import { Option, type Command } from "commander";
import type { getChangeImpactContextTool } from "../../mcp/tools/get-change-impact-context.js";
import { CHANGE_TYPES } from "../../query/change-types.js";
import type { ToolData } from "../../service/tool.js";
import { positiveInt, withCommon, withSetup } from "../options.js";
import { callTool, report } from "../report.js";
import type { CommonOptions } from "../setup.js";

/** `repoctx impact`: the evidence bundle for a candidate change, gaps included. */
export function registerImpactCommand(program: Command): void {
  withCommon(program.command("impact <paths...>").description("collect the evidence bundle for a candidate change: call sites, tests, owners, risks, commands, gaps"))
    .option("--symbol <name...>", "changed symbols (QuoteService#quote); default: the public symbols the files define")
    .addOption(new Option("--change-type <type>", "kind of change (call sites for api_migration, bug_fix, feature, dependency_upgrade)").choices(CHANGE_TYPES).default("refactor"))
    .option("--max-files <n>", "files listed in call sites and in related tests", positiveInt)
    .option("--json", "print the envelope as JSON")
    .action(async (paths: string[], opts: CommonOptions & { symbol?: string[]; changeType: string; maxFiles?: number; json?: boolean }) =>
      withSetup(opts, undefined, async (s) => {
        const { getChangeImpactContextTool } = await import("../../mcp/tools/get-change-impact-context.js");
        const env = await callTool(s, getChangeImpactContextTool, {
          candidatePaths: paths,
          changeType: opts.changeType,
          ...(opts.symbol ? { symbols: opts.symbol } : {}),
          ...(opts.maxFiles ? { maxFiles: opts.maxFiles } : {}),
        });
        return report(env, opts.json ?? false, formatChangeImpact, process.stdout, process.stderr);
      }),
    );
}

function section(title: string, rows: string[]): string[] {
  return rows.length > 0 ? [`${title}:`, ...rows.map((r) => `  ${r}`)] : [];
}

/** The bundle section by section, then what was not analysed: a person sees the gaps as plainly as the hits. */
export function formatChangeImpact(data: ToolData<typeof getChangeImpactContextTool>): string {
  const b = data.bundle;
  const c = b.coverage;
  const direct = b.directFiles.map((d) =>
    !d.indexed ? `${d.path}  (not indexed)` : d.skipReason ? `${d.path}  (skipped: ${d.skipReason})` : `${d.path}  ${d.language ?? "?"}, ${d.lines ?? "?"} lines, module ${d.module ?? "-"}, ${d.symbolsTotal} symbols`,
  );
  const calls = b.callSites.flatMap((g) => [
    `${g.path}  [${g.confidence}]`,
    ...g.hits.map((h) => `  ${h.startLine}: ${h.snippet ?? ""}  (${h.enclosing ? `in ${h.enclosing}, ` : ""}${h.matchType})`),
    ...(g.hitsTotal > g.hits.length ? [`  … ${g.hitsTotal - g.hits.length} more`] : []),
  ]);
  const tests = b.relatedTests.map((t) => `${t.path}  [${t.confidence}] ${t.reasons.join(", ")}`);
  const owners = b.ownerHints.map((o) => `${o.path}  ${o.owners.join(" ") || "(unowned)"}  (${o.role})`);
  const risks = b.riskHints.map((r) => `[${r.confidence}] ${r.category}  ${r.path}:${r.startLine}  ${r.reason}`);
  const verify = b.verifierHints.map((v) => `$ ${v.command}  (${v.purpose}, ${v.scope}; from ${v.source.path ?? v.source.kind}${v.source.line ? `:${v.source.line}` : ""})`);
  const rules = [
    `outcome ${b.instructions.outcome}, ${b.instructions.effectiveInstructionHash}`,
    ...b.instructions.forbiddenPaths.map((f) => `forbidden path ${f.glob}  (${f.ruleId})`),
    ...(b.instructions.forbiddenActions.length > 0 ? [`forbidden actions: ${b.instructions.forbiddenActions.map((a) => a.action).join(", ")}`] : []),
  ];
  const gaps = [
    ...c.notIndexed.map((n) => `not indexed: ${n.path}  (${n.reason})`),
    ...c.skipped.map((s) => `skipped: ${s.path}  (${s.skipReason})`),
    ...c.overLimits.map((o) => `over ${o.limit} limit: ${o.path}  (${o.sizeBytes} bytes)`),
    ...c.noSyntacticReferences.map((n) => `no syntactic references in ${n.language}: ${n.paths.join(", ")}  (${n.reason})`),
    ...c.symbolsNotFound.map((s) => `symbol not found: ${s}`),
    ...c.ambiguousSymbols.map((a) => `ambiguous symbol: ${a.symbol} (${a.candidates.length} definitions)`),
    ...c.truncated.map((t) => `truncated: ${t.list}  ${t.shown} of ${t.total ?? "more"} (${t.reason})`),
    ...c.limitations,
  ];
  const lines = [
    ...section("candidate files", direct),
    ...section("call sites", calls),
    ...section("related tests", tests),
    ...section("owners", owners),
    ...section("risks", risks),
    ...section("verifier hints", verify),
    ...section("instructions", rules),
    ...section("not analysed", gaps),
  ];
  return `${lines.join("\n")}\n`;
}
