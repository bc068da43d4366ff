/**
 * Obfuscation normalizers: variants of a line the phrase rules also read. `foldConfusables` turns look-alike
 * letters (Cyrillic and Greek homoglyphs, fullwidth and mathematical letters, letters with diacritics or stray
 * combining marks) into ASCII; `closeLetterSpacing` joins letter-spaced words ("i g n o r e", "D-I-S-R-E-G-A-R-D").
 * Both are single passes that keep the original span of every character (see variant.ts).
 */
import { VariantBuilder, type LineVariant } from "./variant.js";

/** Homoglyphs NFKD leaves alone: Cyrillic, Greek and a few Latin look-alikes of ASCII letters. */
const CONFUSABLES: Readonly<Record<string, string>> = {
  // Cyrillic
  а: "a", в: "B", г: "r", е: "e", ё: "e", к: "k", м: "M", н: "H", о: "o", р: "p", с: "c", т: "T", у: "y", х: "x", ѕ: "s", і: "i",
  ї: "i", ј: "j", ӏ: "l", ԁ: "d", ԛ: "q", ԝ: "w", һ: "h", ү: "y", А: "A", В: "B", Е: "E", К: "K", М: "M", Н: "H", О: "O",
  Р: "P", С: "C", Т: "T", Х: "X", У: "Y", Ѕ: "S", І: "I", Ј: "J", Ԛ: "Q", Ԝ: "W",
  // Greek
  α: "a", β: "b", ε: "e", ι: "i", κ: "k", ν: "v", ο: "o", ρ: "p", τ: "t", υ: "u", χ: "x", γ: "y", Α: "A", Β: "B", Ε: "E",
  Ζ: "Z", Η: "H", Ι: "I", Κ: "K", Μ: "M", Ν: "N", Ο: "O", Ρ: "P", Τ: "T", Υ: "Y", Χ: "X",
  // Latin and symbols
  ı: "i", ȷ: "j", ɡ: "g", ɑ: "a", ℓ: "l", "\u2010": "-", "\u2011": "-", "\u2212": "-",
};
const COMBINING = /\p{M}/gu;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
/** Folded forms seen so far (bounded, so adversarial input cannot grow it without limit). */
const foldCache = new Map<number, string>();
const FOLD_CACHE_LIMIT = 4096;

const LETTER_DIGIT_OR_MARK = /[\p{L}\p{N}\p{M}]/u;

/** ASCII for a look-alike letter or digit, "" for a stray combining mark, else the character itself. */
function foldChar(ch: string, cp: number): string {
  const cached = foldCache.get(cp);
  if (cached !== undefined) return cached;
  let out = CONFUSABLES[ch];
  if (out === undefined && !LETTER_DIGIT_OR_MARK.test(ch)) out = ch;
  if (out === undefined) {
    const stripped = ch.normalize("NFKD").replace(COMBINING, "");
    out = stripped === "" || PRINTABLE_ASCII.test(stripped) ? stripped : ch;
  }
  if (foldCache.size < FOLD_CACHE_LIMIT) foldCache.set(cp, out);
  return out;
}

const NON_ASCII = /[^\x00-\x7f]/;
export const hasNonAscii = (s: string): boolean => NON_ASCII.test(s);

/** The variant with look-alike letters folded to ASCII (see module comment). */
export function foldConfusables(base: LineVariant): LineVariant {
  const text = base.text;
  const out = new VariantBuilder(base);
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i) ?? 0;
    const width = cp > 0xffff ? 2 : 1;
    const ch = text.slice(i, i + width);
    out.emit(cp < 0x80 ? ch : foldChar(ch, cp), i, i + width);
    i += width;
  }
  return out.done();
}

/** Characters that space out the letters of a word: "i g n o r e", "I.G.N.O.R.E", "I-G-N-O-R-E", "I_G_N_O_R_E". */
const SPACER = new Set([" ", "\t", ".", "-", "_", "*", "·", "|", "/", "\\", "~", "+", "\u00a0"]);
/** Longest run of spacers inside a letter-spaced phrase (a longer gap ends it). */
const MAX_GAP = 6;
/** A letter-spaced stretch needs at least this many letters, joined by single spacers at least MIN_JOINS times. */
const MIN_LETTERS = 4;
const MIN_JOINS = 3;
/** Cheap gate: four letters each standing alone between spacers. */
export const LETTER_SPACED = /(?:^|[^\p{L}\p{N}])\p{L}[ \t._*·|/\\~+\u00a0-]\p{L}[ \t._*·|/\\~+\u00a0-]\p{L}[ \t._*·|/\\~+\u00a0-]\p{L}(?![\p{L}\p{N}])/u;
/** The same gate for an ASCII text, where letters are [A-Za-z] and digits [0-9]: ten times cheaper than `\p{L}`. */
export const LETTER_SPACED_ASCII = /(?:^|[^A-Za-z0-9])[A-Za-z][ \t._*|/\\~+-][A-Za-z][ \t._*|/\\~+-][A-Za-z][ \t._*|/\\~+-][A-Za-z](?![A-Za-z0-9])/;

const LETTER = /\p{L}/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
function isLetter(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  if (code < 0x80) return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  return LETTER.test(c);
}
function isAlnum(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  if (code < 0x80) return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  return LETTER_OR_DIGIT.test(c);
}
/** A letter standing alone: no letter or digit on either side. */
const standsAlone = (s: string, i: number): boolean => isLetter(s[i]) && !isAlnum(s[i - 1]) && !isAlnum(s[i + 1]);

/** Positions of a run of lone letters starting at `i`, each separated from the next by 1..MAX_GAP spacers. */
function letterRun(s: string, i: number): number[] {
  const run = [i];
  let j = i;
  for (;;) {
    let k = j + 1;
    while (k < s.length && k - j - 1 < MAX_GAP && SPACER.has(s[k]!)) k++;
    if (k === j + 1 || !standsAlone(s, k)) return run;
    run.push(k);
    j = k;
  }
}

/** The variant with letter-spaced words closed up; a wider gap between two letters becomes one space. */
export function closeLetterSpacing(base: LineVariant): LineVariant {
  const s = base.text;
  const out = new VariantBuilder(base);
  let i = 0;
  while (i < s.length) {
    if (!standsAlone(s, i)) {
      out.emit(s[i]!, i, i + 1);
      i++;
      continue;
    }
    const run = letterRun(s, i);
    const last = run[run.length - 1]!;
    let joins = 0;
    for (let k = 1; k < run.length; k++) if (run[k]! - run[k - 1]! === 2) joins++;
    if (run.length < MIN_LETTERS || joins < MIN_JOINS) {
      // Not letter-spacing: copy the stretch as is (and never look at it again, so the pass stays linear).
      for (let k = i; k <= last; k++) out.emit(s[k]!, k, k + 1);
    } else {
      run.forEach((at, k) => {
        const prev = run[k - 1];
        if (prev !== undefined && at - prev > 2) out.emit(" ", prev + 1, at);
        out.emit(s[at]!, at, at + 1);
      });
    }
    i = last + 1;
  }
  return out.done();
}
