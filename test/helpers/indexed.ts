import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultReadPolicy } from "../../src/config/schema.js";
import { buildIndex } from "../../src/indexer/pipeline.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import type { QueryContext } from "../../src/query/context.js";
import { commitFiles } from "./fixture.js";

/** A committed repository of these files, indexed into a fresh store: the query context and a cleanup. */
export async function indexed(files: Record<string, string>, prefix = "repoctx-indexed-"): Promise<{ ctx: QueryContext; close: () => Promise<void> }> {
  const base = mkdtempSync(join(tmpdir(), prefix));
  const root = join(base, "repo");
  commitFiles(root, files, "initial");
  const store = SqliteStore.open(join(base, "index.db"));
  const built = await buildIndex({ root, store, maxFileBytes: defaultReadPolicy().maxIndexedFileBytes });
  const ctx = { store, index: (await store.getReadyIndex(built.repo.repoId))!, policy: defaultReadPolicy() };
  return {
    ctx,
    close: async () => {
      await store.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}
