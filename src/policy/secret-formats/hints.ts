/**
 * Which token formats can match a text: a format runs only where one of its hints (lower-case literals its pattern
 * needs) occurs in the lower-cased text. One regex over all hints finds them in a single pass, instead of a search
 * per hint; a hint that no format's pattern needs would only cost time, never change a result.
 */
import { TOKEN_FORMATS } from "./index.js";

const escape = (literal: string): string => literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Longest first, so that where several hints start at one place the longest is the one matched. */
const HINTS = [...new Set(TOKEN_FORMATS.flatMap((f) => f.hints))].sort((a, b) => b.length - a.length);

/** Regex source matching any hint; listed with the patterns run over a whole text. */
export const HINT_PATTERN = HINTS.map(escape).join("|");
const HINT_RE = new RegExp(HINT_PATTERN, "g");

/** Per hint, the formats (indexes into `TOKEN_FORMATS`) it lets run: its own and those of the hints it starts with. */
const FORMATS_OF: ReadonlyMap<string, readonly number[]> = new Map(
  HINTS.map((hint) => [hint, TOKEN_FORMATS.flatMap((f, i) => (f.hints.some((h) => hint.startsWith(h)) ? [i] : []))]),
);

/** One flag per format of `TOKEN_FORMATS`: 1 where one of its hints occurs in `lower` (a lower-cased text). */
export function hintedFormats(lower: string): Uint8Array {
  const hinted = new Uint8Array(TOKEN_FORMATS.length);
  HINT_RE.lastIndex = 0;
  for (let m = HINT_RE.exec(lower); m !== null; m = HINT_RE.exec(lower)) {
    for (const i of FORMATS_OF.get(m[0]) ?? []) hinted[i] = 1;
    HINT_RE.lastIndex = m.index + 1; // hints may overlap: look again from the next character
  }
  return hinted;
}
