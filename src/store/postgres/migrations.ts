import { QueryError } from "../../core/errors.js";
import { ident } from "./connection.js";
import type { Db, Queryable } from "./db.js";

/**
 * Versioned schema migrations for the PostgreSQL store. Each entry runs once, in order; `schema_migrations` records
 * what ran. All pending ones run in one transaction under a transaction-scoped advisory lock, so processes opening
 * the same store at once apply them once. Never edit an applied migration: add the next one.
 *
 * Text that is sorted or compared by range (paths, names, languages) is `COLLATE "C"`: byte order of UTF-8, the
 * order SQLite's BINARY collation gives, whatever the database's locale. Stats and knowledge are `json`, not
 * `jsonb`: json keeps the text (and so the key order) a caller wrote, so both stores return the same documents.
 */

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "indexes, files, knowledge, semantic data and the audit log",
    sql: `
      CREATE TABLE repo_index (
        id uuid PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        repo_id text COLLATE "C" NOT NULL,
        root_path text NOT NULL,
        base_commit text,
        branch text,
        dirty boolean NOT NULL,
        extractor_version text NOT NULL,
        index_version text,
        status text NOT NULL CHECK (status IN ('building', 'ready', 'failed', 'superseded')),
        started_at timestamptz NOT NULL,
        finished_at timestamptz,
        stats json,
        error text,
        builder text
      );
      CREATE INDEX repo_index_repo_status ON repo_index (repo_id, status);
      CREATE UNIQUE INDEX repo_index_one_ready ON repo_index (repo_id) WHERE status = 'ready';

      CREATE TABLE repo_file (
        id bigint PRIMARY KEY,
        repo_index_id uuid NOT NULL REFERENCES repo_index (id) ON DELETE CASCADE,
        path text COLLATE "C" NOT NULL,
        language text COLLATE "C",
        size_bytes bigint NOT NULL,
        line_count integer,
        content_hash text NOT NULL,
        is_binary boolean NOT NULL DEFAULT false,
        is_generated boolean NOT NULL DEFAULT false,
        is_vendored boolean NOT NULL DEFAULT false,
        generated_reason text,
        is_secret_suspect boolean NOT NULL DEFAULT false,
        secret_reasons text[] NOT NULL DEFAULT '{}',
        has_instruction_like_text boolean NOT NULL DEFAULT false,
        skip_reason text COLLATE "C",
        skip_detail text,
        symbol_status text,
        symbol_extractor text,
        symbol_detail text,
        mtime_ms double precision,
        UNIQUE (repo_index_id, path)
      );

      CREATE TABLE repo_module (
        repo_index_id uuid NOT NULL REFERENCES repo_index (id) ON DELETE CASCADE,
        path text COLLATE "C" NOT NULL,
        name text COLLATE "C" NOT NULL,
        data json NOT NULL,
        PRIMARY KEY (repo_index_id, path, name)
      );
      CREATE TABLE repo_doc (
        repo_index_id uuid NOT NULL REFERENCES repo_index (id) ON DELETE CASCADE,
        doc_id text COLLATE "C" NOT NULL,
        path text COLLATE "C" NOT NULL,
        data json NOT NULL,
        PRIMARY KEY (repo_index_id, doc_id)
      );
      CREATE INDEX repo_doc_path ON repo_doc (repo_index_id, path);
      CREATE TABLE repo_ownership_rule (
        repo_index_id uuid NOT NULL REFERENCES repo_index (id) ON DELETE CASCADE,
        ordinal integer NOT NULL,
        data json NOT NULL,
        PRIMARY KEY (repo_index_id, ordinal)
      );
      CREATE TABLE repo_knowledge (
        repo_index_id uuid NOT NULL REFERENCES repo_index (id) ON DELETE CASCADE,
        kind text COLLATE "C" NOT NULL,
        data json NOT NULL,
        PRIMARY KEY (repo_index_id, kind)
      );
      CREATE TABLE repo_instruction (
        repo_index_id uuid NOT NULL REFERENCES repo_index (id) ON DELETE CASCADE,
        path text COLLATE "C" NOT NULL,
        data json NOT NULL,
        PRIMARY KEY (repo_index_id, path)
      );

      CREATE TABLE repo_semantic (
        repo_index_id uuid PRIMARY KEY REFERENCES repo_index (id) ON DELETE CASCADE,
        model bytea NOT NULL,
        created_at timestamptz NOT NULL,
        meta json NOT NULL
      );
      CREATE TABLE repo_file_vector (
        file_id bigint PRIMARY KEY REFERENCES repo_file (id) ON DELETE CASCADE,
        repo_index_id uuid NOT NULL REFERENCES repo_index (id) ON DELETE CASCADE,
        vec bytea NOT NULL
      );
      CREATE INDEX repo_file_vector_index ON repo_file_vector (repo_index_id, file_id);

      CREATE TABLE audit_log (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at timestamptz NOT NULL,
        run_id text,
        step_id text,
        tool text NOT NULL,
        query_hash text NOT NULL,
        mode text,
        result_count integer NOT NULL,
        truncated boolean NOT NULL,
        latency_ms double precision NOT NULL,
        repo_id text,
        index_version text,
        outcome text NOT NULL,
        preview text
      );
      CREATE INDEX audit_log_at ON audit_log (at);
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/**
 * Transaction-scoped advisory locks (two-int form): repoctx's base key plus what is locked, then a hash of which
 * one (`$1`: a schema, or a schema and a repository).
 */
const LOCK_BASE = 0x72637478; // "rctx"
const LOCK_MIGRATE = 1;
/** File ids are allocated one writer at a time per store, as SQLite's single writer does. */
export const LOCK_FILE_IDS = 2;
/** Publishing a repository's build (the flip from one ready index to the next). */
export const LOCK_PUBLISH = 3;

export function advisoryLockSql(kind: number): string {
  return `SELECT pg_advisory_xact_lock(${LOCK_BASE + kind}, hashtext($1))`;
}

/**
 * Creates the schema and pg_trgm when missing, then applies pending migrations. Returns the schema pg_trgm lives in
 * (its operator classes are named with it). A store whose schema is newer than this code is `index_unavailable`.
 */
export async function migrate(db: Db, schema: string): Promise<{ trigramSchema: string }> {
  return db.tx(async (q) => {
    // One lock for every repoctx store of the database: creating pg_trgm is database-wide.
    await q.run(advisoryLockSql(LOCK_MIGRATE), ["*"]);
    const exists = await q.one("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]);
    if (!exists) await q.run(`CREATE SCHEMA IF NOT EXISTS ${ident(schema)}`);
    await q.run(`SET LOCAL search_path TO ${ident(schema)}${schema === "public" ? "" : ", public"}`);
    const trigramSchema = await ensureTrigramExtension(q);
    await q.run("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)");
    const applied = new Set((await q.rows<{ version: number }>("SELECT version FROM schema_migrations")).map((r) => r.version));
    const newest = Math.max(0, ...applied);
    if (newest > SCHEMA_VERSION) {
      throw new QueryError(
        "index_unavailable",
        `the store's schema is at version ${newest}, newer than this repoctx knows (${SCHEMA_VERSION})`,
        "upgrade repoctx to the version that last wrote this store",
      );
    }
    for (const m of MIGRATIONS) {
      if (applied.has(m.version)) continue;
      await q.run(m.sql);
      await q.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, now())", [m.version, m.name]);
    }
    return { trigramSchema };
  });
}

