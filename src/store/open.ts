import { SqliteStore } from "./sqlite/sqlite-store.js";
import type { Store } from "./store.js";

/** A store location names PostgreSQL when it is a postgres:// or postgresql:// URL; anything else is a SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

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
