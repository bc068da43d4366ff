import type { ErrorCategory } from "../core/errors.js";
import type { Freshness, Warning, Evidence } from "../core/evidence.js";

/** One JSON object per tool result, success or failure (DESIGN.md "Output envelope"). */
export interface Envelope {
  ok: boolean;
  tool: string;
  repoId: string | null;
  baseCommit: string | null;
  indexVersion: string | null;
  freshness: Freshness;
  warnings: Warning[];
  data: Record<string, unknown>;
  evidence: Evidence[];
  truncated: boolean;
}

export interface ErrorData {
  category: ErrorCategory;
  message: string;
  hint?: string;
  correlationId?: string;
}

/** The MCP `CallToolResult` for an envelope: structured content plus the same JSON as text. */
export function toCallToolResult(envelope: Envelope): {
  content: { type: "text"; text: string }[];
  structuredContent: Record<string, unknown>;
  isError: boolean;
} {
  return {
    content: [{ type: "text", text: JSON.stringify(envelope) }],
    structuredContent: envelope as unknown as Record<string, unknown>,
    isError: !envelope.ok,
  };
}
