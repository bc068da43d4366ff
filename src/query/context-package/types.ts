import type { TrustLevel } from "../../core/evidence.js";
import type { ManifestEvidence } from "./manifest-schema.js";

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

/** Every kind of block a package can hold, at run time (the manifest schema lists them); BlockKind derives from it. */
export const BLOCK_KINDS = [
  "package_header",
  "platform_policy",
  "operator_policy",
  "task_contract",
  "policy_violations",
  "goal",
  "output_contract",
  "repo_instruction",
  "verification_commands",
  "semantic_delta",
  "plan",
  "file_excerpt",
  "symbol_definition",
  "call_site",
  "related_type",
  "test_file",
  "diff_summary",
  "diff_hunks",
  "failure_summary",
  "failure_location",
  "example",
  "repo_map",
  "ownership",
  "risk",
  "doc_summary",
] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];

/** How much of a block's material is kept: lossless excerpt, reduced excerpt (signature + target), or a pointer; richest first. */
export const BLOCK_FORMS = ["full", "reduced", "pointer"] as const;
export type BlockForm = (typeof BLOCK_FORMS)[number];

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
