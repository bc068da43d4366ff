import { after } from "node:test";
import pg from "pg";
import { dropPgSchema, freshPgStoreUrl } from "./pg.js";

/**
 * Fresh schemas for one PostgreSQL suite: call inside its `describe`; every URL `fresh()` gives names a new schema,
 * dropped when the suite ends.
 */
export function suiteSchemas(): { fresh: () => string } {
  const urls: string[] = [];
  after(async () => {
    for (const url of urls) await dropPgSchema(url);
  });
  return {
    fresh: () => {
      const url = freshPgStoreUrl();
      urls.push(url);
      return url;
    },
  };
}

/** A client on the database a store URL names (connected as the store is, under no application name), and its schema. */
export async function adminClient(url: string): Promise<{ client: pg.Client; schema: string }> {
  const u = new URL(url);
  const schema = u.searchParams.get("schema") ?? "public";
  u.searchParams.delete("schema");
  u.searchParams.delete("application_name");
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  return { client, schema };
}
