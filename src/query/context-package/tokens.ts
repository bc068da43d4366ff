import { createRequire } from "node:module";
import type { TokenizerName } from "./types.js";

/** Special-token strings in repository text are ordinary text: never refuse them, never give them meaning. */
const AS_TEXT = { disallowedSpecial: new Set<string>(), allowedSpecial: new Set<string>() };

type Encoding = { countTokens: (text: string, options: typeof AS_TEXT) => number };

/**
 * Encodings load on their first count (a quarter of a second for both): a command or a server call that never
 * counts tokens does not pay for them. Loaded through require so a counter stays synchronous.
 */
const load = createRequire(import.meta.url);
const loaded = new Map<TokenizerName, Encoding>();
function encoding(name: TokenizerName): Encoding {
  let enc = loaded.get(name);
  if (!enc) loaded.set(name, (enc = load(`gpt-tokenizer/cjs/encoding/${name}`) as Encoding));
  return enc;
}

export type TokenCounter = (text: string) => number;

/** A counter for one encoding: the same function sizes blocks, checks the budget and is what tests recount with. */
export function tokenCounter(name: TokenizerName): TokenCounter {
  return (text) => (text.length === 0 ? 0 : encoding(name).countTokens(text, AS_TEXT));
}
