import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { buildIndex } from "../src/indexer/pipeline.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { commitFiles } from "./helpers/fixture.js";

/** Merge settings of every full-text table in a store file, by table. */
function mergeSettings(file: string): Record<string, Record<string, number>> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE name LIKE '%\\_config' ESCAPE '\\'").pluck().all() as string[];
    return Object.fromEntries(
      tables.map((t) => [t, Object.fromEntries((db.prepare(`SELECT k, v FROM ${t} WHERE k IN ('automerge', 'crisismerge')`).all() as { k: string; v: number }[]).map((r) => [r.k, r.v]))]),
    );
  } finally {
    db.close();
  }
}

test("a published index's full-text tables are left with FTS5's default merge settings, for the segments of updates in place", async () => {
  const base = mkdtempSync(join(tmpdir(), "repoctx-fts-merge-"));
  const root = join(base, "repo");
  commitFiles(root, { "src/a.ts": "export const alpha = 1;\n", "README.md": "# Alpha\n" }, "initial");
  const file = join(base, "index.db");
  const store = SqliteStore.open(file);
  try {
    await buildIndex({ root, store, maxFileBytes: 1 << 20 });
    const settings = mergeSettings(file);
    assert.deepEqual(Object.keys(settings).sort(), ["content_fts_1_config", "terms_fts_1_config"]);
    for (const [table, s] of Object.entries(settings)) assert.deepEqual(s, { automerge: 4, crisismerge: 16 }, table);
  } finally {
    await store.close();
    rmSync(base, { recursive: true, force: true });
  }
});
