/** The shape of a language's phrase table and the Unicode-aware pieces its patterns are built from. */

export interface LanguagePhrases {
  /** ISO 639-1 code, for reading the table. */
  lang: string;
  /** Imperatives of ignoring or forgetting. */
  verbs: readonly string[];
  /** "previous", "above", "original", "system". */
  prev: readonly string[];
  /** "instructions", "rules", "directives", "prompt" (with case endings where the language has them). */
  instr: readonly string[];
  /** "your" (plural forms), so "forget your instructions" counts without a "previous". */
  poss?: readonly string[];
  /** Verb last: "previous … instructions … ignore". */
  verbLast?: boolean;
  /** Extra override patterns ("forget everything you were told"). */
  override?: readonly string[];
  /** Role reassignment ("from now on you are …"). */
  role?: readonly string[];
  /** Prompt-leak requests ("show your system prompt"). */
  prompt?: readonly string[];
}

/** Not preceded / followed by a letter, mark or digit (a Unicode-aware `\b`). */
export const WB = String.raw`(?<![\p{L}\p{M}\p{N}])`;
export const WE = String.raw`(?![\p{L}\p{M}\p{N}])`;
/** Up to `n` intervening words (bounded, lazy). */
export const words = (n: number): string => String.raw`(?:[\p{L}\p{M}\p{N}'’-]{1,30}[\s,:;—–-]{1,3}){0,${n}}?`;
/** Between two parts of a phrase in a script without spaces (Chinese, Japanese): a few characters, no line break. */
export const near = (n: number): string => String.raw`[^\n]{0,${n}}?`;

/**
 * Explicit ranges for the scripts the tables use, standing in for `\p{L}`, `\p{M}` and `\p{N}`: Unicode property
 * classes compiled with the `iu` flags cost V8 tens of milliseconds each, explicit ranges with `i` almost nothing.
 */
const RANGES: Readonly<Record<"L" | "M" | "N", string>> = {
  L: String.raw`A-Za-z\u00AA\u00B5\u00BA\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u0373\u0376-\u037D\u0386-\u03FF\u0400-\u0481\u048A-\u052F\u0531-\u0587\u05D0-\u05EA\u05F0-\u05F2\u0620-\u064A\u066E-\u06D3\u06D5\u06FA-\u06FC\u0900-\u0963\u0971-\u0DFF\u0E01-\u0E3A\u0E40-\u0E4E\u10A0-\u10FF\u1100-\u11FF\u1E00-\u1FFF\u3041-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF21-\uFF3A\uFF41-\uFF5A`,
  M: String.raw`\u0300-\u036F\u0483-\u0489\u0591-\u05C7\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\u302A-\u302F\u3099\u309A\uFE20-\uFE2F`,
  N: String.raw`0-9\u0660-\u0669\u06F0-\u06F9\u0966-\u096F\uFF10-\uFF19`,
};

/** `source` with `\p{L}`, `\p{M}` and `\p{N}` (inside or outside a character class) replaced by explicit ranges. */
export function withExplicitRanges(source: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const prop = c === "\\" && source[i + 1] === "p" ? /^\\p\{([LMN])\}/.exec(source.slice(i, i + 5)) : null;
    if (prop !== null) {
      const ranges = RANGES[prop[1] as "L" | "M" | "N"];
      out += inClass ? ranges : `[${ranges}]`;
      i += 4;
    } else if (c === "\\") {
      out += source.slice(i, i + 2);
      i++;
    } else {
      if (c === "[") inClass = true;
      else if (c === "]") inClass = false;
      out += c;
    }
  }
  return out;
}

/** A case-insensitive pattern over the tables' scripts (see `withExplicitRanges`). */
export const wideRe = (source: string, flags = "i"): RegExp => new RegExp(withExplicitRanges(source), flags);