/** pg_trgm, created in public when missing; another process creating it at the same moment is no error. */
async function ensureTrigramExtension(q: Queryable): Promise<string> {
  const find = () => q.one<{ schema: string }>("SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'");
  let found = await find();
  if (!found) {
    await q.run("SAVEPOINT create_trgm");
    try {
      await q.run("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public");
      await q.run("RELEASE SAVEPOINT create_trgm");
    } catch (err) {
      await q.run("ROLLBACK TO SAVEPOINT create_trgm");
      found = await find();
      if (!found) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new QueryError("index_unavailable", `the pg_trgm extension is missing and could not be created: ${reason}`, "ask an administrator to run CREATE EXTENSION pg_trgm in this database");
      }
    }
    found ??= await find();
  }
  if (!found) throw new QueryError("index_unavailable", "the pg_trgm extension is missing", "ask an administrator to run CREATE EXTENSION pg_trgm in this database");
  return found.schema;
}

/**
 * Per-build tables, like the SQLite store's: each index build gets its own content, symbol, reference and term
 * tables, created empty when the build begins, indexed when it is published (bulk loading without indexes is much
 * faster, a trigram GIN index most of all) and dropped, in the transaction that supersedes the build, when a newer
 * build is published. A half-written build never mixes with a ready one.
 */
export interface BuildTables {
  content: string;
  symbols: string;
  references: string;
  terms: string;
  termSizes: string;
}

export function buildTables(seq: number): BuildTables {
  if (!Number.isSafeInteger(seq) || seq < 0) throw new Error(`invalid index sequence ${seq}`);
  return {
    content: ident(`content_${seq}`),
    symbols: ident(`symbol_${seq}`),
    references: ident(`reference_${seq}`),
    terms: ident(`term_${seq}`),
    termSizes: ident(`term_size_${seq}`),
  };
}

