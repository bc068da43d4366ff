import { execFile, execFileSync } from "node:child_process";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";

/**
 * The evaluation's scratch space: a detached `git worktree` of the repository (its own checkout, so the user's
 * work tree, index and branch are never touched) plus a temporary SQLite store (never the user's default one).
 * Everything lives under one temporary folder; `dispose` removes the worktree from git's list and the folder,
 * and `disposeSync` does the same from a signal handler.
 */

/** Folder name prefix under the system temp directory. */
const TEMP_PREFIX = "repoctx-eval-";
const SHA = /^[0-9a-f]{40,64}$/;
/**
 * Hooks of the user's repository must not run for our checkouts, and large-file filters must not download:
 * the index sees LFS pointer files, which is what the repository stores.
 */
const GIT_CONFIG = ["-c", "core.hooksPath=/dev/null", "-c", "core.quotepath=off"];
const GIT_ENV = { GIT_LFS_SKIP_SMUDGE: "1", GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0" };

export interface EvalWorkspace {
  /** The worktree's root: the evaluation indexes this. */
  readonly root: string;
  readonly store: SqliteStore;
  /** Moves the worktree to a commit (detached, quiet). */
  checkout(sha: string): Promise<void>;
  dispose(): Promise<void>;
  disposeSync(): void;
}

function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile("git", [...GIT_CONFIG, ...args], { cwd, env: { ...process.env, ...GIT_ENV }, encoding: "utf8" }, (err, stdout, stderr) => {
      if (err) reject(new Error(`git ${args[0] ?? ""} failed: ${stderr.trim().slice(0, 300)}`));
      else resolvePromise(stdout.trim());
    });
  });
}

function requireSha(sha: string): string {
  if (!SHA.test(sha)) throw new Error(`not a commit id: ${sha}`);
  return sha;
}

/** git's administrative folder for a worktree (`.git/worktrees/<name>`), from the worktree's `.git` file. */
async function adminDirOf(tree: string): Promise<string | null> {
  const text = await readFile(join(tree, ".git"), "utf8").catch(() => null);
  const m = text ? /^gitdir:\s*(.+)$/m.exec(text) : null;
  if (!m) return null;
  const dir = m[1]!.trim();
  return isAbsolute(dir) ? dir : resolve(tree, dir);
}

/** Creates the worktree at `sha` and the temporary store. On failure nothing is left behind. */
export async function createWorkspace(repoRoot: string, sha: string): Promise<EvalWorkspace> {
  const base = await realpath(await mkdtemp(join(tmpdir(), TEMP_PREFIX)));
  const tree = join(base, "tree");
  let admin: string | null = null;
  let store: SqliteStore | null = null;
  let removed = false;
  let closed = false;

  // Removes the worktree through git when possible; if git cannot (folder already gone), only our own
  // administrative entry is deleted — never `git worktree prune`, which would drop the user's other worktrees.
  const removeSync = (): void => {
    try {
      execFileSync("git", [...GIT_CONFIG, "worktree", "remove", "--force", tree], { cwd: repoRoot, env: { ...process.env, ...GIT_ENV }, stdio: "ignore" });
    } catch {
      if (admin) rmSync(admin, { recursive: true, force: true });
    }
    rmSync(base, { recursive: true, force: true });
  };
  const workspace: EvalWorkspace = {
    root: tree,
    get store(): SqliteStore {
      if (!store) throw new Error("workspace store is not open");
      return store;
    },
    checkout: async (target) => {
      await git(tree, ["checkout", "--detach", "-q", requireSha(target)]);
    },
    dispose: async () => {
      if (!closed) {
        closed = true;
        await store?.close().catch(() => {});
      }
      if (removed) return;
      removed = true;
      try {
        await git(repoRoot, ["worktree", "remove", "--force", tree]);
      } catch {
        if (admin) await rm(admin, { recursive: true, force: true });
      }
      await rm(base, { recursive: true, force: true });
    },
    // From a signal handler: the files go at once; the store handle is closed by the `dispose` that follows.
    disposeSync: () => {
      if (removed) return;
      removed = true;
      removeSync();
    },
  };
  try {
    await git(repoRoot, ["worktree", "add", "--detach", "-q", tree, requireSha(sha)]);
    admin = await adminDirOf(tree);
    store = SqliteStore.open(join(base, "index.db"));
    return workspace;
  } catch (err) {
    await workspace.dispose();
    throw err;
  }
}
