import { hostname } from "node:os";
import type { BuildGraph, OwnershipFile } from "../core/knowledge.js";
import type { Confidence, ExtractionStatus, Extractor } from "../core/symbols.js";
import type { SkipCount, SkipReason } from "./store.js";

/**
 * Rules about stored rows that every store applies the same way.
 */

/**
 * Symbol and reference ids are `file id × ROW_ID_STRIDE + position in the file`: a file's rows are one id range
 * (read or copied through the primary key, no extra index), a reference names its enclosing symbol by id, and a
 * later build copies an unchanged file's rows by shifting ids to the new file id. A file has far fewer than
 * 2^20 symbols or references (files over the parse limit are not parsed).
 */
export const ROW_ID_STRIDE = 1 << 20;

/** The smallest string greater than every string starting with `prefix` (for range scans on a prefix). */
export function prefixUpperBound(prefix: string): string {
  return prefix + "\u{10FFFF}";
}

/** The extractors isParsedExtractor accepts, as an SQL list. */
export const PARSED_EXTRACTORS_SQL = "'tree-sitter', 'scip'";

/** Confidence of what a file's extraction produced: exact parse, parse with errors, or lexical. */
export function extractionConfidence(extractor: Extractor | null, status: ExtractionStatus | null): Confidence {
  if (extractor !== "tree-sitter" && extractor !== "scip") return "low";
  return status === "ok" ? "high" : "medium";
}

/**
 * Confidence of one symbol or reference row: in a file a SCIP index resolved, a row with its SCIP symbol is
 * `exact`; a definition SCIP did not confirm keeps tree-sitter's confidence, and a reference SCIP did not resolve
 * (a dynamic member, an outside import) is `medium`.
 */
export function rowConfidence(extractor: Extractor | null, status: ExtractionStatus | null, resolved: boolean, row: "symbol" | "reference"): Confidence {
  if (extractor === "scip") {
    if (resolved) return "exact";
    if (row === "reference") return "medium";
  }
  return extractionConfidence(extractor, status);
}

/** The build graph and ownership file of an index that has none. */
export const EMPTY_GRAPH: Omit<BuildGraph, "modules"> = { buildSystems: [], edges: [], rootTestCommand: null, entrypoints: [], warnings: [] };
export const EMPTY_OWNERSHIP: Omit<OwnershipFile, "rules"> = { path: null, shadowed: [], warnings: [] };

/** Example paths summarize gives per skip reason. */
const SKIP_EXAMPLES = 5;

/** Skipped files per reason, from rows in reason and path order. */
export function skipCounts(rows: readonly { reason: SkipReason; path: string }[]): SkipCount[] {
  const skipped = new Map<SkipReason, SkipCount>();
  for (const r of rows) {
    const entry = skipped.get(r.reason) ?? { reason: r.reason, files: 0, examples: [] };
    entry.files += 1;
    if (entry.examples.length < SKIP_EXAMPLES) entry.examples.push(r.path);
    skipped.set(r.reason, entry);
  }
  return [...skipped.values()];
}

/** Who is building an index: this host and process, recorded so a later build can tell a dead builder's leftovers. */
export function builderIdentity(): string {
  return `${hostname()}:${process.pid}`;
}

/** A build whose builder ran on this host in a process that no longer exists. */
export function isAbandoned(builder: string | null): boolean {
  if (builder === null) return false;
  const at = builder.lastIndexOf(":");
  const host = builder.slice(0, at);
  const pid = Number(builder.slice(at + 1));
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as { code?: string }).code === "ESRCH";
  }
}
