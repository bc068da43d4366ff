import { gitTextOrNull } from "../indexer/git.js";

/** HEAD is re-read at most this often for stale-index warnings. */
const HEAD_CACHE_MS = 1000;

/** The commit HEAD points at now (for stale-index warnings); null outside git or before the first commit. */
export async function currentHead(rootPath: string): Promise<string | null> {
  return gitTextOrNull(rootPath, ["rev-parse", "--verify", "-q", "HEAD"]);
}

/** `currentHead` cached for HEAD_CACHE_MS: a burst of tool calls shares one `git rev-parse`. */
export function cachedHeadReader(root: string, now: () => number = Date.now): () => Promise<string | null> {
  let cached: { at: number; value: Promise<string | null> } | null = null;
  return () => {
    const t = now();
    if (!cached || t - cached.at > HEAD_CACHE_MS) cached = { at: t, value: currentHead(root) };
    return cached.value;
  };
}
