import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import ignore, { type Ignore } from "ignore";
import { runGit } from "./git.js";

/** How a path came to be listed: git's own listing, or our `.gitignore`-aware walk outside git. */
export type WalkSource = "git" | "filesystem";

export interface WalkResult {
  source: WalkSource;
  /** Repository-relative paths with forward slashes, sorted, unique. */
  paths: string[];
}

/**
 * Tracked files plus untracked files that are not ignored, as git itself decides (`.gitignore`, `.git/info/exclude`,
 * the user's excludes file). Paths come back NUL-separated, so names with newlines or quotes are safe.
 */
export async function walkGit(root: string): Promise<WalkResult> {
  const out = await runGit(root, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { paths: ["."] });
  const paths = new Set<string>();
  for (const p of out.toString("utf8").split("\0")) if (p.length > 0) paths.add(p);
  return { source: "git", paths: [...paths].sort() };
}

interface IgnoreLayer {
  base: string;
  matcher: Ignore;
}

async function readIgnoreLayer(dir: string, relDir: string): Promise<IgnoreLayer | null> {
  let text: string;
  try {
    text = await readFile(join(dir, ".gitignore"), "utf8");
  } catch {
    return null;
  }
  return { base: relDir, matcher: ignore().add(text) };
}

function isIgnored(layers: IgnoreLayer[], relPath: string, isDir: boolean): boolean {
  let ignored = false;
  for (const layer of layers) {
    const local = layer.base === "" ? relPath : relPath.slice(layer.base.length + 1);
    const candidate = isDir ? `${local}/` : local;
    const result = layer.matcher.test(candidate);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

/**
 * Outside git: a depth-first walk that honours nested `.gitignore` files (deeper files override shallower ones)
 * and never descends into `.git`. Symlinks are listed, not followed: the inventory decides what they are.
 */
export async function walkFilesystem(root: string): Promise<WalkResult> {
  const paths: string[] = [];
  async function visit(dir: string, relDir: string, layers: IgnoreLayer[]): Promise<void> {
    const layer = await readIgnoreLayer(dir, relDir);
    const active = layer ? [...layers, layer] : layers;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name === ".git") continue;
      const rel = relDir === "" ? entry.name : `${relDir}/${entry.name}`;
      const isDir = entry.isDirectory();
      if (isIgnored(active, rel, isDir)) continue;
      if (isDir) await visit(join(dir, entry.name), rel, active);
      else paths.push(rel);
    }
  }
  await visit(root, "", []);
  return { source: "filesystem", paths: paths.sort() };
}
