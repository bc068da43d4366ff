/** What `npm run bench:load` prints: per store a detailed report, then Markdown tables ready for BENCHMARKS.md. */
import type { PhaseStats } from "./load-client.js";
import type { LogSummary, ProcSample } from "./load-server.js";
import { fmtBytes, fmtInt, fmtMs, max, percentile } from "./stats.js";

export type StoreKind = "sqlite" | "postgres";

export interface MachineLine {
  cpuModel: string;
  cores: number;
  memory: string;
  node: string;
  platform: string;
  revision: string;
}

export interface StoreRun {
  store: StoreKind;
  location: string;
  indexMs: number;
  clientsRequested: number;
  clientsConnected: number;
  connectMs: number[];
  connectErrors: Map<string, number>;
  warmupS: number;
  durationS: number;
  /** From the window's opening to the last measured call's end (in-flight calls finish after it closes). */
  drainMs: number;
  mixKinds: number;
  mixVariants: number;
  dropped: { kind: string; args: string; why: string }[];
  warm: PhaseStats;
  measured: PhaseStats;
  asyncErrors: Map<string, number>;
  closeErrors: Map<string, number>;
  server: {
    idle: ProcSample;
    afterConnect: ProcSample;
    windowStart: ProcSample;
    windowEnd: ProcSample;
    afterClose: ProcSample;
    /** 7 s after the clients closed. */
    settled: ProcSample;
    /** VmRSS once a second from the server's start (t in seconds). */
    rssSeries: { t: number; rss: number }[];
    /** Highest VmRSS sampled (1 s) and VmHWM at the end: the peak. */
    sampledMaxRss: number;
    exit: { code: number | null; signal: NodeJS.Signals | null; killed: boolean } | null;
    log: LogSummary;
    logFile: string;
    pgConnections?: { windowEnd: number | null; afterClose: number | null };
    /** CPU seconds of the throwaway PostgreSQL cluster in the window (null: a server this run did not start). */
    pgCpuS?: number | null;
  };
  generator: { cpuS: number; eventLoopP99Ms: number; eventLoopMaxMs: number };
  loadAvg: { start: number[]; end: number[] };
  settings: { maxSessions: number; rateLimitPerMinute: number; tokens: string; nodeOptions: string | null; workers: number | null };
}

const pct = (xs: readonly number[], p: number): string => fmtMs(percentile(xs, p));
const mib = (b: number | null | undefined): string => (b === null || b === undefined ? "n/a" : fmtBytes(b));
const la = (xs: readonly number[]): string => xs.map((x) => x.toFixed(2)).join(" ");

export function peakRss(r: StoreRun): number {
  return Math.max(r.server.sampledMaxRss, r.server.windowEnd.hwm ?? 0, r.server.afterClose.hwm ?? 0);
}

export function throughput(r: StoreRun): number {
  return r.measured.all.length / r.durationS;
}

function serverCpu(r: StoreRun): { s: number; cores: number } {
  const s = (r.server.windowEnd.cpuS ?? Number.NaN) - (r.server.windowStart.cpuS ?? Number.NaN);
  return { s, cores: s / r.durationS };
}

const sum = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0);

/** Every failure of the run: connecting, calls in the warm-up and the window, the transport outside calls, closing. */
export function totalErrors(r: StoreRun): number {
  return sum(r.connectErrors) + r.warm.errors + r.measured.errors + sum(r.asyncErrors) + sum(r.closeErrors);
}

function countLines(m: Map<string, number>, indent = "  "): string[] {
  return [...m].map(([k, n]) => `${indent}${n} × ${k}`);
}

