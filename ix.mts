import { mkdtempSync } from "node:fs"; import { tmpdir } from "node:os"; import { join } from "node:path";
import { buildIndex } from "./src/indexer/pipeline.js"; import { SqliteStore } from "./src/store/sqlite/sqlite-store.js";
const root = process.argv[2]!; const store = SqliteStore.open(join(mkdtempSync(join(tmpdir(), "ix-")), "i.db"));
const t = performance.now(); await buildIndex({ root, store, repoId: "x", maxFileBytes: 1 << 20 }); console.log(`${((performance.now() - t) / 1000).toFixed(2)} s`); store.close();
