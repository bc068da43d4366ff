import { AUDIT_COLUMNS, auditRecordOf, auditValues, type AuditDbRow } from "../db-rows.js";
import type { AuditFilter, AuditRecord } from "../store.js";
import type { Queryable } from "./db.js";
import { PG_VALUES, type PgTypes } from "./rows.js";
import { sqlLimit } from "./symbol-queries.js";

/** The audit log: one row per tool call, `at` a timestamptz (records carry it as an ISO string). */

export async function appendAudit(q: Queryable, r: AuditRecord): Promise<void> {
  await q.run(
    `INSERT INTO audit_log (${AUDIT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    auditValues(r, (b) => b),
  );
}

/** Newest first (in the order written). */
export async function listAudit(q: Queryable, filter: AuditFilter): Promise<AuditRecord[]> {
  const params: unknown[] = [];
  const clauses: string[] = [];
  if (filter.since) clauses.push(`at >= $${params.push(filter.since)}`);
  if (filter.tool) clauses.push(`tool = $${params.push(filter.tool)}`);
  const where = clauses.length > 0 ? `WHERE ${clauses.join(" AND ")}` : "";
  const rows = await q.rows<AuditDbRow<PgTypes>>(`SELECT * FROM audit_log ${where} ORDER BY id DESC LIMIT $${params.push(sqlLimit(filter.limit))}`, params);
  return rows.map((r) => auditRecordOf(r, PG_VALUES));
}
