import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { describe, test } from "node:test";
import pg from "pg";
import { QueryError } from "../src/core/errors.js";
import { PostgresStore } from "../src/store/postgres/postgres-store.js";
import { MIGRATIONS } from "../src/store/postgres/migrations.js";
import { wordPatterns, wordsOf } from "../src/store/postgres/content-queries.js";
import { parseStoreUrl } from "../src/store/postgres/connection.js";
import { META, STATS, textRow } from "./helpers/contract-data.js";
import { pgSkip, pgTestUrl } from "./helpers/pg.js";
import { adminClient, suiteSchemas } from "./helpers/pg-schemas.js";

/**
 * The PostgreSQL store's own internals: its migration table, its per-build tables and indexes, text PostgreSQL
 * cannot hold, lost connections. What every store must do is store-contract.test.ts; connection failures and
 * concurrent opens are postgres-store-errors.test.ts.
 */

async function tablesOf(client: pg.Client, schema: string): Promise<string[]> {
  return (await client.query<{ t: string }>("SELECT table_name AS t FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1", [schema])).rows.map((r) => r.t);
}

async function publish(store: PostgresStore, files: ReturnType<typeof textRow>[], repoId = META.repoId): Promise<string> {
  const id = await store.beginIndex({ ...META, repoId });
  await store.addFiles(id, files);
  await store.publishIndex(id, "v", STATS);
  return id;
}

describe("store URL", () => {
  test("the schema parameter is the store's, the password is in no description", () => {
    const loc = parseStoreUrl("postgres://app:p%40ss@db.internal:5433/ctx?schema=team_a&sslmode=require");
    assert.equal(loc.schema, "team_a");
    assert.equal(loc.description, "postgresql://db.internal:5433/ctx (schema team_a)");
    assert.ok(!new URL(loc.connectionString).searchParams.has("schema"), "pg never sees ?schema");
    assert.equal(new URL(loc.connectionString).searchParams.get("sslmode"), "require");
    assert.deepEqual(loc.secrets.sort(), ["p%40ss", "p@ss"]);
    assert.equal(parseStoreUrl("postgresql://h/db").schema, "public");
  });

  test("a fragment becomes LIKE patterns over the file's distinct words, which every file holding it matches", () => {
    assert.equal(wordsOf("Foo foo_bar(FOO) 50% Ärger"), " foo foo_bar 50 rger ");
    assert.equal(wordsOf("+-*/"), " ");
    assert.deepEqual(wordPatterns("levenshtein"), ["%levenshtein%"], "one word: anywhere inside a word");
    assert.deepEqual(wordPatterns("module.exports"), ["%module %", "% exports%"], "the first word ends one, the last starts one");
    assert.deepEqual(wordPatterns("new TypeError("), ["%new %", "% typeerror %"], "a word between non-word characters is whole");
    assert.deepEqual(wordPatterns("snake_case"), ["%snake\\_case%"], "_ is literal");
    assert.deepEqual(wordPatterns("50%"), ["%50 %"]);
    assert.deepEqual(wordPatterns("::"), [], "no word: no filter");
    const texts = ["x = module.exports;", "Module.Exports = 1", "a new TypeError('x')", "snake_case_name", "modules.exportsX"];
    const like = (words: string, pattern: string): boolean =>
      new RegExp(`^${pattern.replace(/\\_/g, "\u0000").replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/%/g, ".*").replace(/\u0000/g, "_")}$`, "s").test(words);
    for (const fragment of ["module.exports", "new TypeError(", "snake_case", "ule.exp"]) {
      for (const text of texts) {
        if (!text.toLowerCase().includes(fragment.toLowerCase())) continue;
        for (const pattern of wordPatterns(fragment)) assert.ok(like(wordsOf(text), pattern), `${JSON.stringify(text)} holds ${JSON.stringify(fragment)}, so it matches ${pattern}`);
      }
    }
    assert.ok(!like(wordsOf("modules.exportsX"), "%module %"), "a word that does not end where the fragment's does is no candidate");
  });
});