/** The detailed, human-readable report of one store's run. */
export function storeReport(r: StoreRun): string {
  const out: string[] = [];
  const cpu = serverCpu(r);
  out.push(`== ${r.store}: ${r.location}`);
  out.push(`index: ${fmtMs(r.indexMs)}; mix: ${r.mixKinds} kinds of call, ${r.mixVariants} argument sets (probed once before the run)`);
  if (r.dropped.length > 0) {
    out.push(`dropped before the run (failed when probed, so never sent under load): ${r.dropped.length}`);
    for (const d of r.dropped.slice(0, 10)) out.push(`  ${d.kind} ${d.args}: ${d.why}`);
  }
  out.push(
    `clients: ${r.clientsConnected}/${r.clientsRequested} connected (one bearer token each); connect (initialize + tools/list) ` +
      `p50 ${pct(r.connectMs, 50)}, p95 ${pct(r.connectMs, 95)}, max ${fmtMs(max(r.connectMs))}`,
  );
  if (r.connectErrors.size > 0) out.push("connect errors:", ...countLines(r.connectErrors));
  out.push(`warm-up: ${r.warmupS} s, ${fmtInt(r.warm.all.length)} calls, ${r.warm.errors} errors`);
  out.push(
    `measured: ${r.durationS} s, ${fmtInt(r.measured.all.length)} calls started in the window (the last finished ${fmtMs(r.drainMs - r.durationS * 1000)} after it closed), ` +
      `${throughput(r).toFixed(1)} calls/s, ${fmtBytes(r.measured.responseChars / r.durationS)}/s of tool results`,
  );
  out.push(
    `latency: p50 ${pct(r.measured.all, 50)}, p95 ${pct(r.measured.all, 95)}, p99 ${pct(r.measured.all, 99)}, max ${fmtMs(max(r.measured.all))}`,
  );
  out.push(
    `errors: ${totalErrors(r)} (connect ${sum(r.connectErrors)}, warm-up calls ${r.warm.errors}, measured calls ${r.measured.errors}, ` +
      `transport outside calls ${sum(r.asyncErrors)}, session close ${sum(r.closeErrors)})`,
  );
  const errs = new Map([...r.warm.errorKinds, ...r.measured.errorKinds]);
  if (errs.size > 0) out.push("first distinct errors:", ...countLines(errs));
  if (r.asyncErrors.size > 0) out.push("transport errors outside calls (standalone SSE stream, reconnects):", ...countLines(r.asyncErrors));
  if (r.closeErrors.size > 0) out.push("session close errors:", ...countLines(r.closeErrors));
  out.push("");
  out.push(perToolTable(r));
  out.push("");
  out.push(`per kind of call (p50 / p95 / max, calls):`);
  for (const [name, xs] of [...r.measured.byKind].sort((a, b) => b[1].length - a[1].length)) {
    out.push(`  ${name.padEnd(52)} ${pct(xs, 50).padStart(9)} ${pct(xs, 95).padStart(9)} ${fmtMs(max(xs)).padStart(9)} ${String(xs.length).padStart(7)}`);
  }
  const warnings = [...r.measured.warnings].map(([tool, m]) => `${tool}: ${[...m].map(([c, n]) => `${c} ×${n}`).join(", ")}`);
  if (warnings.length > 0) out.push("warnings in successful results (not errors):", ...warnings.map((w) => `  ${w}`));
  out.push("");
  const s = r.server;
  const row = (label: string, p: ProcSample): string =>
    `  ${label.padEnd(22)} RSS ${mib(p.rss).padStart(10)}  VmHWM ${mib(p.hwm).padStart(10)}  CPU ${p.cpuS === null ? "n/a" : `${p.cpuS.toFixed(1)} s`}  fds ${p.fds ?? "n/a"}  threads ${p.threads ?? "n/a"}`;
  out.push(`server (pid's own /proc figures):`);
  out.push(row("idle (before clients)", s.idle), row("clients connected", s.afterConnect), row("window opens", s.windowStart), row("window closes", s.windowEnd), row("clients closed +1 s", s.afterClose), row("clients closed +7 s", s.settled));
  out.push(`  RSS over the run (s: MiB): ${rssTrajectory(s.rssSeries)}`);
  out.push(
    `  peak RSS ${mib(peakRss(r))}; CPU in the window ${cpu.s.toFixed(1)} s = ${cpu.cores.toFixed(2)} cores; ` +
      `RSS growth over the window ${mib((s.windowEnd.rss ?? 0) - (s.windowStart.rss ?? 0))}`,
  );
  if (s.pgCpuS !== undefined) {
    out.push(`  PostgreSQL cluster CPU in the window: ${s.pgCpuS === null ? "n/a (a server this run did not start)" : `${s.pgCpuS.toFixed(1)} s = ${(s.pgCpuS / r.durationS).toFixed(2)} cores`}`);
  }
  if (s.pgConnections) out.push(`  PostgreSQL connections of the database: ${s.pgConnections.windowEnd ?? "n/a"} at the window's end, ${s.pgConnections.afterClose ?? "n/a"} after the clients closed`);
  out.push(
    `  exit after SIGTERM: ${s.exit ? (s.exit.killed ? "did not exit within the grace period, SIGKILLed" : `code ${s.exit.code}, signal ${s.exit.signal}`) : "n/a"}`,
  );
  out.push(`  log (${s.logFile}): ${s.log.lines} lines, ${Object.entries(s.log.byLevel).map(([l, n]) => `${l} ${n}`).join(", ") || "none"}`);
  if (s.log.problems.size > 0) out.push("  first distinct warnings/errors the server logged:", ...countLines(s.log.problems, "    "));
  if (s.log.nonJson.length > 0) out.push("  non-JSON lines on the server's stderr:", ...s.log.nonJson.map((l) => `    ${l.slice(0, 300)}`));
  out.push(`load generator: CPU in the window ${r.generator.cpuS.toFixed(1)} s = ${(r.generator.cpuS / r.durationS).toFixed(2)} cores; event-loop delay p99 ${fmtMs(r.generator.eventLoopP99Ms)}, max ${fmtMs(r.generator.eventLoopMaxMs)}`);
  out.push(`load average (1/5/15 min): ${la(r.loadAvg.start)} at the start, ${la(r.loadAvg.end)} at the end`);
  out.push(`server settings: http.maxSessions ${r.settings.maxSessions}, http.rateLimitPerMinute ${fmtInt(r.settings.rateLimitPerMinute)} per token, tokens: ${r.settings.tokens}, http.workers ${r.settings.workers ?? "default (one per core, at most 8)"}${r.settings.nodeOptions ? `, NODE_OPTIONS ${r.settings.nodeOptions}` : ""}`);
  return out.join("\n");
}

