import { basename } from "node:path";
import { gitTextOrNull, isGitWorkTree, runGit } from "./git.js";

export interface RepoInfo {
  rootPath: string;
  repoId: string;
  isGit: boolean;
  baseCommit: string | null;
  branch: string | null;
  dirty: boolean;
}

const REPO_ID_MAX = 200;

/**
 * Derives `owner/name` from a remote URL in its common forms (scp-like `git@host:owner/name.git`,
 * `https://host/owner/name(.git)`, `ssh://git@host:port/owner/name.git`). Credentials in URLs are never kept; local
 * paths and file: URLs give null.
 */
export function repoIdFromRemote(url: string): string | null {
  const trimmed = url.trim().replace(/\.git\/?$/, "").replace(/\/+$/, "");
  // A clone of a local folder names no owner: the caller falls back to the folder name.
  if (/^(\/|\.{1,2}\/|~|file:|[A-Za-z]:[\\/])/.test(trimmed)) return null;
  let pathPart: string | null = null;
  const scp = /^[^/@\s]+@[^:/\s]+:(.+)$/.exec(trimmed);
  if (scp) pathPart = scp[1]!;
  else {
    try {
      pathPart = new URL(trimmed).pathname;
    } catch {
      pathPart = trimmed;
    }
  }
  const segments = pathPart.split("/").filter((s) => s.length > 0 && s !== "." && s !== "..");
  if (segments.length === 0) return null;
  const id = segments.slice(-2).join("/");
  return /^[\w.@/-]+$/.test(id) ? id.slice(0, REPO_ID_MAX) : null;
}

export function sanitizeRepoId(id: string): string {
  const cleaned = id.trim().replace(/[^\w.@/-]+/g, "-").slice(0, REPO_ID_MAX);
  return cleaned.length > 0 ? cleaned : "repo";
}

/** Repository identity and git state at the moment of indexing. */
export async function readRepoInfo(rootPath: string, repoIdOverride?: string, knownStatus?: string[]): Promise<RepoInfo> {
  const isGit = await isGitWorkTree(rootPath);
  let repoId = repoIdOverride ? sanitizeRepoId(repoIdOverride) : null;
  if (!isGit) {
    return { rootPath, repoId: repoId ?? sanitizeRepoId(basename(rootPath)), isGit, baseCommit: null, branch: null, dirty: true };
  }
  const [baseCommit, branch, remote] = await Promise.all([
    gitTextOrNull(rootPath, ["rev-parse", "--verify", "-q", "HEAD"]),
    gitTextOrNull(rootPath, ["rev-parse", "--abbrev-ref", "HEAD"]),
    gitTextOrNull(rootPath, ["config", "--get", "remote.origin.url"]),
  ]);
  repoId ??= (remote ? repoIdFromRemote(remote) : null) ?? sanitizeRepoId(basename(rootPath));
  // A caller that already ran `git status` passes its paths: on a large work tree each run costs a few hundred ms.
  const dirty = knownStatus ? knownStatus.length > 0 : (await runGit(rootPath, ["status", "--porcelain", "-z", "--untracked-files=normal"], { paths: ["."] })).length > 0;
  return { rootPath, repoId, isGit, baseCommit, branch: branch === "HEAD" ? null : branch, dirty };
}


