/**
 * PostgreSQL for `npm run bench:load`: the server named by `--pg-url` / `REPOCTX_BENCH_PG` (loopback only), or a
 * throwaway cluster started with `scripts/pg-cluster.sh` in a temporary folder and stopped at the end. Each run's
 * store is a fresh schema (`?schema=`), dropped afterwards on a server the bench did not start.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { CLK_TCK, isLoopbackHost } from "./load-server.js";
import { dropPgSchema, splitSchema } from "./pg-size.mjs";

export interface PgServer {
  /** Base URL (no schema). */
  url: string;
  /** A throwaway cluster this run started (stopped and deleted by stop()). */
  owned: boolean;
  stopSync(): void;
  /**
   * CPU seconds the cluster has used so far (postmaster and its live children, plus the children that exited):
   * only for a cluster this run started, null otherwise.
   */
  cpuS(): number | null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export function assertLoopbackPg(url: string): void {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    throw new Error(`not a PostgreSQL URL: ${url.replace(/:[^:@/]*@/, ":***@")}`);
  }
  if (!isLoopbackHost(host)) throw new Error(`the PostgreSQL server must be on loopback (127.0.0.1, ::1, localhost), not ${host}`);
}

/** The server to use: an existing one (loopback), or a throwaway cluster via scripts/pg-cluster.sh. */
export async function pgServer(repoRoot: string, existing: string | undefined): Promise<PgServer> {
  if (existing) {
    assertLoopbackPg(existing);
    return { url: existing, owned: false, stopSync() {}, cpuS: () => null };
  }
  const dir = mkdtempSync(join(tmpdir(), "repoctx-load-pg-"));
  const port = await freePort();
  const script = join(repoRoot, "scripts", "pg-cluster.sh");
  let stopped = false;
  const stopSync = (): void => {
    if (stopped) return;
    stopped = true;
    try {
      execFileSync("bash", [script, "stop", dir], { stdio: "ignore", timeout: 60_000 });
    } catch {
      // already down
    }
    rmSync(dir, { recursive: true, force: true });
  };
  let url: string;
  try {
    process.stderr.write(`bench:load: starting a throwaway PostgreSQL cluster: ${script} start ${dir} ${port}\n`);
    url = execFileSync("bash", [script, "start", dir, String(port)], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 120_000 }).trim().split("\n").pop()!;
  } catch (err) {
    stopSync();
    throw new Error(`could not start a PostgreSQL cluster with ${script}: ${err instanceof Error ? err.message : String(err)}`);
  }
  assertLoopbackPg(url);
  return { url, owned: true, stopSync, cpuS: () => clusterCpuS(dir) };
}

/** utime + stime (+ cutime + cstime: children waited for) of a process, in clock ticks; null when it is gone. */
function procTicks(pid: number, withChildren: boolean): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ").map(Number);
    return f[11]! + f[12]! + (withChildren ? f[13]! + f[14]! : 0);
  } catch {
    return null;
  }
}

function clusterCpuS(dir: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(join(dir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return null;
  }
  let ticks = procTicks(pid, true);
  if (ticks === null) return null;
  try {
    for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) {
      ticks += procTicks(Number(child), false) ?? 0;
    }
  } catch {
    // no children list on this kernel: the postmaster and the exited backends only
  }
  return ticks / CLK_TCK;
}

/** A store URL naming a fresh schema on the server. */
export function freshSchemaUrl(base: string): { url: string; schema: string } {
  const url = new URL(base);
  const schema = `load_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  url.searchParams.set("schema", schema);
  return { url: url.toString(), schema };
}

/** Drops a schema freshSchemaUrl named (only those: the name must be a load_ one). */
export async function dropSchema(location: string, schema: string): Promise<void> {
  if (!/^load_[a-z0-9_]+$/.test(schema)) return;
  await dropPgSchema(location);
}

/** Server-side connection count of the database (to see the server's pool under load). */
export async function pgConnections(base: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: splitSchema(base).url });
  try {
    await client.connect();
    const r = await client.query<{ n: string }>("SELECT count(*)::text AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()");
    return Number(r.rows[0]?.n ?? 0);
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

