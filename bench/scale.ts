/**
 * `npm run bench:scale [-- options]`: the same corpus indexed into SQLite and into PostgreSQL in one run — full
 * index time, the indexer's peak RSS, the store's size — then the same lexical queries and symbol lookups on
 * both stores, and ripgrep on the same queries. Prints a table and replaces the "Scale" section of BENCHMARKS.md.
 * PostgreSQL: `--pg-url` or REPOCTX_BENCH_PG, else a throwaway cluster (scripts/pg-cluster.sh) under .bench/pg,
 * stopped at the end. The store is the schema `bench_<corpus>`, dropped and rebuilt.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { BENCH_DIR, CORPUS_NAMES, prepareCorpus, type CorpusName } from "./corpus.js";
import { REPO_ROOT } from "./dist.js";
import { machineInfo } from "./machine.js";
import { measureIndex, type IndexMeasurement } from "./measure-index.js";
import { measureQueries } from "./measure-queries.js";
import { measureRg } from "./measure-rg.js";
import { SPACED_GAP_MS, measureServe } from "./measure-serve.js";
import { measureSymbolLookups } from "./measure-symbols.js";
import { queriesFor, symbolLookupsFor } from "./queries.js";
import { storeLabel } from "../src/store/store-url.js";
import { GIB, MIB, fmtBytes, fmtInt, fmtMs, percentile } from "./stats.js";

const BENCHMARKS_FILE = join(REPO_ROOT, "BENCHMARKS.md");
const SECTION_BEGIN = "<!-- bench:scale:begin -->";
const SECTION_END = "<!-- bench:scale:end -->";
const PG_CLUSTER = join(REPO_ROOT, "scripts", "pg-cluster.sh");
const PG_PORT = "54339";
const MS_PER_S = 1000;
/** search_code calls through `serve` at an agent's pace (SPACED_GAP_MS apart), after the back-to-back passes. */
const SPACED_CALLS = 10;

type StoreKind = "sqlite" | "postgres";

interface Options {
  corpus: CorpusName;
  stores: StoreKind[];
  passes: number;
  pgUrl: string | null;
  write: boolean;
}

interface StoreResult {
  kind: StoreKind;
  location: string;
  index: IndexMeasurement;
  searchMs: number[];
  /** search_code round trips through `serve` over stdio, warm passes. */
  servedMs: number[];
  /** The same, calls SPACED_GAP_MS apart. */
  spacedMs: number[];
  symbolMs: number[];
  errors: string[];
}

function step(message: string): void {
  process.stderr.write(`bench:scale: ${message}\n`);
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      corpus: { type: "string" },
      stores: { type: "string" },
      passes: { type: "string" },
      "pg-url": { type: "string" },
      "no-write": { type: "boolean" },
    },
    strict: true,
  });
  const corpus = (values.corpus ?? "linux") as CorpusName;
  if (!CORPUS_NAMES.includes(corpus)) throw new Error(`--corpus must be one of ${CORPUS_NAMES.join(", ")}`);
  const stores = (values.stores ?? "sqlite,postgres").split(",").map((s) => s.trim()) as StoreKind[];
  for (const s of stores) if (s !== "sqlite" && s !== "postgres") throw new Error("--stores takes sqlite, postgres or both");
  const passes = Number(values.passes ?? 5);
  if (!Number.isInteger(passes) || passes < 1) throw new Error("--passes must be a positive integer");
  return { corpus, stores, passes, pgUrl: values["pg-url"] ?? process.env.REPOCTX_BENCH_PG ?? null, write: !(values["no-write"] ?? false) };
}

