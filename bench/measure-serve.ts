/**
 * `repoctx serve` as an agent runs it: the built CLI over MCP stdio, driven by the SDK client. The query list
 * goes through `tools/call` once, then the server's VmRSS / VmHWM are read from /proc/<pid>/status.
 */
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI_PATH } from "./dist.js";
import { searchArgs, type BenchQuery } from "./queries.js";
import { procMemory } from "./stats.js";

const CLIENT_INFO = { name: "repoctx-bench", version: "0" };
/** Between the spaced calls: an agent reads an answer before it asks again. */
export const SPACED_GAP_MS = 1500;
/** Generous: the first call of a cold server on a large corpus may take a while. */
const CALL_TIMEOUT_MS = 120_000;

export interface ServeMeasurement {
  /** Start of `serve` until the MCP handshake completes. */
  startupMs: number;
  /** After the handshake, before any query. */
  idleRssBytes: number | null;
  rssBytes: number | null;
  peakRssBytes: number | null;
  /** Round trip per query over stdio (one cold pass). */
  callMs: number[];
  /** Round trips of the `warmPasses` passes after the cold one (empty without them). */
  warmMs: number[];
  /** Round trips of calls `SPACED_GAP_MS` apart, an agent's pace (empty unless asked). */
  spacedMs: number[];
  errors: string[];
}

/**
 * `repoctx serve` of the given built CLI over stdio, quiet, on a ready store; stderr piped for error reports.
 * `extra.node`: flags for node (a CPU profile); `extra.serve`: more options of `serve` (`--watch`, a log format).
 */
export function serveTransport(cli: string, root: string, dbPath: string, extra: { node?: string[]; serve?: string[] } = {}): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [...(extra.node ?? []), cli, "serve", "--repo", root, "--store", dbPath, "--quiet", ...(extra.serve ?? [])],
    env: { ...process.env } as Record<string, string>,
    stderr: "pipe",
  });
}

export async function measureServe(
  root: string,
  dbPath: string,
  queries: readonly BenchQuery[],
  warmPasses = 0,
  spacedCalls = 0,
  cli: string = CLI_PATH,
): Promise<ServeMeasurement> {
  const transport = serveTransport(cli, root, dbPath);
  let serverStderr = "";
  transport.stderr?.on("data", (c: Buffer) => (serverStderr += c.toString("utf8")));
  const client = new Client(CLIENT_INFO);
  const started = performance.now();
  await client.connect(transport);
  const startupMs = performance.now() - started;
  const pid = transport.pid;
  if (pid === null) throw new Error("serve: no server pid");
  const idleRssBytes = procMemory(pid)?.rss ?? null;
  const callMs: number[] = [];
  const errors: string[] = [];
  try {
    const warmMs: number[] = [];
    for (let pass = 0; pass <= warmPasses; pass++) {
      for (const q of queries) {
        const t0 = performance.now();
        const result = await client.callTool({ name: "search_code", arguments: searchArgs(q) }, undefined, { timeout: CALL_TIMEOUT_MS });
        (pass === 0 ? callMs : warmMs).push(performance.now() - t0);
        if (result.isError && pass === 0) errors.push(`${q.query}: ${JSON.stringify(result.structuredContent ?? result.content).slice(0, 300)}`);
      }
    }
    // The same queries again, one every SPACED_GAP_MS: what a server keeps between calls (or looks at again) shows here.
    const spacedMs: number[] = [];
    for (let i = 0; i < spacedCalls && queries.length > 0; i++) {
      await new Promise((r) => setTimeout(r, SPACED_GAP_MS));
      const t0 = performance.now();
      await client.callTool({ name: "search_code", arguments: searchArgs(queries[i % queries.length]!) }, undefined, { timeout: CALL_TIMEOUT_MS });
      spacedMs.push(performance.now() - t0);
    }
    const mem = procMemory(pid);
    return { startupMs, idleRssBytes, rssBytes: mem?.rss ?? null, peakRssBytes: mem?.hwm ?? null, callMs, warmMs, spacedMs, errors };
  } catch (err) {
    throw new Error(`serve failed: ${err instanceof Error ? err.message : String(err)}; server stderr: ${serverStderr.slice(-500)}`);
  } finally {
    await client.close();
  }
}
