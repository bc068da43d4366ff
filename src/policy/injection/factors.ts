/**
 * Required factors of a regular expression: sets of literal strings such that every match contains a string of each
 * set (`\byou\s+are\s+now\b` needs "you", "are" and "now"; `\bforce[\s-]?push` needs "force" and "push";
 * `(?:ignore|disregard)\s+previous` needs "ignore" or "disregard", and "previous"). The detector scans a text once for
 * the factors of every pattern and runs a pattern only on the lines that hold a string of each of its sets, which is
 * exact: a line that lacks one cannot match.
 *
 * The reading is conservative: whatever it does not understand (character classes with many members, `\w`, `\s`,
 * `.`, Unicode properties, back-references, line breaks) counts as "any text", lookarounds and anchors as the empty
 * string, so the sets may say less than they could but never something wrong. By default factors are ASCII, for the
 * whole-text scan (triggers.ts), which compares them case-insensitively: in a non-Unicode case-insensitive regular
 * expression an ASCII letter matches only its two ASCII cases, so what the scan finds is ASCII too. The other
 * languages' patterns also get factors in their own scripts, which are checked on an upper-case copy of a line.
 */

type Strings = readonly string[];

/** What a piece of a pattern tells about the text it matches. */
interface Facts {
  /** Every string the piece can match, when they are few; null otherwise. */
  exact: Strings | null;
  /** Sets of strings: every match holds a string of each set (none known: empty). */
  required: readonly Strings[];
}

const UNKNOWN: Facts = { exact: null, required: [] };
const EMPTY: Facts = { exact: [""], required: [] };
/** Most strings a set of exact matches may hold before it is given up. */
const MAX_SET = 32;
/** Shortest useful factor: shorter ones occur everywhere (in another script, two characters already say much). */
const MIN_ASCII_FACTOR = 3;
const MIN_FACTOR = 2;
/** Most factor sets kept per pattern (the most selective ones). */
const MAX_SETS = 3;

/** An ASCII string's case-insensitive identity: two ASCII strings match each other case-insensitively iff their keys are equal. */
export const canonicalKey = (s: string): string => s.toLowerCase();

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const isAscii = (s: string): boolean => ASCII_ONLY.test(s);
/** A string's identity in a set: case-insensitive for ASCII; exact otherwise (case folding outside ASCII has corners). */
const setKey = (s: string): string => (isAscii(s) ? canonicalKey(s) : s);

function dedupe(xs: Strings): string[] {
  if (xs.length < 2) return [...xs];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const x of xs) {
    const key = setKey(x);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(x);
  }
  return out;
}

/** How selective a set is: its shortest string (longer is rarer), then its size (fewer is rarer). */
function shortest(xs: Strings): number {
  let min = Infinity;
  for (const x of xs) if (x.length < min) min = x.length;
  return min;
}
/** Negative when `a` is more selective than `b` (a sort order, best first). */
const moreSelective = (a: Strings, b: Strings): number => shortest(b) - shortest(a) || a.length - b.length;

/** A set worth keeping: no empty string (which every text holds) and nothing shorter than `min`. */
const worth = (xs: Strings, min: number): boolean => shortest(xs) >= min;

/** The most selective sets worth keeping: at most MAX_SETS, best first. */
function keep(sets: readonly Strings[], min: number): Strings[] {
  const best: Strings[] = [];
  for (const set of sets) {
    if (!worth(set, min)) continue;
    let at = best.length;
    while (at > 0 && moreSelective(set, best[at - 1]!) < 0) at--;
    if (at < MAX_SETS) best.splice(at, 0, set);
    if (best.length > MAX_SETS) best.pop();
  }
  return best;
}

/** The most selective set worth keeping among a piece's exact strings and required sets (kept best first), or null. */
function bestSet(f: Facts, min: number): Strings | null {
  const exact = f.exact !== null && worth(f.exact, min) ? f.exact : null;
  const required = f.required[0] ?? null;
  if (exact === null || required === null) return exact ?? required;
  return moreSelective(exact, required) <= 0 ? exact : required;
}

function product(a: Strings, b: Strings): string[] | null {
  if (a.length * b.length > MAX_SET) return null;
  const out: string[] = [];
  for (const x of a) for (const y of b) out.push(x + y);
  return dedupe(out);
}

