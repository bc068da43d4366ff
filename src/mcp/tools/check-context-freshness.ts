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
