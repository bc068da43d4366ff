import { z } from "zod";
import { checkContextFreshness } from "../../query/context-package/freshness.js";
import { contextManifestSchema } from "../../query/context-package/manifest-schema.js";
import { defineTool } from "../../service/tool.js";

export const checkContextFreshnessSchema = z.strictObject({
  manifest: contextManifestSchema.describe("The manifest build_context_package returned with the package"),
});

export const checkContextFreshnessTool = defineTool({
  name: "check_context_freshness",
  description:
    "Given a context package's manifest: what went stale since it was built (HEAD moved, evidence files " +
    "changed or deleted, with whether the cited lines changed; instruction files changed). fresh is true only " +
    "when nothing is. Compares hashes with the work tree now; never returns file content.",
  inputSchema: checkContextFreshnessSchema,
  // Not idempotent: the same manifest gets a different answer once the work tree changes.
  annotations: { title: "Check context freshness", readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, ctx, deps) => {
    const r = await checkContextFreshness(ctx, { root: deps.root, readHead: deps.readHead }, args.manifest);
    return { data: { contextFreshness: r.report }, evidence: r.evidence, labels: r.labels, warnings: r.warnings, truncated: r.truncated, freshness: "working_tree" };
  },
});
