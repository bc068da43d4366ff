/**
 * Structure check for regexes that run over whole texts. A backtracking matcher spends bounded work at each start
 * position when every repetition has a finite bound and no repeated group contains another repetition; over a text
 * of n characters that is O(n) work. This reads a JavaScript regex source (non-unicode syntax, as our patterns
 * are written) and lists every place that breaks either rule, so a test can prove linearity without a clock.
 */

export interface ShapeViolation {
  /** Character offset in the source. */
  at: number;
  problem: "unbounded repetition" | "nested repetition" | "bound too large";
}

/** Largest repetition bound accepted: more would make the per-position work constant only in name. */
export const MAX_BOUND = 10_000;

interface Frame {
  /** Largest repetition bound seen anywhere inside the group so far. */
  innerMax: number;
}

/** Length of the escape at `i` (the backslash included). */
function escapeLength(source: string, i: number): number {
  const next = source[i + 1];
  if (next === "k" && source[i + 2] === "<") return source.indexOf(">", i) - i + 1;
  if (next === "u" && source[i + 2] === "{") return source.indexOf("}", i) - i + 1;
  if (next === "u") return 6;
  if (next === "x") return 4;
  if (next === "c") return 3;
  return 2;
}

/** Length of the character class at `i` (brackets included). */
function classLength(source: string, i: number): number {
  let j = i + 1;
  while (j < source.length && source[j] !== "]") j += source[j] === "\\" ? escapeLength(source, j) : 1;
  return j - i + 1;
}

/** The quantifier at `i`, if any: its upper bound and length. */
function quantifierAt(source: string, i: number): { max: number; length: number } | null {
  const c = source[i];
  let max: number;
  let length: number;
  if (c === "*" || c === "+") {
    max = Infinity;
    length = 1;
  } else if (c === "?") {
    max = 1;
    length = 1;
  } else if (c === "{") {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
    if (m === null) return null;
    max = m[2] === undefined ? Number(m[1]) : m[3] === "" ? Infinity : Number(m[3]);
    length = m[0].length;
  } else {
    return null;
  }
  if (source[i + length] === "?") length++; // lazy
  return { max, length };
}

/** Length of a group opener at `i`: `(`, `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`. */
function groupOpenLength(source: string, i: number): number {
  if (source[i + 1] !== "?") return 1;
  if (source[i + 2] === "<" && source[i + 3] !== "=" && source[i + 3] !== "!") return source.indexOf(">", i) - i + 1;
  return source[i + 2] === "<" ? 4 : 3;
}

export function regexShapeViolations(source: string): ShapeViolation[] {
  const violations: ShapeViolation[] = [];
  const stack: Frame[] = [{ innerMax: 0 }];
  const top = (): Frame => stack[stack.length - 1]!;
  /** Largest bound inside the atom just read (0 for a plain atom, the group's inner maximum for a group). */
  let lastAtomInner: number | null = null;
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    const q = quantifierAt(source, i);
    if (q !== null && lastAtomInner !== null) {
      if (q.max === Infinity) violations.push({ at: i, problem: "unbounded repetition" });
      else if (q.max > MAX_BOUND) violations.push({ at: i, problem: "bound too large" });
      if (q.max > 1 && lastAtomInner > 1) violations.push({ at: i, problem: "nested repetition" });
      top().innerMax = Math.max(top().innerMax, q.max, lastAtomInner);
      lastAtomInner = null;
      i += q.length;
      continue;
    }
    if (c === "\\") {
      lastAtomInner = 0;
      i += escapeLength(source, i);
    } else if (c === "[") {
      lastAtomInner = 0;
      i += classLength(source, i);
    } else if (c === "(") {
      stack.push({ innerMax: 0 });
      lastAtomInner = null;
      i += groupOpenLength(source, i);
    } else if (c === ")") {
      const closed = stack.pop()!;
      top().innerMax = Math.max(top().innerMax, closed.innerMax);
      lastAtomInner = closed.innerMax;
      i++;
    } else {
      lastAtomInner = c === "|" || c === "^" || c === "$" ? null : 0;
      i++;
    }
  }
  return violations;
}
