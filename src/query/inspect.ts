import type { ReadPolicy } from "../config/schema.js";
import type { IndexRow, IndexSummary } from "../store/store.js";
import type { QueryContext, QueryResult } from "./context.js";

export interface IndexInspection {
  status: IndexRow["status"];
  repoId: string;
  baseCommit: string | null;
  branch: string | null;
  builtFromDirtyTree: boolean;
  indexVersion: string | null;
  extractorVersion: string;
  builtAt: string | null;
  buildDurationMs: number | null;
  counts: Omit<IndexSummary, "languages" | "skipped" | "topLevel"> & { skipped: number };
  languages: IndexSummary["languages"];
  exclusions: { reason: string; files: number; examples: string[]; effect: string }[];
  symbols: {
    symbols: number;
    references: number;
    filesByExtractionStatus: Record<string, number>;
    /** The SCIP layer the build read (README "A precise layer from the build"), or null when it read none. */
    scip: { indexes: string[]; documents: number; filesResolved: number; filesChangedSince: number; warnings: string[] } | null;
  };
  store: string;
  policy: ReadPolicy;
}

const SKIP_EFFECT = "kept as a row with its reason; no text indexed";

function scipOf(scip: NonNullable<QueryContext["index"]["stats"]>["scip"]): IndexInspection["symbols"]["scip"] {
  return scip ? { indexes: scip.indexes, documents: scip.documents, filesResolved: scip.files, filesChangedSince: scip.stale, warnings: scip.warnings } : null;
}

/** Index status for operators and agents: what is indexed, what was left out and why, which policy applies. */
export async function inspectIndex(ctx: QueryContext): Promise<QueryResult<IndexInspection>> {
  const s = await ctx.store.summarize(ctx.index.id);
  const sym = await ctx.store.symbolSummary(ctx.index.id);
  const exclusions: IndexInspection["exclusions"] = s.skipped.map((k) => ({ ...k, effect: SKIP_EFFECT }));
  if (s.secretSuspect > 0) {
    exclusions.push({
      reason: "secret_suspect",
      files: s.secretSuspect,
      examples: [],
      effect: ctx.policy.includeSecretSuspectFiles ? "readable, with redaction (policy allows)" : "refused by the read policy",
    });
  }
  if (s.generated > 0) {
    exclusions.push({
      reason: "generated_or_vendored",
      files: s.generated,
      examples: [],
      effect: ctx.policy.includeGeneratedFilesByDefault ? "searched by default" : "left out of search unless includeGenerated is set",
    });
  }
  const i = ctx.index;
  return {
    items: [
      {
        status: i.status,
        repoId: i.repoId,
        baseCommit: i.baseCommit,
        branch: i.branch,
        builtFromDirtyTree: i.dirty,
        indexVersion: i.indexVersion,
        extractorVersion: i.extractorVersion,
        builtAt: i.finishedAt,
        buildDurationMs: i.stats?.durationMs ?? null,
        counts: {
          files: s.files,
          indexedFiles: s.indexedFiles,
          skipped: s.files - s.indexedFiles,
          bytes: s.bytes,
          generated: s.generated,
          vendored: s.vendored,
          secretSuspect: s.secretSuspect,
          binary: s.binary,
        },
        languages: s.languages,
        exclusions,
        symbols: { symbols: sym.symbols, references: sym.references, filesByExtractionStatus: sym.byStatus, scip: scipOf(ctx.index.stats?.scip) },
        store: ctx.store.description,
        policy: ctx.policy,
      },
    ],
    stats: { truncated: false },
    evidence: [],
    labels: new Map(),
    warnings: [],
  };
}
