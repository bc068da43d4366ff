import type { QueryContext } from "./context.js";

export interface RepoMap {
  repoId: string;
  baseCommit: string | null;
  indexVersion: string | null;
  files: { total: number; indexed: number; skipped: number };
  languages: { language: string; files: number; bytes: number }[];
  topLevel: { name: string; kind: "directory" | "file"; files: number }[];
}

/** The repository at a glance: languages, top-level layout and file counts at the indexed commit. */
export async function repoMap(ctx: QueryContext): Promise<RepoMap> {
  const s = await ctx.store.summarize(ctx.index.id);
  return {
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
  };
}
