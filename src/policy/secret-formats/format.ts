/**
 * The shape of one token format and the pieces the format tables share: boundaries (a token starts where no token
 * character precedes it and ends where none follows), spacing around a separator, and small checks on a match.
 *
 * Each pattern is linear: every repetition is bounded and no repeated group holds another repetition, and each
 * starts at a literal or behind a boundary look-behind, so a match attempt does bounded work at each position.
 */
import type { RedactionReason } from "../redaction-reasons.js";

export interface TokenFormat {
  /** Our rule id, named after the format. */
  id: string;
  reason: RedactionReason;
  /** Lower-case literals; the rule runs only on text that contains one of them (lower-cased). */
  hints: readonly string[];
  /** Regex source. Group 1, when present, is kept verbatim (a key, a URL's host); the rest of the match goes. */
  source: string;
  /** Case-insensitive when true. */
  ignoreCase?: boolean;
  /** Extra check on the replaced part, with the whole text and the match's offset for context. */
  accept?: (secret: string, text: string, offset: number) => boolean;
}

export const B = String.raw`(?<![A-Za-z0-9_\-])`;
export const E = String.raw`(?![A-Za-z0-9_\-])`;
export const B_ALNUM = String.raw`(?<![A-Za-z0-9])`;
export const E_ALNUM = String.raw`(?![A-Za-z0-9])`;
export const B64_END = String.raw`(?![A-Za-z0-9+/=])`;
export const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
/** Up to this many spaces or tabs around a separator. */
export const SP = String.raw`[^\S\r\n]{0,20}`;

/** Hints for `a[_.\-]?b`: the two words joined by each separator the pattern allows, or none. */
export const withSeparators = (a: string, b: string): string[] => ["", "_", ".", "-"].map((sep) => `${a}${sep}${b}`);
/** Hints for a literal next to one digit: `eachDigit((d) => \`-us${d}\`)`. */
export const eachDigit = (hint: (digit: string) => string): string[] => [..."0123456789"].map(hint);

export const hasDigit = (s: string): boolean => /[0-9]/.test(s);
export const mixedCaseWithDigit = (s: string): boolean => /[0-9]/.test(s) && /[a-z]/.test(s) && /[A-Z]/.test(s);

/** The line up to `offset`, at most 400 characters back. */
export function lineBefore(text: string, offset: number): string {
  const from = Math.max(0, offset - 400);
  const window = text.slice(from, offset);
  return window.slice(window.lastIndexOf("\n") + 1);
}
