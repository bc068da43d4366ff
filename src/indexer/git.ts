import { execFile } from "node:child_process";

/** Large enough for `git ls-files -z` on repositories with hundreds of thousands of files. */
const GIT_MAX_BUFFER = 512 * 1024 * 1024;

export class GitError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
  ) {
    super(message);
    this.name = "GitError";
  }
}

/** Values git is given beside the command's own options: revisions before `--`, paths after it. */
export interface GitValues {
  /** Commits, blobs or other revisions; one that starts with `-` is refused (it would be read as an option). */
  revs?: readonly string[];
  /** Paths, passed after `--` so git never reads one as an option or a revision. */
  paths?: readonly string[];
}

/**
 * Runs git with an argument array (never a shell string). `args` are the subcommand and its options, written in
 * the code; values that come from elsewhere (an index row, a user, a log) go in `values`: a revision that looks like
 * an option is refused before git runs, and paths follow `--`.
 */
export function runGit(cwd: string, args: readonly string[], values: GitValues = {}): Promise<Buffer> {
  const optionLike = values.revs?.find((v) => v.length === 0 || v.startsWith("-"));
  if (optionLike !== undefined) return Promise.reject(new GitError(`git ${args[0] ?? ""}: refusing a revision that is empty or starts with '-'`, null));
  const argv = [...args, ...(values.revs ?? []), ...(values.paths ? ["--", ...values.paths] : [])];
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      ["-c", "core.quotepath=off", ...argv],
      { cwd, maxBuffer: GIT_MAX_BUFFER, encoding: "buffer", env: { ...process.env, GIT_OPTIONAL_LOCKS: "0" } },
      (err, stdout, stderr) => {
        if (err) {
          const code = typeof (err as { code?: unknown }).code === "number" ? ((err as { code: number }).code) : null;
          reject(new GitError(`git ${args[0] ?? ""} failed: ${stderr.toString("utf8").trim().slice(0, 300)}`, code));
          return;
        }
        resolve(stdout);
      },
    );
  });
}

export async function gitText(cwd: string, args: readonly string[], values: GitValues = {}): Promise<string> {
  return (await runGit(cwd, args, values)).toString("utf8").trim();
}

/** Like gitText but null when git fails (no commits yet, no remote, not a repository). */
export async function gitTextOrNull(cwd: string, args: readonly string[], values: GitValues = {}): Promise<string | null> {
  try {
    return await gitText(cwd, args, values);
  } catch {
    return null;
  }
}

/** A path inside git's own folder (a moved HEAD or branch, git's bookkeeping), not a work-tree file. */
export function insideGit(path: string): boolean {
  return path === ".git" || path.startsWith(".git/");
}

export async function isGitWorkTree(dir: string): Promise<boolean> {
  return (await gitTextOrNull(dir, ["rev-parse", "--is-inside-work-tree"])) === "true";
}

/** Paths git reports as differing from HEAD (staged, unstaged, untracked, deleted); null when git cannot say. */
export async function gitStatusPaths(root: string, within?: readonly string[]): Promise<string[] | null> {
  // `within` limits the answer to those paths (taken literally, never as globs): what an event-driven update asks.
  const values = within ? { paths: within.map((p) => `:(literal)${p}`) } : {};
  const status = await runGit(root, ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"], values).catch(() => null);
  if (status === null) return null;
  return status
    .toString("utf8")
    .split("\0")
    .filter((entry) => entry.length > 3)
    .map((entry) => entry.slice(3));
}

/** Paths that differ between two commits; null when either is unknown to git. */
export async function gitDiffPaths(root: string, from: string, to: string): Promise<string[] | null> {
  const diff = await gitTextOrNull(root, ["diff", "--name-only", "--no-renames", "-z"], { revs: [from, to] });
  return diff === null ? null : diff.split("\0").filter((p) => p.length > 0);
}
