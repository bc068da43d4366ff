import type { BuildSystem, DocSourceType, ManifestEntrypoint, RepoDoc, RepoModule } from "../core/knowledge.js";

import type { LabelInput } from "../policy/labels.js";
import type { QueryContext } from "./context.js";
import { findEntrypoints } from "./knowledge/entrypoints.js";
import { knowledgeOf } from "./knowledge/load.js";
import type { Freshness, WithheldReason } from "../core/evidence.js";

/** Modules listed in the map; the build graph resource has them all. */
const MAX_MAP_MODULES = 200;
/** Key documents listed (READMEs, guides, ADRs...); `repo://docs/{docId}` reads any of them. */
const MAX_KEY_DOCS = 40;

export interface RepoMap {
  repoId: string;
  baseCommit: string | null;
  indexVersion: string | null;
  files: { total: number; indexed: number; skipped: number };
  languages: { language: string; files: number; bytes: number }[];
  topLevel: { name: string; kind: "directory" | "file"; files: number }[];
  buildSystems: BuildSystem[];
  modules: Pick<RepoModule, "name" | "path" | "buildSystem" | "type" | "mainLanguage" | "testPaths" | "testCommand">[];
  modulesTruncated: boolean;
  entrypoints: ManifestEntrypoint[];
  entrypointsTruncated: boolean;
  docs: { total: number; key: KeyDoc[] };
}

/** A key document as the map lists it; a secret-suspect one has no title (its first heading is its text). */
interface KeyDoc {
  docId: string;
  path: string;
  title: string | null;
  sourceType: DocSourceType;
  freshness: Freshness;
  withheld?: WithheldReason;
}

async function keyDoc(ctx: QueryContext, d: RepoDoc): Promise<KeyDoc> {
  const out: KeyDoc = { docId: d.docId, path: d.path, title: d.title, sourceType: d.sourceType, freshness: "base_commit" };
  if (ctx.policy.includeSecretSuspectFiles || !(await ctx.store.getFile(ctx.index.id, d.path))?.isSecretSuspect) return out;
  return { ...out, title: null, withheld: "secret_suspect" };
}

/** The repository at a glance: languages, layout, modules, entrypoints and key documents at the indexed commit. */
export async function repoMap(ctx: QueryContext): Promise<{ map: RepoMap; labels: Map<string, LabelInput> }> {
  const s = await ctx.store.summarize(ctx.index.id);
  const k = await knowledgeOf(ctx);
  const entry = await findEntrypoints(ctx, k);
  const docs = await k.docs();
  const key = docs.filter((d) => d.sourceType !== "docs" || !d.path.includes("/")).slice(0, MAX_KEY_DOCS);
  // Documents are labelled by the projection like any file (docs with instruction-like text are untrusted).
  const labels = new Map<string, LabelInput>(key.map((d) => [d.path, { path: d.path, isGenerated: false, hasInstructionLikeText: d.hasInstructionLikeText }]));
  const map: RepoMap = {
    repoId: ctx.index.repoId,
    baseCommit: ctx.index.baseCommit,
    indexVersion: ctx.index.indexVersion,
    files: { total: s.files, indexed: s.indexedFiles, skipped: s.files - s.indexedFiles },
    languages: s.languages
      .filter((l): l is { language: string; files: number; bytes: number } => l.language !== null)
      .map((l) => ({ language: l.language, files: l.files, bytes: l.bytes })),
    topLevel: s.topLevel.map((t) =>
      t.name.endsWith("/")
        ? { name: t.name.slice(0, -1), kind: "directory" as const, files: t.files }
        : { name: t.name, kind: "file" as const, files: t.files },
    ),
    buildSystems: k.graph.buildSystems,
    modules: k.graph.modules.slice(0, MAX_MAP_MODULES).map((m) => ({
      name: m.name,
      path: m.path,
      buildSystem: m.buildSystem,
      type: m.type,
      mainLanguage: m.mainLanguage,
      testPaths: m.testPaths,
      testCommand: m.testCommand,
    })),
    modulesTruncated: k.graph.modules.length > MAX_MAP_MODULES,
    entrypoints: entry.items,
    entrypointsTruncated: entry.truncated,
    docs: {
      total: docs.length,
      key: await Promise.all(key.map((d) => keyDoc(ctx, d))),
    },
  };
  return { map, labels };
}
