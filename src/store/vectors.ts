/**
 * File vectors as both stores keep them: one row per file, the vector's float32 bytes in the machine's order
 * (little-endian on every platform Node supports), written and read back the same way whatever holds the bytes.
 */

/** A vector written to an index must have the dimensions its vectors were stored with: another is a bug. */
export function assertDims(fileId: number, vec: Float32Array, dims: number): void {
  if (vec.length !== dims) throw new Error(`vector of file ${fileId} has ${vec.length} dimensions, not ${dims}`);
}

/** A vector's bytes as stored (a view, not a copy). */
export function vectorBytes(vec: Float32Array): Buffer {
  return Buffer.from(vec.buffer, vec.byteOffset, vec.byteLength);
}

/** A stored vector row. */
export interface VectorRow {
  file_id: number;
  vec: Buffer;
}

/**
 * Vectors by file id, from rows in file-id order. All of an index's vectors share one Float32Array (each entry is a
 * view of it): one allocation instead of one per file, and contiguous rows for the query's scan.
 */
export function vectorsByFile(rows: readonly VectorRow[]): Map<number, Float32Array> {
  const out = new Map<number, Float32Array>();
  if (rows.length === 0) return out;
  const bytes = rows[0]!.vec.length;
  if (bytes % Float32Array.BYTES_PER_ELEMENT !== 0) throw new Error(`corrupt vector of file ${rows[0]!.file_id}`);
  const dims = bytes / Float32Array.BYTES_PER_ELEMENT;
  const all = new Float32Array(rows.length * dims);
  const raw = new Uint8Array(all.buffer);
  rows.forEach((r, i) => {
    if (r.vec.length !== bytes) throw new Error(`corrupt vector of file ${r.file_id}`);
    raw.set(r.vec, i * bytes);
    out.set(r.file_id, all.subarray(i * dims, (i + 1) * dims));
  });
  return out;
}
