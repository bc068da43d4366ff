import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { buildIndex, updateIndex, type IndexResult } from "../src/indexer/pipeline.js";
import { queryTerms } from "../src/indexer/terms.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { buildGoldenRepo, git, type BuiltRepo } from "./helpers/fixture.js";

const MIB = 1024 * 1024;
const CONTROLLER = "services/pricing/src/main/java/com/acme/pricing/QuoteController.java";
const FRESH = "web/src/fresh.ts";
const REPORT = "tools/pricing_report.py";
const NAMES = ["quote", "getQuote", "quoteWithDiscount", "freshlyAddedFunction", "summarize_quotes", "isQuoteExpired"];
const RANK_QUERIES = ["quote with discount", "freshly added function", "summarize quotes report"];

/** Files ranked for a natural-language query, best first, with their scores. */
async function ranked(store: SqliteStore, indexId: string, text: string): Promise<string[]> {
  const terms = queryTerms(text).map((term) => ({ term, weight: 1 }));
  const hits = await store.rankFiles(indexId, { terms, weights: { path: 1, symbols: 2, body: 1 }, limit: 20 });
  return hits.map((h) => `${h.path} ${h.score.toFixed(9)} ${h.matched.join(",")}`);
}

/** Everything a query could see of an index: file rows, symbols and references of some names, knowledge. */
async function snapshot(store: SqliteStore, indexId: string): Promise<string> {
  const out: unknown[] = [await store.listFiles(indexId, { includeSkipped: true })];
  for (const name of NAMES) {
    out.push((await store.findSymbols(indexId, { name, limit: 100 })).map((s) => `${s.path}:${s.startLine} ${s.qualifiedName}`));
    out.push((await store.findReferences(indexId, { name, limit: 100 })).map((x) => `${x.path}:${x.line}:${x.column} ${x.kind} <- ${x.enclosing}`));
  }
  for (const text of RANK_QUERIES) out.push(await ranked(store, indexId, text));
  const k = await store.getKnowledge(indexId);
  out.push(k.graph.modules.map((m) => m.name), (await store.listDocs(indexId, { limit: 1000 })).docs.map((d) => d.path));
  return JSON.stringify(out);
}

