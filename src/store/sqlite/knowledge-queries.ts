import type Database from "better-sqlite3";
import type { BuildGraph, OwnershipFile, OwnershipRule, RepoDoc, RepoKnowledge, RepoModule } from "../../core/knowledge.js";
import type { InstructionFile } from "../../core/instructions.js";
import { EMPTY_GRAPH, EMPTY_OWNERSHIP } from "../row-rules.js";
import { stmt } from "./statements.js";

/** Tables holding what the knowledge stage learned, one set of rows per index build. */
export const KNOWLEDGE_TABLES = ["repo_module", "repo_doc", "repo_ownership_rule", "repo_knowledge", "repo_instruction"] as const;

/** Writes an index's knowledge, replacing rows with the same keys; call inside the caller's transaction. */
export function writeKnowledge(db: Database.Database, indexId: string, k: RepoKnowledge): void {
  const { modules, ...graph } = k.graph;
  const { rules, ...ownership } = k.ownership;
  {
    const module = stmt(db, "INSERT OR REPLACE INTO repo_module (repo_index_id, path, name, data) VALUES (?, ?, ?, ?)");
    for (const m of modules) module.run(indexId, m.path, m.name, JSON.stringify(m));
    const doc = stmt(db, "INSERT OR REPLACE INTO repo_doc (repo_index_id, doc_id, path, data) VALUES (?, ?, ?, ?)");
    for (const d of k.docs) doc.run(indexId, d.docId, d.path, JSON.stringify(d));
    const rule = stmt(db, "INSERT OR REPLACE INTO repo_ownership_rule (repo_index_id, ordinal, data) VALUES (?, ?, ?)");
    for (const r of rules) rule.run(indexId, r.ordinal, JSON.stringify(r));
    const instruction = stmt(db, "INSERT OR REPLACE INTO repo_instruction (repo_index_id, path, data) VALUES (?, ?, ?)");
    for (const f of k.instructions) instruction.run(indexId, f.path, JSON.stringify(f));
    const other = stmt(db, "INSERT OR REPLACE INTO repo_knowledge (repo_index_id, kind, data) VALUES (?, ?, ?)");
    other.run(indexId, "graph", JSON.stringify(graph));
    other.run(indexId, "ownership", JSON.stringify(ownership));
    other.run(indexId, "dirty_paths", JSON.stringify(k.dirtyPaths ?? []));
  }
}

/** Deletes an index's knowledge rows (inside the caller's transaction). */
export function deleteKnowledge(db: Database.Database, indexId: string): void {
  for (const table of KNOWLEDGE_TABLES) db.prepare(`DELETE FROM ${table} WHERE repo_index_id = ?`).run(indexId);
}

export function setDirtyPaths(db: Database.Database, indexId: string, paths: string[]): void {
  stmt(db, "INSERT OR REPLACE INTO repo_knowledge (repo_index_id, kind, data) VALUES (?, 'dirty_paths', ?)").run(indexId, JSON.stringify(paths));
}

export function getDirtyPaths(db: Database.Database, indexId: string): string[] {
  const row = stmt(db, "SELECT data FROM repo_knowledge WHERE repo_index_id = ? AND kind = 'dirty_paths'").get(indexId) as { data: string } | undefined;
  return row ? (JSON.parse(row.data) as string[]) : [];
}

export function getKnowledge(db: Database.Database, indexId: string): { graph: BuildGraph; ownership: OwnershipFile } {
  const parts = new Map(
    (stmt(db, "SELECT kind, data FROM repo_knowledge WHERE repo_index_id = ?").all(indexId) as { kind: string; data: string }[]).map(
      (r) => [r.kind, JSON.parse(r.data) as unknown],
    ),
  );
  const modules = (stmt(db, "SELECT data FROM repo_module WHERE repo_index_id = ? ORDER BY path, name").all(indexId) as { data: string }[]).map(
    (r) => JSON.parse(r.data) as RepoModule,
  );
  const rules = (stmt(db, "SELECT data FROM repo_ownership_rule WHERE repo_index_id = ? ORDER BY ordinal").all(indexId) as { data: string }[]).map(
    (r) => JSON.parse(r.data) as OwnershipRule,
  );
  const graph = (parts.get("graph") as Omit<BuildGraph, "modules"> | undefined) ?? EMPTY_GRAPH;
  const ownership = (parts.get("ownership") as Omit<OwnershipFile, "rules"> | undefined) ?? EMPTY_OWNERSHIP;
  return { graph: { ...graph, modules }, ownership: { ...ownership, rules } };
}

export function listDocs(db: Database.Database, indexId: string, filter: { pathPrefix?: string; limit: number }): { docs: RepoDoc[]; total: number } {
  const prefix = filter.pathPrefix ?? "";
  const where = "repo_index_id = ? AND substr(path, 1, ?) = ?";
  const total = (stmt(db, `SELECT count(*) AS n FROM repo_doc WHERE ${where}`).get(indexId, prefix.length, prefix) as { n: number }).n;
  const docs = (
    stmt(db, `SELECT data FROM repo_doc WHERE ${where} ORDER BY path LIMIT ?`).all(indexId, prefix.length, prefix, filter.limit) as { data: string }[]
  ).map((r) => JSON.parse(r.data) as RepoDoc);
  return { docs, total };
}

export function getDoc(db: Database.Database, indexId: string, docId: string): RepoDoc | null {
  const row = stmt(db, "SELECT data FROM repo_doc WHERE repo_index_id = ? AND doc_id = ?").get(indexId, docId) as { data: string } | undefined;
  return row ? (JSON.parse(row.data) as RepoDoc) : null;
}

export function listInstructionFiles(db: Database.Database, indexId: string): InstructionFile[] {
  return (stmt(db, "SELECT data FROM repo_instruction WHERE repo_index_id = ? ORDER BY path").all(indexId) as { data: string }[]).map(
    (r) => JSON.parse(r.data) as InstructionFile,
  );
}
