/** The machine a run was measured on, for the report. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, totalmem } from "node:os";
import Database from "better-sqlite3";
import { fmtBytes } from "./stats.js";

export interface MachineInfo {
  cpus: number;
  memory: string;
  cpuModel: string;
  node: string;
  sqlite: string;
  platform: string;
  /** repoctx's commit, with "+ uncommitted changes" when src/ differs from it. */
  revision: string;
  /**
   * Identity of the code under measurement: the git object ids of src/, package.json and package-lock.json at
   * HEAD, or null when any of them has uncommitted changes (or this is not a git checkout). Commits that touch
   * only bench/ or documentation keep it, so a reused index can be matched to the code that built it.
   */
  codeId: string | null;
}

function cpuModel(): string {
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
    return m?.[1]?.trim() ?? "unknown";
  } catch {
    return "unknown";
  }
}

function sqliteVersion(): string {
  const db = new Database(":memory:");
  try {
    return (db.prepare("select sqlite_version() as v").get() as { v: string }).v;
  } finally {
    db.close();
  }
}

function git(args: string[], cwd: string): string | null {
  try {
    return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

/** What was measured: the commit, and whether src/ or package.json had uncommitted changes at the time. */
function revision(repoRoot: string): string {
  const head = git(["rev-parse", "--short=12", "HEAD"], repoRoot);
  if (!head) return "unknown (not a git checkout)";
  const dirty = git(["status", "--porcelain", "--", "src", "package.json", "package-lock.json"], repoRoot);
  return dirty ? `${head} + uncommitted changes in src/ or package files` : head;
}

function codeId(repoRoot: string): string | null {
  const dirty = git(["status", "--porcelain", "--", "src", "package.json", "package-lock.json"], repoRoot);
  if (dirty === null || dirty.length > 0) return null;
  const ids = git(["rev-parse", "HEAD:src", "HEAD:package.json", "HEAD:package-lock.json"], repoRoot);
  return ids ? ids.split("\n").map((id) => id.slice(0, 12)).join("-") : null;
}

export function machineInfo(repoRoot: string): MachineInfo {
  return {
    cpus: availableParallelism(),
    memory: fmtBytes(totalmem()),
    cpuModel: cpuModel(),
    node: process.version,
    sqlite: sqliteVersion(),
    platform: `${process.platform}-${process.arch}`,
    revision: revision(repoRoot),
    codeId: codeId(repoRoot),
  };
}
