/**
 * Symbols in the store, and `find_symbol` latency. Everything here is read from the indexed store, not from the
 * index child's result, so `--reuse-index` shows the same figures as the run that built the store:
 * - what extraction produced (symbols, references, files per extraction status and per extractor, bytes parsed
 *   with tree-sitter) and how much of the store each kind of table takes (SQLite's dbstat, when compiled in);
 * - in-process `find_symbol` latency through the same path an MCP call takes, like measure-queries.ts does for
 *   `search_code`. Warm: one untimed pass first.
 */
import { timeCalls } from "./time-calls.js";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import type { IndexStats } from "../src/store/store.js";
import { loadLog, loadOpenStore, loadGitHead, loadRunTool, loadSchema, loadSqliteStore, loadTools, benchDeps } from "./dist.js";
import { findSymbolArgs, type SymbolLookup } from "./queries.js";

export interface ExtractorCount {
  /** "tree-sitter", "lexical", or "none" (no extraction attempted: prose, data, skipped text). */
  extractor: string;
  files: number;
  bytes: number;
  /** Symbol rows from files of this extractor; null when the per-extractor count could not be read. */
  symbols: number | null;
}

/** Bytes of the database file per kind of table (b-trees and their indexes), from SQLite's dbstat. */
export interface StoreTables {
  /** Trigram full-text index and its shadow tables (the indexed text itself lives there). */
  text: number;
  symbols: number;
  references: number;
  /** File rows and their indexes. */
  files: number;
  other: number;
  /** Pages on the free list or otherwise not in any b-tree (file size minus the above). */
  free: number;
  dbFileBytes: number;
  /** Time the dbstat scan took (reads every page). */
  scanMs: number;
}

export interface SymbolStoreFigures {
  indexId: string;
  /** When the ready index was published, as the store recorded it. */
  finishedAt: string | null;
  /** The extractor version the index was built with (queries refuse an index built by another version). */
  extractorVersion: string;
  /** The ready index's stats as the store recorded them: a saved index result is matched against these. */
  indexStats: IndexStats | null;
  symbols: number;
  references: number;
  /** Indexed files per extraction status (ok, syntax_errors, timeout, failed, no_grammar, skipped). */
  byStatus: Record<string, number>;
  byExtractor: ExtractorCount[];
  /** null when dbstat is not available in this SQLite build. */
  tables: StoreTables | null;
}

/** Symbol rows per extractor of their file; null if the store's layout is not the one expected here. */
function symbolsPerExtractor(db: Database.Database, indexId: string): Map<string, number> | null {
  try {
    const row = db.prepare("SELECT seq FROM repo_index WHERE id = ?").get(indexId) as { seq: number } | undefined;
    if (!row) return null;
    const rows = db
      .prepare(
        `SELECT COALESCE(f.symbol_extractor, 'none') AS extractor, COUNT(*) AS n
         FROM repo_symbol_${Number(row.seq)} s JOIN repo_file f ON f.id = s.file_id GROUP BY 1`,
      )
      .all() as { extractor: string; n: number }[];
    return new Map(rows.map((r) => [r.extractor, r.n]));
  } catch {
    return null;
  }
}

function tableKind(table: string): keyof Omit<StoreTables, "free" | "dbFileBytes" | "scanMs"> {
  if (table.startsWith("content_fts_")) return "text";
  if (table.startsWith("repo_symbol_")) return "symbols";
  if (table.startsWith("repo_reference_")) return "references";
  if (table === "repo_file") return "files";
  return "other";
}

/** Bytes per kind of table from dbstat (aggregate mode: one row per b-tree); null when dbstat is missing. */
function storeTables(db: Database.Database): StoreTables | null {
  const started = performance.now();
  let rows: { name: string; bytes: number }[];
  try {
    rows = db.prepare("SELECT name, pgsize AS bytes FROM dbstat WHERE aggregate = TRUE").all() as { name: string; bytes: number }[];
  } catch {
    return null;
  }
  const scanMs = performance.now() - started;
  const owner = new Map(
    (db.prepare("SELECT name, tbl_name FROM sqlite_schema").all() as { name: string; tbl_name: string }[]).map((r) => [r.name, r.tbl_name]),
  );
  const pageSize = (db.pragma("page_size", { simple: true }) as number) ?? 0;
  const pageCount = (db.pragma("page_count", { simple: true }) as number) ?? 0;
  const t: StoreTables = { text: 0, symbols: 0, references: 0, files: 0, other: 0, free: 0, dbFileBytes: pageSize * pageCount, scanMs };
  for (const r of rows) t[tableKind(owner.get(r.name) ?? r.name)] += r.bytes;
  t.free = Math.max(0, t.dbFileBytes - (t.text + t.symbols + t.references + t.files + t.other));
  return t;
}

