/**
 * Triggers: which patterns can match a line, found by one scan of the whole text for the factors of every pattern
 * (factors.ts) instead of running every rule on every line. A pattern runs only on a line that holds a string of each
 * of its factor sets; a pattern without factors runs wherever its rule does. A gated rule (other languages) runs only
 * on a line with a letter outside ASCII, a factor of its stems or a match of its stems without factors, and then its
 * gate decides as before. So the result is the same as running everything; ordinary text skips nearly all of it, and
 * a pattern is compiled only when a line first holds its factors.
 */
import { canonicalKey, requiredSets } from "./factors.js";
import { NON_ASCII_LETTER } from "./languages.js";
import type { LineRule } from "./rules.js";

/** A pattern and the factor sets it needs (their slots): it can match only a text that holds a string of each. */
export interface PatternTrigger {
  pattern: RegExp;
  /** None: the pattern has no factors and runs wherever its rule runs. */
  slots: readonly number[];
}

/** What the trigger scan tells about one rule. */
export interface RuleTrigger {
  /** Set in a text's mask when it holds a string of the first factor set of one of the rule's patterns. */
  bit: number;
  /** The rule's patterns, in order, with their factor sets (empty for a gated rule: its patterns run when its gate passes). */
  patterns: readonly PatternTrigger[];
  /** The patterns without factors: the only ones that can match a text without the rule's bit. */
  residual: readonly RegExp[];
  /** For a gated rule: the bit of its stems' factors (0 when none has), and its stems without factors. */
  gateBit: number;
  gateResidual: RegExp | null;
}

/** What the scan found in a text (a line or a variant of one): rules and gates (bits), and factor sets (slots). */
export interface Found {
  mask: number;
  slots: ReadonlySet<number>;
}

/** What a factor stands for: the bits and the slots of every set it belongs to. */
interface Meaning {
  mask: number;
  slots: number[];
}

const NOTHING: ReadonlySet<number> = new Set();

/** A letter the other-language gates accept on their own (their pattern's first branch, same flags). */
const FOREIGN_LETTER = new RegExp(NON_ASCII_LETTER, "i");
/** Whether a text with a character outside ASCII passes every gate's letter test. */
export const hasForeignLetter = (text: string): boolean => FOREIGN_LETTER.test(text);

/** Shortest factor in a pattern's second or third set. */
const MIN_NARROWING_FACTOR = 4;

/** Longest common use of a 32-bit mask: one bit per rule and per gate. */
const MAX_BITS = 31;

const escape = (s: string): string => s.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");

/**
 * One alternation of every factor, grouped by first letter (`i(?:gnore|nstead)|…`: much cheaper to run than a flat
 * list). Case-insensitive and global, for scans that visit every position.
 */
function scanner(factors: readonly string[]): RegExp {
  const groups = new Map<string, string[]>();
  for (const f of factors) {
    const group = groups.get(canonicalKey(f[0]!));
    if (group === undefined) groups.set(canonicalKey(f[0]!), [f]);
    else group.push(f);
  }
  const source = [...groups.values()].map((fs) => (fs.length === 1 ? escape(fs[0]!) : `${escape(fs[0]![0]!)}(?:${fs.map((f) => escape(f.slice(1))).join("|")})`));
  return new RegExp(source.join("|") || "(?!)", "gi");
}

/**
 * What each factor stands for, closed over overlaps. At one position the scan reports one factor, and every factor
 * matching there is a prefix of the longest one matching there: so each factor also stands for its prefixes and for
 * the factors it is a prefix of, whichever of them the scan happens to report.
 */
function closedMeanings(meanings: ReadonlyMap<string, Meaning>): Map<string, Meaning> {
  const keys = [...meanings.keys()].sort();
  const parent: number[] = [];
  const stack: number[] = [];
  keys.forEach((k, i) => {
    while (stack.length > 0 && !k.startsWith(keys[stack[stack.length - 1]!]!)) stack.pop();
    parent.push(stack.length > 0 ? stack[stack.length - 1]! : -1);
    stack.push(i);
  });
  const merge = (a: Meaning, b: Meaning): Meaning => {
    if (b.slots.length === 0 || a === b) return { mask: a.mask | b.mask, slots: a.slots };
    return { mask: a.mask | b.mask, slots: a.slots.length === 0 ? b.slots : [...new Set([...a.slots, ...b.slots])] };
  };
  const up = keys.map((k) => meanings.get(k)!);
  const down = [...up];
  for (let i = 0; i < keys.length; i++) if (parent[i]! >= 0) up[i] = merge(up[i]!, up[parent[i]!]!);
  for (let i = keys.length - 1; i >= 0; i--) if (parent[i]! >= 0) down[parent[i]!] = merge(down[parent[i]!]!, down[i]!);
  return new Map(keys.map((k, i) => [k, merge(up[i]!, down[i]!)]));
}

/**
 * A gated rule's pattern (compiled on first call) and its factor sets in upper case (any script): it can match only
 * a line whose upper-case form holds a string of each set. (Upper case is how a case-insensitive regular expression
 * compares characters, so a line the pattern matches holds its factors in upper case; an upper-case copy and
 * `includes` need no regular expression to compile.)
 */
export interface CheckedPattern {
  pattern: () => RegExp;
  sets: ReadonlyArray<readonly string[]>;
}

/** The checked patterns of a gated rule, listed when a line first passes its gate. */
function checkedPatterns(rule: LineRule): CheckedPattern[] {
  const list = rule.lazy?.();
  const sources = list?.sources ?? rule.patterns.map((p) => ({ source: p.source, flags: p.flags }));
  return sources.map((p, k) => ({
    pattern: list === undefined ? () => rule.patterns[k]! : () => list.at(k),
    sets: requiredSets(p.source, p.flags, false).map((set) => set.map((f) => f.toUpperCase())),
  }));
}

