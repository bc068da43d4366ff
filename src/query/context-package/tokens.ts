import * as cl100k from "gpt-tokenizer/encoding/cl100k_base";
import * as o200k from "gpt-tokenizer/encoding/o200k_base";
import type { TokenizerName } from "./types.js";

/** Special-token strings in repository text are ordinary text: never refuse them, never give them meaning. */
const AS_TEXT = { disallowedSpecial: new Set<string>(), allowedSpecial: new Set<string>() };

const ENCODINGS: Record<TokenizerName, { countTokens: (text: string, options: typeof AS_TEXT) => number }> = {
  o200k_base: o200k,
  cl100k_base: cl100k,
};

export type TokenCounter = (text: string) => number;

/** A counter for one encoding: the same function sizes blocks, checks the budget and is what tests recount with. */
export function tokenCounter(name: TokenizerName): TokenCounter {
  const enc = ENCODINGS[name];
  return (text) => (text.length === 0 ? 0 : enc.countTokens(text, AS_TEXT));
}
