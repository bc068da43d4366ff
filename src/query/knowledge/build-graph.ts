import type { BuildGraph } from "../../core/knowledge.js";
import type { LabelInput } from "../../policy/labels.js";
import { labelInputOf, type QueryContext } from "../context.js";
import { knowledgeOf } from "./load.js";
import type { EvidenceDraft } from "../../core/evidence.js";

/** Manifests cited as evidence at most; a monorepo with hundreds of modules lists them all in `modules`. */
const MAX_MANIFEST_EVIDENCE = 50;

export interface BuildGraphView extends Omit<BuildGraph, "entrypoints"> {
  moduleCount: number;
}

/** Modules, internal edges and the test commands the manifests define, with the manifests as evidence. */
export async function buildGraph(
  ctx: QueryContext,
): Promise<{ graph: BuildGraphView; evidence: EvidenceDraft[]; labels: Map<string, LabelInput>; truncated: boolean }> {
  const k = await knowledgeOf(ctx);
  const { entrypoints: _entrypoints, ...graph } = k.graph;
  const evidence: EvidenceDraft[] = [];
  const labels = new Map<string, LabelInput>();
  for (const m of k.graph.modules.slice(0, MAX_MANIFEST_EVIDENCE)) {
    const f = await ctx.store.getFile(ctx.index.id, m.manifest);
    if (!f) continue;
    labels.set(f.path, labelInputOf(f));
    evidence.push({ path: f.path, startLine: 1, endLine: Math.max(1, f.lineCount ?? 1), contentHash: f.contentHash, retrieval: "metadata" });
  }
  return {
    graph: { ...graph, moduleCount: k.graph.modules.length },
    evidence,
    labels,
    truncated: k.graph.modules.length > MAX_MANIFEST_EVIDENCE,
  };
}