/** All strings of some sets, or null when they are more than `limit`. */
function union(sets: ReadonlyArray<Strings | null>, limit: number): string[] | null {
  let size = 0;
  for (const set of sets) {
    if (set === null) return null;
    size += set.length;
  }
  if (size > limit) return null;
  const out: string[] = [];
  for (const set of sets) for (const x of set!) out.push(x);
  return dedupe(out);
}

/** Facts of a sequence: its parts' sets and the exact strings of its runs of exact parts, all required. */
function sequence(items: readonly Facts[], min: number): Facts {
  let run: Strings = [""];
  const required: Strings[] = [];
  let whole = true;
  for (const item of items) {
    const single = item.exact?.length === 1 ? item.exact[0]! : null;
    // Appending one string keeps the strings distinct: the common case (a literal character) needs no product.
    const joined: Strings | null = single !== null ? run.map((x) => x + single) : item.exact === null ? null : product(run, item.exact);
    if (joined !== null) {
      run = joined;
      continue;
    }
    required.push(run);
    for (const set of item.required) required.push(set);
    whole = false;
    run = item.exact ?? [""];
  }
  required.push(run);
  return { exact: whole ? run : null, required: keep(required, min) };
}

/** Most strings in the one set an alternation requires (a longer list says little and costs the scan). */
const MAX_UNION = 256;

/** Facts of an alternation: exact when every branch is, and one set (every branch's best) when every branch has one. */
function alternation(branches: readonly Facts[], min: number): Facts {
  const exact = union(branches.map((b) => b.exact), MAX_SET);
  const required = union(branches.map((b) => bestSet(b, min)), MAX_UNION);
  return { exact, required: required === null ? [] : keep([required], min) };
}

function repeat(atom: Facts, min: number, max: number, shortestFactor: number): Facts {
  if (min === 0) return { exact: max === 1 && atom.exact !== null ? dedupe([...atom.exact, ""]) : null, required: [] };
  let exact: Strings | null = min === max ? [""] : null;
  for (let k = 0; exact !== null && k < min; k++) exact = atom.exact === null ? null : product(exact, atom.exact);
  return { exact, required: keep(atom.exact === null ? atom.required : [...atom.required, atom.exact], shortestFactor) };
}

/** A character that stands for itself in a pattern and may be part of a factor. */
const PLAIN_RUN = /[A-Za-z0-9 !"#%&',\-/:;<=>@_`~]+/y;
/** Escapes and classes (skipped whole) and parentheses: what finding each group's end needs. */
const PARENS = /\\[\s\S]|\[(?:\\[\s\S]|[^\]\\])*\]|[()]/g;
const QUANTIFIER_START = new Set("*+?{");
const isDigit = (s: string, i: number): boolean => s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;
const HEX = "0123456789abcdefABCDEF";

/** Facts of the groups read so far, by mode and source (bounded). */
const GROUP_FACTS = new Map<string, Facts>();
const MAX_GROUP_FACTS = 8192;

/** A reader of one pattern source (the subset of the syntax the detector's patterns use; the rest is UNKNOWN). */
class Reader {
  private i = 0;
  private readonly min: number;
  /** For each "(" of the source, the index of its ")". */
  private readonly closing = new Map<number, number>();

  /** `ascii`: factors are ASCII only (the whole-text scan needs that); else any character but a line break. */
  constructor(
    private readonly src: string,
    private readonly ascii: boolean,
  ) {
    this.min = ascii ? MIN_ASCII_FACTOR : MIN_FACTOR;
    const open: number[] = [];
    PARENS.lastIndex = 0;
    for (let m = PARENS.exec(src); m !== null; m = PARENS.exec(src)) {
      if (m[0] === "(") open.push(m.index);
      else if (m[0] === ")" && open.length > 0) this.closing.set(open.pop()!, m.index);
    }
  }

  /** Whether a single character may be part of a factor. */
  private factorChar(c: string): boolean {
    return c !== "\n" && c !== "\r" && (!this.ascii || c.charCodeAt(0) < 128);
  }

  read(): Facts {
    const facts = this.alternation();
    return this.i === this.src.length ? facts : UNKNOWN;
  }

  private alternation(): Facts {
    const branches = [this.sequence()];
    while (this.src[this.i] === "|") {
      this.i++;
      branches.push(this.sequence());
    }
    return branches.length === 1 ? branches[0]! : alternation(branches, this.min);
  }

