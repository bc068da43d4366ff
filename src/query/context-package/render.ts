import type { TokenCounter } from "./tokens.js";
import type { BlockRole, ContextBlock, RenderTarget } from "./types.js";

/**
 * Tokens reserved per message for the provider's own framing (role markers, separators), which the text alone
 * does not show: OpenAI's chat format spends 3–4 per message; 8 leaves room for the others.
 */
export const MESSAGE_OVERHEAD_TOKENS = 8;

export interface RenderedPackage {
  target: RenderTarget;
  /** The request fragment in the target's own shape. */
  payload: Record<string, unknown>;
  /** Every text the model reads, in order (what the budget counts). */
  texts: string[];
  /** Tokens of `texts` plus the per-message overhead: never above the package's budget. */
  tokenCount: number;
}

/** One block as text: its heading (evidence id, kind, where) and its body. */
export function blockText(block: ContextBlock): string {
  return `## ${block.title}\n${block.text}`;
}

function roleText(blocks: readonly ContextBlock[], role: BlockRole): string {
  return blocks
    .filter((b) => b.role === role)
    .map(blockText)
    .join("\n\n");
}

/**
 * Provider-neutral blocks into one provider's message shape. Selection never looks at the target: the same blocks
 * in the same order, with authority (system role) apart from working material (user role).
 */
export function renderPackage(blocks: readonly ContextBlock[], target: RenderTarget, count: TokenCounter): RenderedPackage {
  const system = roleText(blocks, "system");
  const user = roleText(blocks, "user");
  let payload: Record<string, unknown>;
  let texts: string[];
  switch (target) {
    case "openai":
      texts = [system, user];
      payload = { messages: [{ role: "system", content: system }, { role: "user", content: user }] };
      break;
    case "anthropic":
      texts = [system, user];
      payload = { system, messages: [{ role: "user", content: [{ type: "text", text: user }] }] };
      break;
    case "gemini":
      texts = [system, user];
      payload = { systemInstruction: { parts: [{ text: system }] }, contents: [{ role: "user", parts: [{ text: user }] }] };
      break;
    case "local": {
      const prompt = `# SYSTEM\n${system}\n\n# USER\n${user}`;
      texts = [prompt];
      payload = { prompt };
      break;
    }
  }
  return { target, payload, texts, tokenCount: countRendered(texts, count) };
}

/** The budget's measure of a rendering: its texts by the package's tokenizer, plus framing per message. */
export function countRendered(texts: readonly string[], count: TokenCounter): number {
  return texts.reduce((n, t) => n + count(t) + MESSAGE_OVERHEAD_TOKENS, 0);
}
