import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { openStore } from "../../src/store/open.js";
import type { Store } from "../../src/store/store.js";
import { dropPgSchema, freshPgStoreUrl, pgSkip } from "./pg.js";

/** One Store implementation under test: where a new, empty store of it lives, and how that place is removed. */
export interface StoreKind {
  name: "sqlite" | "postgres";
  /** node:test `skip`: a reason when this kind cannot run here (no PostgreSQL server), else false. */
  skip: string | false;
  /** A location for a new, empty store: a SQLite file in a fresh folder, or a URL naming a fresh schema. */
  location(): string;
  /** Removes what `location()` made, once every store opened on it is closed. */
  remove(location: string): Promise<void>;
}

const sqlite: StoreKind = {
  name: "sqlite",
  skip: false,
  location: () => join(mkdtempSync(join(tmpdir(), "repoctx-contract-")), "index.db"),
  remove: async (location) => rmSync(dirname(location), { recursive: true, force: true }),
};

const postgres: StoreKind = {
  name: "postgres",
  get skip() {
    return pgSkip();
  },
  location: () => freshPgStoreUrl(),
  remove: (location) => dropPgSchema(location),
};

/** Every Store implementation: a contract suite runs once per entry. */
export const STORE_KINDS: readonly StoreKind[] = [sqlite, postgres];

/**
 * The stores a suite opens, all closed and removed at its end (`closeAll` in `after`). Stores are opened the way the
 * CLI opens them (`openStore`), so a PostgreSQL store is loaded only when its suite runs.
 */
export class StoreTracker {
  private readonly open = new Set<Store>();
  private readonly locations = new Set<string>();

  constructor(readonly kind: StoreKind) {}

  /** A new, empty store and its location (to open a second instance on it). */
  async fresh(): Promise<{ store: Store; location: string }> {
    const location = this.kind.location();
    this.locations.add(location);
    return { store: await this.reopen(location), location };
  }

  /** Another instance on an existing location: a second process, or a second replica behind a load balancer. */
  async reopen(location: string): Promise<Store> {
    const store = await openStore(location);
    this.open.add(store);
    return store;
  }

  /** Closes one store before the end of the suite. */
  async close(store: Store): Promise<void> {
    this.open.delete(store);
    await store.close();
  }

  async closeAll(): Promise<void> {
    for (const store of this.open) await store.close();
    this.open.clear();
    for (const location of this.locations) await this.kind.remove(location);
    this.locations.clear();
  }
}
