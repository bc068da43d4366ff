import type { Harness } from "./harness.js";

/** The content hash the index recorded for a path. */
export async function inventoryHashOf(h: Harness, path: string): Promise<string> {
  const row = await h.store.getFile(h.index.indexId, path);
  if (!row) throw new Error(`${path} is not in the index`);
  return row.contentHash;
}