  private sequence(): Facts {
    const items: Facts[] = [];
    while (this.i < this.src.length && this.src[this.i] !== "|" && this.src[this.i] !== ")") {
      const literal = this.literalRun();
      if (literal !== null) items.push({ exact: [literal], required: [] });
      else items.push(this.quantified(this.atom()));
    }
    return sequence(items, this.min);
  }

  /** A run of plain characters none of which is quantified (`ignore` in `ignore\s+`), or null. */
  private literalRun(): string | null {
    const from = this.i;
    PLAIN_RUN.lastIndex = from;
    let end = PLAIN_RUN.test(this.src) ? PLAIN_RUN.lastIndex : from;
    // The last character may carry a quantifier: leave it to `atom`.
    if (end < this.src.length && QUANTIFIER_START.has(this.src[end]!)) end--;
    if (end <= from) return null;
    this.i = end;
    return this.src.slice(from, end);
  }

  private quantified(atom: Facts): Facts {
    const c = this.src[this.i];
    let bounds: [number, number] | null = null;
    if (c === "*" || c === "+" || c === "?") {
      this.i++;
      bounds = [c === "+" ? 1 : 0, c === "?" ? 1 : Infinity];
    } else if (c === "{") bounds = this.braces();
    if (bounds === null) return atom;
    if (this.src[this.i] === "?") this.i++; // lazy
    return repeat(atom, bounds[0], bounds[1], this.min);
  }

  /** `{n}`, `{n,}` or `{n,m}` at the reading position (else null: the brace is a literal). */
  private braces(): [number, number] | null {
    const s = this.src;
    let j = this.i + 1;
    const from = j;
    while (isDigit(s, j)) j++;
    if (j === from) return null;
    const min = Number(s.slice(from, j));
    let max = min;
    if (s[j] === ",") {
      const to = ++j;
      while (isDigit(s, j)) j++;
      max = j === to ? Infinity : Number(s.slice(to, j));
    }
    if (s[j] !== "}") return null;
    this.i = j + 1;
    return [min, max];
  }

  private atom(): Facts {
    const c = this.src[this.i]!;
    if (c === "(") return this.group();
    if (c === "[") return this.charClass();
    this.i++;
    if (c === "\\") return this.escape();
    if (c === "^" || c === "$") return EMPTY;
    if (c === "." || !this.factorChar(c)) return UNKNOWN;
    return { exact: [c], required: [] };
  }

  /**
   * A group: its inner facts, EMPTY for a lookaround (skipped unread). The patterns repeat their vocabulary groups
   * (people, secrets, word edges), so facts are remembered by group source.
   */
  private group(): Facts {
    const s = this.src;
    const open = this.i;
    const close = this.closing.get(open);
    if (close === undefined) return UNKNOWN;
    if (s[open + 1] === "?" && (s[open + 2] === "=" || s[open + 2] === "!" || (s[open + 2] === "<" && (s[open + 3] === "=" || s[open + 3] === "!")))) {
      this.i = close + 1;
      return EMPTY;
    }
    const key = (this.ascii ? "a" : "u") + s.slice(open, close + 1);
    const known = GROUP_FACTS.get(key);
    if (known !== undefined) {
      this.i = close + 1;
      return known;
    }
    const facts = this.groupFacts();
    if (this.i === close + 1 && GROUP_FACTS.size < MAX_GROUP_FACTS) GROUP_FACTS.set(key, facts);
    return facts;
  }

  private groupFacts(): Facts {
    const s = this.src;
    this.i++;
    let kind = "(";
    if (s[this.i] === "?") {
      const next = s[this.i + 1];
      const behind = next === "<" && (s[this.i + 2] === "=" || s[this.i + 2] === "!");
      if (next === ":" || next === "=" || next === "!" || behind) {
        kind = behind ? `(?<${s[this.i + 2]!}` : `(?${next}`;
        this.i += kind.length - 1;
      } else if (next === "<" && s.indexOf(">", this.i) > 0) {
        this.i = s.indexOf(">", this.i) + 1; // a named group
      } else kind = "unsupported";
    }
    const inner = this.alternation();
    if (s[this.i] !== ")") return UNKNOWN;
    this.i++;
    if (kind === "unsupported") return UNKNOWN;
    return kind === "(?=" || kind === "(?!" || kind === "(?<=" || kind === "(?<!" ? EMPTY : inner;
  }

