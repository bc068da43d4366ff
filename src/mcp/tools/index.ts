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

/** The tool list. Each tool lives in its own file; ../tool-names.ts lists their names, in this order, for the CLI. */
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

export { CORE_TOOLS, toolSet } from "../tool-names.js";

export function findTool(name: string): ToolDefinition | undefined {
  return TOOLS.find((t) => t.name === name);
}
