import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { buildIndex, type IndexResult } from "../src/indexer/pipeline.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { buildGoldenRepo, type BuiltRepo } from "./helpers/fixture.js";

const MIB = 1024 * 1024;
const CONTROLLER = "services/pricing/src/main/java/com/acme/pricing/QuoteController.java";

async function symbolTable(store: SqliteStore, r: IndexResult, names: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const name of names) {
    for (const s of await store.findSymbols(r.indexId, { name, limit: 100 })) out.push(`def ${s.path}:${s.startLine} ${s.qualifiedName} ${s.confidence}`);
    for (const x of await store.findReferences(r.indexId, { name, limit: 100 })) out.push(`ref ${x.path}:${x.line}:${x.column} ${x.kind} <- ${x.enclosing}`);
  }
  return out;
}

describe("incremental reindex: unchanged files keep their symbols", () => {
  let repo: BuiltRepo;
  let dir: string;
  let store: SqliteStore;
  let first: IndexResult;
  before(async () => {
    repo = buildGoldenRepo();
    dir = mkdtempSync(join(tmpdir(), "repoctx-incr-"));
    store = SqliteStore.open(join(dir, "index.db"));
    first = await buildIndex({ root: repo.root, store, maxFileBytes: MIB });
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    repo.cleanup();
  });

  test("changing one file re-extracts exactly that file; results are fresh and the rest identical", async () => {
    const names = ["quote", "getQuote", "isQuoteExpired", "summarize_quotes", "fetchQuote", "quoteWithDiscount"];
    const before = await symbolTable(store, first, names);
    const path = join(repo.root, CONTROLLER);
    writeFileSync(
      path,
      readFileSync(path, "utf8").replace(
        "    public BigDecimal getQuote(",
        "    public BigDecimal quoteWithDiscount(String sku) {\n        return quoteService.quote(sku, 1);\n    }\n\n    public BigDecimal getQuote(",
      ),
    );
    const second = await buildIndex({ root: repo.root, store, maxFileBytes: MIB });
    assert.equal(second.stats.extractedFiles, 1);
    assert.equal(second.stats.reusedFiles, first.stats.extractedFiles! + first.stats.reusedFiles! - 1);
    const after = await symbolTable(store, second, names);
    const unchanged = (rows: string[]) => rows.filter((r) => !r.includes("QuoteController.java"));
    assert.deepEqual(unchanged(after), unchanged(before), "rows of unchanged files are copied as they were");
    assert.ok(after.includes(`def ${CONTROLLER}:13 com.acme.pricing.QuoteController#quoteWithDiscount high`), after.join("\n"));
    assert.ok(after.includes(`ref ${CONTROLLER}:14:29 call <- com.acme.pricing.QuoteController#quoteWithDiscount`));
    assert.ok(after.includes(`def ${CONTROLLER}:17 com.acme.pricing.QuoteController#getQuote high`), "moved definition has its new line");
  });

  test("a full rebuild gives the same rows as the incremental one", async () => {
    const names = ["quote", "getQuote", "quoteWithDiscount", "summarize_quotes"];
    const incremental = await buildIndex({ root: repo.root, store, maxFileBytes: MIB });
    const incRows = await symbolTable(store, incremental, names);
    const full = await buildIndex({ root: repo.root, store, maxFileBytes: MIB, incremental: false });
    assert.equal(full.stats.reusedFiles, 0);
    assert.equal(full.indexVersion, incremental.indexVersion);
    assert.deepEqual(await symbolTable(store, full, names), incRows);
  });
});
