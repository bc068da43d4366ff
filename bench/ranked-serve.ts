/**
 * `npm run bench:ranked-serve -- --repo DIR --store DB [--cli PATH …] [--passes n] [--question TEXT …]`: ranked
 * questions answered inside `repoctx serve`, as an agent asks them — the built CLI over MCP stdio driven by the SDK
 * client, `search_code` with each question, one untimed pass, then `--passes` timed passes; p50 / p95 of the round
 * trip. Several `--cli` (another checkout's built `dist/cli/main.js`) are measured in the same run, one after
 * another, on the same store, so a change and its baseline are compared under the same load.
 */
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CLI_PATH } from "./dist.js";
import { serveTransport } from "./measure-serve.js";
import { loadavg } from "node:os";
import { fmtMs, median, percentile } from "./stats.js";

/** Questions an agent asks of a command-line tool's repository: what it does and where, in the agent's words. */
const DEFAULT_QUESTIONS = [
  "where is the pager chosen",
  "how are syntax themes loaded from the cache",
  "which option disables line numbers",
  "how does it detect a binary file",
  "where are paging modes parsed from the command line",
];

const { values } = parseArgs({
  options: {
    repo: { type: "string" },
    store: { type: "string" },
    cli: { type: "string", multiple: true },
    passes: { type: "string", default: "10" },
    question: { type: "string", multiple: true },
  },
});
if (!values.repo || !values.store) throw new Error("usage: bench:ranked-serve -- --repo DIR --store DB [--cli PATH …] [--passes n] [--question TEXT …]");
const questions = values.question ?? DEFAULT_QUESTIONS;
const passes = Number(values.passes);

async function timeServe(cli: string): Promise<{ samples: number[]; tops: string[] }> {
  const transport = serveTransport(cli, values.repo!, values.store!);
  const client = new Client({ name: "repoctx-bench", version: "0" });
  await client.connect(transport);
  const samples: number[] = [];
  const tops: string[] = [];
  try {
    for (let pass = 0; pass <= passes; pass++) {
      for (const query of questions) {
        const t0 = performance.now();
        const r = await client.callTool({ name: "search_code", arguments: { query } });
        if (pass > 0) samples.push(performance.now() - t0);
        else tops.push(((r.structuredContent as { data?: { results?: { path: string }[] } } | undefined)?.data?.results?.[0]?.path) ?? "(none)");
      }
    }
  } finally {
    await client.close();
  }
  return { samples, tops };
}

const load = () => loadavg().map((x) => x.toFixed(2)).join(" ");
process.stdout.write(`machine load before: ${load()}\n`);
for (const cli of values.cli ?? [CLI_PATH]) {
  const { samples, tops } = await timeServe(cli);
  process.stdout.write(`${cli}: p50 ${fmtMs(median(samples))}  p95 ${fmtMs(percentile(samples, 95))}  (${samples.length} calls)\n`);
  questions.forEach((q, i) => process.stdout.write(`  ${q.padEnd(56)} ${tops[i]}\n`));
}
process.stdout.write(`machine load after: ${load()}\n`);
