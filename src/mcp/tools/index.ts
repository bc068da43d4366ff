import type { ToolDefinition } from "../../service/tool.js";
import { buildContextPackageTool } from "./build-context-package.js";
import { checkContextFreshnessTool } from "./check-context-freshness.js";
import { findRelatedTestsTool } from "./find-related-tests.js";
import { findSymbolTool } from "./find-symbol.js";
import { getChangeImpactContextTool } from "./get-change-impact-context.js";
import { getFileSliceTool } from "./get-file-slice.js";
import { getInstructionsTool } from "./get-instructions.js";
import { getOwnershipTool } from "./get-ownership.js";
import { getTaskContextTool } from "./get-task-context.js";
import { inspectIndexTool } from "./inspect-index.js";
import { searchCodeTool } from "./search-code.js";

/** The tool list. Each tool lives in its own file. */
export const TOOLS: readonly ToolDefinition[] = [
  searchCodeTool,
  findSymbolTool,
  getFileSliceTool,
  findRelatedTestsTool,
  getOwnershipTool,
  getInstructionsTool,
  getTaskContextTool,
  inspectIndexTool,
  getChangeImpactContextTool,
  buildContextPackageTool,
  checkContextFreshnessTool,
];

/**
 * The tools an agent needs most, and what grep cannot do for it: ranked and lexical search, symbols, slices,
 * related tests, change impact, index status. `serve --tools core` exposes these alone (1,985 o200k tokens of
 * `tools/list` against 5,327 for all eleven).
 */
export const CORE_TOOLS: readonly string[] = ["search_code", "find_symbol", "get_file_slice", "find_related_tests", "get_change_impact_context", "inspect_index"];

/** `core`, `all`, or a comma list of tool names → the names; null when a name is unknown (listed in `unknown`). */
export function toolSet(spec: string): { names: string[]; unknown: string[] } {
  const s = spec.trim();
  if (s === "all") return { names: TOOLS.map((t) => t.name), unknown: [] };
  const asked = s === "core" ? [...CORE_TOOLS] : s.split(",").map((x) => x.trim()).filter((x) => x.length > 0);
  return { names: asked.filter((n) => findTool(n)), unknown: asked.filter((n) => !findTool(n)) };
}

export function findTool(name: string): ToolDefinition | undefined {
  return TOOLS.find((t) => t.name === name);
}
