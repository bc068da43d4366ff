import { z } from "zod";
import { checkContextFreshness } from "../../query/context-package/freshness.js";
import { CONTEXT_PURPOSES, RENDER_TARGETS, TOKENIZERS, type BlockKind, type ContextManifest } from "../../query/context-package/types.js";
import { defineTool } from "../../service/tool.js";

const MAX_PATH_CHARS = 1024;
const MAX_LINE = 10_000_000;
const MAX_TOKENS = 10_000_000;
const MAX_EVIDENCE = 2000;
const MAX_INSTRUCTION_SOURCES = 200;
const MAX_SCOPE_PATHS = 200;
const MAX_ID_CHARS = 200;
const MAX_OUTPUT_CONTRACT_CHARS = 1000;
const MAX_TIMESTAMP_CHARS = 64;

/** Every BlockKind, at run time; the two checks below fail the typecheck when types.ts adds or drops one. */
const BLOCK_KINDS = [
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
] as const satisfies readonly BlockKind[];
true satisfies [Exclude<BlockKind, (typeof BLOCK_KINDS)[number]>] extends [never] ? true : never;

const sha256Hash = z.string().regex(/^sha256:[0-9a-f]{64}$/);
const repoPath = z.string().min(1).max(MAX_PATH_CHARS);
const commit = z.string().regex(/^[0-9a-f]{7,64}$/);
const line = z.number().int().min(1).max(MAX_LINE);
const tokens = z.number().int().min(0).max(MAX_TOKENS);

/** A context package's manifest (Part 032 §24), as build_context_package emits it; shared with the builder and the CLI. */
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
  scopePaths: z.array(repoPath).max(MAX_SCOPE_PATHS).describe("Paths the package's instructions were resolved for"),
  evidence: z
    .array(
      z.strictObject({
        id: z.string().min(1).max(MAX_ID_CHARS),
        path: repoPath,
        startLine: line,
        endLine: line,
        hash: sha256Hash.describe("Hash of the whole file as the package saw it"),
        spanHash: sha256Hash.describe("Hash of lines startLine..endLine joined by \\n"),
        kind: z.enum(BLOCK_KINDS),
        freshness: z.enum(["working_tree"]).optional(),
      }),
    )
    .max(MAX_EVIDENCE),
  instructionSources: z.array(z.strictObject({ path: repoPath, hash: sha256Hash })).max(MAX_INSTRUCTION_SOURCES),
  constraintsHash: sha256Hash,
  effectiveInstructionHash: sha256Hash,
  outputContract: z.string().min(1).max(MAX_OUTPUT_CONTRACT_CHARS),
});

/** The schema accepts exactly a ContextManifest: drift on either side fails the typecheck. */
true satisfies [z.infer<typeof contextManifestSchema>] extends [ContextManifest] ? ([ContextManifest] extends [z.infer<typeof contextManifestSchema>] ? true : never) : never;

export const checkContextFreshnessSchema = z.strictObject({
  manifest: contextManifestSchema.describe("The manifest build_context_package returned with the package"),
});

export const checkContextFreshnessTool = defineTool({
  name: "check_context_freshness",
  description:
    "Given a context package's manifest, report what went stale since it was built: HEAD moved (commit_moved), evidence files " +
    "changed (file_changed, with spanChanged saying whether the cited lines themselves changed) or deleted (file_deleted), and " +
    "instruction files in force for its paths changed, added or removed. fresh is true only when nothing is stale. Compares " +
    "hashes with the work tree as it is now; never returns file content. Paths outside the repository and files the read " +
    "policy hides are listed under notChecked and never read.",
  inputSchema: checkContextFreshnessSchema,
  // Not idempotent: the same manifest gets a different answer once the work tree changes.
  annotations: { title: "Check context freshness", readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, ctx, deps) => {
    const r = await checkContextFreshness(ctx, { root: deps.root, readHead: deps.readHead }, args.manifest);
    return { data: { contextFreshness: r.report }, evidence: r.evidence, labels: r.labels, warnings: r.warnings, truncated: r.truncated, freshness: "working_tree" };
  },
});
