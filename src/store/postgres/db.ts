import type pg from "pg";
import { translateError, type StoreLocation } from "./connection.js";

/** Something to run parameterized SQL on: the pool (one statement, autocommit) or one transaction's connection. */
export interface Queryable {
  rows<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  one<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** Runs a statement for its effect; returns the rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

/** Queries on a pool or one checked-out connection (both have `query`), failures translated for the store. */
abstract class PgQueryable implements Queryable {
  protected abstract readonly target: pg.Pool | pg.PoolClient;
  abstract readonly location: StoreLocation;

  private async query(sql: string, params: readonly unknown[]): Promise<pg.QueryResult> {
    try {
      return await this.target.query(sql, params as unknown[]);
    } catch (err) {
      throw translateError(err, this.location);
    }
  }

  async rows<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return (await this.query(sql, params)).rows as T[];
  }

  async one<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    return (await this.rows<T>(sql, params))[0];
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.query(sql, params)).rowCount ?? 0;
  }
}

/** The store's way to PostgreSQL: queries and transactions over the pool, connection failures as `index_unavailable`. */
export class Db extends PgQueryable {
  constructor(
    readonly pool: pg.Pool,
    readonly location: StoreLocation,
  ) {
    super();
  }

  protected get target(): pg.Pool {
    return this.pool;
  }

  /**
   * One pooled connection inside a transaction opened with `begin`. `end(true)` commits (and throws when that
   * fails), `end(false)` rolls back; either way the connection goes back to the pool, or is discarded when it could
   * not end cleanly.
   */
  private async checkout(begin: string): Promise<{ q: Queryable; end: (commit: boolean) => Promise<void> }> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw translateError(err, this.location);
    }
    // A checked-out connection that fails between statements must not crash the process: its next query reports it.
    const onError = (): void => undefined;
    client.on("error", onError);
    const release = (broken?: Error): void => {
      client.removeListener("error", onError);
      client.release(broken);
    };
    const q = new ClientQueryable(client, this.location);
    try {
      await q.run(begin);
    } catch (err) {
      release(err instanceof Error ? err : new Error(String(err)));
      throw err;
    }
    const end = async (commit: boolean): Promise<void> => {
      try {
        await client.query(commit ? "COMMIT" : "ROLLBACK");
      } catch (err) {
        release(err instanceof Error ? err : new Error(String(err)));
        if (commit) throw translateError(err, this.location);
        return;
      }
      release();
    };
    return { q, end };
  }

  /** Runs `fn` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  async tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    const { q, end } = await this.checkout("BEGIN");
    let out: T;
    try {
      out = await fn(q);
    } catch (err) {
      await end(false);
      throw translateError(err, this.location);
    }
    await end(true);
    return out;
  }

  /**
   * Streams a query's rows in batches through a server-side cursor in one read-only transaction: batches start at
   * `first` rows and double up to `max`; the query only runs as far as the consumer reads. `prepare` runs first in
   * the same transaction (settings, helper queries) and returns the query. Each batch comes with that transaction's
   * connection: whatever the consumer reads per batch goes through it, never through a second pooled connection
   * (a scan waiting on the pool while holding a connection is how a full pool deadlocks).
   */
  async *cursor<T>(
    prepare: (q: Queryable) => Promise<{ sql: string; params: readonly unknown[] }>,
    first: number,
    max: number,
  ): AsyncGenerator<{ rows: T[]; q: Queryable }> {
    const { q, end } = await this.checkout("BEGIN READ ONLY");
    try {
      const { sql, params } = await prepare(q);
      await q.run(`DECLARE repoctx_scan NO SCROLL CURSOR FOR ${sql}`, params);
      for (let size = first; ; size = Math.min(size * 2, max)) {
        const rows = await q.rows<T>(`FETCH ${Math.floor(size)} FROM repoctx_scan`);
        if (rows.length > 0) yield { rows, q };
        if (rows.length < size) break;
      }
    } catch (err) {
      throw translateError(err, this.location);
    } finally {
      // Also reached when the consumer stops early: the read-only transaction and its cursor end either way.
      await end(false);
    }
  }

  async end(): Promise<void> {
    await this.pool.end();
  }
}

class ClientQueryable extends PgQueryable {
  constructor(
    protected readonly target: pg.PoolClient,
    readonly location: StoreLocation,
  ) {
    super();
  }
}

/** Numbered parameters for a query being built: `add` returns the placeholder of a value. */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