describe("PostgreSQL store internals", { skip: pgSkip() }, () => {
  const { fresh } = suiteSchemas();

  test("migrations are versioned, applied once, into the named schema only", async () => {
    const url = fresh();
    const store = await PostgresStore.open(url);
    const again = await PostgresStore.open(url);
    const { client, schema } = await adminClient(url);
    try {
      assert.equal(await store.schemaVersion(), MIGRATIONS.at(-1)!.version);
      const rows = (await client.query<{ version: number }>(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`)).rows;
      assert.deepEqual(rows.map((r) => r.version), MIGRATIONS.map((m) => m.version));
      const tables = await tablesOf(client, schema);
      for (const t of ["repo_index", "repo_file", "audit_log", "schema_migrations"]) assert.ok(tables.includes(t), t);
      assert.ok(!(await tablesOf(client, "public")).includes("repo_index"), "nothing is created in public");
    } finally {
      await client.end();
      await store.close();
      await again.close();
      await again.close();
    }
  });

  test("scans hold one connection each: a pool of one serves many at once without waiting on itself", async () => {
    const url = fresh();
    const store = await PostgresStore.open(url, { poolSize: 1 });
    try {
      const rows = Array.from({ length: 40 }, (_, i) => textRow(`f${String(i).padStart(2, "0")}.txt`, `shared needle ${i}`));
      const id = await publish(store, rows);
      const meta = { baseCommit: META.baseCommit, branch: "main", dirty: false };
      await store.applyDelta(id, { meta, knowledge: null, stats: STATS, remove: [], upsert: [textRow("f05.txt", "shared needle, edited")], indexVersion: "v2" });
      const scans = Array.from({ length: 6 }, async (_, k) => {
        const seen: string[] = [];
        await store.scanCandidates(id, { fragments: ["needle"] }, (c) => seen.push(c.file.path) < 10 + k);
        const listed = await store.candidateFiles(id, { fragments: ["shared"] }, 100);
        return { seen, listed: listed.files.length };
      });
      for (const [k, r] of (await Promise.all(scans)).entries()) {
        assert.deepEqual(r.seen, rows.slice(0, 10 + k).map((x) => x.path));
        assert.equal(r.listed, 40);
      }
    } finally {
      await store.close();
    }
  });

  test("a schema name that needs quoting", async () => {
    const base = new URL(pgTestUrl()!);
    const schema = `T ${randomBytes(3).toString("hex")} "q"`;
    base.searchParams.set("schema", schema);
    const store = await PostgresStore.open(base.toString());
    const { client } = await adminClient(base.toString());
    try {
      const id = await publish(store, [textRow("a.txt", "quoted schema words")]);
      assert.deepEqual((await store.listFiles(id)).map((f) => f.path), ["a.txt"]);
      const hits: string[] = [];
      await store.scanCandidates(id, { fragments: ["schema"] }, (c) => (hits.push(c.file.path), true));
      assert.deepEqual(hits, ["a.txt"]);
      assert.ok((await tablesOf(client, schema)).includes("repo_file"));
    } finally {
      await store.close();
      await client.query(`DROP SCHEMA "${schema.replace(/"/g, '""')}" CASCADE`);
      await client.end();
    }
  });

  test("per-build tables: indexed when published, dropped when superseded or failed", async () => {
    const url = fresh();
    const store = await PostgresStore.open(url);
    const { client, schema } = await adminClient(url);
    const buildTables = async () => (await tablesOf(client, schema)).filter((t) => /^(content|symbol|reference|term|term_size)_\d+$/.test(t));
    try {
      const first = await publish(store, [textRow("a.txt", "alpha")]);
      const one = await buildTables();
      assert.equal(one.length, 5, one.join());
      const trgm = await client.query("SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexdef LIKE '%gin_trgm_ops%'", [schema]);
      assert.equal(trgm.rows.length, 2, "the content table has its trigram index, and a partial one over files tree-sitter did not parse");
      assert.equal(trgm.rows.filter((r: { indexdef: string }) => /WHERE \(NOT parsed\)/.test(r.indexdef)).length, 1);
      const second = await publish(store, [textRow("b.txt", "beta")]);
      const two = await buildTables();
      assert.equal(two.length, 5, "the superseded build's tables are gone");
      assert.notDeepEqual(two, one);
      await assert.rejects(store.getContent(first, "a.txt"), /unknown index/, "a superseded index is unknown");
      const building = await store.beginIndex(META);
      assert.equal((await buildTables()).length, 10);
      await store.failIndex(building, "crash");
      assert.equal((await buildTables()).length, 5, "a failed build keeps its row, not its tables");
      assert.equal(await store.getContent(second, "b.txt"), "beta");
    } finally {
      await client.end();
      await store.close();
    }
  });

  test("a build left by a dead process on this host is dropped by the next build; live builders' are kept", async () => {
    const url = fresh();
    const store = await PostgresStore.open(url);
    const { client, schema } = await adminClient(url);
    try {
      const dead = await store.beginIndex(META);
      const live = await store.beginIndex({ ...META, repoId: "acme/live" });
      // A pid that no process has (above the kernel's pid_max), on this host.
      await client.query(`UPDATE "${schema}".repo_index SET builder = $1 WHERE id = $2`, [`${hostname()}:99999999`, dead]);
      await client.query(`UPDATE "${schema}".repo_index SET builder = $1 WHERE id = $2`, ["another-host:1", live]);
      const next = await store.beginIndex(META);
      assert.equal(await store.getIndex(dead), null, "the dead builder's index is gone");
      assert.equal((await store.getIndex(live))?.status, "building", "another host's build is left alone");
      assert.equal((await store.getIndex(next))?.status, "building");
      assert.equal(await store.buildCount("building"), 2);
    } finally {
      await client.end();
      await store.close();
    }
  });

  test("text with NUL characters is matched on the rest and read back exactly", async () => {
    const store = await PostgresStore.open(fresh());
    try {
      const text = "head\0needle\0tail";
      const id = await publish(store, [textRow("nul.txt", text), textRow("plain.txt", "other")]);
      assert.equal(await store.getContent(id, "nul.txt"), text);
      const seen: string[] = [];
      await store.scanCandidates(id, { fragments: ["needle"] }, (c) => (seen.push(c.content), true));
      assert.deepEqual(seen, [text]);
      const { files } = await store.candidateFiles(id, { fragments: ["needle"] }, 10);
      assert.equal((await store.readCandidate(id, files[0]!.id))?.content, text);
    } finally {
      await store.close();
    }
  });

  test("an index whose ranking tables are gone keeps answering and updating; ranking asks for a rebuild", async () => {
    const url = fresh();
    const store = await PostgresStore.open(url);
    const { client, schema } = await adminClient(url);
    try {
      const id = await publish(store, [textRow("a.txt", "alpha beta")]);
      assert.deepEqual((await store.rankFiles(id, { terms: [{ term: "alpha", weight: 1 }], weights: { path: 1, symbols: 1, body: 1 }, limit: 5 })).map((r) => r.path), ["a.txt"]);
      const seq = (await client.query<{ seq: number }>(`SELECT seq FROM "${schema}".repo_index WHERE id = $1`, [id])).rows[0]!.seq;
      await client.query(`DROP TABLE "${schema}".term_${seq}, "${schema}".term_size_${seq}`);
      await assert.rejects(
        store.rankFiles(id, { terms: [{ term: "beta", weight: 1 }], weights: { path: 1, symbols: 1, body: 1 }, limit: 5 }),
        (e: unknown) => e instanceof QueryError && e.category === "index_unavailable" && /repoctx index/.test(e.hint ?? ""),
      );
      await store.applyDelta(id, { meta: { baseCommit: null, branch: null, dirty: false }, remove: [], upsert: [textRow("c.txt", "epsilon")], knowledge: null, indexVersion: "v2", stats: STATS });
      const { files } = await store.candidateFiles(id, { fragments: ["epsilon"] }, 10);
      assert.deepEqual(files.map((f) => f.path), ["c.txt"]);
    } finally {
      await client.end();
      await store.close();
    }
  });

  test("ids that are not uuids name no index", async () => {
    const store = await PostgresStore.open(fresh());
    try {
      assert.equal(await store.getIndex("not-a-uuid"), null);
      assert.deepEqual(await store.listFiles("not-a-uuid"), []);
      assert.equal(await store.getFile("x", "a.txt"), null);
      assert.deepEqual(await store.getDirtyPaths("x"), []);
      await assert.rejects(store.findSymbols("x", { name: "a", limit: 1 }), /unknown index/);
    } finally {
      await store.close();
    }
  });

  test("two repositories built at once into one store: ids never collide", async () => {
    const url = fresh();
    const a = await PostgresStore.open(url);
    const b = await PostgresStore.open(url);
    try {
      const batch = (prefix: string, n: number) => Array.from({ length: 20 }, (_, i) => textRow(`${prefix}/${n}-${String(i).padStart(2, "0")}.txt`, `${prefix} ${n} ${i}`));
      const [ia, ib] = await Promise.all([a.beginIndex({ ...META, repoId: "r/a" }), b.beginIndex({ ...META, repoId: "r/b" })]);
      for (let n = 0; n < 5; n++) await Promise.all([a.addFiles(ia, batch("a", n)), b.addFiles(ib, batch("b", n))]);
      await Promise.all([a.publishIndex(ia, "va", STATS), b.publishIndex(ib, "vb", STATS)]);
      const ids = async (s: PostgresStore, id: string) => [...(await s.fileIds(id, (await s.listFiles(id)).map((f) => f.path))).values()];
      const all = [...(await ids(a, ia)), ...(await ids(b, ib))];
      assert.equal(all.length, 200);
      assert.equal(new Set(all).size, 200);
      assert.deepEqual((await a.listReadyIndexes()).map((i) => i.repoId).sort(), ["r/a", "r/b"]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  test("connections the server drops are replaced; the process does not crash", async () => {
    const url = new URL(fresh());
    const tag = `repoctx_test_${randomBytes(4).toString("hex")}`;
    url.searchParams.set("application_name", tag);
    const store = await PostgresStore.open(url.toString(), { poolSize: 2 });
    const { client } = await adminClient(url.toString());
    try {
      const id = await publish(store, [textRow("a.txt", "alpha")]);
      const killed = await client.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [tag]);
      assert.ok(killed.rows.length > 0, "the store's idle connections were terminated");
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual((await store.listFiles(id)).map((f) => f.path), ["a.txt"], "a new connection serves the next query");
    } finally {
      await client.end();
      await store.close();
    }
  });
});
