import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { MIGRATIONS, TRIGRAM_DF_KEPT, TRIGRAM_DF_MIN_FILES, buildTables } from "../src/store/sqlite/migrations.js";
import { trigramMatchExpression } from "../src/store/sqlite/content-queries.js";
import type { FileInput, IndexMeta, RankQuery } from "../src/store/store.js";
import { fileTerms } from "../src/core/terms.js";
import { QueryError } from "../src/core/errors.js";
import { textFile } from "./helpers/rows.js";

/** What only the SQLite store has: its migration table and per-build tables. The Store contract is store-contract.test.ts. */

const META: IndexMeta = { repoId: "acme/x", rootPath: "/repo", baseCommit: "a".repeat(40), branch: "main", dirty: false, extractorVersion: "1" };
const STATS = { files: 1, indexedFiles: 1, skippedFiles: 0, bytes: 5, indexedBytes: 5, durationMs: 1 };

/** A file with its ranking terms, as the pipeline writes it. */
function termed(path: string, content: string): FileInput {
  return { ...textFile(path, content), terms: fileTerms(path, content, []) };
}

const rankQuery = (term: string): RankQuery => ({ terms: [{ term, weight: 1 }], weights: { path: 1, symbols: 1, body: 1 }, limit: 10 });

describe("SQLite store", () => {
  let dir: string;
  let path: string;
  let store: SqliteStore;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "repoctx-store-test-"));
    path = join(dir, "index.db");
    store = SqliteStore.open(path);
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("migrations are versioned and applied once", async () => {
    assert.equal(store.schemaVersion(), MIGRATIONS[MIGRATIONS.length - 1]!.version);
    const again = SqliteStore.open(path);
    assert.equal(again.schemaVersion(), MIGRATIONS.length);
    await again.close();
    const raw = new Database(path, { readonly: true });
    const rows = raw.prepare("SELECT version FROM schema_migrations").all();
    raw.close();
    assert.equal(rows.length, MIGRATIONS.length);
  });

  test("a published build keeps its common trigrams' file counts; lexical candidates ask for the rarest trigrams, and an index without the counts still answers", async () => {
    const id = await store.beginIndex({ ...META, repoId: "acme/df" });
    const common = Array.from({ length: TRIGRAM_DF_KEPT + 6 }, (_, i) => textFile(`src/f${String(i).padStart(3, "0")}.c`, `int common_value = ${i};\n`));
    // Enough files for counts to be kept (TRIGRAM_DF_MIN_FILES), most of them sharing no trigram with the rest.
    const others = Array.from({ length: TRIGRAM_DF_MIN_FILES }, (_, i) => textFile(`t/g${String(i).padStart(5, "0")}.txt`, `${i.toString(36)}\n`));
    await store.addFiles(id, [...common, textFile("src/zz.c", "int common_value = quixotic_zebra;\n"), ...others]);
    await store.publishIndex(id, "idx-df", STATS);
    const raw = new Database(path);
    const t = buildTables((raw.prepare("SELECT seq FROM repo_index WHERE id = ?").get(id) as { seq: number }).seq);
    const kept = new Map((raw.prepare(`SELECT term, doc FROM ${t.contentDf}`).all() as { term: string; doc: number }[]).map((r) => [r.term, r.doc]));
    assert.equal(kept.get("com"), common.length + 1);
    assert.equal(kept.get("qui"), undefined, "a trigram of one file is rarer than the counts kept");
    const candidates = async (fragment: string) => (await store.candidateFiles(id, { fragments: [fragment] }, 100)).files.map((f) => f.path);
    assert.deepEqual(await candidates("common_value = quixotic"), ["src/zz.c"]);
    assert.equal((await candidates("common_value")).length, common.length + 1);

    // Rarest first: three at least, then more while their counts stay within the budget; every other one without counts.
    const df = (g: string) => kept.get(g);
    const terms = (e: string | null) => (e ?? "").split(" AND ").sort();
    assert.deepEqual(terms(trigramMatchExpression(["common_value = quixotic"], df)), terms(trigramMatchExpression(["common_value = quixotic"], () => undefined)), "a small index: every trigram");
    const rare = trigramMatchExpression(["value_quixotic"], (g) => (g.includes("q") || g.includes("x") ? 10 : 59_000));
    // The six rare ones, then one common one still within the budget (60 + 59,000), not a second.
    assert.equal(rare, '"_qu" AND "e_q" AND "ixo" AND "qui" AND "uix" AND "xot" AND "alu"');
    assert.equal(trigramMatchExpression(["abcdefg"]), '"abc" AND "cde" AND "efg"');

    raw.exec(`DROP TABLE ${t.contentDf}`);
    raw.close();
    const again = SqliteStore.open(path);
    try {
      assert.deepEqual((await again.candidateFiles(id, { fragments: ["common_value = quixotic"] }, 100)).files.map((f) => f.path), ["src/zz.c"]);
    } finally {
      await again.close();
    }
  });

  test("a small build keeps no trigram counts, and its candidates are those of every other trigram", async () => {
    const id = await store.beginIndex({ ...META, repoId: "acme/small" });
    await store.addFiles(id, [textFile("a.c", "int quixotic_zebra;\n"), textFile("b.c", "int quixotic;\n")]);
    await store.publishIndex(id, "idx-small", STATS);
    const raw = new Database(path, { readonly: true });
    const t = buildTables((raw.prepare("SELECT seq FROM repo_index WHERE id = ?").get(id) as { seq: number }).seq);
    assert.equal(raw.prepare("SELECT 1 FROM sqlite_master WHERE name = ?").get(t.contentDf), undefined);
    raw.close();
    assert.deepEqual((await store.candidateFiles(id, { fragments: ["quixotic_zebra"] }, 10)).files.map((f) => f.path), ["a.c"]);
  });

  test("an index built before ranking terms existed keeps answering and updating; ranking asks for a rebuild", async () => {
    const id = await store.beginIndex({ ...META, repoId: "acme/old" });
    await store.addFiles(id, [textFile("a.txt", "alpha beta")]);
    await store.publishIndex(id, "idx-old", STATS);
    const raw = new Database(path);
    const seq = (raw.prepare("SELECT seq FROM repo_index WHERE id = ?").get(id) as { seq: number }).seq;
    const t = buildTables(seq);
    raw.exec(`DROP TABLE ${t.terms}; DROP TABLE ${t.termSizes};`);
    raw.close();
    await assert.rejects(
      store.rankFiles(id, rankQuery("alpha")),
      (e: unknown) => e instanceof QueryError && e.category === "index_unavailable" && /repoctx index/.test(e.hint ?? ""),
    );
    const delta = { meta: { baseCommit: META.baseCommit, branch: "main", dirty: false }, knowledge: null, stats: STATS };
    await store.applyDelta(id, { ...delta, remove: [], upsert: [termed("c.txt", "epsilon")], indexVersion: "idx-old-2" });
    const hits: string[] = [];
    await store.scanCandidates(id, { fragments: ["epsilon"] }, (c) => (hits.push(c.file.path), true));
    assert.deepEqual(hits, ["c.txt"]);
    assert.equal(store.integrityCheck(), "ok");
  });
});
