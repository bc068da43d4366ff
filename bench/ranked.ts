/**
 * `npm run bench:ranked [-- --corpus linux|node_modules] [--passes n]`: ranked retrieval latency alone (the
 * questions of bench/queries.ts through bm25, hybrid and hybrid_semantic) on the store a full `npm run bench` left
 * under .bench/store, without rebuilding it. Prints a table; writes nothing.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { BENCH_DIR, CORPUS_NAMES, type CorpusName } from "./corpus.js";
import { RANKED_STRATEGIES, measureRanked } from "./measure-ranked.js";
import { questionsFor } from "./queries.js";
import { fmtMs, median, percentile } from "./stats.js";

const DEFAULT_PASSES = 5;
const { values } = parseArgs({ options: { corpus: { type: "string", default: "linux" }, passes: { type: "string", default: String(DEFAULT_PASSES) } } });
const corpus = values.corpus as CorpusName;
if (!CORPUS_NAMES.includes(corpus)) throw new Error(`--corpus must be one of ${CORPUS_NAMES.join(", ")}`);
const dbPath = join(BENCH_DIR, "store", `${corpus}.db`);
if (!existsSync(dbPath)) throw new Error(`no store at ${dbPath}: run \`npm run bench -- --corpus ${corpus}\` first`);
const timings = await measureRanked(dbPath, questionsFor(corpus), Number(values.passes));
const all = (s: string) => timings.filter((t) => t.strategy === s).flatMap((t) => t.samplesMs);
const base = all("bm25");
for (const s of RANKED_STRATEGIES) {
  const x = all(s);
  const ratio = s === "bm25" ? "" : `  (${(median(x) / median(base)).toFixed(1)}x / ${(percentile(x, 95) / percentile(base, 95)).toFixed(1)}x of bm25)`;
  process.stdout.write(`${s.padEnd(16)} p50 ${fmtMs(median(x))}  p95 ${fmtMs(percentile(x, 95))}${ratio}\n`);
}
for (const t of timings) process.stdout.write(`  ${t.strategy.padEnd(16)} ${fmtMs(median(t.samplesMs)).padStart(9)}  ${t.question.split("\n")[0]!.slice(0, 60).padEnd(60)}  ${t.top ?? "(none)"}\n`);
