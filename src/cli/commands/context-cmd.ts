import { readFile, writeFile } from "node:fs/promises";
import type { Envelope } from "../../service/envelope.js";

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
export async function printContext(env: Envelope, o: ContextOptions, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<void> {
  const data = env.data as {
    rendered: Record<string, unknown>;
    manifest: unknown;
    quality: { accepted: boolean; reasons: { code: string; message: string }[] };
    package: { packageId: string; budget: { usedTokens: number; maxTokens: number }; omitted: unknown[] };
  };
  if (o.manifestOut) await writeFile(o.manifestOut, `${JSON.stringify(data.manifest, null, 2)}\n`);
  const rendered = data.rendered as { prompt?: string };
  out.write(typeof rendered.prompt === "string" ? `${rendered.prompt}\n` : `${JSON.stringify(data.rendered, null, 2)}\n`);
  const p = data.package;
  err.write(`package ${p.packageId}: ${p.budget.usedTokens}/${p.budget.maxTokens} tokens, ${p.omitted.length} block(s) left out for budget\n`);
  if (!data.quality.accepted) for (const r of data.quality.reasons) err.write(`quality: rejected: ${r.code}: ${r.message}\n`);
}

/** `repoctx freshness`: one line per stale item, or "fresh". */
export function formatFreshness(data: Record<string, unknown>): string {
  const d = (data as { contextFreshness: { fresh: boolean; stale: { kind: string; message: string }[] } }).contextFreshness;
  if (d.fresh) return "fresh: every evidence item, the commit and the instructions are as the package saw them\n";
  return `${["stale:", ...d.stale.map((s) => `  ${s.kind}: ${s.message}`)].join("\n")}\n`;
}
