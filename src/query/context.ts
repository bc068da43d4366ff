import type { ReadPolicy } from "../config/schema.js";
import type { LabelInput } from "../policy/labels.js";
import type { FileRow, IndexRow, Store } from "../store/store.js";

/** What every query runs against: one ready index of one repository, and the operator's policy. */
export interface QueryContext {
  store: Store;
  index: IndexRow;
  policy: ReadPolicy;
}

export type Retrieval = "lexical" | "symbol" | "syntactic" | "semantic" | "heuristic" | "metadata";
export type Freshness = "working_tree" | "base_commit" | "cached_docs" | "external_snapshot" | "previous_run";

/** Evidence before projection: the projection adds commit, index version and trust label in one place. */
export interface EvidenceDraft {
  path: string;
  startLine: number;
  endLine: number;
  contentHash: string;
  retrieval: Retrieval;
}

export interface Warning {
  code: string;
  message: string;
}

/** What a query hands to the projection besides its items: labels for the files it touched, warnings, freshness. */
export interface QueryStats {
  truncated: boolean;
  [key: string]: unknown;
}

export interface QueryResult<T> {
  items: T[];
  stats: QueryStats;
  evidence: EvidenceDraft[];
  labels: Map<string, LabelInput>;
  warnings: Warning[];
  freshness?: Freshness;
}

export function labelInputOf(file: FileRow): LabelInput {
  return { path: file.path, isGenerated: file.isGenerated, hasInstructionLikeText: file.hasInstructionLikeText };
}
