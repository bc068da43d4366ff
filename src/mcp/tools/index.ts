import type { ToolDefinition } from "../tool.js";
import { findRelatedTestsTool } from "./find-related-tests.js";
import { findSymbolTool } from "./find-symbol.js";
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
];

export function findTool(name: string): ToolDefinition | undefined {
  return TOOLS.find((t) => t.name === name);
}
