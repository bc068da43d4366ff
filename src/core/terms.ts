/**
 * Terms for natural-language retrieval: what the first-stage ranking index holds per file, and the same splitting
 * applied to a query so that index and query agree. Identifiers are split into their words (camelCase, PascalCase
 * with acronyms, snake_case, kebab-case) and kept whole as well; stemming is left to the full-text tokenizer
 * (porter), which treats index and query alike.
 */

/** A file's terms per field: each a space-joined list of unique lowercased terms. */
export interface FileTerms {
  path: string;
  symbols: string;
  body: string;
}

/**
 * Identifiers and words: a letter or underscore, then 1 to 63 word characters (longer runs are data, not names).
 * ASCII only: it is what code names are made of, and the regex engine scans it several times faster than \p{L}.
 */
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]{1,63}/g;
/** Shorter pieces of a split identifier (`x` of `xOffset`) say nothing. */
const MIN_PIECE_LENGTH = 2;
/**
 * Body terms kept per file. A file's body rarely has more unique terms than this; those that do are tables and
 * generated code, whose extra terms would only make the index bigger.
 */
export const MAX_BODY_TERMS = 20_000;
/** Symbol-name terms kept per file (register headers define thousands of macros). */
export const MAX_SYMBOL_TERMS = 5_000;
/**
 * English function words, dropped from queries and from the index alike: they occur in most files' comments and
 * in most questions ("where do we ..."), so they cost index space and carry no signal.
 */
const STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be been being but by can could did do does doing done for from had has have having he her " +
    "here hers him his how i if in into is it its itself me my no nor not of on or our ours she should so such than " +
    "that the their theirs them then there these they this those to too us very was we were what when where which " +
    "while who whom why will with would you your yours"
  ).split(" "),
);

/** Stopwords are short: longer terms skip the lookup. */
const MAX_STOPWORD_LENGTH = 7;

function isStopword(term: string): boolean {
  return term.length <= MAX_STOPWORD_LENGTH && STOPWORDS.has(term);
}

const DIGIT = 0;
const LOWER = 1;
const UPPER = 2;
const OTHER = 3;

function charClass(code: number): number {
  if (code >= 48 && code <= 57) return DIGIT;
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  return OTHER;
}

/** Whether the uppercase letter at `i` starts a word: after a lowercase letter or digit, or ending an acronym. */
function startsWord(id: string, i: number): boolean {
  const prev = charClass(id.charCodeAt(i - 1));
  if (prev === LOWER || prev === DIGIT) return true;
  return prev === UPPER && i + 1 < id.length && charClass(id.charCodeAt(i + 1)) === LOWER;
}

/** The words of `id`, sliced from `lower` (the same text lowercased: ASCII keeps the offsets). */
function piecesOf(id: string, lower: string): string[] {
  const pieces: string[] = [];
  let start = -1;
  for (let i = 0; i < id.length; i++) {
    const c = charClass(id.charCodeAt(i));
    if (c === OTHER) {
      if (start >= 0) pieces.push(lower.slice(start, i));
      start = -1;
    } else if (start < 0) start = i;
    else if (c === UPPER && startsWord(id, i)) {
      pieces.push(lower.slice(start, i));
      start = i;
    }
  }
  if (start >= 0) pieces.push(lower.slice(start));
  return pieces;
}

/**
 * The lowercased words of an identifier: `parseHTTPRequest` → parse http request, `max_queue-size` → max queue
 * size. Digits stay with the letters before them (`v2`, `utf8ToUtf16` → utf8 to utf16, `x86_64` → x86 64): a
 * number alone is rarely what a reader means. Pieces of any length are returned; callers drop the short ones.
 */
export function splitIdentifier(id: string): string[] {
  return piecesOf(id, id.toLowerCase());
}

/** Lowercase letters and digits only: the identifier is its own single term (most names in C and Python). */
function isOneWord(id: string): boolean {
  for (let i = 0; i < id.length; i++) {
    const c = charClass(id.charCodeAt(i));
    if (c !== LOWER && c !== DIGIT) return false;
  }
  return true;
}

/**
 * Adds an identifier's terms to `into`: itself lowercased, then its words, without stopwords or short words.
 * Not memoized across files: a shared memo of names measured slower than splitting again (its lookups miss the
 * CPU caches, while a split is a few slices of a short string).
 */
function addIdentifierTerms(id: string, into: Set<string>): void {
  if (isOneWord(id)) {
    if (!isStopword(id)) into.add(id);
    return;
  }
  const whole = id.toLowerCase();
  if (!isStopword(whole)) into.add(whole);
  for (const piece of piecesOf(id, whole)) {
    if (piece.length >= MIN_PIECE_LENGTH && piece.length < whole.length && !isStopword(piece)) into.add(piece);
  }
}

/** Adds the terms of every distinct identifier in `text` to `into`, until it holds `cap` terms. */
function addTextTerms(text: string, into: Set<string>, cap: number): void {
  const ids = text.match(IDENTIFIER);
  if (ids === null) return;
  // Distinct identifiers first: a file repeats its names many times, and a Set of strings is cheap to build.
  for (const id of new Set(ids)) {
    addIdentifierTerms(id, into);
    if (into.size >= cap) return;
  }
}

function termsOf(text: string, cap: number): string {
  const out = new Set<string>();
  addTextTerms(text, out, cap);
  return [...out].join(" ");
}

/**
 * A file's terms per field: its path's segments, the names it defines, and the identifiers and words of its
 * text, each whole (lowercased) and split, unique per field. Body and symbol terms are capped (MAX_BODY_TERMS,
 * MAX_SYMBOL_TERMS); names are taken in sorted order, so the same names give the same terms in any order.
 */
export function fileTerms(path: string, content: string, symbolNames: Iterable<string>): FileTerms {
  return {
    path: termsOf(path, Number.POSITIVE_INFINITY),
    symbols: termsOf([...new Set(symbolNames)].sort().join(" "), MAX_SYMBOL_TERMS),
    body: termsOf(content, MAX_BODY_TERMS),
  };
}

/** A query's terms, split as files are (so they meet in the index), stopwords removed, first occurrence kept. */
export function queryTerms(text: string): string[] {
  const out = new Set<string>();
  for (const id of text.match(IDENTIFIER) ?? []) addIdentifierTerms(id, out);
  return [...out];
}

/** How often each of a query's terms occurs in it (an issue repeats what it is about). */
export function queryTermCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const one = new Set<string>();
  for (const id of text.match(IDENTIFIER) ?? []) {
    one.clear();
    addIdentifierTerms(id, one);
    for (const t of one) counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  return counts;
}

/** How many terms a field's space-joined list holds (its length, for ranking's length normalization). */
export function termCount(field: string): number {
  if (field.length === 0) return 0;
  let n = 1;
  for (let i = field.indexOf(" "); i !== -1; i = field.indexOf(" ", i + 1)) n += 1;
  return n;
}
