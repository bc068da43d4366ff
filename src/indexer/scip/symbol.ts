/**
 * SCIP symbol strings (`<scheme> <manager> <package> <version> <descriptors>` or `local <id>`): what the indexer
 * needs of one is its last descriptor — the simple name and what it names (a type, a term, a method, a namespace…).
 */

export type DescriptorSuffix = "namespace" | "type" | "term" | "method" | "type_parameter" | "parameter" | "meta" | "macro";

export interface Descriptor {
  name: string;
  suffix: DescriptorSuffix;
}

const SIMPLE = /[A-Za-z0-9_+\-$]/;

/** A name at `i`: backquoted (`` `a.ts` ``, doubled backquotes inside) or simple characters. Returns it and the next index. */
function readName(s: string, i: number): [string, number] {
  if (s[i] === "`") {
    let out = "";
    let j = i + 1;
    while (j < s.length) {
      if (s[j] === "`") {
        if (s[j + 1] === "`") {
          out += "`";
          j += 2;
          continue;
        }
        return [out, j + 1];
      }
      out += s[j++];
    }
    return [out, j];
  }
  let j = i;
  while (j < s.length && SIMPLE.test(s[j]!)) j++;
  return [s.slice(i, j), j];
}

/** Index where the descriptors start: after four space-separated fields (a doubled space is an escaped one). */
function descriptorsStart(s: string): number {
  let fields = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== " ") continue;
    if (s[i + 1] === " ") {
      i++;
      continue;
    }
    if (++fields === 4) return i + 1;
  }
  return -1;
}

/** The descriptors of a global symbol, or null for a local one or a string that is not a SCIP symbol. */
export function parseDescriptors(symbol: string): Descriptor[] | null {
  if (symbol.startsWith("local ")) return null;
  let i = descriptorsStart(symbol);
  if (i < 0) return null;
  const out: Descriptor[] = [];
  while (i < symbol.length) {
    const c = symbol[i];
    if (c === "[" || c === "(") {
      const close = symbol.indexOf(c === "[" ? "]" : ")", i + 1);
      if (close < 0) return null;
      out.push({ name: symbol.slice(i + 1, close), suffix: c === "[" ? "type_parameter" : "parameter" });
      i = close + 1;
      continue;
    }
    const [name, j] = readName(symbol, i);
    const suffix = symbol[j];
    if (suffix === "(") {
      const close = symbol.indexOf(")", j + 1);
      if (close < 0 || symbol[close + 1] !== ".") return null;
      out.push({ name, suffix: "method" });
      i = close + 2;
      continue;
    }
    const kind = ({ "/": "namespace", "#": "type", ".": "term", ":": "meta", "!": "macro" } as const)[suffix as "/"];
    if (!kind) return null;
    out.push({ name, suffix: kind });
    i = j + 1;
  }
  return out.length > 0 ? out : null;
}

/** Descriptors that name what the index keeps as symbols and references (not modules, parameters, type parameters). */
const NAMED: ReadonlySet<DescriptorSuffix> = new Set(["type", "term", "method", "macro"]);

/** A symbol's last descriptor when it is one the index keeps, else null. */
export function namedDescriptor(symbol: string): Descriptor | null {
  const d = parseDescriptors(symbol);
  const last = d?.[d.length - 1];
  return last && NAMED.has(last.suffix) && last.name.length > 0 ? last : null;
}

/** Constructors are their class: `Box#<constructor>().` (TypeScript) and `Box#__init__().` calls say `Box`. */
export function definitionOf(symbol: string): string {
  const m = /^(.*#)(?:`<constructor>`|<constructor>)\(\)\.$/.exec(symbol);
  return m ? m[1]! : symbol;
}
