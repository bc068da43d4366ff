import type { Command } from "commander";
import { EXIT } from "../exit-codes.js";
import { positiveInt, withCommon, withSetup } from "../options.js";
import type { CommonOptions } from "../setup.js";
import type { AuditRecord } from "../../store/store.js";

export const DEFAULT_AUDIT_LIMIT = 50;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since`: an ISO time, or a duration back from now (`30m`, `2h`, `7d`). Undefined: no bound; null: invalid. */
export function parseSince(value: string | undefined, now: Date): string | undefined | null {
  if (value === undefined) return undefined;
  const d = /^(\d+)([smhd])$/.exec(value.trim());
  if (d) return new Date(now.getTime() - Number(d[1]) * UNIT_MS[d[2]!]!).toISOString();
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

export function formatAudit(records: AuditRecord[]): string {
  if (records.length === 0) return "no audit records\n";
  const lines = records.map(
    (r) =>
      `${r.at}  ${r.tool.padEnd(16)} ${r.outcome.padEnd(17)} ${String(r.resultCount).padStart(3)} results${r.truncated ? " (truncated)" : ""}  ` +
      `${r.latencyMs.toFixed(1)} ms  ${r.queryHash.slice(0, 19)}${r.runId ? `  run=${r.runId}` : ""}${r.stepId ? ` step=${r.stepId}` : ""}`,
  );
  return `${lines.join("\n")}\n`;
}

/** `repoctx audit`: the audit log's records, newest first, filtered by time and tool. */
export function registerAuditCommand(program: Command): void {
  withCommon(program.command("audit").description("show the audit log: one record per tool call (hashes, counts, outcome)"))
    .option("--since <when>", "ISO time, or a duration such as 30m, 2h, 7d")
    .option("--tool <name>", "only this tool")
    .option("--limit <n>", "records to show (default 50)", positiveInt)
    .option("--json", "print records as JSON")
    .action(async (opts: CommonOptions & { since?: string; tool?: string; limit?: number; json?: boolean }) =>
      withSetup(opts, undefined, async (s) => {
        const since = parseSince(opts.since, new Date());
        if (since === null) {
          process.stderr.write("repoctx: --since must be an ISO time or a duration like 30m, 2h, 7d\n");
          return EXIT.invalid_input;
        }
        const records = await s.store.listAudit({ ...(since ? { since } : {}), ...(opts.tool ? { tool: opts.tool } : {}), limit: opts.limit ?? DEFAULT_AUDIT_LIMIT });
        process.stdout.write(opts.json ? `${JSON.stringify(records, null, 2)}\n` : formatAudit(records));
        return EXIT.ok;
      }),
    );
}
