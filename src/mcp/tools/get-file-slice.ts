import { z } from "zod";
import { getFileSlice } from "../../query/slice.js";
import { defineTool, toToolOutput, type CompactData } from "../../service/tool.js";

const MAX_PATH_CHARS = 1024;
const MAX_LINE = 10_000_000;

export const getFileSliceSchema = z.strictObject({
  path: z.string().min(1).max(MAX_PATH_CHARS).describe("Repository-relative path, e.g. src/app.ts"),
  startLine: z.number().int().min(1).max(MAX_LINE).optional().describe("First line (1-based, default 1)"),
  endLine: z.number().int().min(1).max(MAX_LINE).optional().describe("Last line (inclusive); the read policy caps the span"),
  includeLineNumbers: z.boolean().default(true),
  expectedContentHash: z
    .string()
    .regex(/^sha256:[0-9a-f]{64}$/)
    .optional()
    .describe("If given and the file's current hash differs, the call fails with stale_context"),
});

export const getFileSliceTool = defineTool({
  name: "get_file_slice",
  description:
    "Read lines of an indexed file, numbered, with its content hash and trust label; give expectedContentHash " +
    "to learn whether it changed since you read it. Paths stay inside the repository; secret-suspect files are " +
    "refused by the read policy.",
  inputSchema: getFileSliceSchema,
  annotations: { title: "Read file slice", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  compact: (data) => ({ ...data, slice: compactSlice(data.slice as CompactData | null) }),
  handler: async (args, ctx, deps) => toToolOutput(await getFileSlice(ctx, deps.workTree === false ? null : deps.root, args), "slice", true),
});

/**
 * The compact slice: the indexed hash only where it differs from the file's (the file changed since indexing), and
 * of the classification only what holds (a flag that is true, a reason that is given).
 */
function compactSlice(slice: CompactData | null): CompactData | null {
  if (!slice) return null;
  const { indexedContentHash, classification, ...rest } = slice;
  const held = classification && typeof classification === "object" && !Array.isArray(classification)
    ? Object.fromEntries(Object.entries(classification).filter(([, v]) => v !== false && v !== null))
    : classification;
  return {
    ...rest,
    ...(indexedContentHash !== slice.contentHash ? { indexedContentHash: indexedContentHash ?? null } : {}),
    ...(held && typeof held === "object" && Object.keys(held).length > 0 ? { classification: held } : {}),
  };
}
