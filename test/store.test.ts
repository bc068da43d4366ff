import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { MIGRATIONS, buildTables } from "../src/store/sqlite/migrations.js";
import type { FileInput, IndexMeta, RankQuery } from "../src/store/store.js";
import { fileTerms } from "../src/indexer/terms.js";
import { QueryError } from "../src/query/errors.js";
import { textFile } from "./helpers/rows.js";

const META: IndexMeta = { repoId: "acme/x", rootPath: "/repo", baseCommit: "a".repeat(40), branch: "main", dirty: false, extractorVersion: "1" };
const STATS = { files: 1, indexedFiles: 1, skippedFiles: 0, bytes: 5, indexedBytes: 5, durationMs: 1 };


/** A file with its ranking terms, as the pipeline writes it. */
function termed(path: string, content: string): FileInput {
  return { ...textFile(path, content), terms: fileTerms(path, content, []) };
}

const rankQuery = (term: string): RankQuery => ({ terms: [{ term, weight: 1 }], weights: { path: 1, symbols: 1, body: 1 }, limit: 10 });
const rankedPaths = async (store: SqliteStore, indexId: string, term: string) => (await store.rankFiles(indexId, rankQuery(term))).map((r) => r.path);

/** Candidate paths from the index alone, checked against a full scan that reads the text. */
async function collect(store: SqliteStore, indexId: string, fragments: string[]): Promise<string[]> {
  const fromIndex = (await store.candidateFiles(indexId, { fragments }, 1000)).files.map((f) => f.path);
  const scanned: string[] = [];
  await store.scanCandidates(indexId, { fragments }, (c) => {
    scanned.push(c.file.path);
    return true;
  });
  assert.deepEqual(scanned, fromIndex);
  return fromIndex;
}

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

  test("a build is invisible until published; the previous ready index keeps serving", async () => {
    const first = await store.beginIndex(META);
    await store.addFiles(first, [textFile("a.txt", "alpha beta")]);
    assert.equal(await store.getReadyIndex("acme/x"), null, "building index is not served");
    await store.publishIndex(first, "idx-1", STATS);
    assert.equal((await store.getReadyIndex("acme/x"))?.id, first);

    const second = await store.beginIndex(META);
    await store.addFiles(second, [textFile("b.txt", "gamma delta")]);
    assert.equal((await store.getReadyIndex("acme/x"))?.id, first, "old index serves during the build");
    assert.deepEqual(await collect(store, first, ["alpha"]), ["a.txt"]);

    await store.failIndex(second, "simulated crash");
    assert.equal((await store.getReadyIndex("acme/x"))?.id, first, "a failed build leaves the old index serving");
    assert.equal((await store.getIndex(second))?.status, "failed");

    const third = await store.beginIndex(META);
    await store.addFiles(third, [textFile("c.txt", "epsilon")]);
    await store.publishIndex(third, "idx-3", STATS);
    const ready = await store.getReadyIndex("acme/x");
    assert.equal(ready?.id, third);
    assert.equal(ready?.indexVersion, "idx-3");
    assert.equal(await store.getIndex(first), null, "superseded index is removed");
    assert.deepEqual(await collect(store, third, ["psil"]), ["c.txt"]);
  });

  test("trigram candidates: case-insensitive, all fragments required, limits report more", async () => {
    const id = await store.beginIndex({ ...META, repoId: "acme/paged" });
    const files = Array.from({ length: 150 }, (_, i) => textFile(`f${String(i).padStart(3, "0")}.txt`, i % 2 === 0 ? "Needle in HAYSTACK" : "only hay"));
    await store.addFiles(id, files);
    await store.publishIndex(id, "idx-p", STATS);
    const hits = await collect(store, id, ["needle", "haystack"]);
    assert.equal(hits.length, 75);
    assert.deepEqual(await collect(store, id, ["needle", "absent"]), []);
    assert.equal((await collect(store, id, [])).length, 150, "no fragments: every file");
    const limited = await store.candidateFiles(id, { fragments: ["needle"] }, 10);
    assert.equal(limited.files.length, 10);
    assert.equal(limited.more, true);
    let visited = 0;
    await store.scanCandidates(id, { fragments: ["needle"] }, () => ++visited < 3);
    assert.equal(visited, 3, "the visitor stops the scan");
  });

  test("two repositories in one store are kept apart", async () => {
    assert.equal(await store.getReadyIndex(), null, "ambiguous without a repo id");
    const ids = (await store.listReadyIndexes()).map((i) => i.repoId).sort();
    assert.deepEqual(ids, ["acme/paged", "acme/x"]);
  });

  test("ranking terms are written with their file and go with it in an in-place update", async () => {
    const id = await store.beginIndex({ ...META, repoId: "acme/terms" });
    await store.addFiles(id, [termed("a.txt", "alphaWord beta"), termed("b.txt", "beta gamma")]);
    await store.publishIndex(id, "idx-t", STATS);
    assert.deepEqual(await rankedPaths(store, id, "alpha"), ["a.txt"]);
    assert.equal((await store.termStats(id, ["beta"])).documentFrequency[0], 2);
    const delta = { meta: { baseCommit: META.baseCommit, branch: "main", dirty: false }, knowledge: null, stats: STATS };
    await store.applyDelta(id, { ...delta, remove: ["a.txt"], upsert: [termed("b.txt", "gamma delta")], indexVersion: "idx-t2" });
    assert.deepEqual(await rankedPaths(store, id, "alpha"), []);
    assert.deepEqual(await rankedPaths(store, id, "delta"), ["b.txt"]);
    assert.deepEqual(await rankedPaths(store, id, "beta"), [], "the changed file's old terms are gone");
    assert.equal((await store.termStats(id, ["gamma"])).files, 1);
    assert.equal(store.integrityCheck(), "ok");
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
    assert.deepEqual(await collect(store, id, ["epsilon"]), ["c.txt"]);
    assert.equal(store.integrityCheck(), "ok");
  });
});
