import { randomBytes } from "node:crypto";
import pg from "pg";

/**
 * The PostgreSQL server the tests use: `REPOCTX_TEST_PG` (a postgres:// URL; `.ci/run` and
 * `scripts/pg-cluster.sh start` set one up). Without it the PostgreSQL half of a suite is skipped locally; under CI
 * it is an error, so a green CI always means both stores passed.
 */
export function pgTestUrl(): string | null {
  const url = process.env.REPOCTX_TEST_PG?.trim();
  if (url) return url;
  if (process.env.CI === "true") throw new Error("REPOCTX_TEST_PG is not set: CI must run the PostgreSQL store tests");
  return null;
}

/** `skip` option for node:test when no PostgreSQL server is available here. */
export function pgSkip(): string | false {
  return pgTestUrl() === null ? "REPOCTX_TEST_PG not set (scripts/pg-cluster.sh start DIR prints one)" : false;
}

/** A URL naming a fresh, unique schema in the test server: each store under test gets its own. */
export function freshPgStoreUrl(): string {
  const base = pgTestUrl();
  if (!base) throw new Error("no PostgreSQL test server");
  const url = new URL(base);
  url.searchParams.set("schema", `t_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`);
  return url.toString();
}

/** Drops the schema a freshPgStoreUrl named (after the store is closed). */
export async function dropPgSchema(storeUrl: string): Promise<void> {
  const url = new URL(storeUrl);
  const schema = url.searchParams.get("schema");
  url.searchParams.delete("schema");
  if (!schema || !/^t_[a-z0-9_]+$/.test(schema)) return;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}
