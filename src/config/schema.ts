import { z } from "zod";

/** Upper bounds an operator may set; beyond them a single call could pull a whole repository into a prompt. */
const MAX_SLICE_LINES_CEILING = 5000;
const MAX_SEARCH_RESULTS_CEILING = 200;
const MAX_FILE_BYTES_CEILING = 64 * 1024 * 1024;

export const DEFAULT_MAX_FILE_SLICE_LINES = 300;
export const DEFAULT_MAX_SEARCH_RESULTS = 50;
export const DEFAULT_MAX_INDEXED_FILE_BYTES = 1024 * 1024;

/**
 * The operator's read policy (the seed's `repoContext:` block). It is loaded from the server's own
 * configuration, never from a file inside the served repository.
 */
export const ReadPolicySchema = z.strictObject({
  maxFileSliceLines: z.number().int().min(1).max(MAX_SLICE_LINES_CEILING).default(DEFAULT_MAX_FILE_SLICE_LINES),
  maxSearchResults: z.number().int().min(1).max(MAX_SEARCH_RESULTS_CEILING).default(DEFAULT_MAX_SEARCH_RESULTS),
  includeSecretSuspectFiles: z.boolean().default(false),
  includeGeneratedFilesByDefault: z.boolean().default(false),
  allowIssueComments: z.boolean().default(true),
  allowExternalDocs: z.boolean().default(false),
  allowedMetadataSources: z
    .array(z.enum(["codeowners", "service-catalog", "issue-tracker"]))
    .max(16)
    .default(["codeowners", "service-catalog", "issue-tracker"]),
  maxIndexedFileBytes: z.number().int().min(1).max(MAX_FILE_BYTES_CEILING).default(DEFAULT_MAX_INDEXED_FILE_BYTES),
  /** Adds a short redacted preview of each call's arguments to the audit log (off: hashes only). */
  auditPreview: z.boolean().default(false),
});

export type ReadPolicy = z.infer<typeof ReadPolicySchema>;

export const PolicyFileSchema = z.strictObject({
  repoContext: ReadPolicySchema.default(ReadPolicySchema.parse({})),
});

export function defaultReadPolicy(): ReadPolicy {
  return ReadPolicySchema.parse({});
}
