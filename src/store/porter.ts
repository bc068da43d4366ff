/**
 * The Porter stemmer exactly as SQLite's FTS5 `porter` tokenizer applies it (fts5_porter.c), so a store that keeps
 * its own postings (PostgreSQL) stems index and query terms to the same tokens the SQLite store's FTS5 terms table
 * holds: `expiration` and `expired` both become `expir` in either store. Terms reach it as single lowercase
 * [a-z0-9_] tokens (see core/terms.ts and normalizeRankTerms), so the tokenizer underneath (unicode61 with `_`
 * as a token character) leaves them whole and only the stemming step is reproduced here.
 */

/** FTS5 passes tokens longer than this (in bytes) through unstemmed, and those shorter than 3. */
const MAX_STEMMED_LENGTH = 64;
const MIN_STEMMED_LENGTH = 3;

function isVowel(c: string | undefined, yIsVowel: boolean): boolean {
  return c === "a" || c === "e" || c === "i" || c === "o" || c === "u" || (yIsVowel && c === "y");
}

/** fts5PorterGobbleVC: the length of the leading [C]VC run of the first `n` characters, 0 when there is none. */
function gobbleVC(s: string[], from: number, n: number, prevConsonant: boolean): number {
  let consonant = prevConsonant;
  let i = 0;
  for (; i < n; i++) {
    consonant = !isVowel(s[from + i], consonant);
    if (!consonant) break;
  }
  for (i++; i < n; i++) {
    consonant = !isVowel(s[from + i], consonant);
    if (consonant) return i + 1;
  }
  return 0;
}

/** m > 0 for the first `n` characters. */
function mGt0(s: string[], n: number): boolean {
  return gobbleVC(s, 0, n, false) !== 0;
}

/** m > 1. */
function mGt1(s: string[], n: number): boolean {
  const first = gobbleVC(s, 0, n, false);
  return first !== 0 && gobbleVC(s, first, n - first, true) !== 0;
}

/** m = 1. */
function mEq1(s: string[], n: number): boolean {
  const first = gobbleVC(s, 0, n, false);
  return first !== 0 && gobbleVC(s, first, n - first, true) === 0;
}

/** *o: the stem ends consonant-vowel-consonant, the last not w, x or y. */
function oStar(s: string[], n: number): boolean {
  const last = s[n - 1];
  if (last === "w" || last === "x" || last === "y") return false;
  let mask = 0;
  let consonant = false;
  for (let i = 0; i < n; i++) {
    consonant = !isVowel(s[i], consonant);
    mask = ((mask << 1) + (consonant ? 1 : 0)) & 0xffff;
  }
  return (mask & 0x7) === 0x5;
}

/** m > 1 and the stem ends in s or t. */
function mGt1SOrT(s: string[], n: number): boolean {
  return (s[n - 1] === "s" || s[n - 1] === "t") && mGt1(s, n);
}

/** *v*: the stem holds a vowel. */
function hasVowel(s: string[], n: number): boolean {
  for (let i = 0; i < n; i++) if (isVowel(s[i], i > 0)) return true;
  return false;
}

type Condition = (s: string[], n: number) => boolean;
/** A suffix rule: when the word ends in `suffix` and the stem before it meets `cond`, the suffix becomes `output`. */
type Rule = readonly [suffix: string, cond: Condition | null, output: string];

function endsWith(s: string[], n: number, suffix: string): boolean {
  if (n <= suffix.length) return false;
  for (let i = 0; i < suffix.length; i++) if (s[n - suffix.length + i] !== suffix[i]) return false;
  return true;
}

/**
 * One generated step of fts5_porter.c: rules are grouped by the word's second-to-last character; the first rule
 * whose suffix matches is the only one tried (its condition may still fail). Returns the new length, and which
 * rule's replacement was made (step 1b needs to know).
 */
function applyStep(s: string[], n: number, rules: Readonly<Record<string, readonly Rule[]>>): { n: number; applied: boolean; suffix?: string } {
  const group = rules[s[n - 2] ?? ""];
  if (!group) return { n, applied: false };
  for (const [suffix, cond, output] of group) {
    if (!endsWith(s, n, suffix)) continue;
    const stem = n - suffix.length;
    if (cond !== null && !cond(s, stem)) return { n, applied: false };
    for (let i = 0; i < output.length; i++) s[stem + i] = output[i]!;
    return { n: stem + output.length, applied: true, suffix };
  }
  return { n, applied: false };
}