/** A PostgreSQL server for the run: the given one, or a throwaway cluster started here (and its stop function). */
function postgresServer(given: string | null): { url: string; stop: () => void } {
  if (given) return { url: given, stop: () => {} };
  const dir = join(BENCH_DIR, "pg");
  step(`starting a throwaway PostgreSQL cluster in ${dir} on 127.0.0.1:${PG_PORT}`);
  const url = execFileSync("bash", [PG_CLUSTER, "start", dir, PG_PORT], { encoding: "utf8" }).trim().split("\n").at(-1)!;
  return { url, stop: () => execFileSync("bash", [PG_CLUSTER, "stop", dir], { stdio: "inherit" }) };
}

function withSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set("schema", schema);
  return u.toString();
}

/** A location for the report: a file relative to the repository, a URL without its password. */
function shown(location: string): string {
  return location.startsWith(REPO_ROOT) ? location.slice(REPO_ROOT.length) : storeLabel(location);
}

async function measureStore(kind: StoreKind, location: string, root: string, opts: Options): Promise<StoreResult> {
  step(`${kind}: full index of ${root} (child process)`);
  const index = await measureIndex(root, location);
  step(`${kind}: ${fmtMs(index.wallMs)} wall, peak RSS ${fmtBytes(index.peakRssBytes)}, store ${fmtBytes(index.storeAfterClose.total)}`);
  step(`${kind}: search_code, ${opts.passes} passes`);
  const queries = await measureQueries(root, location, queriesFor(opts.corpus), opts.passes);
  step(`${kind}: find_symbol, ${opts.passes} passes`);
  const lookups = await measureSymbolLookups(root, location, symbolLookupsFor(opts.corpus), opts.passes);
  step(`${kind}: search_code through \`serve\` over stdio, a cold pass and ${opts.passes} warm ones`);
  const served = await measureServe(root, location, queriesFor(opts.corpus), opts.passes, SPACED_CALLS);
  const errors = [
    ...served.errors.map((e) => `search over stdio ${e}`),
    ...queries.perQuery.filter((q) => !q.outcome.ok).map((q) => `search ${q.query.query}: ${q.outcome.error ?? "failed"}`),
    ...lookups.perLookup.filter((l) => !l.outcome.ok).map((l) => `find_symbol: ${JSON.stringify(l.outcome)}`),
  ];
  return {
    kind,
    location,
    index,
    searchMs: queries.perQuery.flatMap((q) => q.samplesMs),
    symbolMs: lookups.perLookup.flatMap((l) => l.samplesMs),
    servedMs: served.warmMs,
    spacedMs: served.spacedMs,
    errors,
  };
}

