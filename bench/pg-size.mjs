// @ts-check
/** Bytes a PostgreSQL store's schema takes on disk: every table with its indexes and TOAST. */
import pg from "pg";

/** @param {string} location a postgres:// URL, with `?schema=` (default public) @returns {{ url: string, schema: string }} */
export function splitSchema(location) {
  const url = new URL(location);
  const schema = url.searchParams.get("schema") ?? "public";
  url.searchParams.delete("schema");
  return { url: url.toString(), schema };
}

/** @param {string} location @returns {Promise<number>} */
export async function pgSchemaBytes(location) {
  const { url, schema } = splitSchema(location);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const res = await client.query(
      `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'm')`,
      [schema],
    );
    return Number(res.rows[0].bytes);
  } finally {
    await client.end();
  }
}

/** Drops a store's schema (a fresh full build starts from nothing). Refuses `public`. @param {string} location */
export async function dropPgSchema(location) {
  const { url, schema } = splitSchema(location);
  if (schema === "public") throw new Error("refusing to drop the public schema; give the bench store a ?schema=");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema.replace(/"/g, '""')}" CASCADE`);
  } finally {
    await client.end();
  }
}