const STEP_1B: Readonly<Record<string, readonly Rule[]>> = {
  e: [["eed", mGt0, "ee"], ["ed", hasVowel, ""]],
  n: [["ing", hasVowel, ""]],
};

const STEP_1B2: Readonly<Record<string, readonly Rule[]>> = {
  a: [["at", null, "ate"]],
  b: [["bl", null, "ble"]],
  i: [["iz", null, "ize"]],
};

const STEP_2: Readonly<Record<string, readonly Rule[]>> = {
  a: [["ational", mGt0, "ate"], ["tional", mGt0, "tion"]],
  c: [["enci", mGt0, "ence"], ["anci", mGt0, "ance"]],
  e: [["izer", mGt0, "ize"]],
  g: [["logi", mGt0, "log"]],
  l: [["bli", mGt0, "ble"], ["alli", mGt0, "al"], ["entli", mGt0, "ent"], ["eli", mGt0, "e"], ["ousli", mGt0, "ous"]],
  o: [["ization", mGt0, "ize"], ["ation", mGt0, "ate"], ["ator", mGt0, "ate"]],
  s: [["alism", mGt0, "al"], ["iveness", mGt0, "ive"], ["fulness", mGt0, "ful"], ["ousness", mGt0, "ous"]],
  t: [["aliti", mGt0, "al"], ["iviti", mGt0, "ive"], ["biliti", mGt0, "ble"]],
};

const STEP_3: Readonly<Record<string, readonly Rule[]>> = {
  a: [["ical", mGt0, "ic"]],
  s: [["ness", mGt0, ""]],
  t: [["icate", mGt0, "ic"], ["iciti", mGt0, "ic"]],
  u: [["ful", mGt0, ""]],
  v: [["ative", mGt0, ""]],
  z: [["alize", mGt0, "al"]],
};

const STEP_4: Readonly<Record<string, readonly Rule[]>> = {
  a: [["al", mGt1, ""]],
  c: [["ance", mGt1, ""], ["ence", mGt1, ""]],
  e: [["er", mGt1, ""]],
  i: [["ic", mGt1, ""]],
  l: [["able", mGt1, ""], ["ible", mGt1, ""]],
  n: [["ant", mGt1, ""], ["ement", mGt1, ""], ["ment", mGt1, ""], ["ent", mGt1, ""]],
  o: [["ion", mGt1SOrT, ""], ["ou", mGt1, ""]],
  s: [["ism", mGt1, ""]],
  t: [["ate", mGt1, ""], ["iti", mGt1, ""]],
  u: [["ous", mGt1, ""]],
  v: [["ive", mGt1, ""]],
  z: [["ize", mGt1, ""]],
};

/** Step 1a: sses → ss, ies → i, s → (nothing), except after another s. */
function step1a(s: string[], n: number): number {
  if (s[n - 1] !== "s") return n;
  if (s[n - 2] === "e") {
    if ((n > 4 && s[n - 4] === "s" && s[n - 3] === "s") || (n > 3 && s[n - 3] === "i")) return n - 2;
    return n - 1;
  }
  return s[n - 2] !== "s" ? n - 1 : n;
}

/** The token FTS5's porter tokenizer makes of one lowercase ASCII token. */
export function porterStem(token: string): string {
  if (token.length > MAX_STEMMED_LENGTH || token.length < MIN_STEMMED_LENGTH) return token;
  const s = [...token];
  let n = step1a(s, token.length);
  const b = applyStep(s, n, STEP_1B);
  n = b.n;
  // Only removing `ed` or `ing` goes on to the second part of step 1b (`eed` → `ee` does not).
  if (b.applied && b.suffix !== "eed") {
    const b2 = applyStep(s, n, STEP_1B2);
    n = b2.n;
    if (!b2.applied) {
      const c = s[n - 1];
      if (!isVowel(c, false) && c !== "l" && c !== "s" && c !== "z" && c === s[n - 2]) n -= 1;
      else if (mEq1(s, n) && oStar(s, n)) s[n++] = "e";
    }
  }
  if (s[n - 1] === "y" && hasVowel(s, n - 1)) s[n - 1] = "i";
  n = applyStep(s, n, STEP_2).n;
  n = applyStep(s, n, STEP_3).n;
  n = applyStep(s, n, STEP_4).n;
  if (s[n - 1] === "e" && (mGt1(s, n - 1) || (mEq1(s, n - 1) && !oStar(s, n - 1)))) n -= 1;
  if (n > 1 && s[n - 1] === "l" && s[n - 2] === "l" && mGt1(s, n - 1)) n -= 1;
  return s.slice(0, n).join("");
}
