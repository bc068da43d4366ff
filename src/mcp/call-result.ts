import type { Answer } from "./answer.js";

/**
 * The MCP `CallToolResult` of an answer. Compact (the default): the compact answer (JSON, or the tool's text rendering) as the one text content, which is
 * what a model reads and what maxTokens bounds. Full: the envelope as text and as structured content, for programs.
 */
export function toCallToolResult(answer: Answer): {
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
} {
  return {
    content: [{ type: "text", text: answer.text }],
    ...(answer.full ? { structuredContent: answer.body as Record<string, unknown> } : {}),
    isError: answer.isError,
  };
}
