import { createOwnershipMatcher, type OwnershipDecision } from "../../indexer/knowledge/codeowners.js";
import { moduleOf } from "../../indexer/knowledge/module-of.js";
import type { BuildGraph, OwnershipFile, RepoDoc, RepoModule } from "../../core/knowledge.js";
import { isTestPath } from "../../policy/labels.js";
import { isSnapshotPath } from "./related/roles.js";
import type { FileRow } from "../../store/store.js";
import type { QueryContext } from "../context.js";
import { normalizeRepoPath } from "../../policy/path-guard.js";
import { QueryError } from "../../core/errors.js";

/** What the knowledge tools read for one index, loaded once per index and kept while it serves. */
export interface Knowledge {
  graph: BuildGraph;
  ownership: OwnershipFile;
  owners(path: string): OwnershipDecision;
  moduleOf(path: string): RepoModule | null;
  /** Indexed test files (by the test-path conventions), path order. */
  testFiles(): Promise<FileRow[]>;
  /** Indexed snapshot and golden files (recorded test outputs, whatever their language), path order. */
  snapshotFiles(): Promise<FileRow[]>;
  /** Every document of the index, path order. */
  docs(): Promise<RepoDoc[]>;
}

/** Indexes whose knowledge stays loaded: the serving one plus one being swapped in by a reindex. */
const CACHED_INDEXES = 2;
/** Per store, then per index: a store closed and reopened (tests, benchmarks) never serves another's loaded rows. */
const caches = new WeakMap<object, Map<string, Promise<Knowledge>>>();

async function load(view: QueryContext): Promise<Knowledge> {
  // Lazy readers outlive this call: they read the index itself, never a per-call working-tree view.
  const ctx = { ...view, store: (view.store as { base?: QueryContext["store"] }).base ?? view.store };
  const { graph, ownership } = await ctx.store.getKnowledge(ctx.index.id);
  const matcher = createOwnershipMatcher(ownership.rules);
  let tests: Promise<FileRow[]> | null = null;
  let snapshots: Promise<FileRow[]> | null = null;
  let docs: Promise<RepoDoc[]> | null = null;
  return {
    graph,
    ownership,
    owners: matcher,
    moduleOf: (path) => moduleOf(graph.modules, path),
    testFiles: () =>
      (tests ??= ctx.store
        .listFiles(ctx.index.id)
        .then((files) => files.filter((f) => f.skipReason === null && f.language !== null && isTestPath(f.path)))),
    snapshotFiles: () => (snapshots ??= ctx.store.listFiles(ctx.index.id).then((files) => files.filter((f) => f.skipReason === null && isSnapshotPath(f.path)))),
    docs: () => (docs ??= ctx.store.listDocs(ctx.index.id, { limit: Number.MAX_SAFE_INTEGER }).then((r) => r.docs)),
  };
}

export function knowledgeOf(ctx: QueryContext): Promise<Knowledge> {
  // An in-place update keeps the index id and changes its version.
  const key = `${ctx.index.id}@${ctx.index.indexVersion ?? ""}`;
  // An overlay view is made per call: its index knowledge is the base store's.
  const owner = (ctx.store as { base?: object }).base ?? ctx.store;
  let cache = caches.get(owner);
  if (!cache) caches.set(owner, (cache = new Map()));
  let k = cache.get(key);
  if (!k) {
    k = load(ctx);
    k.catch(() => cache!.delete(key));
    cache.set(key, k);
    while (cache.size > CACHED_INDEXES) cache.delete(cache.keys().next().value!);
  }
  return k;
}

/** A repository-relative path from a caller, normalized; traversal and absolute paths are rejected. */
export function requirePath(input: string): string {
  const n = normalizeRepoPath(input);
  if (!n.ok) throw new QueryError("query_rejected", n.message);
  return n.relPath;
}
