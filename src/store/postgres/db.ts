import type pg from "pg";
import { translateError, type StoreLocation } from "./connection.js";

/** Something to run parameterized SQL on: the pool (one statement, autocommit) or one transaction's connection. */
export interface Queryable {
  rows<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  one<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** Runs a statement for its effect; returns the rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

/** The store's way to PostgreSQL: queries and transactions over the pool, connection failures as `index_unavailable`. */
export class Db implements Queryable {
  constructor(
    readonly pool: pg.Pool,
    readonly location: StoreLocation,
  ) {}

  async rows<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    try {
      return (await this.pool.query(sql, params as unknown[])).rows as T[];
    } catch (err) {
      throw translateError(err, this.location);
    }
  }

  async one<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    return (await this.rows<T>(sql, params))[0];
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    try {
      return (await this.pool.query(sql, params as unknown[])).rowCount ?? 0;
    } catch (err) {
      throw translateError(err, this.location);
    }
  }

  /** Runs `fn` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  async tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw translateError(err, this.location);
    }
    // A checked-out connection that fails between statements must not crash the process: its next query reports it.
    const onError = (): void => undefined;
    client.on("error", onError);
    const q = new ClientQueryable(client, this.location);
    let broken: Error | undefined;
    try {
      await q.run("BEGIN");
      const out = await fn(q);
      await q.run("COMMIT");
      return out;
    } catch (err) {
      try {
        await client.query("ROLLBACK");
      } catch (rollbackErr) {
        broken = rollbackErr instanceof Error ? rollbackErr : new Error(String(rollbackErr));
      }
      throw translateError(err, this.location);
    } finally {
      client.removeListener("error", onError);
      client.release(broken);
    }
  }

  async end(): Promise<void> {
    await this.pool.end();
  }
}

class ClientQueryable implements Queryable {
  constructor(
    private readonly client: pg.PoolClient,
    private readonly location: StoreLocation,
  ) {}

  async rows<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    try {
      return (await this.client.query(sql, params as unknown[])).rows as T[];
    } catch (err) {
      throw translateError(err, this.location);
    }
  }

  async one<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    return (await this.rows<T>(sql, params))[0];
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    try {
      return (await this.client.query(sql, params as unknown[])).rowCount ?? 0;
    } catch (err) {
      throw translateError(err, this.location);
    }
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
