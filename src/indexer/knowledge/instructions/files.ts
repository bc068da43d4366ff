/** Which files are this repository's own agent instruction files, the folder each applies to, and its kind. */
import { isInstructionFile } from "../../../policy/labels.js";
import type { InstructionSourceKind } from "../../../core/instructions.js";
import { dirOf } from "./paths.js";

/** Folders whose instruction files belong to someone else's project (dependencies, test data). */
const FOREIGN_DIRS: ReadonlySet<string> = new Set([
  "node_modules",
  "vendor",
  "third_party",
  "third-party",
  "bower_components",
  ".git",
  ".venv",
  "venv",
  "site-packages",
  "fixtures",
  "__fixtures__",
  "testdata",
  "test-data",
  "test_data",
]);

/** Whole-repository files wherever they sit; every other instruction file applies to its own folder. */
const ROOT_SCOPED = new Set(["AGENTS.md", "CLAUDE.md", ".agents/AGENTS.md", ".github/copilot-instructions.md"]);

export function instructionScope(path: string): string {
  return ROOT_SCOPED.has(path) ? "" : dirOf(path);
}

export function sourceKindOf(path: string): InstructionSourceKind {
  if (path === ".github/copilot-instructions.md") return "copilot_instructions";
  return path.endsWith("CLAUDE.md") ? "claude_md" : "agents_md";
}

/** Instruction files this repository's agents follow (not those of dependencies or test fixtures). */
export function isOwnInstructionFile(path: string): boolean {
  if (!isInstructionFile(path)) return false;
  const segs = path.split("/");
  return !segs.slice(0, -1).some((s) => FOREIGN_DIRS.has(s));
}
