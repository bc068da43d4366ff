import pg from "pg";
import { QueryError } from "../../core/errors.js";
import { redactSecrets, safeDecode, urlSecrets } from "../store-url.js";

/**
 * The PostgreSQL connection side of the store: the store URL (its `schema` parameter is ours, not libpq's), a pool
 * whose every connection searches that schema, and the translation of connection failures into `index_unavailable`
 * with a message that never carries the URL's credentials.
 */

export const DEFAULT_POOL_SIZE = 10;
const DEFAULT_SCHEMA = "public";
const CONNECT_TIMEOUT_MS = 10_000;
const IDLE_TIMEOUT_MS = 30_000;
const DEFAULT_APPLICATION_NAME = "repoctx";

export interface StoreLocation {
  /** The URL handed to pg: the store URL without `schema`. */
  connectionString: string;
  schema: string;
  /** For `inspect_index` and error messages: `postgresql://host:port/db (schema x)`, no user or password. */
  description: string;
  /** Secrets that must never appear in a message (the password, in its raw and decoded forms). */
  secrets: string[];
}

export function parseStoreUrl(url: string): StoreLocation {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new QueryError("index_unavailable", "the PostgreSQL store URL is not a valid URL", "use postgres://user@host:port/database?schema=NAME");
  }
  const schema = parsed.searchParams.get("schema") ?? DEFAULT_SCHEMA;
  if (schema.length === 0) throw new QueryError("index_unavailable", "the PostgreSQL store URL names an empty schema", "use ?schema=NAME or leave it out for public");
  parsed.searchParams.delete("schema");
  const secrets = urlSecrets(parsed);
  const host = parsed.hostname || parsed.searchParams.get("host") || "localhost";
  const port = parsed.port ? `:${parsed.port}` : "";
  const database = safeDecode(parsed.pathname.replace(/^\//, ""));
  return {
    connectionString: parsed.toString(),
    schema,
    description: `postgresql://${host}${port}/${database} (schema ${schema})`,
    secrets,
  };
}


/** A double-quoted SQL identifier. Identifiers come from trusted code or the store URL's schema name, never from data. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** int8 and numeric as numbers (ids, counts and sums stay far below 2^53), everything else as pg parses it. */
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

/** `-c search_path=...` for the connection's startup options: spaces and backslashes escaped as libpq expects. */
function searchPathOption(schema: string): string {
  const value = schema === DEFAULT_SCHEMA ? ident(schema) : `${ident(schema)},public`;
  return `-c search_path=${value.replace(/[\\ ]/g, "\\$&")}`;
}

export function createPool(location: StoreLocation, poolSize: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: location.connectionString,
    max: poolSize,
    options: searchPathOption(location.schema),
    types,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
    // The URL's own application_name (an operator's, to tell instances apart in pg_stat_activity) wins.
    ...(new URL(location.connectionString).searchParams.has("application_name") ? {} : { application_name: DEFAULT_APPLICATION_NAME }),
  });
  // An idle connection that fails (server restart, network) is dropped by the pool; the next query reports it.
  pool.on("error", () => undefined);
  return pool;
}

/** Node's network errors and PostgreSQL's error classes that say the server cannot be used, not that a query is wrong. */
const UNAVAILABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE", "ENOENT"]);
const UNAVAILABLE_SQLSTATE_CLASSES = ["08", "28", "53", "57P"];
const UNAVAILABLE_SQLSTATES = new Set(["3D000", "3F000", "42501"]);
const UNAVAILABLE_MESSAGES = /Connection terminated|connection timeout|timeout expired|Client has encountered a connection error|server does not support SSL|self[- ]signed certificate|certificate/i;

export function isUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string") {
    if (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && UNAVAILABLE_SQLSTATE_CLASSES.some((c) => code.startsWith(c))) return true;
  }
  return UNAVAILABLE_MESSAGES.test(err.message);
}


/** A connection failure as `index_unavailable`; anything else unchanged (a failing query is a bug, not an outage). */
export function translateError(err: unknown, location: StoreLocation): unknown {
  if (err instanceof QueryError || !isUnavailable(err)) return err;
  const e = err as Error & { code?: string };
  const reason = redactSecrets(e.message || e.code || "connection failed", location.secrets);
  return new QueryError(
    "index_unavailable",
    `the PostgreSQL store ${location.description} is unavailable: ${reason}`,
    "check that the server is running and that the store URL's host, port, database, user and password are right",
  );
}
