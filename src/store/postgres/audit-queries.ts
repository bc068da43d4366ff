import type { AuditFilter, AuditRecord } from "../store.js";
import type { Queryable } from "./db.js";
import { sqlLimit } from "./symbol-queries.js";

/** The audit log: one row per tool call, `at` a timestamptz (records carry it as an ISO string). */

export async function appendAudit(q: Queryable, r: AuditRecord): Promise<void> {
  await q.run(
    `INSERT INTO audit_log (at, run_id, step_id, tool, query_hash, mode, result_count, truncated, latency_ms, repo_id, index_version, outcome, preview)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [r.at, r.runId, r.stepId, r.tool, r.queryHash, r.mode, r.resultCount, r.truncated, r.latencyMs, r.repoId, r.indexVersion, r.outcome, r.preview],
  );
}

interface AuditDbRow {
  at: Date;
  run_id: string | null;
  step_id: string | null;
  tool: string;
  query_hash: string;
  mode: string | null;
  result_count: number;
  truncated: boolean;
  latency_ms: number;
  repo_id: string | null;
  index_version: string | null;
  outcome: string;
  preview: string | null;
}

/** Newest first (in the order written). */
export async function listAudit(q: Queryable, filter: AuditFilter): Promise<AuditRecord[]> {
  const params: unknown[] = [];
  const clauses: string[] = [];
  if (filter.since) clauses.push(`at >= $${params.push(filter.since)}`);
  if (filter.tool) clauses.push(`tool = $${params.push(filter.tool)}`);
  const where = clauses.length > 0 ? `WHERE ${clauses.join(" AND ")}` : "";
  const rows = await q.rows<AuditDbRow>(`SELECT * FROM audit_log ${where} ORDER BY id DESC LIMIT $${params.push(sqlLimit(filter.limit))}`, params);
  return rows.map((r) => ({
    at: r.at.toISOString(),
    runId: r.run_id,
    stepId: r.step_id,
    tool: r.tool,
    queryHash: r.query_hash,
    mode: r.mode,
    resultCount: r.result_count,
    truncated: r.truncated,
    latencyMs: r.latency_ms,
    repoId: r.repo_id,
    indexVersion: r.index_version,
    outcome: r.outcome,
    preview: r.preview,
  }));
}
