/**
 * `npm run bench [-- --corpus linux|node_modules]`: prepares the corpus once, then measures a full index build
 * (child process), the symbols in the store, warm in-process search_code and find_symbol latency, the knowledge
 * tools and resources (find_related_tests, get_ownership, repo://map, repo://build-graph, repo://risk-map), context
 * assembly (build_context_package, get_change_impact_context, check_context_freshness), a ripgrep baseline on the search queries and the RSS of `repoctx serve` over MCP stdio. Prints a table and replaces the corpus's section in BENCHMARKS.md.
 * A program that prints figures; it asserts nothing.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { BENCH_DIR, CORPUS_NAMES, prepareCorpus, type CorpusName } from "./corpus.js";
import { REPO_ROOT, loadIndexFormat } from "./dist.js";
import { machineInfo } from "./machine.js";
import { measureIncremental, measureIndex, type IndexMeasurement } from "./measure-index.js";
import { measureOverlay } from "./overlay.js";
import { measureContextInChild } from "./measure-context.js";
import { RANKED_STRATEGIES, measureRanked } from "./measure-ranked.js";
import { measureKnowledgeInChild } from "./measure-knowledge.js";
import { measureQueries } from "./measure-queries.js";
import { measureRg } from "./measure-rg.js";
import { measureServe } from "./measure-serve.js";
import { measureSymbolLookups, storeSymbolFigures, type SymbolStoreFigures } from "./measure-symbols.js";
import {
  CONTEXT_BUDGETS,
  KNOWLEDGE_RESOURCE_URIS,
  changeImpactLookupsFor,
  contextPackagesFor,
  freshnessFilesFor,
  ownershipLookupsFor,
  queriesFor,
  relatedTestLookupsFor,
  symbolLookupsFor,
  questionsFor,
} from "./queries.js";
import { markdownSection, textReport, updateBenchmarksFile, type BenchResults } from "./report.js";

const DEFAULT_CORPUS: CorpusName = "linux";
const DEFAULT_QUERY_PASSES = 5;
const DEFAULT_RG_PASSES = 2;
const MS_PER_S = 1000;
/** The 1-minute load average is sampled this often during a run: other work on the machine skews every figure. */
const LOAD_SAMPLE_MS = 5000;
const BENCHMARKS_FILE = join(REPO_ROOT, "BENCHMARKS.md");
const INDEX_RESULT_FILE = (corpus: CorpusName): string => join(BENCH_DIR, "store", `${corpus}.index-result.json`);

const USAGE = `usage: npm run bench [-- options]
  --corpus <linux|node_modules>  corpus to measure (default ${DEFAULT_CORPUS})
  --passes <n>                   timed repoctx query passes after one warm-up (default ${DEFAULT_QUERY_PASSES})
  --rg-passes <n>                timed ripgrep passes after one warm-up (default ${DEFAULT_RG_PASSES})
  --reuse-index                  skip the full index; reuse the store of the last run and its saved figures
                                 (BENCHMARKS.md is updated only when those figures are the store's own)
  --cpu-prof                     write a V8 CPU profile of the index child to .bench/prof/
  --no-write                     print only; leave BENCHMARKS.md alone`;

interface Options {
  corpus: CorpusName;
  passes: number;
  rgPasses: number;
  reuseIndex: boolean;
  cpuProf: boolean;
  write: boolean;
}

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
  return n;
}

