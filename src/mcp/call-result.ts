import type { Envelope } from "../service/envelope.js";

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
