/**
 * The innermost module of a path, apart from the manifest readers (./manifests.ts re-exports it): the query layer
 * looks modules up on every call, and should not load every ecosystem's parser (TOML, XML, YAML) to do so.
 */
import type { RepoModule } from "../../core/knowledge.js";
import { indexByFolder, innermost } from "./manifests/files.js";

/** "/" separators, no leading "./". */
export function normalizePath(path: string): string {
  let p = path.includes("\\") ? path.replace(/\\/g, "/") : path;
  while (p.startsWith("./")) p = p.slice(2);
  return p;
}

/** Innermost module containing a path (modules sorted any way), or null. */
export function moduleOf(modules: RepoModule[], path: string): RepoModule | null {
  // The index is cached per array (treated as immutable; a change of length or ends rebuilds it).
  let index = folderIndexCache.get(modules);
  if (index === undefined || index.size !== modules.length || index.first !== modules[0] || index.last !== modules[modules.length - 1]) {
    index = { size: modules.length, first: modules[0], last: modules[modules.length - 1], byFolder: indexByFolder(modules) };
    folderIndexCache.set(modules, index);
  }
  return innermost(index.byFolder, (m: RepoModule) => m, normalizePath(path), null);
}

const folderIndexCache = new WeakMap<
  RepoModule[],
  { size: number; first: RepoModule | undefined; last: RepoModule | undefined; byFolder: Map<string, RepoModule[]> }
>();