function report(opts: Options, corpusRoot: string, results: StoreResult[], rgMs: number[], rgVersion: string | null, load: number[]): string {
  const m = machineInfo(REPO_ROOT);
  const corpusBytes = results[0]?.index.bytes ?? 0;
  const pct = (xs: number[], p: number): string => (xs.length === 0 ? "n/a" : fmtMs(percentile(xs, p)));
  const rows = results.map((r) => {
    const size = r.index.storeAfterClose.total;
    return `| ${r.kind} | ${fmtInt(r.index.files)} (${fmtInt(r.index.indexedFiles)} indexed) | ${(r.index.wallMs / MS_PER_S).toFixed(1)} s | ${fmtBytes(r.index.peakRssBytes)} | ${(size / GIB).toFixed(2)} GiB (${(size / corpusBytes).toFixed(2)}×) | ${pct(r.searchMs, 50)} / ${pct(r.searchMs, 95)} | ${pct(r.servedMs, 50)} / ${pct(r.servedMs, 95)} | ${pct(r.spacedMs, 50)} / ${pct(r.spacedMs, 95)} | ${pct(r.symbolMs, 50)} / ${pct(r.symbolMs, 95)} |`;
  });
  const errors = results.flatMap((r) => r.errors.map((e) => `- ${r.kind}: ${e}`));
  const lines = [
    SECTION_BEGIN,
    `## Scale: ${opts.corpus} into SQLite and PostgreSQL`,
    "",
    `Command: \`npm run bench:scale${opts.corpus !== "linux" ? ` -- --corpus ${opts.corpus}` : ""}\` (${new Date().toISOString().slice(0, 10)}). Machine: ${m.cpuModel}, ${m.cpus} cores, ${m.memory}, Node ${m.node}, SQLite ${m.sqlite}, repoctx ${m.revision}; load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)} during the run.`,
    `Corpus: ${corpusRoot.startsWith(REPO_ROOT) ? corpusRoot.slice(REPO_ROOT.length) : corpusRoot}, ${fmtBytes(corpusBytes)}. Stores: ${results.map((r) => `${r.kind} \`${shown(r.location)}\``).join(", ")}.`,
    "PostgreSQL 15 from Debian, throwaway cluster (`scripts/pg-cluster.sh`: fsync off, shared_buffers 256 MB), on the same machine: its server processes' memory is not in the indexer's RSS. Store size: SQLite file + WAL; PostgreSQL: the schema's tables with indexes and TOAST.",
    "",
    `| store | files | full index | indexer peak RSS | store size (× corpus) | search_code p50 / p95 | search_code through \`serve\` p50 / p95 | the same ${SPACED_GAP_MS / MS_PER_S} s apart p50 / p95 | find_symbol p50 / p95 |`,
    "|---|---|---|---|---|---|---|---|---|",
    ...rows,
    `| ripgrep${rgVersion ? ` (${rgVersion})` : ""} | — | — | — | — | ${pct(rgMs, 50)} / ${pct(rgMs, 95)} | — | — | — |`,
    "",
    `Queries: the bench's ${queriesFor(opts.corpus).length} lexical queries and ${symbolLookupsFor(opts.corpus).length} symbol lookups, ${opts.passes} timed passes after a warm-up, through the tool path (validation, ready index, search, projection, envelope) in-process, and the lexical ones again through \`repoctx serve\` over MCP stdio with the SDK client (one cold pass, then the same timed passes: JSON-RPC and the transport included; then ${SPACED_CALLS} of them ${SPACED_GAP_MS / MS_PER_S} s apart, an agent's pace); ripgrep runs the same queries over the work tree.`,
    "Targets (SQLite, kernel): full index ≤ 180 s at ≤ 1 GiB RSS, store ≤ 3× corpus, lexical and symbol p50 ≤ 10 ms / p95 ≤ 50 ms.",
    ...(errors.length > 0 ? ["", "Errors:", ...errors] : []),
    SECTION_END,
  ];
  return lines.join("\n");
}

function writeSection(section: string): void {
  const text = readFileSync(BENCHMARKS_FILE, "utf8");
  const begin = text.indexOf(SECTION_BEGIN);
  const end = text.indexOf(SECTION_END);
  const next = begin !== -1 && end > begin ? `${text.slice(0, begin)}${section}${text.slice(end + SECTION_END.length)}` : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(BENCHMARKS_FILE, next);
}

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  const load: number[] = [loadavg()[0]!];
  const sampler = setInterval(() => load.push(loadavg()[0]!), 5000);
  sampler.unref();
  const corpus = prepareCorpus(opts.corpus);
  const pgServer = opts.stores.includes("postgres") ? postgresServer(opts.pgUrl) : null;
  const results: StoreResult[] = [];
  try {
    for (const kind of opts.stores) {
      const location = kind === "sqlite" ? join(BENCH_DIR, "store", `${opts.corpus}-scale.db`) : withSchema(pgServer!.url, `bench_${opts.corpus}`);
      results.push(await measureStore(kind, location, corpus.root, opts));
    }
    step("ripgrep on the same queries");
    const rg = await measureRg(corpus.root, queriesFor(opts.corpus), 2, results[0]?.index.maxFileBytes ?? 1 * MIB);
    const section = report(opts, corpus.root, results, rg.perQuery.flatMap((q) => q.samplesMs), rg.version, [...load, loadavg()[0]!]);
    process.stdout.write(`${section}\n`);
    if (opts.write) writeSection(section);
  } finally {
    pgServer?.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`bench:scale: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
