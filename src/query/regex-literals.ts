/**
 * Literal fragments that every match of a regular expression must contain, for the trigram pre-filter.
 * Conservative: when unsure (alternation, classes, groups, optional parts) a run is cut, never guessed, so the
 * pre-filter can only let too many files through, never too few.
 */
const META = new Set([".", "^", "$", "]", "|"]);
const ESCAPED_LITERALS = new Set([
  "\\", ".", "^", "$", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "/", "-", "'", '"', " ", "#", ":", "=",
  "<", ">", "@", "!", ",", ";", "&", "%", "~", "`",
]);

export function requiredLiterals(pattern: string): string[] {
  if (hasTopLevelAlternation(pattern)) return [];
  const runs: string[] = [];
  let current = "";
  let depth = 0;
  const flush = (): void => {
    if (current.length > 0) runs.push(current);
    current = "";
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    let literal: string;
    if (c === "\\") {
      i += 1;
      const next = pattern[i];
      if (next === undefined || !ESCAPED_LITERALS.has(next)) {
        flush();
        continue;
      }
      literal = next;
    } else if (c === "(") {
      flush();
      depth += 1;
      continue;
    } else if (c === ")") {
      depth = Math.max(0, depth - 1);
      flush();
      continue;
    } else if (c === "[") {
      flush();
      i = skipClass(pattern, i);
      continue;
    } else if (c === "{") {
      flush();
      const close = pattern.indexOf("}", i);
      i = close === -1 ? pattern.length : close;
      continue;
    } else if (c === "*" || c === "+" || c === "?" || META.has(c)) {
      flush();
      continue;
    } else literal = c;
    if (depth > 0) continue;
    const q = pattern[i + 1];
    if (q === "?" || q === "*" || (q === "{" && pattern[i + 2] === "0")) {
      // The character is optional: the run ends before it.
      flush();
      continue;
    }
    current += literal;
    // A repeated character is required once, but what follows it is not adjacent to the run.
    if (q === "+" || q === "{") flush();
  }
  flush();
  return runs;
}

function skipClass(pattern: string, open: number): number {
  let i = open + 1;
  if (pattern[i] === "^") i += 1;
  if (pattern[i] === "]") i += 1;
  for (; i < pattern.length; i++) {
    if (pattern[i] === "\\") i += 1;
    else if (pattern[i] === "]") return i;
  }
  return pattern.length;
}

function hasTopLevelAlternation(pattern: string): boolean {
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i += 1;
    else if (c === "[") i = skipClass(pattern, i);
    else if (c === "(") depth += 1;
    else if (c === ")") depth -= 1;
    else if (c === "|" && depth === 0) return true;
  }
  return false;
}
