/**
 * Invisible characters that smuggle text: zero-width runs or word-splitting zero-width characters, Unicode tag
 * characters, bidi overrides and isolates in left-to-right text, a BOM inside the text. Ordinary uses (emoji ZWJ
 * sequences, Persian/Indic joiners, subdivision flags, RTL marks in Hebrew or Arabic) are left alone. One pass per line.
 */

/** Invisible code points that can smuggle text: zero-width, word joiner and invisible operators, BOM, bidi, tags. */
import { VariantBuilder, identityVariant, type LineVariant } from "./variant.js";

const enum Invisible {
  /** Not invisible. */
  None,
  /** Suspicious in numbers or inside a word (zero-width and directional marks). */
  Weak,
  /** Suspicious on its own (bidi overrides and isolates outside right-to-left text, tags, a BOM inside the text). */
  Strong,
}

const RTL_LETTER = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const EMOJI_LEFT = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]/u;
const EMOJI_RIGHT = /\p{Extended_Pictographic}/u;
/** Scripts that use ZWJ/ZWNJ/ZWSP in ordinary spelling (Persian, Indic, Thai, …): any non-Latin letter or mark. */
const COMPLEX_SCRIPT = /[\p{L}\p{M}]/u;
const LATIN = /[\p{Script=Latin}\p{Script=Common}]/u;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const BLACK_FLAG = 0x1f3f4;
const TAG_FIRST = 0xe0000;
const TAG_LAST = 0xe007f;
const TAG_CANCEL = 0xe007f;
/** Longest subdivision code in an emoji tag sequence (🏴 + "gbeng" + cancel tag). */
const MAX_FLAG_TAGS = 7;

function invisibleKind(cp: number): Invisible {
  if (cp === 0x200b || cp === 0x200c || cp === 0x200d || cp === 0x200e || cp === 0x200f) return Invisible.Weak;
  if (cp >= 0x2060 && cp <= 0x2064) return Invisible.Weak;
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return Invisible.Strong;
  if (cp === 0xfeff) return Invisible.Strong;
  if (cp >= TAG_FIRST && cp <= TAG_LAST) return Invisible.Strong;
  return Invisible.None;
}

/** Every code unit `invisibleKind` can name (tags are U+E0000–U+E007F: a high surrogate U+DB40 and a low one). */
const INVISIBLE_UNIT = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\udb40[\udc00-\udc7f]/;
/** Whether `text` may hold an invisible character at all: when not, `suspiciousInvisibles` finds none on any line. */
export const mayHoldInvisibles = (text: string): boolean => INVISIBLE_UNIT.test(text);

const charAt = (s: string, i: number): string => String.fromCodePoint(s.codePointAt(i) ?? 0);
/** The code point that ends just before index `i` (handles surrogate pairs). */
function charBefore(s: string, i: number): string {
  if (i <= 0) return "";
  const low = s.charCodeAt(i - 1);
  if (i >= 2 && low >= 0xdc00 && low <= 0xdfff) return s.slice(i - 2, i);
  return s[i - 1] ?? "";
}

/** Length in UTF-16 units of an emoji tag sequence (🏴 + [0-9a-z]{1,7} tags + cancel tag) starting at `i`, else 0. */
function flagSequenceLength(s: string, i: number): number {
  let j = i + 2;
  let tags = 0;
  while (tags <= MAX_FLAG_TAGS) {
    const cp = s.codePointAt(j);
    if (cp === TAG_CANCEL) return tags > 0 ? j + 2 - i : 0;
    if (cp === undefined || !((cp >= 0xe0030 && cp <= 0xe0039) || (cp >= 0xe0061 && cp <= 0xe007a))) return 0;
    j += 2;
    tags++;
  }
  return 0;
}

export interface InvisibleChar {
  index: number;
  width: number;
  cp: number;
}