/** ASCII-only case folding (SQLite's NOCASE), the same in every database locale. */
export function foldAscii(expr: string): string {
  return `translate(${expr}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`;
}

/**
 * `content` is the text with NUL characters removed (PostgreSQL text cannot hold them) and `original` the exact text
 * as UTF-8 when it had any, so a file that holds NULs is still matched on the rest and read back unchanged.
 * `words` is the file's distinct words (see content-queries.ts), what the trigram index covers and candidate queries
 * check, a fraction of the text's size.
 * `parsed` marks files whose symbols came from a parse (tree-sitter, SCIP): lexical mentions leave them out, and a partial trigram
 * index over the other files (a minority) answers that search without checking the parsed ones' words.
 * `late` marks text written by an in-place update: the build writes its text in file id order, so the table's
 * physical order is id order for every other row, which lets a candidate scan stream in id order without sorting
 * (see content-queries.ts).
 * Terms are postings: one row per file and stemmed term (see porter.ts) with a bit per field holding it.
 * Fixed-width columns come first: no alignment padding between them, in tables of millions of rows.
 */
export function createBuildTablesSql(seq: number): string {
  const t = buildTables(seq);
  return `
    CREATE TABLE ${t.content} (
      file_id bigint PRIMARY KEY,
      late boolean NOT NULL DEFAULT false,
      parsed boolean NOT NULL DEFAULT false,
      words text COLLATE "C" NOT NULL,
      content text COLLATE "C" NOT NULL,
      original bytea
    );
    CREATE TABLE ${t.symbols} (
      id bigint PRIMARY KEY,
      file_id bigint NOT NULL,
      start_line integer NOT NULL,
      end_line integer NOT NULL,
      start_column integer NOT NULL,
      name text COLLATE "C" NOT NULL,
      kind text NOT NULL,
      qualified_name text NOT NULL,
      container text,
      visibility text,
      signature text NOT NULL,
      scip_symbol text
    );
    CREATE TABLE ${t.references} (
      id bigint PRIMARY KEY,
      file_id bigint NOT NULL,
      enclosing_id bigint,
      line integer NOT NULL,
      col integer NOT NULL,
      name text COLLATE "C" NOT NULL,
      kind text NOT NULL,
      target text
    );
    CREATE TABLE ${t.terms} (file_id bigint NOT NULL, fields smallint NOT NULL, term text COLLATE "C" NOT NULL);
    CREATE TABLE ${t.termSizes} (file_id bigint PRIMARY KEY, path integer NOT NULL, symbols integer NOT NULL, body integer NOT NULL);
  `;
}

/**
 * Lookup indexes, created once a build's rows are all written. The trigram GIN index serves `ILIKE '%fragment%'`;
 * one folded-name index serves exact (folded name, then name) and prefix symbol lookups; references are found by
 * name in id order; postings by term (with file and fields, for index-only scans) and, for an in-place update's
 * deletes, by file through a BRIN index (postings are written in file order, so it stays small and selective).
 */
export function createBuildIndexesSql(seq: number, trigramSchema: string): string {
  const t = buildTables(seq);
  const name = (table: string, suffix: string) => ident(`${table}_${seq}_${suffix}`);
  return `
    CREATE INDEX ${name("content", "trgm")} ON ${t.content} USING gin (words ${ident(trigramSchema)}.gin_trgm_ops);
    CREATE INDEX ${name("content", "late")} ON ${t.content} (file_id) WHERE late;
    CREATE INDEX ${name("content", "unparsed")} ON ${t.content} USING gin (words ${ident(trigramSchema)}.gin_trgm_ops) WHERE NOT parsed;
    CREATE INDEX ${name("symbol", "name")} ON ${t.symbols} (${foldAscii("name")}, name, id);
    CREATE INDEX ${name("reference", "name")} ON ${t.references} (name, id);
    CREATE INDEX ${name("term", "term")} ON ${t.terms} (term) INCLUDE (file_id, fields);
    CREATE INDEX ${name("term", "file")} ON ${t.terms} USING brin (file_id);
  `;
}

export function buildTableNames(seq: number): string[] {
  const t = buildTables(seq);
  return [t.content, t.symbols, t.references, t.terms, t.termSizes];
}

export function dropBuildTablesSql(seq: number): string {
  return `DROP TABLE IF EXISTS ${buildTableNames(seq).join(", ")}`;
}
