import type { BuildGraph, OwnershipFile, OwnershipRule, RepoDoc, RepoKnowledge, RepoModule } from "../../core/knowledge.js";
import { EMPTY_GRAPH, EMPTY_OWNERSHIP } from "../row-rules.js";
import type { Queryable } from "./db.js";
import type { InstructionFile } from "../../core/instructions.js";

/** Tables holding what the knowledge stage learned, one set of rows per index build. */
export const KNOWLEDGE_TABLES = ["repo_module", "repo_doc", "repo_ownership_rule", "repo_knowledge", "repo_instruction"] as const;

/** Rows by key, the last one of a key kept (SQLite's INSERT OR REPLACE within one batch). */
function lastByKey<T>(items: readonly T[], key: (item: T) => string): T[] {
  return [...new Map(items.map((item) => [key(item), item])).values()];
}

/** Writes an index's knowledge, replacing rows with the same keys; call inside the caller's transaction. */
export async function writeKnowledge(q: Queryable, indexId: string, k: RepoKnowledge): Promise<void> {
  const { modules, ...graph } = k.graph;
  const { rules, ...ownership } = k.ownership;
  const json = (x: unknown) => JSON.stringify(x);
  const mods = lastByKey(modules, (m) => json([m.path, m.name]));
  if (mods.length > 0) {
    await q.run(
      `INSERT INTO repo_module (repo_index_id, path, name, data) SELECT $1, u.path, u.name, u.data FROM unnest($2::text[], $3::text[], $4::json[]) AS u(path, name, data)
       ON CONFLICT (repo_index_id, path, name) DO UPDATE SET data = excluded.data`,
      [indexId, mods.map((m) => m.path), mods.map((m) => m.name), mods.map(json)],
    );
  }
  const docs = lastByKey(k.docs, (d) => d.docId);
  if (docs.length > 0) {
    await q.run(
      `INSERT INTO repo_doc (repo_index_id, doc_id, path, data) SELECT $1, u.doc_id, u.path, u.data FROM unnest($2::text[], $3::text[], $4::json[]) AS u(doc_id, path, data)
       ON CONFLICT (repo_index_id, doc_id) DO UPDATE SET path = excluded.path, data = excluded.data`,
      [indexId, docs.map((d) => d.docId), docs.map((d) => d.path), docs.map(json)],
    );
  }
  const ruleRows = lastByKey(rules, (r) => String(r.ordinal));
  if (ruleRows.length > 0) {
    await q.run(
      `INSERT INTO repo_ownership_rule (repo_index_id, ordinal, data) SELECT $1, u.ordinal, u.data FROM unnest($2::int[], $3::json[]) AS u(ordinal, data)
       ON CONFLICT (repo_index_id, ordinal) DO UPDATE SET data = excluded.data`,
      [indexId, ruleRows.map((r) => r.ordinal), ruleRows.map(json)],
    );
  }
  const instructions = lastByKey(k.instructions, (f) => f.path);
  if (instructions.length > 0) {
    await q.run(
      `INSERT INTO repo_instruction (repo_index_id, path, data) SELECT $1, u.path, u.data FROM unnest($2::text[], $3::json[]) AS u(path, data)
       ON CONFLICT (repo_index_id, path) DO UPDATE SET data = excluded.data`,
      [indexId, instructions.map((f) => f.path), instructions.map(json)],
    );
  }
  await q.run(
    `INSERT INTO repo_knowledge (repo_index_id, kind, data) SELECT $1, u.kind, u.data FROM unnest($2::text[], $3::json[]) AS u(kind, data)
     ON CONFLICT (repo_index_id, kind) DO UPDATE SET data = excluded.data`,
    [indexId, ["graph", "ownership", "dirty_paths"], [json(graph), json(ownership), json(k.dirtyPaths ?? [])]],
  );
}

export async function deleteKnowledge(q: Queryable, indexId: string): Promise<void> {
  for (const table of KNOWLEDGE_TABLES) await q.run(`DELETE FROM ${table} WHERE repo_index_id = $1`, [indexId]);
}

export async function setDirtyPaths(q: Queryable, indexId: string, paths: string[]): Promise<void> {
  await q.run(
    `INSERT INTO repo_knowledge (repo_index_id, kind, data) VALUES ($1, 'dirty_paths', $2::json)
     ON CONFLICT (repo_index_id, kind) DO UPDATE SET data = excluded.data`,
    [indexId, JSON.stringify(paths)],
  );
}

export async function getDirtyPaths(q: Queryable, indexId: string | null): Promise<string[]> {
  const row = await q.one<{ data: string[] }>("SELECT data FROM repo_knowledge WHERE repo_index_id = $1 AND kind = 'dirty_paths'", [indexId]);
  return row ? row.data : [];
}

export async function getKnowledge(q: Queryable, indexId: string | null): Promise<{ graph: BuildGraph; ownership: OwnershipFile }> {
  const parts = new Map((await q.rows<{ kind: string; data: unknown }>("SELECT kind, data FROM repo_knowledge WHERE repo_index_id = $1", [indexId])).map((r) => [r.kind, r.data]));
  const modules = (await q.rows<{ data: RepoModule }>("SELECT data FROM repo_module WHERE repo_index_id = $1 ORDER BY path, name", [indexId])).map((r) => r.data);
  const rules = (await q.rows<{ data: OwnershipRule }>("SELECT data FROM repo_ownership_rule WHERE repo_index_id = $1 ORDER BY ordinal", [indexId])).map((r) => r.data);
  const graph = (parts.get("graph") as Omit<BuildGraph, "modules"> | undefined) ?? EMPTY_GRAPH;
  const ownership = (parts.get("ownership") as Omit<OwnershipFile, "rules"> | undefined) ?? EMPTY_OWNERSHIP;
  return { graph: { ...graph, modules }, ownership: { ...ownership, rules } };
}

export async function listDocs(q: Queryable, indexId: string | null, filter: { pathPrefix?: string; limit: number }, limit: number | null): Promise<{ docs: RepoDoc[]; total: number }> {
  const prefix = filter.pathPrefix ?? "";
  const where = "repo_index_id = $1 AND starts_with(path, $2)";
  const total = (await q.one<{ n: number }>(`SELECT count(*) AS n FROM repo_doc WHERE ${where}`, [indexId, prefix]))!.n;
  const docs = (await q.rows<{ data: RepoDoc }>(`SELECT data FROM repo_doc WHERE ${where} ORDER BY path, doc_id LIMIT $3`, [indexId, prefix, limit])).map((r) => r.data);
  return { docs, total };
}

export async function getDoc(q: Queryable, indexId: string | null, docId: string): Promise<RepoDoc | null> {
  const row = await q.one<{ data: RepoDoc }>("SELECT data FROM repo_doc WHERE repo_index_id = $1 AND doc_id = $2", [indexId, docId]);
  return row ? row.data : null;
}

export async function listInstructionFiles(q: Queryable, indexId: string | null): Promise<InstructionFile[]> {
  return (await q.rows<{ data: InstructionFile }>("SELECT data FROM repo_instruction WHERE repo_index_id = $1 ORDER BY path", [indexId])).map((r) => r.data);
}