function parseOptions(argv: string[]): Options | null {
  const { values } = parseArgs({
    args: argv,
    options: {
      corpus: { type: "string" },
      passes: { type: "string" },
      "rg-passes": { type: "string" },
      "reuse-index": { type: "boolean" },
      "cpu-prof": { type: "boolean" },
      "no-write": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) return null;
  const corpus = (values.corpus ?? DEFAULT_CORPUS) as CorpusName;
  if (!CORPUS_NAMES.includes(corpus)) throw new Error(`--corpus must be one of ${CORPUS_NAMES.join(", ")}`);
  return {
    corpus,
    passes: positive("passes", values.passes, DEFAULT_QUERY_PASSES),
    rgPasses: positive("rg-passes", values["rg-passes"], DEFAULT_RG_PASSES),
    reuseIndex: values["reuse-index"] ?? false,
    cpuProf: values["cpu-prof"] ?? false,
    write: !(values["no-write"] ?? false),
  };
}

function commandLine(o: Options, reused: boolean): string {
  const extra = [
    o.corpus !== DEFAULT_CORPUS ? `--corpus ${o.corpus}` : "",
    reused ? "--reuse-index" : "",
    o.passes !== DEFAULT_QUERY_PASSES ? `--passes ${o.passes}` : "",
    o.rgPasses !== DEFAULT_RG_PASSES ? `--rg-passes ${o.rgPasses}` : "",
  ].filter((s) => s.length > 0);
  return extra.length > 0 ? `npm run bench -- ${extra.join(" ")}` : "npm run bench";
}

function step(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

/**
 * Whether saved full-index figures describe the store they are reused with: same index id when the result
 * records it, otherwise the same file and byte counts as the ready index's own stats.
 */
function figuresMatchStore(index: IndexMeasurement, symbols: SymbolStoreFigures): boolean {
  if (index.indexId !== undefined) return index.indexId === symbols.indexId;
  const s = symbols.indexStats;
  return (
    s !== null && s.files === index.files && s.indexedFiles === index.indexedFiles && s.bytes === index.bytes && s.indexedBytes === index.indexedBytes
  );
}

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  if (!opts) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const machine = machineInfo(REPO_ROOT);
  const load: number[] = [loadavg()[0]!];
  const sampler = setInterval(() => load.push(loadavg()[0]!), LOAD_SAMPLE_MS);
  sampler.unref();
  const corpus = prepareCorpus(opts.corpus);
  const dbPath = join(BENCH_DIR, "store", `${opts.corpus}.db`);
  const queries = queriesFor(opts.corpus);
  const lookups = symbolLookupsFor(opts.corpus);
  const relatedLookups = relatedTestLookupsFor(opts.corpus);
  const ownershipLookups = ownershipLookupsFor(opts.corpus);
  const contextSpecs = contextPackagesFor(opts.corpus);
  const impactLookups = changeImpactLookupsFor(opts.corpus);

  let index: IndexMeasurement;
  const reused = opts.reuseIndex && existsSync(dbPath) && existsSync(INDEX_RESULT_FILE(opts.corpus));
  if (reused) {
    step(`reusing ${dbPath} and the figures of its build`);
    index = JSON.parse(await readFile(INDEX_RESULT_FILE(opts.corpus), "utf8")) as IndexMeasurement;
  } else {
    step(`full index of ${corpus.root} into ${dbPath} (child process)`);
    const cpuProfileDir = opts.cpuProf ? join(BENCH_DIR, "prof") : undefined;
    index = await measureIndex(corpus.root, dbPath, cpuProfileDir ? { cpuProfileDir } : {});
    if (opts.cpuProf) index.profiled = true;
    index.codeId = machine.codeId;
    await writeFile(INDEX_RESULT_FILE(opts.corpus), `${JSON.stringify(index, null, 2)}\n`);
    step(`indexed ${index.files} files in ${(index.wallMs / MS_PER_S).toFixed(1)} s`);
  }

  step("symbol figures from the store (counts, extraction status, dbstat)");
  const symbols = await storeSymbolFigures(dbPath);
  const indexFiguresOwn = !reused || figuresMatchStore(index, symbols);
  if (!indexFiguresOwn) step(`the saved figures in ${INDEX_RESULT_FILE(opts.corpus)} are not those of the store's ready index ${symbols.indexId}`);
  const { EXTRACTOR_VERSION } = await loadIndexFormat();
  const indexCurrent = symbols.extractorVersion === EXTRACTOR_VERSION;
  if (!indexCurrent) step(`the reused index was built by extractor ${symbols.extractorVersion}, not ${EXTRACTOR_VERSION}: queries will fail; run without --reuse-index`);
  if (symbols.tables) step(`dbstat scan took ${(symbols.tables.scanMs / MS_PER_S).toFixed(1)} s`);

  step(`search_code in-process: ${queries.length} queries, 1 warm-up + ${opts.passes} timed passes`);
  const queryResults = await measureQueries(corpus.root, dbPath, queries, opts.passes);
  step(`find_symbol in-process: ${lookups.length} lookups, 1 warm-up + ${opts.passes} timed passes`);
  const symbolLookups = await measureSymbolLookups(corpus.root, dbPath, lookups, opts.passes);
  step(
    `knowledge in-process, in a fresh child process: ${KNOWLEDGE_RESOURCE_URIS.join(", ")} (cold, then ${opts.passes} warm reads); ` +
      `find_related_tests ${relatedLookups.length} and get_ownership ${ownershipLookups.length} lookups, 1 warm-up + ${opts.passes} timed passes`,
  );
  const knowledge = await measureKnowledgeInChild({ root: corpus.root, dbPath, relatedLookups, ownershipLookups, passes: opts.passes });
  step(
    `context assembly in-process, in a fresh child process: build_context_package ${contextSpecs.length} specs x ${CONTEXT_BUDGETS.length} budgets, ` +
      `get_change_impact_context ${impactLookups.length} lookups, check_context_freshness 1 manifest, 1 warm-up + ${opts.passes} timed passes each`,
  );
  const context = await measureContextInChild({ root: corpus.root, dbPath, specs: contextSpecs, impactLookups, passes: opts.passes });
  for (const e of context.errors) step(`context assembly error: ${e.call}: ${e.category}: ${e.message} (x${e.count})`);
  const questions = questionsFor(opts.corpus);
  step(`ranked retrieval in-process: ${questions.length} questions x ${RANKED_STRATEGIES.length} strategies, 1 warm-up + ${opts.passes} timed passes`);
  const ranked = await measureRanked(dbPath, questions, opts.passes);
  step(`ripgrep baseline: 1 warm-up + ${opts.rgPasses} timed passes`);
  const rg = await measureRg(corpus.root, queries, opts.rgPasses, index.maxFileBytes);
  step("repoctx serve over MCP stdio: one pass of the query list");
  const serve = await measureServe(corpus.root, dbPath, queries);
  const freshnessFiles = freshnessFilesFor(opts.corpus);
  step(`working-tree overlay: ${freshnessFiles.overlay} edited, overlay build and find_symbol through it, then restored`);
  const overlay = await measureOverlay(corpus.root, dbPath, freshnessFiles.overlay);
  step(`one-file incremental reindex (child process): a line appended to ${freshnessFiles.incremental}, then the file restored`);
  const incremental = await measureIncremental(corpus.root, dbPath, freshnessFiles.incremental);
  clearInterval(sampler);
  load.push(loadavg()[0]!);

  const results: BenchResults = {
    date: new Date().toISOString(),
    command: commandLine(opts, reused),
    machine,
    corpus,
    index,
    reusedIndex: reused ? { finishedAt: symbols.finishedAt, figuresOwn: indexFiguresOwn } : null,
    symbols,
    queries: queryResults,
    symbolLookups,
    knowledge,
    context,
    ranked,
    rg,
    serve,
    freshness: { overlay, incremental },
    load: { start: load[0]!, max: Math.max(...load), end: load.at(-1)! },
  };
  process.stdout.write(`\n${textReport(results)}`);
  for (const e of serve.errors) process.stdout.write(`serve error: ${e}\n`);
  // A reused store is written up only with the full-index figures of its own build, measured without the profiler.
  let why: string | null = null;
  if (!opts.write) why = "--no-write";
  else if (opts.cpuProf) why = "--cpu-prof";
  else if (!indexFiguresOwn) why = "--reuse-index: the saved full-index figures are not this store's";
  else if (!indexCurrent) why = "--reuse-index: the store was built by another extractor version";
  else if (reused && (!index.codeId || index.codeId !== machine.codeId)) why = "--reuse-index: the index was built by other or uncommitted code";
  else if (index.profiled) why = "--reuse-index: the saved full-index figures were measured under --cpu-prof";
  if (why === null) {
    updateBenchmarksFile(BENCHMARKS_FILE, markdownSection(results), opts.corpus);
    step(`updated ${BENCHMARKS_FILE} (section ${opts.corpus})`);
  } else step(`BENCHMARKS.md left unchanged (${why})`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
  process.exitCode = 1;
});
