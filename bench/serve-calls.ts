/**
 * `npm run bench:serve-calls -- --root DIR --store DB [--corpus linux|node_modules] [--passes N] [--spaced N] [--cli PATH …] [--rounds N]`:
 * bench:scale's lexical queries through `repoctx serve` over MCP stdio on a store that already holds a ready index
 * of DIR (bench:scale's), without building it again: one cold pass, `--passes` warm passes back to back, then
 * `--spaced` calls 1.5 s apart (an agent's pace). Each `--cli` (another checkout's built `dist/cli/main.js`; default
 * this one's) gets its own server, and with `--rounds` the servers take turns, so two builds are compared in one
 * run on a machine whose speed drifts.
 */
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { CLI_PATH } from "./dist.js";
import { SPACED_GAP_MS, measureServe } from "./measure-serve.js";
import { CORPUS_NAMES, type CorpusName } from "./corpus.js";
import { queriesFor } from "./queries.js";
import { fmtMs, percentile } from "./stats.js";

const { values } = parseArgs({
  options: {
    root: { type: "string" },
    store: { type: "string" },
    corpus: { type: "string", default: "linux" },
    passes: { type: "string", default: "3" },
    spaced: { type: "string", default: "10" },
    rounds: { type: "string", default: "1" },
    cli: { type: "string", multiple: true },
  },
});
if (!values.root || !values.store) throw new Error("give --root DIR and --store DB (a store with a ready index of DIR)");
const corpus = values.corpus as CorpusName;
if (!CORPUS_NAMES.includes(corpus)) throw new Error(`--corpus must be one of ${CORPUS_NAMES.join(", ")}`);
const clis = (values.cli ?? [CLI_PATH]).map((c) => resolve(c));
const queries = queriesFor(corpus);

console.log(`search_code through serve over stdio: ${queries.length} ${corpus} queries, ${values.passes} warm passes, ${values.spaced} calls ${SPACED_GAP_MS} ms apart; load ${loadavg()[0]!.toFixed(2)} at start`);
console.log("");
console.log("| build | round | warm p50 / p95 | spaced p50 / p95 | errors |");
console.log("|---|---:|---|---|---:|");
for (let round = 1; round <= Number(values.rounds); round++) {
  for (const cli of clis) {
    const m = await measureServe(resolve(values.root), resolve(values.store), queries, Number(values.passes), Number(values.spaced), cli);
    const pair = (xs: number[]) => (xs.length ? `${fmtMs(percentile(xs, 50))} / ${fmtMs(percentile(xs, 95))}` : "—");
    console.log(`| ${cli} | ${round} | ${pair(m.warmMs)} | ${pair(m.spacedMs)} | ${m.errors.length} |`);
  }
}
