import type { Command } from "commander";
import type { findRelatedTestsTool } from "../../mcp/tools/find-related-tests.js";
import type { getOwnershipTool } from "../../mcp/tools/get-ownership.js";
import type { ToolData } from "../../service/tool.js";
import { positiveInt, withCommon, withSetup } from "../options.js";
import { callTool, report } from "../report.js";
import type { CommonOptions } from "../setup.js";

/** `repoctx tests` and `owners`: what the index knows about tests and ownership. */
export function registerKnowledgeCommands(program: Command): void {
  withCommon(program.command("tests [paths...]").description("find the tests related to changed paths and/or symbols, with a command to run each"))
    .option("--symbol <name...>", "changed symbols (QuoteService, QuoteService#quote)")
    .option("--max <n>", "maximum tests", positiveInt)
    .option("--json", "print the envelope as JSON")
    .action(async (paths: string[], opts: CommonOptions & { symbol?: string[]; max?: number; json?: boolean }) =>
      withSetup(opts, undefined, async (s) => {
        const { findRelatedTestsTool } = await import("../../mcp/tools/find-related-tests.js");
        const env = await callTool(s, findRelatedTestsTool, {
          ...(paths.length > 0 ? { changedPaths: paths } : {}),
          ...(opts.symbol ? { symbols: opts.symbol } : {}),
          ...(opts.max ? { maxResults: opts.max } : {}),
        });
        return report(env, opts.json ?? false, formatRelatedTests, process.stdout, process.stderr);
      }),
    );

  withCommon(program.command("owners <paths...>").description("show owners and reviewers of paths from CODEOWNERS, with the deciding rule"))
    .option("--json", "print the envelope as JSON")
    .action(async (paths: string[], opts: CommonOptions & { json?: boolean }) =>
      withSetup(opts, undefined, async (s) => {
        const { getOwnershipTool } = await import("../../mcp/tools/get-ownership.js");
        return report(await callTool(s, getOwnershipTool, { paths }), opts.json ?? false, formatOwnership, process.stdout, process.stderr);
      }),
    );
}

/** `repoctx inspect`: the index's status, counts, exclusions and the policy in force, as JSON. */
export function registerInspectCommand(program: Command): void {
  withCommon(program.command("inspect").description("show index status, counts, exclusions and the policy in force"))
    .option("--json", "print the envelope as JSON")
    .action(async (opts: CommonOptions & { json?: boolean }) =>
      withSetup(opts, undefined, async (s) => {
        const { inspectIndexTool } = await import("../../mcp/tools/inspect-index.js");
        return report(await callTool(s, inspectIndexTool, {}), opts.json ?? false, formatJson, process.stdout, process.stderr);
      }),
    );
}

/** What find_related_tests' stats say per module: the command that runs the module's tests. */
interface ModuleTestCommand {
  module: string;
  command: string | null;
}

/** `path  [confidence] reasons`, then the command that runs it. */
export function formatRelatedTests(data: ToolData<typeof findRelatedTestsTool>): string {
  const lines = data.tests.map((t) => `${t.path}  [${t.confidence}] ${t.reasons.join(", ")}${t.testCommandHint ? `\n    $ ${t.testCommandHint}` : ""}`);
  if (data.tests.length === 0) lines.push("no related tests found");
  for (const m of data.stats.moduleTestCommands as ModuleTestCommand[]) if (m.command) lines.push(`module ${m.module}: $ ${m.command}`);
  return `${lines.join("\n")}\n`;
}

/** `path  owners (reviewers)  ← rule at file:line [confidence]`, then the suggested reviewers. */
export function formatOwnership(data: ToolData<typeof getOwnershipTool>): string {
  const lines = data.paths.map((p) => {
    const who = p.owners.length > 0 ? p.owners.join(" ") : "(unowned)";
    const rev = p.reviewers.length > 0 ? ` (reviewers: ${p.reviewers.join(" ")})` : "";
    const rule = p.rules.map((r) => `${r.pattern} at ${r.source}:${r.line}`).join("; ");
    return `${p.path}  ${who}${rev}${rule ? `  <- ${rule}` : ""}  [${p.confidence}]`;
  });
  if (data.suggestedReviewers.length > 0) lines.push(`suggested reviewers: ${data.suggestedReviewers.join(" ")}`);
  return `${lines.join("\n")}\n`;
}

export function formatJson(data: object): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}
