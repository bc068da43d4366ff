import { z } from "zod";
import { buildGraph } from "../../query/knowledge/build-graph.js";
import { knowledgeOf } from "../../query/knowledge/load.js";
import { riskMap } from "../../query/knowledge/risk-map.js";
import { labelInputOf } from "../../query/context.js";
import { QueryError } from "../../core/errors.js";
import { getFileSlice } from "../../query/slice.js";
import type { LabelInput } from "../../policy/labels.js";
import { defineTool, type ToolDefinition, type ToolOutput } from "../../service/tool.js";
import { repoMap } from "../../query/repo-map.js";
import { instructionsOverview } from "../../query/knowledge/instructions.js";
import type { EvidenceDraft } from "../../core/evidence.js";

export interface ResourceDefinition {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: "application/json";
  /** Runs through the same pipeline as a tool (index lookup, projection, envelope, audit). */
  reader: ToolDefinition;
}

const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

function resource(uri: string, name: string, title: string, description: string, read: ToolDefinition["handler"]): ResourceDefinition {
  return {
    uri,
    name,
    title,
    description,
    mimeType: "application/json",
    reader: defineTool({ name: uri, description: title, inputSchema: z.strictObject({}), annotations: { title, ...ANNOTATIONS }, handler: read }),
  };
}

const repoMapResource = resource(
  "repo://map",
  "repo-map",
  "Repository map",
  "Languages, top-level layout, file counts, modules and build systems, entrypoints and key documents at the indexed commit",
  async (_args, ctx): Promise<ToolOutput> => {
    const { map, labels } = await repoMap(ctx);
    return { data: { map }, evidence: [], labels, warnings: [], truncated: map.modulesTruncated || map.entrypointsTruncated };
  },
);

const ownershipResource = resource(
  "repo://ownership",
  "ownership",
  "Code ownership rules",
  "The CODEOWNERS file in force, its rules in order (pattern, owners, section, line) and the lines it could not read",
  async (_args, ctx): Promise<ToolOutput> => {
    const k = await knowledgeOf(ctx);
    const labels = new Map<string, LabelInput>();
    const evidence: EvidenceDraft[] = [];
    const file = k.ownership.path ? await ctx.store.getFile(ctx.index.id, k.ownership.path) : null;
    if (file) {
      labels.set(file.path, labelInputOf(file));
      evidence.push({ path: file.path, startLine: 1, endLine: Math.max(1, file.lineCount ?? 1), contentHash: file.contentHash, retrieval: "metadata" });
    }
    const warnings = k.ownership.path === null ? [{ code: "no_codeowners", message: "the repository has no CODEOWNERS file" }] : [];
    return { data: { ownership: { ...k.ownership, source: "CODEOWNERS", trustLevel: "repo_metadata" } }, evidence, labels, warnings, truncated: false };
  },
);

const buildGraphResource = resource(
  "repo://build-graph",
  "build-graph",
  "Build graph",
  "Modules from the manifests (Maven, Gradle, npm/yarn/pnpm workspaces, Go, Cargo, Python, .NET) with internal dependencies, build and test commands, and manifest warnings",
  async (_args, ctx): Promise<ToolOutput> => {
    const g = await buildGraph(ctx);
    return { data: { buildGraph: g.graph }, evidence: g.evidence, labels: g.labels, warnings: [], truncated: g.truncated };
  },
);

const riskMapResource = resource(
  "repo://risk-map",
  "risk-map",
  "Risk map",
  "Areas where a change needs care (public API, generated code, migrations, security and auth, billing, data deletion, concurrency), each hint with the rule, lines and confidence that made it",
  async (_args, ctx): Promise<ToolOutput> => {
    const r = await riskMap(ctx);
    return { data: { riskMap: r.map }, evidence: r.evidence, labels: r.labels, warnings: [], truncated: r.truncated };
  },
);

const instructionsResource = resource(
  "repo://instructions",
  "instructions",
  "Agent instructions",
  "Instruction files (AGENTS.md, CLAUDE.md, .agents/AGENTS.md, .github/copilot-instructions.md) read from the indexed commit: rules with provenance (path, lines, commit, hash), scope, status under the size limits, lint; plus the operator's platform, organization and runtime layers",
  async (_args, ctx, deps): Promise<ToolOutput> => {
    const o = await instructionsOverview(ctx, { root: deps.root, policy: deps.operator.instructions });
    return { data: { instructions: o.overview }, evidence: o.evidence, labels: o.labels, warnings: o.warnings, truncated: o.truncated };
  },
);

export const RESOURCES: readonly ResourceDefinition[] = [repoMapResource, ownershipResource, buildGraphResource, riskMapResource, instructionsResource];

export const DOCS_URI_PREFIX = "repo://docs/";
const MAX_DOC_ID_CHARS = 1024;

/** `repo://docs/{docId}`: a document's outline and its first lines (the read policy's slice limit), trust-labelled. */
export const docResourceTemplate = {
  uriTemplate: `${DOCS_URI_PREFIX}{docId}`,
  name: "doc",
  title: "Repository document",
  description: "A document (README, docs/**, ADR, changelog, migration guide, OpenAPI description, package doc) by its docId, the path that repo://map lists",
  mimeType: "application/json" as const,
  reader: defineTool({
    name: `${DOCS_URI_PREFIX}{docId}`,
    description: "Repository document",
    inputSchema: z.strictObject({ docId: z.string().min(1).max(MAX_DOC_ID_CHARS) }),
    annotations: { title: "Repository document", ...ANNOTATIONS },
    handler: async (args, ctx, deps): Promise<ToolOutput> => {
      const { docId } = args as { docId: string };
      const doc = await ctx.store.getDoc(ctx.index.id, docId);
      if (!doc) throw new QueryError("not_found", "no document with that docId; repo://map lists key documents and search_code finds the others");
      const slice = await getFileSlice(ctx, deps.workTree === false ? null : deps.root, { path: doc.path, startLine: 1, endLine: ctx.policy.maxFileSliceLines, includeLineNumbers: false });
      return {
        data: { doc, content: slice.items[0] ?? null },
        evidence: slice.evidence,
        labels: slice.labels,
        warnings: slice.warnings,
        truncated: slice.stats.truncated,
      };
    },
  }),
};

/** The docId of a `repo://docs/…` URI: everything after the prefix, URL-decoded (clients encode the variable). */
export function docIdFromUri(uri: string): string | null {
  if (!uri.startsWith(DOCS_URI_PREFIX)) return null;
  try {
    return decodeURIComponent(uri.slice(DOCS_URI_PREFIX.length));
  } catch {
    return null;
  }
}
