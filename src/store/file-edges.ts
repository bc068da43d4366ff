import type { FileEdge } from "./store.js";

/**
 * A name defined in more files than this does not say which one a reference means (`init`, `probe`, `get` on a
 * large repository): it makes no edges.
 */
export const MAX_NAME_DEFINITIONS = 8;
/** References to one name read at most, for edges into a file (a popular function is called from everywhere). */
export const MAX_NAME_REFERENCES = 2000;
/** An edge's weight stops growing here: ten calls into a file say as much as a hundred. */
export const MAX_EDGE_WEIGHT = 10;

/** What fileEdges reads from a store's symbol and reference tables (each store answers it its own way). */
export interface EdgeSource {
  /** The names a file references, with how often. */
  referencedNames(fileId: number): readonly { name: string; n: number }[];
  /** The distinct names a file defines. */
  definedNames(fileId: number): readonly string[];
  /** Distinct files defining exactly this name (case-sensitive): all of them, or at least MAX_NAME_DEFINITIONS + 1. */
  definers(name: string): readonly number[];
  /** Files among the first MAX_NAME_REFERENCES references to this name (in id order), with their counts. */
  referrers(name: string): readonly { fileId: number; n: number }[];
}

/**
 * Edges out of and into the given files, merged, heaviest first, at most `limit`. Out: the file's reference names,
 * each looked up among definitions. In: the file's defined names, each looked up among references. Work grows with
 * the given files' own names, never with the repository.
 */
export function assembleEdges(fileIds: readonly number[], limit: number, source: EdgeSource): FileEdge[] {
  const defined = new Map<string, readonly number[]>();
  const definedIn = (name: string): readonly number[] => {
    let files = defined.get(name);
    if (files === undefined) {
      files = source.definers(name);
      if (files.length > MAX_NAME_DEFINITIONS) files = [];
      defined.set(name, files);
    }
    return files;
  };
  const edges = new Map<string, FileEdge>();
  const add = (from: number, to: number, n: number) => {
    if (from === to) return;
    const key = `${from}>${to}`;
    const e = edges.get(key) ?? { from, to, weight: 0 };
    e.weight = Math.min(MAX_EDGE_WEIGHT, e.weight + n);
    edges.set(key, e);
  };
  const given = new Set(fileIds);
  for (const file of given) {
    for (const r of source.referencedNames(file)) {
      for (const to of definedIn(r.name)) add(file, to, r.n);
    }
    for (const name of source.definedNames(file)) {
      if (definedIn(name).length === 0) continue;
      // References from given files were counted by their own outgoing pass.
      for (const r of source.referrers(name)) if (!given.has(r.fileId)) add(r.fileId, file, r.n);
    }
  }
  return [...edges.values()].sort((a, b) => b.weight - a.weight || a.from - b.from || a.to - b.to).slice(0, limit);
}
