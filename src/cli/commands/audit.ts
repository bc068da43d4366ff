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
