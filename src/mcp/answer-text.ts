import type { CompactData, CompactJson } from "../service/tool.js";

/**
 * A compact answer as text, for the tools that render their data as lines (`ToolDefinition.renderText`). The first
 * line says what JSON's envelope says (`commit … · index …`, then freshness when it is not the indexed commit, and
 * `truncated` when something was left out); warnings follow, one per line; then the tool's lines; then what the
 * envelope holds beyond them (`evidence:`, `omitted:`) as one JSON line each. An error stays JSON.
 */

/** Text values plain, everything else as JSON. */
export function scalarText(v: CompactJson): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

function headerLine(body: CompactData): string {
  const parts: string[] = [];
  if (typeof body.baseCommit === "string") parts.push(`commit ${body.baseCommit}`);
  if (typeof body.indexVersion === "string") parts.push(`index ${body.indexVersion}`);
  if (body.freshness !== undefined) parts.push(`freshness ${scalarText(body.freshness)}`);
  if (body.truncated === true) parts.push("truncated");
  return parts.length > 0 ? parts.join(" · ") : "ok";
}

function warningLine(w: CompactJson): string {
  if (w !== null && typeof w === "object" && !Array.isArray(w) && typeof w.code === "string" && typeof w.message === "string") {
    return `warning ${w.code}: ${w.message}`;
  }
  return `warning: ${JSON.stringify(w)}`;
}

/** Keys of the compact envelope the header and the tool's lines say; the rest follows as JSON lines. */
const SAID = new Set(["ok", "baseCommit", "indexVersion", "freshness", "truncated", "warnings", "data"]);

export function renderAnswerText(body: CompactData, renderData: (data: CompactData) => string[]): string {
  if (body.ok !== true) return JSON.stringify(body);
  const lines = [headerLine(body)];
  if (Array.isArray(body.warnings)) for (const w of body.warnings) lines.push(warningLine(w));
  const data = body.data;
  lines.push(...(data !== null && typeof data === "object" && !Array.isArray(data) ? renderData(data) : [`data: ${JSON.stringify(data)}`]));
  for (const [k, v] of Object.entries(body)) if (!SAID.has(k)) lines.push(`${k}: ${JSON.stringify(v)}`);
  return lines.join("\n");
}
