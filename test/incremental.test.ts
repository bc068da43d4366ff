import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { buildIndex, updateOrBuild, type IndexResult } from "../src/indexer/pipeline.js";
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

describe("updateOrBuild: the update's look at git serves the build that follows it", () => {
  let repo: BuiltRepo;
  let dir: string;
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    repo.cleanup();
  });

  test("a fresh store is built with the facts a build reads itself; an edit then updates in place", async () => {
    repo = buildGoldenRepo();
    dir = mkdtempSync(join(tmpdir(), "repoctx-uob-"));
    const plain = SqliteStore.open(join(dir, "plain.db"));
    const viaUpdate = SqliteStore.open(join(dir, "update.db"));
    try {
      const built = await buildIndex({ root: repo.root, store: plain, maxFileBytes: MIB });
      const first = await updateOrBuild({ root: repo.root, store: viaUpdate, maxFileBytes: MIB });
      assert.equal(first.indexVersion, built.indexVersion);
      assert.deepEqual(first.repo, built.repo);
      assert.equal(first.repo.dirty, true, "the golden work tree has an untracked file");
      const ready = (await viaUpdate.getReadyIndex(first.repo.repoId))!;
      assert.deepEqual(await viaUpdate.getDirtyPaths(ready.id), await plain.getDirtyPaths((await plain.getReadyIndex(built.repo.repoId))!.id));

      const path = join(repo.root, CONTROLLER);
      writeFileSync(path, `${readFileSync(path, "utf8")}\n// edited\n`);
      const second = await updateOrBuild({ root: repo.root, store: viaUpdate, maxFileBytes: MIB });
      assert.equal(second.indexId, first.indexId, "one changed file is an update of the ready index, not a build");
      assert.notEqual(second.indexVersion, first.indexVersion);
      const rebuilt = await buildIndex({ root: repo.root, store: plain, maxFileBytes: MIB });
      assert.equal(second.indexVersion, rebuilt.indexVersion);
    } finally {
      await plain.close();
      await viaUpdate.close();
    }
  });

  test("facts read at the root are taken as they are; facts read at another root are not", async () => {
    const other = buildGoldenRepo();
    const store = SqliteStore.open(join(dir, "other.db"));
    try {
      const elsewhere = await buildIndex({ root: other.root, store, maxFileBytes: MIB });
      const facts = { root: other.root, status: [], repo: { ...elsewhere.repo, repoId: "not-this-one" } };
      const r = await buildIndex({ root: repo.root, store, maxFileBytes: MIB, gitFacts: facts });
      assert.notEqual(r.repo.repoId, "not-this-one");
      assert.equal(r.repo.dirty, true);
      const here = { root: realpathSync(repo.root), status: [], repo: { ...r.repo, repoId: "taken-from-facts", dirty: false } };
      const taken = await buildIndex({ root: repo.root, store, maxFileBytes: MIB, gitFacts: here });
      assert.equal(taken.repo.repoId, "taken-from-facts");
      assert.deepEqual(await store.getDirtyPaths(taken.indexId), []);
    } finally {
      await store.close();
      other.cleanup();
    }
  });
});