  /** The character an escape stands for, or null for a class escape, an assertion or a back-reference. */
  private escapedChar(): string | null | "assertion" {
    const s = this.src;
    const e = s[this.i];
    const hex = e === "u" ? 4 : e === "x" ? 2 : 0;
    if (hex > 0 && [...s.slice(this.i + 1, this.i + 1 + hex)].filter((h) => HEX.includes(h)).length === hex) {
      this.i += 1 + hex;
      return String.fromCharCode(parseInt(s.slice(this.i - hex, this.i), 16));
    }
    const close = e === "p" || e === "P" || (e === "u" && s[this.i + 1] === "{") ? "}" : e === "k" && s[this.i + 1] === "<" ? ">" : null;
    if (close !== null && s.indexOf(close, this.i) > 0) {
      this.i = s.indexOf(close, this.i) + 1; // a property class, a code point or a named back-reference
      return null;
    }
    if (e === "c" && /^[A-Za-z]$/.test(s[this.i + 1] ?? "")) {
      this.i += 2;
      return null;
    }
    return this.plainEscape();
  }

  /** A one-character escape: an assertion, a class, a control character or the character itself. */
  private plainEscape(): string | null | "assertion" {
    const e = this.src[this.i++]!;
    if (e === "b" || e === "B") return "assertion";
    if (e === "t") return "\t";
    if ("fvnr0123456789dDwWsS".includes(e)) return null;
    return e;
  }

  private escape(): Facts {
    const ch = this.escapedChar();
    if (ch === "assertion") return EMPTY;
    return ch === null || !this.factorChar(ch) ? UNKNOWN : { exact: [ch], required: [] };
  }

  /** A class of a few single characters (`[Aa]`, `[\s-]` is not) is exact; anything else is UNKNOWN. */
  private charClass(): Facts {
    this.i++;
    const negated = this.src[this.i] === "^";
    if (negated) this.i++;
    const members: Array<string | null> = [];
    while (this.i < this.src.length && this.src[this.i] !== "]") {
      const c = this.src[this.i++]!;
      const member = c === "\\" ? this.escapedChar() : c;
      if (this.src[this.i] === "-" && this.src[this.i + 1] !== "]" && this.i + 1 < this.src.length) {
        // A range: skip its end; ranges are too wide to list.
        this.i++;
        const end = this.src[this.i++]!;
        if (end === "\\") this.escapedChar();
        members.push(null);
        continue;
      }
      members.push(member === "assertion" ? null : member);
    }
    this.i++;
    if (negated || members.length === 0 || members.length > 4) return UNKNOWN;
    if (members.some((m) => m === null || !this.factorChar(m))) return UNKNOWN;
    return { exact: dedupe(members as string[]), required: [] };
  }
}

/** A set without the strings that hold another of its strings (a text holding "foobar" holds "bar"). */
function minimal(xs: Strings): string[] {
  const keys = xs.map(setKey);
  return xs.filter((_, i) => !keys.some((k, j) => j !== i && keys[i]!.includes(k) && (k !== keys[i] || j < i)));
}

/**
 * Factor sets of a pattern: at most MAX_SETS sets, most selective first; every match holds a string of each set.
 * `ascii` (the default): only ASCII factors, at least three characters long; else factors may hold any character
 * (a case-insensitive test of such a factor is then as exact as the pattern's own) and be two characters long.
 * Empty when the pattern has none.
 */
export function requiredSets(source: string, flags: string, ascii = true): string[][] {
  // Unicode mode folds case differently (and reads escapes differently): such patterns get no factors.
  if (flags.includes("u") || flags.includes("v")) return [];
  const reader = new Reader(source, ascii);
  const facts = reader.read();
  const min = ascii ? MIN_ASCII_FACTOR : MIN_FACTOR;
  const distinct = new Map<string, string[]>();
  for (const set of [...(facts.exact === null ? [] : [facts.exact]), ...facts.required].filter((x) => worth(x, min)).map(minimal)) {
    distinct.set(set.map(setKey).sort().join("\n"), set);
  }
  return keep([...distinct.values()], min) as string[][];
}

/** The top-level branches of a pattern source (`a|b(?:c|d)|e` → `a`, `b(?:c|d)`, `e`); joined by "|" they give it back. */
export function topLevelBranches(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let from = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      out.push(source.slice(from, i));
      from = i + 1;
    }
  }
  out.push(source.slice(from));
  return out;
}
