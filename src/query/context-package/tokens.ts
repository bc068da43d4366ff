import { createRequire } from "node:module";
import { bpeCounter, loadTiktoken, type Counter } from "./bpe.js";
import type { TokenizerName } from "./types.js";

/**
 * Encodings load on their first count (~0.1 s each) from the rank files gpt-tokenizer ships, into bpe.ts's compact
 * tables: a command or a server call that never counts tokens does not pay for them. Special-token strings in
 * repository text are ordinary text: never refused, never given meaning.
 */
const load = createRequire(import.meta.url);
const SPLIT = { o200k_base: "O200K_TOKEN_SPLIT_REGEX", cl100k_base: "CL100K_TOKEN_SPLIT_REGEX" } as const satisfies Record<TokenizerName, string>;
const loaded = new Map<TokenizerName, Counter>();
function encoding(name: TokenizerName): Counter {
  let enc = loaded.get(name);
  if (!enc) {
    const patterns = load("gpt-tokenizer/cjs/encodingParams/constants") as Record<string, RegExp>;
    enc = bpeCounter(loadTiktoken(load.resolve(`gpt-tokenizer/data/${name}.tiktoken`)), patterns[SPLIT[name]]!);
    loaded.set(name, enc);
  }
  return enc;
}

export type TokenCounter = (text: string) => number;

/** A counter for one encoding: the same function sizes blocks, checks the budget and is what tests recount with. */
export function tokenCounter(name: TokenizerName): TokenCounter {
  return (text) => (text.length === 0 ? 0 : encoding(name)(text));
}
