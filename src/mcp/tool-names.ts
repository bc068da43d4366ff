/**
 * The tool names, readable without loading the tools: the CLI registers and parses `serve --tools` before anything
 * else is loaded (startup, #19). tools/index.ts lists the definitions in this order; a test checks they agree.
 */
export const TOOL_NAMES: readonly string[] = [
  "search_code",
  "find_symbol",
  "get_file_slice",
  "find_related_tests",
  "get_ownership",
  "get_instructions",
  "get_task_context",
  "inspect_index",
  "get_change_impact_context",
  "build_context_package",
  "check_context_freshness",
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
  if (s === "all") return { names: [...TOOL_NAMES], unknown: [] };
  const asked = s === "core" ? [...CORE_TOOLS] : s.split(",").map((x) => x.trim()).filter((x) => x.length > 0);
  return { names: asked.filter((n) => TOOL_NAMES.includes(n)), unknown: asked.filter((n) => !TOOL_NAMES.includes(n)) };
}
