import { readFile, writeFile } from "node:fs/promises";
import { Option, type Command } from "commander";
import type { buildContextPackageTool } from "../../mcp/tools/build-context-package.js";
import type { checkContextFreshnessTool } from "../../mcp/tools/check-context-freshness.js";
import { CONTEXT_PURPOSES, RENDER_TARGETS, TOKENIZERS } from "../../query/context-package/types.js";
import type { Envelope } from "../../service/envelope.js";
import type { ToolData } from "../../service/tool.js";
import { EXIT } from "../exit-codes.js";
import { positiveInt, withCommon, withSetup } from "../options.js";
import { callTool, printWarnings, report } from "../report.js";
import type { CommonOptions } from "../setup.js";

/** `repoctx context` (a budgeted package for a purpose) and `repoctx freshness` (is a package's evidence still current). */
export function registerContextCommands(program: Command): void {
  withCommon(program.command("context <purpose>").description(`print a budgeted context package for a purpose (${CONTEXT_PURPOSES.join(", ")})`))
    .option("--goal <text>", "what the change must achieve")
    .option("--task <id>", "a task from the operator's task sources")
    .option("--path <paths...>", "candidate paths")
    .option("--symbol <names...>", "target symbols (QuoteService#quote)")
    .option("--from <symbol>", "migration: the old API")
    .option("--to <symbol>", "migration: the new API")
    .option("--allowed <globs...>", "contract: paths a change may touch")
    .option("--forbidden <globs...>", "contract: paths a change may not touch")
    .option("--criterion <texts...>", "contract: acceptance criteria")
    .option("--non-goal <texts...>", "contract: non-goals")
    .option("--check <commands...>", "contract: required verification commands")
    .option("--diff <file>", "unified diff to review or repair ('-' reads stdin)")
    .option("--log <file>", "the failing verifier's output (verification_repair)")
    .option("--budget <tokens>", "token budget", positiveInt, 8000)
    .addOption(new Option("--target <target>", "message shape").choices(RENDER_TARGETS).default("local"))
    .addOption(new Option("--tokenizer <name>", "encoding the budget is counted in").choices(TOKENIZERS).default("o200k_base"))
    .option("--max-files <n>", "files per list", positiveInt)
    .option("--manifest-out <file>", "write the package manifest here (for `repoctx freshness`)")
    .option("--json", "print the whole envelope as JSON")
    .action(async (purpose: string, opts: CommonOptions & ContextOptions) =>
      withSetup(opts, undefined, async (s) => {
        const { buildContextPackageTool } = await import("../../mcp/tools/build-context-package.js");
        const env = await callTool(s, buildContextPackageTool, await contextArgs(purpose, opts));
        if (opts.json || !env.ok) return report(env, opts.json ?? false, () => "", process.stdout, process.stderr);
        printWarnings(env, process.stderr);
        await printContext(env, opts, process.stdout, process.stderr);
        return EXIT.ok;
      }),
    );

  withCommon(program.command("freshness <manifest>").description("check a context package's manifest against the work tree and the index: fresh, or what went stale"))
    .option("--json", "print the envelope as JSON")
    .action(async (manifestFile: string, opts: CommonOptions & { json?: boolean }) =>
      withSetup(opts, undefined, async (s) => {
        const manifest = JSON.parse(await readFile(manifestFile, "utf8")) as unknown;
        const { checkContextFreshnessTool } = await import("../../mcp/tools/check-context-freshness.js");
        const env = await callTool(s, checkContextFreshnessTool, { manifest });
        const code = report(env, opts.json ?? false, formatFreshness, process.stdout, process.stderr);
        return code === EXIT.ok && !env.data.contextFreshness.fresh ? EXIT.stale_context : code;
      }),
    );
}

export interface ContextOptions {
  goal?: string;
  task?: string;
  path?: string[];
  symbol?: string[];
  from?: string;
  to?: string;
  allowed?: string[];
  forbidden?: string[];
  criterion?: string[];
  nonGoal?: string[];
  check?: string[];
  diff?: string;
  log?: string;
  budget: number;
  target: string;
  tokenizer: string;
  maxFiles?: number;
  manifestOut?: string;
  json?: boolean;
}

async function readInput(file: string): Promise<string> {
  if (file !== "-") return readFile(file, "utf8");
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** `repoctx context` options as build_context_package arguments (files read here: the tool takes text). */
export async function contextArgs(purpose: string, o: ContextOptions): Promise<Record<string, unknown>> {
  const contract = {
    ...(o.allowed ? { allowedPaths: o.allowed } : {}),
    ...(o.forbidden ? { forbiddenPaths: o.forbidden } : {}),
    ...(o.criterion ? { acceptanceCriteria: o.criterion } : {}),
    ...(o.nonGoal ? { nonGoals: o.nonGoal } : {}),
    ...(o.check ? { requiredChecks: o.check } : {}),
  };
  return {
    purpose,
    budgetTokens: o.budget,
    target: o.target,
    tokenizer: o.tokenizer,
    ...(o.goal ? { goal: o.goal } : {}),
    ...(o.task ? { taskId: o.task } : {}),
    ...(o.path ? { candidatePaths: o.path } : {}),
    ...(o.symbol ? { symbols: o.symbol } : {}),
    ...(o.from && o.to ? { migration: { from: o.from, to: o.to } } : {}),
    ...(Object.keys(contract).length > 0 ? { contract } : {}),
    ...(o.diff ? { diff: await readInput(o.diff) } : {}),
    ...(o.log ? { verifierOutput: await readInput(o.log) } : {}),
    ...(o.maxFiles ? { maxFiles: o.maxFiles } : {}),
  };
}

/** The rendered package on stdout (the prompt text for `local`, the message JSON otherwise); the rest on stderr. */
export async function printContext(
  env: Envelope<ToolData<typeof buildContextPackageTool>>,
  o: ContextOptions,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<void> {
  const data = env.data;
  const prompt = "prompt" in data.rendered ? data.rendered.prompt : undefined;
  out.write(typeof prompt === "string" ? `${prompt}\n` : `${JSON.stringify(data.rendered, null, 2)}\n`);
  // The CLI asks for the full answer; `return: "rendered"` (rendered alone) is for clients that want only the text.
  if (!data.package || !data.manifest || !data.quality) return;
  if (o.manifestOut) await writeFile(o.manifestOut, `${JSON.stringify(data.manifest, null, 2)}\n`);
  const p = data.package;
  err.write(`package ${p.packageId}: ${p.budget.usedTokens}/${p.budget.maxTokens} tokens, ${p.omitted.length} block(s) left out for budget\n`);
  if (!data.quality.accepted) for (const r of data.quality.reasons) err.write(`quality: rejected: ${r.code}: ${r.message}\n`);
}

/** `repoctx freshness`: one line per stale item, or "fresh". */
export function formatFreshness(data: ToolData<typeof checkContextFreshnessTool>): string {
  const d = data.contextFreshness;
  if (d.fresh) return "fresh: every evidence item, the commit and the instructions are as the package saw them\n";
  return `${["stale:", ...d.stale.map((s) => `  ${s.kind}: ${s.message}`)].join("\n")}\n`;
}
