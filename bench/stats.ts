/** Small numeric and formatting helpers shared by the bench modules. */
import { readFileSync, statSync } from "node:fs";

export const KIB = 1024;
export const MIB = 1024 * KIB;
export const GIB = 1024 * MIB;
const MS_PER_S = 1000;
const PERCENT = 100;

/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / PERCENT) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);
export const max = (samples: readonly number[]): number => (samples.length === 0 ? Number.NaN : Math.max(...samples));

export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return "n/a";
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < MS_PER_S) return `${ms.toFixed(1)} ms`;
  return `${(ms / MS_PER_S).toFixed(2)} s`;
}

export function fmtBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return "n/a";
  if (bytes >= GIB) return `${(bytes / GIB).toFixed(2)} GiB`;
  if (bytes >= MIB) return `${(bytes / MIB).toFixed(1)} MiB`;
  if (bytes >= KIB) return `${(bytes / KIB).toFixed(1)} KiB`;
  return `${bytes} B`;
}

export const fmtInt = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "n/a");

/** Size of a file, 0 when it does not exist. */
export function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** A SQLite store's footprint: the database plus its WAL and shared-memory files. */
export function storeBytes(dbPath: string): { db: number; wal: number; shm: number; total: number } {
  const db = fileSize(dbPath);
  const wal = fileSize(`${dbPath}-wal`);
  const shm = fileSize(`${dbPath}-shm`);
  return { db, wal, shm, total: db + wal + shm };
}

/** VmRSS / VmHWM (bytes) of a Linux process from /proc/<pid>/status; null where unavailable. */
export function procMemory(pid: number | "self"): { rss: number; hwm: number } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return null;
  }
  const field = (name: string): number | null => {
    const m = new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, "m").exec(text);
    return m ? Number(m[1]) * KIB : null;
  };
  const rss = field("VmRSS");
  const hwm = field("VmHWM");
  return rss === null || hwm === null ? null : { rss, hwm };
}