describe("in-place update of the ready index: only changed files are read, rows equal a full build's", () => {
  let repo: BuiltRepo;
  let dir: string;
  let store: SqliteStore;
  let first: IndexResult;
  let original: string;

  /** A full build of the same work tree into a fresh store, for comparison. */
  const fullBuild = async (): Promise<{ version: string; snap: string }> => {
    const other = SqliteStore.open(join(dir, `full-${Date.now()}.db`));
    try {
      const r = await buildIndex({ root: repo.root, store: other, maxFileBytes: MIB });
      return { version: r.indexVersion, snap: await snapshot(other, r.indexId) };
    } finally {
      await other.close();
    }
  };

  before(async () => {
    repo = buildGoldenRepo();
    dir = mkdtempSync(join(tmpdir(), "repoctx-delta-"));
    store = SqliteStore.open(join(dir, "index.db"));
    first = await buildIndex({ root: repo.root, store, maxFileBytes: MIB });
    original = readFileSync(join(repo.root, CONTROLLER), "utf8");
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    repo.cleanup();
  });

  test("nothing changed: the update reads nothing and keeps the version", async () => {
    const r = await updateIndex({ root: repo.root, store, maxFileBytes: MIB });
    assert.ok(r);
    assert.equal(r.indexId, first.indexId);
    assert.equal(r.indexVersion, first.indexVersion);
    assert.equal(r.stats.extractedFiles, 0);
  });

  test("an edit, a new file and a deleted file: two files extracted, the same rows and version as a full build", async () => {
    writeFileSync(
      join(repo.root, CONTROLLER),
      original.replace("    public BigDecimal getQuote(", "    public BigDecimal quoteWithDiscount(String sku) {\n        return quoteService.quote(sku, 1);\n    }\n\n    public BigDecimal getQuote("),
    );
    writeFileSync(join(repo.root, FRESH), "export function freshlyAddedFunction(): number {\n  return 1;\n}\n");
    unlinkSync(join(repo.root, REPORT));
    assert.deepEqual(await ranked(store, first.indexId, "discount"), []);
    const r = await updateIndex({ root: repo.root, store, maxFileBytes: MIB });
    assert.ok(r, "a few changed files take the in-place path");
    assert.deepEqual(
      (await ranked(store, r.indexId, "discount")).map((h) => h.split(" ")[0]),
      [CONTROLLER],
      "the edited file's new terms are ranked",
    );
    assert.equal(r.indexId, first.indexId);
    assert.equal(r.stats.extractedFiles, 2);
    assert.notEqual(r.indexVersion, first.indexVersion);
    assert.equal((await store.getReadyIndex())!.indexVersion, r.indexVersion);
    const full = await fullBuild();
    assert.equal(r.indexVersion, full.version, "the same version a full build of this tree gets");
    assert.equal(await snapshot(store, r.indexId), full.snap, "the same rows, symbols, references, ranking and knowledge");
    // Text search sees the new file and no longer the deleted one.
    const hits: string[] = [];
    await store.scanCandidates(r.indexId, { fragments: ["freshlyAdded"] }, (c) => (hits.push(c.file.path), true));
    assert.deepEqual(hits, [FRESH]);
    // Deleted but still tracked: a build keeps its row as unreadable, and so does the update.
    assert.equal((await store.getFile(r.indexId, REPORT))!.skipReason, "unreadable");
    assert.equal(store.integrityCheck(), "ok");
  });

  test("reverting an edit that was uncommitted at the last update brings the original rows back", async () => {
    writeFileSync(join(repo.root, CONTROLLER), original);
    git(repo.root, ["checkout", "--", REPORT]);
    rmSync(join(repo.root, FRESH));
    const r = await updateIndex({ root: repo.root, store, maxFileBytes: MIB });
    assert.ok(r);
    assert.equal(r.indexVersion, first.indexVersion, "back to the first build's version");
  });

  test("the last file (highest id) changes while a new file sorts before it: ids never collide", async () => {
    const ready = (await store.getReadyIndex())!;
    const last = (await store.listFiles(ready.id, { includeSkipped: true })).map((f) => f.path).sort().at(-1)!;
    const before = readFileSync(join(repo.root, last), "utf8");
    appendFileSync(join(repo.root, last), "\n// changed last\n");
    writeFileSync(join(repo.root, "aaa-new.ts"), "export const first = 1;\n");
    try {
      const r = await updateIndex({ root: repo.root, store, maxFileBytes: MIB });
      assert.ok(r, "an in-place update, not a rebuild");
      assert.equal(r.indexVersion, (await fullBuild()).version);
    } finally {
      writeFileSync(join(repo.root, last), before);
      unlinkSync(join(repo.root, "aaa-new.ts"));
      await updateIndex({ root: repo.root, store, maxFileBytes: MIB });
    }
  });

  test("a new commit moves the index to it; a changed ignore file needs a build", async () => {
    appendFileSync(join(repo.root, "README.md"), "\nCommitted change.\n");
    git(repo.root, ["add", "README.md"]);
    git(repo.root, ["commit", "-q", "-m", "docs"]);
    const head = git(repo.root, ["rev-parse", "HEAD"]);
    const r = await updateIndex({ root: repo.root, store, maxFileBytes: MIB });
    assert.ok(r);
    assert.equal(r.repo.baseCommit, head);
    assert.equal((await store.getReadyIndex())!.baseCommit, head);
    const full = await fullBuild();
    assert.equal(r.indexVersion, full.version);
    appendFileSync(join(repo.root, ".gitignore"), "*.tmp\n");
    assert.equal(await updateIndex({ root: repo.root, store, maxFileBytes: MIB }), null);
    assert.equal(await updateIndex({ root: repo.root, store, maxFileBytes: MIB, incremental: false }), null, "--full always builds");
  });
});
