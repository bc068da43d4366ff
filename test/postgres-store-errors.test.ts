import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { QueryError } from "../src/core/errors.js";
import { openStore } from "../src/store/open.js";
import type { Store } from "../src/store/store.js";
import { META, STATS, textRow } from "./helpers/contract-data.js";
import { pgSkip } from "./helpers/pg.js";
import { adminClient, suiteSchemas } from "./helpers/pg-schemas.js";

/**
 * What only the PostgreSQL store has to get right: a server that is down or was migrated by a newer repoctx, a
 * password in the URL, and several processes opening one schema at once. The Store contract itself is
 * store-contract.test.ts.
 */

const PASSWORD = "s3cret-Pa55word";

/** An expected failure with this category whose message and hint never show the password. */
function refusedWith(category: string): (e: unknown) => boolean {
  return (e: unknown) => {
    assert.ok(e instanceof QueryError, `a QueryError, not ${String(e)}`);
    assert.equal(e.category, category);
    for (const text of [e.message, e.hint ?? "", String(e), e.stack ?? ""]) assert.ok(!text.includes(PASSWORD), `no password in ${text}`);
    return true;
  };
}

describe("PostgreSQL store: a server that cannot be reached", () => {
  test("connection refused: index_unavailable, and the password is nowhere in the error", async () => {
    // Port 1 on the loopback address: nothing listens there, the connection is refused at once.
    await assert.rejects(openStore(`postgres://u:${PASSWORD}@127.0.0.1:1/db`), refusedWith("index_unavailable"));
    await assert.rejects(openStore(`postgresql://u:${encodeURIComponent(PASSWORD)}@127.0.0.1:1/db?schema=t_x`), refusedWith("index_unavailable"));
  });
});

describe("PostgreSQL store: schemas and concurrent instances", { skip: pgSkip() }, () => {
  const { fresh } = suiteSchemas();

  test("the description names the server and schema, never the password", async () => {
    const url = new URL(fresh());
    url.password = PASSWORD; // the test server trusts local connections: the password is sent nowhere
    const store = await openStore(url.toString());
    try {
      assert.ok(!store.description.includes(PASSWORD), store.description);
      assert.ok(store.description.includes(url.searchParams.get("schema")!), `the schema is part of the location: ${store.description}`);
    } finally {
      await store.close();
    }
  });

  test("a schema migrated by a newer repoctx is refused with index_unavailable, not changed", async () => {
    const url = fresh();
    await (await openStore(url)).close();
    const { client, schema } = await adminClient(url);
    try {
      // One more migration than this code knows, whatever the table's other columns are.
      const columns = (
        await client.query<{ column_name: string; data_type: string; is_nullable: string; column_default: string | null }>(
          "SELECT column_name, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'schema_migrations'",
          [schema],
        )
      ).rows;
      assert.ok(columns.some((c) => c.column_name === "version"), "schema_migrations has a version column");
      const { rows } = await client.query<{ v: number }>(`SELECT MAX(version)::int AS v FROM "${schema}".schema_migrations`);
      const required = columns.filter((c) => c.column_name !== "version" && c.is_nullable === "NO" && c.column_default === null);
      const value = (type: string): unknown => (/time|date/.test(type) ? new Date() : /int|numeric|double|real/.test(type) ? 0 : "from a newer repoctx");
      const names = ["version", ...required.map((c) => c.column_name)];
      await client.query(
        `INSERT INTO "${schema}".schema_migrations (${names.map((n) => `"${n}"`).join(", ")}) VALUES (${names.map((_, i) => `$${i + 1}`).join(", ")})`,
        [rows[0]!.v + 1, ...required.map((c) => value(c.data_type))],
      );
      const tables = async () => (await client.query("SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1", [schema])).rows;
      const before = await tables();
      await assert.rejects(openStore(url), refusedWith("index_unavailable"));
      assert.deepEqual(await tables(), before, "nothing was changed");
    } finally {
      await client.end();
    }
  });

  test("several instances open a fresh schema at once: every one migrates or waits, none fails", async () => {
    const url = fresh();
    const settled = await Promise.allSettled(Array.from({ length: 4 }, () => openStore(url)));
    const stores = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    try {
      assert.deepEqual(
        settled.filter((s) => s.status === "rejected").map((s) => String((s as PromiseRejectedResult).reason)),
        [],
        "no open failed",
      );
      const id = await stores[0]!.beginIndex(META);
      await stores[0]!.addFiles(id, [textRow("a.txt", "alpha")]);
      await stores[0]!.publishIndex(id, "idx-1", STATS);
      for (const s of stores) assert.equal((await s.getReadyIndex(META.repoId))?.id, id, "every replica serves the same ready index");
    } finally {
      for (const s of stores) await s.close();
    }
  });

  test("stores on two schemas of one database are independent", async () => {
    const a: Store = await openStore(fresh());
    try {
      const b: Store = await openStore(fresh());
      try {
        const id = await a.beginIndex(META);
        await a.addFiles(id, [textRow("a.txt", "alpha")]);
        await a.publishIndex(id, "idx-1", STATS);
        assert.equal(await b.getReadyIndex(META.repoId), null);
        assert.deepEqual(await b.listReadyIndexes(), []);
      } finally {
        await b.close();
      }
    } finally {
      await a.close();
    }
  });
});