/** The triggers of a list of line rules (index for index) and the scan that finds them. */
export class TriggerTable {
  readonly triggers: readonly RuleTrigger[];
  private readonly scan: RegExp;
  private readonly meanings: ReadonlyMap<string, Meaning>;
  private readonly rules: readonly LineRule[];
  private readonly checked = new Map<number, CheckedPattern[]>();
  private readonly stems = new Map<number, RegExp>();

  constructor(rules: readonly LineRule[]) {
    this.rules = rules;
    const meanings = new Map<string, Meaning>();
    let bits = 0;
    let slots = 0;
    const newBit = (): number => {
      if (bits >= MAX_BITS) throw new Error(`injection triggers: more than ${MAX_BITS} rules and gates`);
      return 1 << bits++;
    };
    const mean = (factors: readonly string[], mask: number, slot: number | null): void => {
      for (const f of factors) {
        const key = canonicalKey(f);
        const m = meanings.get(key) ?? { mask: 0, slots: [] };
        m.mask |= mask;
        if (slot !== null) m.slots.push(slot);
        meanings.set(key, m);
      }
    };
    this.triggers = rules.map((rule): RuleTrigger => {
      if (rule.gate !== undefined) {
        // The other languages' patterns are built only when a line first passes their gate: no factors of theirs.
        const { stems, pattern } = rule.gate;
        const gateBit = newBit();
        const residual = stems.filter((stem) => {
          const best = requiredSets(stem, pattern.flags)[0];
          if (best !== undefined) mean(best, gateBit, null);
          return best === undefined;
        });
        return { bit: 0, patterns: [], residual: [], gateBit, gateResidual: residual.length > 0 ? new RegExp(residual.join("|"), pattern.flags) : null };
      }
      const bit = newBit();
      const patterns = rule.patterns.map((pattern): PatternTrigger => {
        // The first set decides whether the rule runs at all; the others only narrow it down, and a short word
        // there ("the", "and") would cost the scan more than it narrows.
        const sets = requiredSets(pattern.source, pattern.flags).filter((set, k) => k === 0 || set.every((f) => f.length >= MIN_NARROWING_FACTOR));
        const mine = sets.map((set, k) => {
          mean(set, k === 0 ? bit : 0, slots);
          return slots++;
        });
        return { pattern, slots: mine };
      });
      const residual = patterns.filter((p) => p.slots.length === 0).map((p) => p.pattern);
      return { bit, patterns, residual, gateBit: 0, gateResidual: null };
    });
    this.meanings = closedMeanings(meanings);
    this.scan = scanner([...this.meanings.keys()]);
  }

  /** What the factor the scan just matched stands for (and the scan moved on by one character, to find overlaps). */
  private meaningAt(m: RegExpExecArray): Meaning | undefined {
    this.scan.lastIndex = m.index + 1;
    return this.meanings.get(m[0]) ?? this.meanings.get(canonicalKey(m[0]));
  }

  /** What `text` holds. */
  find(text: string): Found {
    let mask = 0;
    let slots: Set<number> | null = null;
    this.scan.lastIndex = 0;
    for (let m = this.scan.exec(text); m !== null; m = this.scan.exec(text)) {
      const meaning = this.meaningAt(m);
      // Every factor's matches are ASCII and found under its key; were one not, every rule would run (-1: all bits).
      mask |= meaning?.mask ?? -1;
      for (const slot of meaning?.slots ?? []) (slots ??= new Set()).add(slot);
    }
    return { mask, slots: slots ?? NOTHING };
  }

  /** `find` for every line of a text (`lineStarts`: where each line starts), in one scan. */
  findByLine(text: string, lineStarts: readonly number[]): Found[] {
    const found: Array<{ mask: number; slots: Set<number> | null }> = lineStarts.map(() => ({ mask: 0, slots: null }));
    let line = 0;
    this.scan.lastIndex = 0;
    for (let m = this.scan.exec(text); m !== null; m = this.scan.exec(text)) {
      while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= m.index) line++;
      const meaning = this.meaningAt(m);
      const here = found[line]!;
      here.mask |= meaning?.mask ?? -1;
      for (const slot of meaning?.slots ?? []) (here.slots ??= new Set()).add(slot);
    }
    return found.map((f) => ({ mask: f.mask, slots: f.slots ?? NOTHING }));
  }

  /**
   * The gate of gated rule `index` for a text without a letter outside ASCII: its stems alone (the letter branch
   * cannot match such a text, and is the costly part of the gate).
   */
  stemsOnly(index: number): RegExp {
    let found = this.stems.get(index);
    if (found === undefined) {
      const gate = this.rules[index]!.gate!;
      this.stems.set(index, (found = new RegExp(gate.stems.join("|"), gate.pattern.flags)));
    }
    return found;
  }

  /** The patterns of gated rule `index` with their checks (built on first use). */
  gatedPatterns(index: number): readonly CheckedPattern[] {
    let found = this.checked.get(index);
    if (found === undefined) this.checked.set(index, (found = checkedPatterns(this.rules[index]!)));
    return found;
  }

  /** Every pattern the triggers run (for the structural linearity check). */
  patterns(): RegExp[] {
    const residual = this.triggers.flatMap((t) => (t.gateResidual === null ? [] : [t.gateResidual]));
    const stems = this.rules.flatMap((r, i) => (r.gate === undefined ? [] : [this.stemsOnly(i)]));
    return [this.scan, FOREIGN_LETTER, ...residual, ...stems];
  }
}
