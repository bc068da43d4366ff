/**
 * The evidence vocabulary: how a result was retrieved, how fresh it is, the trust level its text carries, and the
 * evidence record every answer is made of. Queries draft evidence; the projection stamps it; the envelope sends it.
 */

/** How a piece of evidence was found. */
export const RETRIEVALS = ["lexical", "symbol", "syntactic", "semantic", "heuristic", "metadata"] as const;
export type Retrieval = (typeof RETRIEVALS)[number];

/** What the text of an answer reflects: the working tree, the indexed commit, or an outside snapshot. */
export const FRESHNESS_VALUES = ["working_tree", "base_commit", "cached_docs", "external_snapshot", "previous_run"] as const;
export type Freshness = (typeof FRESHNESS_VALUES)[number];

/** Evidence before projection: the projection adds commit, index version and trust label in one place. */
export interface EvidenceDraft {
  path: string;
  startLine: number;
  endLine: number;
  contentHash: string;
  retrieval: Retrieval;
}

/** A note on an answer (stale index, changed file, instruction-like text): a code and a sentence. */
/** Why an item is listed without its repository text: its file may hold a secret (the read policy's call). */
export type WithheldReason = "secret_suspect";

export interface Warning {
  code: string;
  message: string;
}

/** Who stands behind a text: the label every item of an answer carries (policy outranks repository text). */
export const TRUST_LEVELS = [
  "platform_policy",
  "repo_instructions",
  "repo_metadata",
  "source_code",
  "test_code",
  "generated_code",
  "repo_documentation",
  "repo_documentation_untrusted_instruction",
  "external_task_text",
  "tool_output",
] as const;
export type TrustLevel = (typeof TRUST_LEVELS)[number];

/** Evidence as sent: the draft stamped with commit, index version and trust label. */
export interface Evidence extends EvidenceDraft {
  /** Only for evidence read from the working tree instead of the indexed commit. */
  freshness?: "working_tree";
  commitSha: string | null;
  indexVersion: string | null;
  trustLevel: TrustLevel;
}

/** What evidence is stamped with from the index it came from: the commit and the index version. */
export interface IndexStamp {
  baseCommit: string | null;
  indexVersion: string | null;
}
