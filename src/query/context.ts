import type { ReadPolicy } from "../config/schema.js";
import type { LabelInput } from "../policy/labels.js";
import type { FileRow, IndexRow, Store } from "../store/store.js";
import type { EvidenceDraft, Freshness, Warning } from "../core/evidence.js";

/** What every query runs against: one ready index of one repository, and the operator's policy. */
export interface QueryContext {
  store: Store;
  index: IndexRow;
  policy: ReadPolicy;
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
