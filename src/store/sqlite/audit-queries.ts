import type Database from "better-sqlite3";
import { AUDIT_COLUMNS, auditRecordOf, auditValues, type AuditDbRow } from "../db-rows.js";
import type { AuditFilter, AuditRecord } from "../store.js";
import { SQLITE_VALUES, type SqliteTypes } from "./rows.js";
import { stmt } from "./statements.js";

/** The audit log: one row per tool call, `at` an ISO string. */

export function appendAudit(db: Database.Database, r: AuditRecord): void {
  stmt(
    db,
    `INSERT INTO audit_log (${AUDIT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(...auditValues(r, (b) => (b ? 1 : 0)));
}

/** Newest first (in the order written). */
export function listAudit(db: Database.Database, filter: AuditFilter): AuditRecord[] {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (filter.since) {
    clauses.push("at >= ?");
    params.push(filter.since);
  }
  if (filter.tool) {
    clauses.push("tool = ?");
    params.push(filter.tool);
  }
  const where = clauses.length > 0 ? `WHERE ${clauses.join(" AND ")}` : "";
  const rows = db.prepare(`SELECT * FROM audit_log ${where} ORDER BY id DESC LIMIT ?`).all(...params, filter.limit) as AuditDbRow<SqliteTypes>[];
  return rows.map((r) => auditRecordOf(r, SQLITE_VALUES));
}
