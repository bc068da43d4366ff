import type Database from "better-sqlite3";
import type { SemanticMeta, StoredSemantic } from "../../core/semantic.js";
import { semanticOf, type SemanticDbRow } from "../db-rows.js";
import { assertDims, vectorBytes, vectorsByFile, type VectorRow } from "../vectors.js";
import { SQLITE_VALUES, type SqliteTypes } from "./rows.js";

/**
 * An index's semantic data in SQLite: the serialized model in `repo_semantic`, one row per file vector in
 * `repo_file_vector` (migration 8). One row per file rather than one blob per index: an in-place update replaces
 * a few files' vectors (and a deleted file row takes its vector with it) without rewriting the index's ~40 MB,
 * and a query for some files' vectors reads only those. Reading all 78.6k vectors of the Linux kernel is one
 * index-ordered scan, done once per index version by the query side's cache.
 *
 * A vector is stored as its float32 bytes in the machine's order (little-endian on every platform Node supports).
 */

/** Deleted before the file rows when a build's data is dropped, so the file rows' cascade finds nothing to do. */
export const SEMANTIC_TABLES = ["repo_file_vector", "repo_semantic"] as const;

export function putSemantic(
  db: Database.Database,
  indexId: string,
  model: Buffer,
  vectors: ReadonlyMap<number, Float32Array>,
  meta: SemanticMeta,
): void {
  db.transaction(() => {
    db.prepare("DELETE FROM repo_file_vector WHERE repo_index_id = ?").run(indexId);
    db.prepare("INSERT OR REPLACE INTO repo_semantic (repo_index_id, model, created_at, meta) VALUES (?, ?, ?, ?)").run(
      indexId,
      model,
      new Date().toISOString(),
      JSON.stringify(meta),
    );
    writeVectors(db, indexId, vectors, meta.vectors.dims);
  })();
}

/** Adds or replaces some files' vectors; they must have the dimensions the index's vectors were stored with. */
export function putFileVectors(db: Database.Database, indexId: string, vectors: ReadonlyMap<number, Float32Array>): void {
  const stored = getSemantic(db, indexId);
  if (!stored) throw new Error(`index ${indexId} has no semantic data to add vectors to`);
  db.transaction(() => writeVectors(db, indexId, vectors, stored.meta.vectors.dims))();
}

/** Writes vectors of files of this index; a file id of another index, or a vector of other dimensions, is a bug. */
function writeVectors(db: Database.Database, indexId: string, vectors: ReadonlyMap<number, Float32Array>, dims: number): void {
  const insert = db.prepare(
    `INSERT OR REPLACE INTO repo_file_vector (file_id, repo_index_id, vec)
     SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM repo_file WHERE id = ? AND repo_index_id = ?)`,
  );
  for (const [fileId, vec] of vectors) {
    assertDims(fileId, vec, dims);
    if (insert.run(fileId, indexId, vectorBytes(vec), fileId, indexId).changes === 0) throw new Error(`file ${fileId} is not in index ${indexId}`);
  }
}

export function getSemantic(db: Database.Database, indexId: string): StoredSemantic | null {
  const row = db.prepare("SELECT model, created_at, meta FROM repo_semantic WHERE repo_index_id = ?").get(indexId) as SemanticDbRow<SqliteTypes> | undefined;
  return row ? semanticOf(row, SQLITE_VALUES) : null;
}

/** Vectors by file id, in file-id order (see vectorsByFile). */
export function fileVectors(db: Database.Database, indexId: string, fileIds?: readonly number[]): Map<number, Float32Array> {
  const rows = fileIds ? someVectors(db, indexId, fileIds) : (db.prepare("SELECT file_id, vec FROM repo_file_vector WHERE repo_index_id = ? ORDER BY file_id").all(indexId) as VectorRow[]);
  return vectorsByFile(rows);
}

function someVectors(db: Database.Database, indexId: string, fileIds: readonly number[]): VectorRow[] {
  const one = db.prepare("SELECT file_id, vec FROM repo_file_vector WHERE file_id = ? AND repo_index_id = ?");
  const rows: VectorRow[] = [];
  for (const id of [...new Set(fileIds)].sort((a, b) => a - b)) {
    const r = one.get(id, indexId) as VectorRow | undefined;
    if (r) rows.push(r);
  }
  return rows;
}
