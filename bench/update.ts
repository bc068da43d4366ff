/**
 * `npm run bench:update -- --root DIR --store DB [--file REL …] [--runs N] [--cpu-prof DIR] [--cli PATH] [--overlay]`: how long a saved
 * edit takes to reach the ready index of `repoctx serve --watch` (issue #20: ≤ 200 ms on the kernel), as an agent's
 * editor causes it; with `--overlay`, how long it takes to reach the answers of a plain `repoctx serve` (no
 * `--watch`: the working-tree overlay reads the edited file from disk at the next call).
 *
 * The built CLI serves DIR from the ready index in DB (build it first, e.g. with `npm run bench:scale`) with
 * `--watch`, over stdio to the SDK client. Per run and file: a line with a fresh token is appended to the file (one
 * write, as an editor's save), the clock runs until the server logs the published update on stderr, then
 * `search_code` must find the token in the index (`freshness: base_commit`, the logged version); then the file is
 * restored the same way. Printed: per file the median and worst of the edit and restore latencies, the update's
 * own time from the server's log, what it was (an update of the named files, an update, or a build), and the
 * server's RSS after the runs. The first edit of each server is reported apart (it compiles the parser's queries).
 * `--overlay`: per run and file the same edit, then `search_code` (lexical) at once and again until it finds the
 * token from the overlay (warning `working_tree_overlay`); the clock runs from the save to that answer. Then the
 * restore, until the token is gone. Printed: the medians and worst, and the calls it took. With `--pause MS` the
 * first call comes MS after the save (an agent reading), and the clock runs from that call.
 * The corpus is left as it was found.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { serveTransport } from "./measure-serve.js";
import { CLI_PATH } from "./dist.js";
import { fmtBytes, fmtMs, median, procMemory } from "./stats.js";

const TARGET_MS = 200;
/** Longer than any in-place update; a build after a fallback may take minutes on the kernel. */
const WAIT_MS = 600_000;

const { values } = parseArgs({
  options: { root: { type: "string" }, store: { type: "string" }, file: { type: "string", multiple: true }, runs: { type: "string", default: "5" }, "cpu-prof": { type: "string" }, cli: { type: "string" }, overlay: { type: "boolean", default: false }, pause: { type: "string", default: "0" } },
});
if (!values.root || !values.store) throw new Error("give --root DIR and --store DB (a store with a ready index of DIR)");
const root = resolve(values.root);
const store = resolve(values.store);
const files = values.file ?? ["kernel/fork.c"];
const runs = Number(values.runs);
/** Another checkout's built dist/cli/main.js, to measure it on the same corpus (one server per run of this bench). */
const cli = resolve(values.cli ?? CLI_PATH);

interface Published {
  at: number;
  indexVersion: string;
  how: string;
  ms: number;
}

/** The server's JSON log lines, each "reindexed after a change" handed to whoever waits for the next one. */
class UpdateLog {
  private buffer = "";
  private waiting: ((p: Published) => void) | null = null;
  readonly lines: string[] = [];

