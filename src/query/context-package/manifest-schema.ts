import { z } from "zod";
import { BLOCK_KINDS, CONTEXT_PURPOSES, RENDER_TARGETS, TOKENIZERS } from "./types.js";

const MAX_PATH_CHARS = 1024;
const MAX_LINE = 10_000_000;
const MAX_TOKENS = 10_000_000;
const MAX_EVIDENCE = 2000;
const MAX_INSTRUCTION_SOURCES = 200;
const MAX_SCOPE_PATHS = 200;
const MAX_ID_CHARS = 200;
const MAX_OUTPUT_CONTRACT_CHARS = 1000;
const MAX_TIMESTAMP_CHARS = 64;

const sha256Hash = z.string().regex(/^sha256:[0-9a-f]{64}$/);
const repoPath = z.string().min(1).max(MAX_PATH_CHARS);
const commit = z.string().regex(/^[0-9a-f]{7,64}$/);
const line = z.number().int().min(1).max(MAX_LINE);
const tokens = z.number().int().min(0).max(MAX_TOKENS);

/** One piece of evidence in a package, as the manifest records it. */
const manifestEvidenceSchema = z.strictObject({
  /** `E1`, `E2`, … as printed in the rendered package. */
  id: z.string().min(1).max(MAX_ID_CHARS),
  path: repoPath,
  startLine: line,
  endLine: line,
  /** `sha256:` of the whole file as the package saw it (the index's content hash, or the work tree's when overlaid). */
  hash: sha256Hash.describe("Hash of the whole file as the package saw it"),
  /** `sha256:` of lines startLine..endLine joined by `\n`: lets a freshness check tell an edit elsewhere in the file. */
  spanHash: sha256Hash.describe("Hash of lines startLine..endLine joined by \\n"),
  kind: z.enum(BLOCK_KINDS),
  /** Present when the bytes came from the working tree rather than the indexed commit. */
  freshness: z.enum(["working_tree"]).optional(),
});

/** An instruction file in force for the package's paths, by hash. */
const manifestInstructionSourceSchema = z.strictObject({ path: repoPath, hash: sha256Hash });

/**
 * A context package's manifest (Part 032 §24), as build_context_package emits it and check_context_freshness
 * accepts it: the one definition of the manifest, its TypeScript types derived below.
 */
export const contextManifestSchema = z.strictObject({
  manifestVersion: z.literal(1),
  contextPackageId: z.string().min(1).max(MAX_ID_CHARS),
  purpose: z.enum(CONTEXT_PURPOSES),
  repoId: z.string().min(1).max(MAX_ID_CHARS),
  baseCommit: commit.nullable(),
  indexVersion: z.string().min(1).max(MAX_ID_CHARS).nullable(),
  createdAt: z.string().min(1).max(MAX_TIMESTAMP_CHARS),
  target: z.enum(RENDER_TARGETS),
  tokenizer: z.enum(TOKENIZERS),
  budgetTokens: tokens,
  tokenEstimate: tokens,
  /** Paths the package's instructions were resolved for (the candidate and diff paths). */
  scopePaths: z.array(repoPath).max(MAX_SCOPE_PATHS).describe("Paths the package's instructions were resolved for"),
  evidence: z.array(manifestEvidenceSchema).max(MAX_EVIDENCE),
  instructionSources: z.array(manifestInstructionSourceSchema).max(MAX_INSTRUCTION_SOURCES),
  constraintsHash: sha256Hash,
  effectiveInstructionHash: sha256Hash,
  outputContract: z.string().min(1).max(MAX_OUTPUT_CONTRACT_CHARS),
});

/** One piece of evidence in a package, as the manifest records it. */
export type ManifestEvidence = z.infer<typeof manifestEvidenceSchema>;

/** An instruction file in force for the package's paths, by hash. */
export type ManifestInstructionSource = z.infer<typeof manifestInstructionSourceSchema>;

/** Part 032 §24: enough to replay, audit and later prove whether a package went stale. */
export type ContextManifest = z.infer<typeof contextManifestSchema>;