/** Invisible characters on one line that are not part of ordinary text (emoji sequences, complex-script joiners, RTL marks). */
export function suspiciousInvisibles(line: string, atTextStart: boolean): InvisibleChar[] {
  const out: InvisibleChar[] = [];
  let rtl: boolean | undefined;
  const hasRtl = (): boolean => (rtl ??= RTL_LETTER.test(line));
  for (let i = 0; i < line.length; ) {
    const cp = line.codePointAt(i) ?? 0;
    const width = cp > 0xffff ? 2 : 1;
    if (cp === BLACK_FLAG) {
      const n = flagSequenceLength(line, i);
      i += n > 0 ? n : width;
      continue;
    }
    const kind = invisibleKind(cp);
    if (kind !== Invisible.None && !isOrdinaryInvisible(line, i, cp, atTextStart && i === 0, hasRtl)) out.push({ index: i, width, cp });
    i += width;
  }
  return out;
}

function isOrdinaryInvisible(line: string, i: number, cp: number, atTextStart: boolean, hasRtl: () => boolean): boolean {
  if (cp === 0xfeff) return atTextStart;
  if (cp === 0x202d || cp === 0x202e || (cp >= TAG_FIRST && cp <= TAG_LAST)) return false;
  // Directional marks, embeddings and isolates belong in right-to-left text.
  if (cp === 0x200e || cp === 0x200f || (cp >= 0x202a && cp <= 0x202c) || (cp >= 0x2066 && cp <= 0x2069)) return hasRtl();
  if (cp === 0x200b || cp === 0x200c || cp === 0x200d) {
    const before = charBefore(line, i);
    const after = i + 1 < line.length ? charAt(line, i + 1) : "";
    if (cp === 0x200d && EMOJI_LEFT.test(before) && EMOJI_RIGHT.test(after)) return true;
    const complex = (c: string): boolean => COMPLEX_SCRIPT.test(c) && !LATIN.test(c);
    return complex(before) && complex(after);
  }
  return false;
}

/** A line is flagged for a strong character, two or more weak ones, or one weak character splitting a word. */
export function isSmuggling(line: string, found: readonly InvisibleChar[]): boolean {
  if (found.some((c) => invisibleKind(c.cp) === Invisible.Strong)) return true;
  if (found.length >= 2) return true;
  return found.some((c) => {
    const after = c.index + c.width < line.length ? charAt(line, c.index + c.width) : "";
    return WORD_CHAR.test(charBefore(line, c.index)) && WORD_CHAR.test(after);
  });
}

/** The line with invisible runs spelled out: tag text decoded, other runs named by code point. */
export function renderInvisibles(line: string, found: readonly InvisibleChar[]): { text: string; firstAt: number } {
  let text = "";
  let from = 0;
  let firstAt = -1;
  let k = 0;
  while (k < found.length) {
    const first = found[k]!;
    let end = first.index + first.width;
    const run: InvisibleChar[] = [first];
    while (k + 1 < found.length && found[k + 1]!.index === end) {
      k++;
      run.push(found[k]!);
      end += found[k]!.width;
    }
    k++;
    text += line.slice(from, first.index);
    if (firstAt < 0) firstAt = text.length;
    const tagText = run
      .filter((c) => c.cp > TAG_FIRST + 0x1f && c.cp < TAG_LAST)
      .map((c) => String.fromCharCode(c.cp - TAG_FIRST))
      .join("");
    const codes = [...new Set(run.map((c) => `U+${c.cp.toString(16).toUpperCase().padStart(4, "0")}`))];
    text += tagText.length > 0 ? `[hidden text: ${JSON.stringify(tagText)}]` : `[${run.length} invisible: ${codes.slice(0, 3).join(" ")}${codes.length > 3 ? " …" : ""}]`;
    from = end;
  }
  text += line.slice(from);
  return { text, firstAt: Math.max(0, firstAt) };
}

/** The invisible characters removed (or turned into spaces) and tag characters decoded, with spans mapped back. */
export function cleanedVariant(line: string, found: readonly InvisibleChar[], replacement: "" | " "): LineVariant {
  const byIndex = new Map(found.map((c) => [c.index, c]));
  const out = new VariantBuilder(identityVariant(line));
  for (let i = 0; i < line.length; ) {
    const c = byIndex.get(i);
    if (c === undefined) {
      out.emit(line[i]!, i, i + 1);
      i++;
      continue;
    }
    const decoded = c.cp > TAG_FIRST + 0x1f && c.cp < TAG_LAST ? String.fromCharCode(c.cp - TAG_FIRST) : replacement;
    out.emit(decoded, i, i + c.width);
    i += c.width;
  }
  return out.done();
}
