import type { SemanticMeta, StoredSemantic } from "../../core/semantic.js";
import { semanticOf, type SemanticDbRow } from "../db-rows.js";
import { assertDims, vectorBytes, vectorsByFile, type VectorRow } from "../vectors.js";
import type { Db, Queryable } from "./db.js";
import { PG_VALUES, type PgTypes } from "./rows.js";

/**
 * An index's semantic data in PostgreSQL, as in SQLite (see sqlite/semantic-queries.ts): the serialized model in
 * `repo_semantic`, one row per file vector (float32 bytes, little-endian) in `repo_file_vector`, which goes with
 * its file row.
 */

/** Deleted before the file rows when a build's data is dropped, so the file rows' cascade finds nothing to do. */
export const SEMANTIC_TABLES = ["repo_file_vector", "repo_semantic"] as const;

export async function putSemantic(db: Db, indexId: string, model: Buffer, vectors: ReadonlyMap<number, Float32Array>, meta: SemanticMeta): Promise<void> {
  await db.tx(async (q) => {
    await q.run("DELETE FROM repo_file_vector WHERE repo_index_id = $1", [indexId]);
    await q.run(
      `INSERT INTO repo_semantic (repo_index_id, model, created_at, meta) VALUES ($1, $2, $3, $4)
       ON CONFLICT (repo_index_id) DO UPDATE SET model = excluded.model, created_at = excluded.created_at, meta = excluded.meta`,
      [indexId, model, new Date().toISOString(), JSON.stringify(meta)],
    );
    await writeVectors(q, indexId, vectors, meta.vectors.dims);
  });
}

/** Adds or replaces some files' vectors; they must have the dimensions the index's vectors were stored with. */
export async function putFileVectors(db: Db, indexId: string, vectors: ReadonlyMap<number, Float32Array>): Promise<void> {
  const stored = await getSemantic(db, indexId);
  if (!stored) throw new Error(`index ${indexId} has no semantic data to add vectors to`);
  await db.tx((q) => writeVectors(q, indexId, vectors, stored.meta.vectors.dims));
}

/** Vectors written per statement. */
const VECTOR_BATCH = 1000;

/** Writes vectors of files of this index; a file id of another index, or a vector of other dimensions, is a bug. */
async function writeVectors(q: Queryable, indexId: string, vectors: ReadonlyMap<number, Float32Array>, dims: number): Promise<void> {
  const entries = [...vectors];
  const known = new Set<number>();
  for (let i = 0; i < entries.length; i += VECTOR_BATCH) {
    const ids = entries.slice(i, i + VECTOR_BATCH).map(([id]) => id);
    for (const r of await q.rows<{ id: number }>("SELECT id FROM repo_file WHERE id = ANY($1::bigint[]) AND repo_index_id = $2", [ids, indexId])) known.add(r.id);
  }
  for (const [fileId, vec] of entries) {
    assertDims(fileId, vec, dims);
    if (!known.has(fileId)) throw new Error(`file ${fileId} is not in index ${indexId}`);
  }
  for (let i = 0; i < entries.length; i += VECTOR_BATCH) {
    const batch = entries.slice(i, i + VECTOR_BATCH);
    await q.run(
      `INSERT INTO repo_file_vector (file_id, repo_index_id, vec) SELECT u.file_id, $2, u.vec FROM unnest($1::bigint[], $3::bytea[]) AS u(file_id, vec)
       ON CONFLICT (file_id) DO UPDATE SET repo_index_id = excluded.repo_index_id, vec = excluded.vec`,
      [batch.map(([id]) => id), indexId, batch.map(([, vec]) => vectorBytes(vec))],
    );
  }
}

export async function getSemantic(db: Queryable, indexId: string | null): Promise<StoredSemantic | null> {
  const row = await db.one<SemanticDbRow<PgTypes>>("SELECT model, created_at, meta FROM repo_semantic WHERE repo_index_id = $1", [indexId]);
  return row ? semanticOf(row, PG_VALUES) : null;
}

/** Vectors by file id, in file-id order (see vectorsByFile). */
export async function fileVectors(db: Queryable, indexId: string | null, fileIds?: readonly number[]): Promise<Map<number, Float32Array>> {
  const rows = fileIds
    ? await db.rows<VectorRow>("SELECT file_id, vec FROM repo_file_vector WHERE file_id = ANY($1::bigint[]) AND repo_index_id = $2 ORDER BY file_id", [[...new Set(fileIds)], indexId])
    : await db.rows<VectorRow>("SELECT file_id, vec FROM repo_file_vector WHERE repo_index_id = $1 ORDER BY file_id", [indexId]);
  return vectorsByFile(rows);
}