  feed(chunk: Buffer): void {
    this.buffer += chunk.toString("utf8");
    let nl: number;
    while ((nl = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      this.lines.push(line);
      const at = performance.now();
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      if (entry.msg !== "reindexed after a change" && entry.message !== "reindexed after a change") continue;
      const fields = (entry.fields ?? entry) as Record<string, unknown>;
      this.waiting?.({ at, indexVersion: String(fields.indexVersion), how: String(fields.how), ms: Number(fields.ms) });
      this.waiting = null;
    }
  }

  next(): Promise<Published> {
    return new Promise((resolvePublished, reject) => {
      const timer = setTimeout(() => reject(new Error(`no update published within ${WAIT_MS} ms; server log:\n${this.lines.slice(-20).join("\n")}`)), WAIT_MS);
      this.waiting = (p) => {
        clearTimeout(timer);
        resolvePublished(p);
      };
    });
  }
}

interface Sample {
  latencyMs: number;
  updateMs: number;
  how: string;
}

/** The server under test, with JSON logs on stderr (the published updates are read there). */
function serverTransport(watch: boolean): StdioClientTransport {
  return serveTransport(cli, root, store, {
    node: values["cpu-prof"] ? ["--cpu-prof", "--cpu-prof-dir", resolve(values["cpu-prof"])] : [],
    serve: [...(watch ? ["--watch"] : []), "--log-format", "json"],
  });
}

/** A saved edit to the answers of `serve` without `--watch`: the overlay's look at the next call. */
async function overlayMain(): Promise<void> {
  const transport = serverTransport(false);
  const client = new Client({ name: "repoctx-bench-update", version: "0" });
  await client.connect(transport);
  const pid = transport.pid!;
  const load = loadavg()[0]!;
  /** Whether the answer has `token` in `path`, from the overlay. */
  const has = async (token: string, path: string): Promise<boolean> => {
    const r = await client.callTool({ name: "search_code", arguments: { query: token, mode: "lexical", verbosity: "full", maxResults: 5 } });
    const env = r.structuredContent as { warnings?: { code: string }[]; data?: { results?: { path: string }[] } };
    return (env.data?.results ?? []).some((h) => h.path === path) && (env.warnings ?? []).some((w) => w.code === "working_tree_overlay");
  };
  const pause = Number(values.pause);
  /**
   * Saves `bytes`, waits `--pause` ms (an agent reading before its next call), then asks until the answer is
   * `want`: the time from the first call (from the save, without a pause) and the calls it took.
   */
  const until = async (path: string, bytes: Buffer, token: string, want: boolean): Promise<{ ms: number; calls: number }> => {
    const savedAt = performance.now();
    writeFileSync(resolve(root, path), bytes);
    if (pause > 0) await new Promise((r) => setTimeout(r, pause));
    const startedAt = pause > 0 ? performance.now() : savedAt;
    for (let calls = 1; ; calls++) {
      if ((await has(token, path)) === want) return { ms: performance.now() - startedAt, calls };
      if (performance.now() - startedAt > WAIT_MS) throw new Error(`${path}: not seen within ${WAIT_MS} ms`);
    }
  };
  const rows: string[] = [];
  try {
    await new Promise((r) => setTimeout(r, 5000));
    // The first call pays the whole look at the work tree; the runs measure what an agent's later calls pay.
    await has("repoctxbenchwarmup", files[0]!);
    for (const path of files) {
      const original = readFileSync(resolve(root, path));
      const edits: { ms: number; calls: number }[] = [];
      const restores: { ms: number; calls: number }[] = [];
      try {
        for (let i = 0; i <= runs; i++) {
          const token = `repoctxbenchoverlay${Date.now().toString(36)}x${i}`;
          const edited = await until(path, Buffer.concat([original, Buffer.from(`\n/* ${token} */\n`)]), token, true);
          await new Promise((r) => setTimeout(r, 1500));
          const restored = await until(path, original, token, false);
          await new Promise((r) => setTimeout(r, 1500));
          if (i === 0) {
            rows.push(`| ${path} | first edit of this server | ${fmtMs(edited.ms)} | ${edited.calls} | |`);
            continue;
          }
          edits.push(edited);
          restores.push(restored);
        }
      } finally {
        writeFileSync(resolve(root, path), original);
      }
      for (const [label, samples] of [["edit", edits], ["restore", restores]] as const) {
        const ms = samples.map((s) => s.ms);
        const met = median(ms) <= TARGET_MS ? "met" : "NOT MET";
        rows.push(`| ${path} | ${label}, median of ${samples.length} (worst) | ${fmtMs(median(ms))} (${fmtMs(Math.max(...ms))}) | ${samples.map((s) => s.calls).join(", ")} | <= ${TARGET_MS} ms: ${met} |`);
      }
    }
    const mem = procMemory(pid);
    console.log(`serve (no --watch: the working-tree overlay) of ${root} (store ${store}) by ${cli}, load ${load.toFixed(2)} at start`);
    console.log("");
    console.log(`| file | change | ${pause > 0 ? `first call ${pause} ms after the save → answered` : "saved → answered from the overlay"} | calls | target |`);
    console.log("|---|---|---|---|---|");
    for (const r of rows) console.log(r);
    console.log("");
    console.log(`server RSS after the runs ${mem ? fmtBytes(mem.rss) : "?"} (peak ${mem ? fmtBytes(mem.hwm) : "?"}); each run waits 1.5 s after the save and after the restore, an agent's pace`);
  } finally {
    await client.close();
  }
}

async function main(): Promise<void> {
  if (values.overlay) return overlayMain();
  const transport = serverTransport(true);
  const log = new UpdateLog();
  transport.stderr?.on("data", (c: Buffer) => log.feed(c));
  const client = new Client({ name: "repoctx-bench-update", version: "0" });
  await client.connect(transport);
  const pid = transport.pid!;
  const load = loadavg()[0]!;
  const found = async (token: string, path: string, version: string): Promise<boolean> => {
    const r = await client.callTool({ name: "search_code", arguments: { query: token, verbosity: "full", maxResults: 5 } });
    const env = r.structuredContent as { indexVersion?: string; freshness?: string; data?: { results?: { path: string }[] } };
    return env.indexVersion === version && env.freshness === "base_commit" && (env.data?.results ?? []).some((h) => h.path === path);
  };
  const save = async (path: string, bytes: Buffer): Promise<Published & { startedAt: number }> => {
    const published = log.next();
    const startedAt = performance.now();
    writeFileSync(resolve(root, path), bytes);
    return { ...(await published), startedAt };
  };
  const rows: string[] = [];
  try {
    // Let the watcher settle after start (it walks the tree to watch it) before the clock runs.
    await new Promise((r) => setTimeout(r, 5000));
    for (const path of files) {
      const original = readFileSync(resolve(root, path));
      const edits: Sample[] = [];
      const restores: Sample[] = [];
      try {
        for (let i = 0; i <= runs; i++) {
          const token = `repoctxbenchupdate${Date.now().toString(36)}x${i}`;
          const edited = await save(path, Buffer.concat([original, Buffer.from(`\n/* ${token} */\n`)]));
          if (!(await found(token, path, edited.indexVersion))) throw new Error(`${path}: the published index does not find ${token}`);
          const restored = await save(path, original);
          if (await found(token, path, restored.indexVersion)) throw new Error(`${path}: the restored file still has ${token}`);
          if (i === 0) {
            rows.push(`| ${path} | first edit of this server | ${fmtMs(edited.at - edited.startedAt)} | ${fmtMs(edited.ms)} | ${edited.how} | |`);
            continue;
          }
          edits.push({ latencyMs: edited.at - edited.startedAt, updateMs: edited.ms, how: edited.how });
          restores.push({ latencyMs: restored.at - restored.startedAt, updateMs: restored.ms, how: restored.how });
        }
      } finally {
        writeFileSync(resolve(root, path), original);
      }
      for (const [label, samples] of [["edit", edits], ["restore", restores]] as const) {
        const lat = samples.map((s) => s.latencyMs);
        const met = median(lat) <= TARGET_MS ? "met" : "NOT MET";
        rows.push(
          `| ${path} | ${label}, median of ${samples.length} (worst) | ${fmtMs(median(lat))} (${fmtMs(Math.max(...lat))}) | ${fmtMs(median(samples.map((s) => s.updateMs)))} | ${[...new Set(samples.map((s) => s.how))].join(", ")} | <= ${TARGET_MS} ms: ${met} |`,
        );
      }
    }
    const mem = procMemory(pid);
    console.log(`serve --watch of ${root} (store ${store}) by ${cli}, load ${load.toFixed(2)} at start`);
    console.log("");
    console.log("| file | change | saved → published | update itself (server log) | how | target |");
    console.log("|---|---|---|---|---|---|");
    for (const r of rows) console.log(r);
    console.log("");
    console.log(`server RSS after the runs ${mem ? fmtBytes(mem.rss) : "?"} (peak ${mem ? fmtBytes(mem.hwm) : "?"}); the latency includes the watcher's 25 ms debounce for named files`);
  } finally {
    await client.close();
  }
}

await main();