/** Symbol figures of the store's ready index (the bench's store holds one repository). */
export async function storeSymbolFigures(dbPath: string): Promise<SymbolStoreFigures> {
  const { SqliteStore } = await loadSqliteStore();
  const store = SqliteStore.open(dbPath);
  let figures: Omit<SymbolStoreFigures, "byExtractor" | "tables">;
  const perExtractor = new Map<string, { files: number; bytes: number }>();
  try {
    const ready = await store.listReadyIndexes();
    const index = ready[0];
    if (!index) throw new Error(`no ready index in ${dbPath}`);
    const summary = await store.symbolSummary(index.id);
    figures = {
      indexId: index.id,
      finishedAt: index.finishedAt,
      extractorVersion: index.extractorVersion,
      indexStats: index.stats,
      ...summary,
    };
    for (const f of await store.listFiles(index.id)) {
      const key = f.symbolExtractor ?? "none";
      const c = perExtractor.get(key) ?? { files: 0, bytes: 0 };
      c.files += 1;
      c.bytes += f.sizeBytes;
      perExtractor.set(key, c);
    }
  } finally {
    await store.close();
  }
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const symbols = symbolsPerExtractor(db, figures.indexId);
    const byExtractor: ExtractorCount[] = [...perExtractor.entries()]
      .map(([extractor, c]) => ({ extractor, ...c, symbols: symbols ? (symbols.get(extractor) ?? 0) : null }))
      .sort((a, b) => b.bytes - a.bytes);
    return { ...figures, byExtractor, tables: storeTables(db) };
  } finally {
    db.close();
  }
}

export interface LookupOutcome {
  ok: boolean;
  /** Hits returned, and how many of them are definitions, syntactic references and lexical mentions. */
  hits: number;
  definitionHits: number;
  syntacticHits: number;
  lexicalHits: number;
  /** Matching definitions before the result cut (stats.definitions). */
  definitions: number;
  truncated: boolean;
  warnings: string[];
  error?: string;
}

export interface LookupTiming {
  lookup: SymbolLookup;
  samplesMs: number[];
  outcome: LookupOutcome;
}

export interface SymbolLookupMeasurement {
  passes: number;
  perLookup: LookupTiming[];
}

function outcomeOf(envelope: { ok: boolean; data: Record<string, unknown>; warnings: { code: string }[]; truncated: boolean }): LookupOutcome {
  const hits = Array.isArray(envelope.data.hits) ? (envelope.data.hits as { matchType?: unknown }[]) : [];
  const stats = (envelope.data.stats ?? {}) as Record<string, unknown>;
  const count = (type: string): number => hits.filter((h) => h.matchType === type).length;
  const error = envelope.ok ? undefined : JSON.stringify(envelope.data.error);
  return {
    ok: envelope.ok,
    hits: hits.length,
    definitionHits: count("symbol_definition"),
    syntacticHits: count("syntactic_reference"),
    lexicalHits: count("lexical_mention"),
    definitions: typeof stats.definitions === "number" ? stats.definitions : 0,
    truncated: envelope.truncated,
    warnings: envelope.warnings.map((w) => w.code),
    ...(error ? { error } : {}),
  };
}

export async function measureSymbolLookups(
  root: string,
  dbPath: string,
  lookups: readonly SymbolLookup[],
  passes: number,
): Promise<SymbolLookupMeasurement> {
  const [{ runTool }, { findTool }, { openStore }, { defaultReadPolicy }, { silentLogger }, { currentHead }] = await Promise.all([
    loadRunTool(),
    loadTools(),
    loadOpenStore(),
    loadSchema(),
    loadLog(),
    loadGitHead(),
  ]);
  const tool = findTool("find_symbol");
  if (!tool) throw new Error("find_symbol tool not found");
  const head = await currentHead(root);
  const store = await openStore(dbPath);
  const deps = await benchDeps({ store, root, logger: silentLogger, readHead: async () => head });
  try {
    const timed = await timeCalls(lookups, passes, (l) => runTool(tool, findSymbolArgs(l), deps));
    const perLookup: LookupTiming[] = timed.map((t) => ({ lookup: t.item, samplesMs: t.samplesMs, outcome: outcomeOf(t.warmup) }));
    return { passes, perLookup };
  } finally {
    await store.close();
  }
}