/** About a dozen points of the RSS series, evenly spaced, the last one included. */
function rssTrajectory(series: readonly { t: number; rss: number }[]): string {
  if (series.length === 0) return "n/a";
  const step = Math.max(1, Math.ceil(series.length / 12));
  const points = series.filter((_, i) => i % step === 0 || i === series.length - 1);
  return points.map((p) => `${p.t.toFixed(0)}: ${(p.rss / (1024 * 1024)).toFixed(0)}`).join(", ");
}

function perToolTable(r: StoreRun): string {
  const lines = ["| Tool | Calls | Share | p50 | p95 | p99 | Max | Errors |", "|---|---:|---:|---:|---:|---:|---:|---:|"];
  const total = r.measured.all.length;
  for (const [tool, xs] of [...r.measured.byTool].sort((a, b) => b[1].length - a[1].length)) {
    lines.push(
      `| ${tool} | ${fmtInt(xs.length)} | ${((100 * xs.length) / Math.max(1, total)).toFixed(1)}% | ${pct(xs, 50)} | ${pct(xs, 95)} | ${pct(xs, 99)} | ${fmtMs(max(xs))} | ${r.measured.errorsByTool.get(tool) ?? 0} |`,
    );
  }
  return lines.join("\n");
}

/** One row per store, ready to paste into BENCHMARKS.md, with the machine under it. */
export function summaryMarkdown(runs: readonly StoreRun[], machine: MachineLine): string {
  const lines = [
    "| Store | Clients | Duration | Calls | Throughput | p50 | p95 | p99 | Max | Errors | Server RSS peak | RSS at end | Server CPU |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of runs) {
    const cpu = serverCpu(r);
    lines.push(
      `| ${r.store === "sqlite" ? "SQLite" : "PostgreSQL"} | ${r.clientsConnected} | ${r.durationS} s | ${fmtInt(r.measured.all.length)} | ${throughput(r).toFixed(1)} calls/s | ` +
        `${pct(r.measured.all, 50)} | ${pct(r.measured.all, 95)} | ${pct(r.measured.all, 99)} | ${fmtMs(max(r.measured.all))} | ${totalErrors(r)} | ` +
        `${mib(peakRss(r))} | ${mib(r.server.windowEnd.rss)} | ${cpu.s.toFixed(0)} s (${cpu.cores.toFixed(2)} cores)` +
        `${typeof r.server.pgCpuS === "number" ? `; PostgreSQL ${r.server.pgCpuS.toFixed(0)} s (${(r.server.pgCpuS / r.durationS).toFixed(2)} cores)` : ""} |`,
    );
  }
  const ends = runs.map((r) => `${r.store} ${la(r.loadAvg.start)} → ${la(r.loadAvg.end)}`).join("; ");
  lines.push(
    "",
    `Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memory}, ${machine.platform}, Node ${machine.node}; repoctx ${machine.revision}. ` +
      `Load average (1/5/15 min) at start → end: ${ends}. Load generator and server on the same machine, loopback HTTP.`,
  );
  for (const r of runs) {
    lines.push("", `${r.store === "sqlite" ? "SQLite" : "PostgreSQL"} per tool:`, "", perToolTable(r));
  }
  return lines.join("\n");
}
