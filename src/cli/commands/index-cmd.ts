import type { Command } from "commander";
import { EXIT } from "../exit-codes.js";
import { withCommon, withSetup } from "../options.js";
import type { CommonOptions } from "../setup.js";
import type { IndexOptions, IndexResult } from "../../indexer/pipeline.js";
import type { Setup } from "../setup.js";

export interface IndexCommandOptions {
  json?: boolean;
  quiet?: boolean;
  full?: boolean;
  scip?: string[];
}

/** What a build or update of the setup's repository is given (the indexer's modules are imported by the caller). */
export async function indexOptions(s: Setup, opts: IndexCommandOptions): Promise<IndexOptions> {
  const [{ externalEmbeddings }, { createProgressReporter }] = await Promise.all([import("../../sources/embeddings.js"), import("../progress.js")]);
  return {
    root: s.root,
    store: s.store,
    ...(s.repoIdOverride ? { repoId: s.repoIdOverride } : {}),
    maxFileBytes: s.policy.maxIndexedFileBytes,
    embeddings: externalEmbeddings(s.operator.semantic, process.env),
    semantic: s.operator.semantic.train ?? s.operator.semantic.provider !== "builtin",
    ...(opts.full ? { incremental: false } : {}),
    ...(opts.scip ? { scip: opts.scip } : {}),
    ...(opts.quiet ? {} : { onProgress: createProgressReporter({ logger: s.logger }) }),
  };
}

/**
 * A few changed files update the ready index in place; otherwise (or with --full) the repository is built. The indexer
 * is imported here, when an index is built, not when the command line is (#19).
 */
export async function runIndex(s: Setup, opts: IndexCommandOptions): Promise<IndexResult> {
  const [{ updateOrBuild }, options] = await Promise.all([import("../../indexer/pipeline.js"), indexOptions(s, opts)]);
  return updateOrBuild(options);
}

/** `store` is the store's printable location (Setup.storeLabel: a PostgreSQL URL without its password). */
export function printIndexResult(r: IndexResult, store: string, json: boolean, out: NodeJS.WritableStream): void {
  const summary = {
    repoId: r.repo.repoId,
    baseCommit: r.repo.baseCommit,
    dirty: r.repo.dirty,
    indexVersion: r.indexVersion,
    walk: r.walkSource,
    store,
    ...r.stats,
  };
  if (json) {
    out.write(`${JSON.stringify(summary, null, 2)}\n`);
    return;
  }
  out.write(
    `indexed ${r.stats.indexedFiles}/${r.stats.files} files (${r.stats.skippedFiles} skipped) of ${r.repo.repoId}` +
      ` at ${r.repo.baseCommit?.slice(0, 12) ?? "(no commit)"}${r.repo.dirty ? " +dirty" : ""} in ${(r.stats.durationMs / 1000).toFixed(1)} s\n` +
      `symbols extracted for ${r.stats.extractedFiles ?? 0} files, reused for ${r.stats.reusedFiles ?? 0} unchanged files\n` +
      scipLine(r.stats.scip) +
      `index ${r.indexVersion} -> ${store}\n`,
  );
}

function scipLine(scip: IndexResult["stats"]["scip"]): string {
  if (!scip) return "";
  const stale = scip.stale > 0 ? `, ${scip.stale} changed since it was made (tree-sitter kept)` : "";
  const warned = scip.warnings.length > 0 ? `\n${scip.warnings.map((w) => `scip: ${w}`).join("\n")}` : "";
  return `SCIP (${scip.indexes.join(", ") || "none usable"}): references resolved in ${scip.files} of ${scip.documents} documents${stale}${warned}\n`;
}

/** `repoctx index [path]`: build or update the index, then print a summary. */
export function registerIndexCommand(program: Command): void {
  withCommon(program.command("index [path]").description("index a repository (default: current directory)"), false)
    .option("--json", "print the summary as JSON")
    .option("--quiet", "no progress on stderr")
    .option("--full", "re-extract every file's symbols instead of reusing those of unchanged files")
    .option("--scip <file...>", "SCIP index files (scip-typescript, scip-python, scip-java, scip-go …) whose definitions and references are taken as exact (default: index.scip at the repository root, when there is one)")
    .action(async (path: string | undefined, opts: CommonOptions & IndexCommandOptions) =>
      withSetup(opts, path, async (s) => {
        printIndexResult(await runIndex(s, opts), s.storeLabel, opts.json ?? false, process.stdout);
        return EXIT.ok;
      }),
    );
}
