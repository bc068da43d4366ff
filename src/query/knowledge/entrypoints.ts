import type { ManifestEntrypoint } from "../../core/knowledge.js";
import { isTestPath } from "../../policy/labels.js";
import type { QueryContext } from "../context.js";
import { scanContentRule, type ContentRule } from "./content-rules.js";
import type { Knowledge } from "./load.js";

/** Entrypoints listed per kind; the map is an overview, not an inventory. */
const MAX_PER_KIND = 25;
const MAX_CANDIDATE_READS = 200;

/** HTTP surfaces by the idioms of the mainstream frameworks (Spring, JAX-RS, Express, Flask/FastAPI, net/http). */
const HTTP_RULES: { rule: ContentRule; type: ManifestEntrypoint["type"] }[] = [
  { type: "http-controller", rule: { id: "spring-controller", fragment: "Controller", line: /^\s*@(Rest)?Controller\b/, path: /\.(java|kt|groovy)$/ } },
  { type: "http-controller", rule: { id: "jaxrs-resource", fragment: "@Path(", line: /^\s*@Path\(/, path: /\.(java|kt)$/ } },
  { type: "http-route", rule: { id: "express-router", fragment: "router.", line: /\b(router|app)\.(get|post|put|patch|delete|all)\(\s*['"`]\//, path: /\.[cm]?[jt]sx?$/ } },
  { type: "http-route", rule: { id: "express-app", fragment: "app.", line: /\bapp\.(get|post|put|patch|delete|all)\(\s*['"`]\//, path: /\.[cm]?[jt]sx?$/ } },
  { type: "http-route", rule: { id: "python-app-route", fragment: "@app.", line: /^\s*@app\.(route|get|post|put|patch|delete)\(\s*['"]\//, path: /\.py$/ } },
  { type: "http-route", rule: { id: "python-router-route", fragment: "@router.", line: /^\s*@router\.(route|get|post|put|patch|delete)\(\s*['"]\//, path: /\.py$/ } },
  { type: "http-route", rule: { id: "python-blueprint-route", fragment: ".route(", line: /^\s*@\w+\.route\(\s*['"]\//, path: /\.py$/ } },
  { type: "http-route", rule: { id: "go-handler", fragment: "Handle", line: /\b(HandleFunc|Handle)\(\s*"\//, path: /\.go$/ } },
];

/**
 * Where execution enters the repository: CLI bins and package mains from the manifests, `main` functions from the
 * symbols, HTTP controllers and routes from framework idioms. Tests and vendored code are left out.
 */
export async function findEntrypoints(ctx: QueryContext, k: Knowledge): Promise<{ items: ManifestEntrypoint[]; truncated: boolean }> {
  // A test fixture's manifest (test/module/package.json) describes a pretend package, not this repository's.
  const items: ManifestEntrypoint[] = k.graph.entrypoints.filter((e) => !isTestPath(e.path));
  let truncated = false;
  const mains = await ctx.store.findSymbols(ctx.index.id, { name: "main", kinds: ["function", "method"], limit: MAX_PER_KIND * 4 });
  const keptMains = mains.filter((s) => !isTestPath(s.path) && !s.file.isVendored && !s.file.isGenerated);
  if (keptMains.length > MAX_PER_KIND) truncated = true;
  for (const s of keptMains.slice(0, MAX_PER_KIND)) {
    items.push({ type: "main-function", path: s.path, name: s.qualifiedName, module: k.moduleOf(s.path)?.name ?? null, startLine: s.startLine, endLine: s.endLine });
  }
  for (const { rule, type } of HTTP_RULES) {
    const found = await scanContentRule(ctx, rule, { maxFiles: MAX_PER_KIND, maxReads: MAX_CANDIDATE_READS });
    truncated ||= found.more;
    for (const m of found.matches) {
      if (isTestPath(m.file.path) || m.file.isGenerated) continue;
      const line = m.lines[0]!;
      items.push({ type, path: m.file.path, name: rule.id, module: k.moduleOf(m.file.path)?.name ?? null, startLine: line, endLine: line });
    }
  }
  const seen = new Set<string>();
  const unique = items.filter((e) => {
    // Two idioms matching one line (`@app.route` is also a blueprint-style route) are one entrypoint.
    const key = `${e.type}\0${e.path}\0${e.startLine ?? e.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  unique.sort((a, b) => a.type.localeCompare(b.type) || a.path.localeCompare(b.path) || (a.startLine ?? 0) - (b.startLine ?? 0));
  return { items: unique, truncated };
}
