import { SqliteStore } from "./sqlite/sqlite-store.js";
import type { Store } from "./store.js";
import { isPostgresUrl } from "./store-url.js";

/**
 * Opens the store a location names: a PostgreSQL URL (`?schema=` picks a schema, default `public`) or a SQLite
 * file path. Both run their migrations first.
 */
export async function openStore(location: string): Promise<Store> {
  if (isPostgresUrl(location)) {
    const { PostgresStore } = await import("./postgres/postgres-store.js");
    return PostgresStore.open(location);
  }
  return SqliteStore.open(location);
}
