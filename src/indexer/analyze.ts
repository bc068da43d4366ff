import type { FileInput, ReusableExtraction, Store } from "../store/store.js";
import type { Extraction } from "../core/symbols.js";
import { fileTerms, type FileTerms } from "../core/terms.js";
import { LEXICAL_LANGUAGES, NO_SYMBOL_GENERATED_REASONS, languageSpec } from "./symbols/languages.js";
import { extractLexical } from "./symbols/lexical.js";
import type { ExtractionPool } from "./symbols/pool.js";
import type { ScipLayer } from "./scip/load.js";
import { SCIP_DETAIL, mergeScip } from "./scip/merge.js";

/**
 * Files larger than this are not parsed (lexical definitions only): mostly generated tables and register headers,
 * and their syntax trees would grow each worker's WebAssembly memory for good.
 */
const MAX_PARSE_BYTES = 512 * 1024;

/** Extraction outcomes worth keeping: a failure or timeout is retried by the next build instead. */
const REUSABLE_STATUSES: ReadonlySet<string> = new Set(["ok", "syntax_errors", "no_grammar", "skipped"]);
/** A reused file's defined names are all read back (a file has far fewer symbols than this). */
const ALL_SYMBOLS = Number.MAX_SAFE_INTEGER;

/** Extractions of the ready index that a build may reuse, and the store to read their names from. */
export interface Reusable {
  indexId: string;
  files: Map<string, ReusableExtraction>;
  store: Store;
}

/** Symbols, references and ranking terms of one file outside a build (the working-tree overlay), as a build makes them. */
export function extractFileSymbols(row: FileInput, pool: ExtractionPool): Promise<FileInput> {
  return analyzeFile(row, pool, null);
}

/**
 * What every indexed text file gets: symbols and references (extracted, or reused from the ready index), then
 * ranking terms from its text and defined names. A reused file's names are read back from the index, so its
 * terms are the same as a fresh extraction's.
 */
export async function analyzeFile(row: FileInput, pool: ExtractionPool, reusable: Reusable | null, scip: ScipLayer | null = null): Promise<FileInput> {
  const out = await withSymbols(row, pool, reusable, scip);
  if (out.content === null || out.skipReason !== null || out.terms) return out;
  const names = out.reuse
    ? (await reusable!.store.findSymbols(out.reuse.indexId, { path: out.path, limit: ALL_SYMBOLS })).map((s) => s.name)
    : (out.extraction?.symbols ?? []).map((s) => s.name);
  return { ...out, terms: fileTerms(out.path, out.content, names) };
}

/** Adds symbols and references to an indexed text file: tree-sitter where a grammar exists, else lexical. */
async function withSymbols(
  row: FileInput,
  pool: ExtractionPool,
  reusable: Reusable | null,
  scip: ScipLayer | null,
): Promise<FileInput> {
  if (row.content === null || row.skipReason !== null) return row;
  // Generated files without symbols (lockfiles, minified bundles) have nothing to extract or reuse.
  if (row.generatedReason !== null && NO_SYMBOL_GENERATED_REASONS.has(row.generatedReason)) {
    return { ...row, symbolStatus: "skipped", symbolDetail: `generated: ${row.generatedReason}` };
  }
  const prior = reusable?.files.get(row.path);
  const layer = scip?.byPath.get(row.path) ?? null;
  if (prior && prior.contentHash === row.contentHash && REUSABLE_STATUSES.has(prior.symbolStatus) && sameScip(prior, layer?.source ?? null)) {
    return {
      ...row,
      reuse: { indexId: reusable!.indexId, fileId: prior.fileId },
      symbolStatus: prior.symbolStatus,
      symbolExtractor: prior.symbolExtractor,
      symbolDetail: prior.symbolDetail,
    };
  }
  let extraction: Extraction;
  // Parsed files get their terms where they are parsed (a worker thread on larger repositories).
  let terms: FileTerms | undefined;
  if (languageSpec(row.language) && row.sizeBytes > MAX_PARSE_BYTES) {
    // Syntax trees of very large files take memory that a WebAssembly heap never gives back.
    extraction = { ...extractLexical(row.content), status: "skipped" as const, detail: `larger than ${MAX_PARSE_BYTES} bytes: lexical definitions only` };
  } else if (languageSpec(row.language)) ({ extraction, terms } = await pool.analyze(row.language, row.path, row.content));
  else if (row.language !== null && LEXICAL_LANGUAGES.has(row.language)) extraction = { ...extractLexical(row.content), status: "no_grammar" as const };
  else return row;
  if (layer && extraction.extractor === "tree-sitter") extraction = mergeScip(extraction, layer.doc, row.content, layer.source).extraction;
  return { ...row, extraction, terms, symbolStatus: extraction.status, symbolExtractor: extraction.extractor, symbolDetail: extraction.detail };
}

/** An earlier extraction is reused only if it was made with the same SCIP document (or none, and none now). */
function sameScip(prior: ReusableExtraction, source: string | null): boolean {
  return source === null ? !prior.symbolDetail?.includes(SCIP_DETAIL) : prior.symbolDetail?.includes(source) === true;
}
