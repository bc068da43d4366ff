/**
 * The server under load: `repoctx serve --http` as a child process of its own (so its RSS and CPU time are the
 * server's alone), its stderr kept in a log file and summarised (levels, first distinct warnings and errors), its
 * memory and CPU read from /proc/<pid>.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { createWriteStream, readFileSync, readdirSync } from "node:fs";
import { createInterface } from "node:readline";
import { procMemory } from "./stats.js";

export interface ServerStart {
  cli: string;
  repos: string[];
  store: string;
  policy: string;
  host: string;
  tokens: string[];
  logFile: string;
  /** NODE_OPTIONS for the server alone (null: the bench's own environment's). */
  nodeOptions: string | null;
  /** Give up when the server has not said "listening" by then. */
  startTimeoutMs: number;
}

export interface LogSummary {
  lines: number;
  byLevel: Record<string, number>;
  /** First distinct warn/error messages (with a count each). */
  problems: Map<string, number>;
  /** Lines on stderr that were not JSON (a stack trace, a crash). */
  nonJson: string[];
}

export interface ProcSample {
  rss: number | null;
  hwm: number | null;
  /** utime + stime in seconds. */
  cpuS: number | null;
  fds: number | null;
  threads: number | null;
}

const MAX_PROBLEMS = 12;
const MAX_NON_JSON = 20;

function clockTicks(): number {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
}
export const CLK_TCK = clockTicks();

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "127.0.0.1" || h === "::1" || h === "localhost";
}

/** RSS (VmRSS), peak (VmHWM), CPU time, open descriptors and threads of a live process. */
export function sampleProc(pid: number): ProcSample {
  const mem = procMemory(pid);
  let cpuS: number | null = null;
  let threads: number | null = null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15, threads 20.
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    cpuS = (Number(rest[11]) + Number(rest[12])) / CLK_TCK;
    threads = Number(rest[17]);
  } catch {
    // the process is gone
  }
  let fds: number | null = null;
  try {
    fds = readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    // not readable
  }
  return { rss: mem?.rss ?? null, hwm: mem?.hwm ?? null, cpuS, fds, threads };
}

export class ServerProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  url = "";
  readonly log: LogSummary = { lines: 0, byLevel: {}, problems: new Map(), nonJson: [] };
  /** RSS samples (bytes), one a second while sampling. */
  readonly rssSeries: { t: number; rss: number }[] = [];
  maxRss = 0;
  private timer: NodeJS.Timeout | null = null;
  private exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  exitInfo: { code: number | null; signal: NodeJS.Signals | null } | null = null;

  private constructor(child: ChildProcess) {
    this.child = child;
    if (child.pid === undefined) throw new Error("the server did not start (no pid)");
    this.pid = child.pid;
    this.exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        this.exitInfo = { code, signal };
        resolve(this.exitInfo);
      });
    });
  }

  static async start(o: ServerStart): Promise<ServerProcess> {
    const args = [o.cli, "serve", "--http", "--host", o.host, "--port", "0", ...o.repos.flatMap((r) => ["--repo", r]), "--store", o.store, "--policy", o.policy];
    const child = spawn(process.execPath, args, {
      env: { ...process.env, REPOCTX_HTTP_TOKENS: o.tokens.join(","), ...(o.nodeOptions !== null ? { NODE_OPTIONS: o.nodeOptions } : {}) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const server = new ServerProcess(child);
    const logStream = createWriteStream(o.logFile);
    child.stdout!.pipe(logStream, { end: false });
    let resolveUrl: (url: string) => void;
    const listening = new Promise<string>((resolve) => (resolveUrl = resolve));
    createInterface({ input: child.stderr! }).on("line", (line) => {
      logStream.write(`${line}\n`);
      const url = server.onLogLine(line);
      if (url) resolveUrl(url);
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the server did not report "listening" within ${o.startTimeoutMs / 1000} s (log: ${o.logFile})`)), o.startTimeoutMs);
    });
    const died = server.exited.then((e) => {
      throw new Error(`the server exited before listening (code ${e.code}, signal ${e.signal}); log: ${o.logFile}\n${tail(o.logFile)}`);
    });
    try {
      server.url = await Promise.race([listening, timeout, died]);
    } catch (err) {
      server.kill();
      throw err;
    } finally {
      clearTimeout(timer);
    }
    const host = new URL(server.url).hostname;
    if (!isLoopbackHost(host)) {
      server.kill();
      throw new Error(`the server listens on ${host}, not on loopback; refusing to send load there`);
    }
    return server;
  }

  /** Counts the line; returns the MCP URL when this is the "listening" line. */
  private onLogLine(line: string): string | null {
    this.log.lines++;
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(line) as Record<string, unknown>;
    } catch {
      if (line.trim() && this.log.nonJson.length < MAX_NON_JSON) this.log.nonJson.push(line);
      return null;
    }
    const level = typeof rec.level === "string" ? rec.level : "?";
    this.log.byLevel[level] = (this.log.byLevel[level] ?? 0) + 1;
    if (level === "warn" || level === "error") {
      const detail = [rec.message, rec.error, rec.err, rec.reason].filter((v) => v !== undefined).map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
      const key = `${level}: ${detail.join(" | ").slice(0, 300)}`;
      if (this.log.problems.has(key) || this.log.problems.size < MAX_PROBLEMS) this.log.problems.set(key, (this.log.problems.get(key) ?? 0) + 1);
    }
    if (rec.message === "listening" && typeof rec.url === "string") return rec.url;
    return null;
  }

  sample(): ProcSample {
    return sampleProc(this.pid);
  }

  /** Samples RSS every second until stopSampling(). */
  startSampling(intervalMs = 1000): void {
    const t0 = performance.now();
    const tick = (): void => {
      const rss = procMemory(this.pid)?.rss;
      if (rss !== undefined) {
        this.rssSeries.push({ t: (performance.now() - t0) / 1000, rss });
        this.maxRss = Math.max(this.maxRss, rss);
      }
    };
    tick();
    this.timer = setInterval(tick, intervalMs);
  }

  stopSampling(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  get running(): boolean {
    return this.exitInfo === null;
  }

  /** SIGTERM, then SIGKILL after graceMs; resolves with how it ended. */
  async stop(graceMs = 10_000): Promise<{ code: number | null; signal: NodeJS.Signals | null; killed: boolean }> {
    this.stopSampling();
    if (!this.running) return { ...this.exitInfo!, killed: false };
    this.child.kill("SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    const forced = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), graceMs)));
    const r = await Promise.race([this.exited, forced]);
    clearTimeout(timer);
    if (r === "timeout") {
      this.child.kill("SIGKILL");
      const e = await this.exited;
      return { ...e, killed: true };
    }
    return { ...r, killed: false };
  }

  /** Synchronous last resort (exit handlers, watchdog). */
  kill(): void {
    this.stopSampling();
    if (this.running) this.child.kill("SIGKILL");
  }
}

function tail(file: string, lines = 15): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}
