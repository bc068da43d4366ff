import { z } from "zod";
import { repoMap } from "../../query/repo-map.js";
import { defineTool } from "../tool.js";

export const REPO_MAP_URI = "repo://map";

/** `repo://map` runs through the same pipeline as a tool (index lookup, projection, envelope). */
export const repoMapResource = {
  uri: REPO_MAP_URI,
  name: "repo-map",
  title: "Repository map",
  description: "Languages, top-level layout, file counts, modules and build systems, entrypoints and key documents at the indexed commit",
  mimeType: "application/json" as const,
  reader: defineTool({
    name: REPO_MAP_URI,
    description: "repository map",
    inputSchema: z.strictObject({}),
    annotations: { title: "Repository map", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: async (_args, ctx) => ({
      data: { map: await repoMap(ctx) },
      evidence: [],
      labels: new Map(),
      warnings: [],
      truncated: false,
    }),
  }),
};
