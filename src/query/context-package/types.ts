import type { TrustLevel } from "../../core/evidence.js";

/** What a package is for (Part 032 §15): each purpose selects different content. */
export const CONTEXT_PURPOSES = ["planning", "editing", "verification_repair", "judging", "pr_summary"] as const;
export type ContextPurpose = (typeof CONTEXT_PURPOSES)[number];

/** Message shapes a package can be rendered into; selection never depends on the target. */
export const RENDER_TARGETS = ["openai", "anthropic", "gemini", "local"] as const;
export type RenderTarget = (typeof RENDER_TARGETS)[number];

/** Byte-pair encodings the budget can be counted in (o200k_base by default). */
export const TOKENIZERS = ["o200k_base", "cl100k_base"] as const;
export type TokenizerName = (typeof TOKENIZERS)[number];

/**
 * Part 032 §4, in order: what is dropped first when the budget runs out is the highest rank. Ranks 1–3 are never
 * dropped: a budget that cannot hold them is refused.
 */
export const PRIORITY_ORDER = [
  "system_instruction",
  "safety_policy",
  "task_goal",
  "repository_instructions",
  "execution_plan",
  "code_evidence",
  "build_test_evidence",
  "examples",
  "memory",
  "optional_docs",
] as const;
export type Priority = (typeof PRIORITY_ORDER)[number];

/** Where a block goes when rendered: authority (system role) or the working material (user role). */
export type BlockRole = "system" | "user";

export type BlockKind =
  | "package_header"
  | "platform_policy"
  | "operator_policy"
  | "task_contract"
  | "policy_violations"
  | "goal"
  | "output_contract"
  | "repo_instruction"
  | "verification_commands"
  | "semantic_delta"
  | "plan"
  | "file_excerpt"
  | "symbol_definition"
  | "call_site"
  | "related_type"
  | "test_file"
  | "diff_summary"
  | "diff_hunks"
  | "failure_summary"
  | "failure_location"
  | "example"
  | "repo_map"
  | "ownership"
  | "risk"
  | "doc_summary";

/** How much of a block's material is kept: lossless excerpt, reduced excerpt (signature + target), or a pointer. */
export type BlockForm = "full" | "reduced" | "pointer";

/** One piece of evidence in a package, as the manifest records it. */
export interface ManifestEvidence {
  /** `E1`, `E2`, … as printed in the rendered package. */
  id: string;
  path: string;
  startLine: number;
  endLine: number;
  /** `sha256:` of the whole file as the package saw it (the index's content hash, or the work tree's when overlaid). */
  hash: string;
  /** `sha256:` of lines startLine..endLine joined by `\n`: lets a freshness check tell an edit elsewhere in the file. */
  spanHash: string;
  kind: BlockKind;
  /** Present when the bytes came from the working tree rather than the indexed commit. */
  freshness?: "working_tree";
}

/** An instruction file in force for the package's paths, by hash. */
export interface ManifestInstructionSource {
  path: string;
  hash: string;
}

/** Part 032 §24: enough to replay, audit and later prove whether a package went stale. */
export interface ContextManifest {
  manifestVersion: 1;
  contextPackageId: string;
  purpose: ContextPurpose;
  repoId: string;
  baseCommit: string | null;
  indexVersion: string | null;
  createdAt: string;
  target: RenderTarget;
  tokenizer: TokenizerName;
  budgetTokens: number;
  tokenEstimate: number;
  /** Paths the package's instructions were resolved for (the candidate and diff paths). */
  scopePaths: string[];
  evidence: ManifestEvidence[];
  instructionSources: ManifestInstructionSource[];
  constraintsHash: string;
  effectiveInstructionHash: string;
  outputContract: string;
}

/** One rendered unit of a package, in priority order. */
export interface ContextBlock {
  id: string;
  priority: Priority;
  role: BlockRole;
  kind: BlockKind;
  title: string;
  /** The text as the model reads it: redacted, and inside the untrusted-content wrapper when it is repository text. */
  text: string;
  form: BlockForm;
  trustLevel: TrustLevel;
  /** Why the block is in the package. */
  reason: string;
  evidence?: ManifestEvidence;
}
