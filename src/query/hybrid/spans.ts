import type { SymbolRow } from "../../store/store.js";

/** Kinds whose span is a unit a reader acts on; fields and constants are too small to stand alone. */
const SPAN_KINDS = new Set(["function", "method", "class", "interface", "enum", "type", "module"]);
/** A term in the symbol's own name counts this much more than in its body. */
const NAME_WEIGHT = 3;
/** Longest span returned: a class that big is better shown by its best member. */
const MAX_SPAN_LINES = 80;
/** Lines shown when no symbol fits: the best-matching window. */
const WINDOW_LINES = 12;

export interface BestSpan {
  startLine: number;
  endLine: number;
  /** The symbol the span is, when there is one. */
  symbol: { qualifiedName: string; kind: string } | null;
  /** Query terms found in the span. */
  matched: string[];
}

function termsIn(text: string, terms: readonly string[]): string[] {
  const lower = text.toLowerCase();
  return terms.filter((t) => lower.includes(t));
}

/** Terms found in lines start..end of the already lower-cased lines (no copy of the file per symbol). */
function termsInLines(lower: readonly string[], start: number, end: number, terms: readonly string[]): string[] {
  return terms.filter((t) => {
    for (let i = start - 1; i < end && i < lower.length; i++) if (lower[i]!.includes(t)) return true;
    return false;
  });
}

/**
 * The part of a file that best answers the query: the symbol (method, function, class) whose name and body hold the
 * most query terms, preferring smaller symbols on ties; a line named by a stack frame picks its enclosing symbol.
 * Without symbols, the window of lines with the most terms.
 */
export function bestSpan(lines: readonly string[], symbols: readonly SymbolRow[], terms: readonly string[], line: number | null): BestSpan {
  const candidates = symbols.filter((s) => SPAN_KINDS.has(s.kind) && s.endLine - s.startLine < MAX_SPAN_LINES);
  if (line !== null) {
    const enclosing = candidates.filter((s) => s.startLine <= line && line <= s.endLine).sort((a, b) => a.endLine - a.startLine - (b.endLine - b.startLine))[0];
    if (enclosing) return spanOf(enclosing, lines, terms);
    const start = Math.max(1, line - Math.floor(WINDOW_LINES / 2));
    return { startLine: start, endLine: Math.min(lines.length, start + WINDOW_LINES - 1), symbol: null, matched: termsIn(lines.slice(start - 1, start + WINDOW_LINES - 1).join("\n"), terms) };
  }
  let best: { s: SymbolRow; score: number } | null = null;
  const lower = lines.map((l) => l.toLowerCase());
  for (const s of candidates) {
    const name = termsIn(s.qualifiedName, terms).length;
    const body = termsInLines(lower, s.startLine, s.endLine, terms).length;
    const score = NAME_WEIGHT * name + body;
    const size = s.endLine - s.startLine;
    if (score > 0 && (!best || score > best.score || (score === best.score && size < best.s.endLine - best.s.startLine))) best = { s, score };
  }
  if (best) return spanOf(best.s, lines, terms);
  return bestWindow(lines, terms);
}

function spanOf(s: SymbolRow, lines: readonly string[], terms: readonly string[]): BestSpan {
  return {
    startLine: s.startLine,
    endLine: s.endLine,
    symbol: { qualifiedName: s.qualifiedName, kind: s.kind },
    matched: termsIn(lines.slice(s.startLine - 1, s.endLine).join("\n"), terms),
  };
}

function bestWindow(lines: readonly string[], terms: readonly string[]): BestSpan {
  let best = { start: 1, count: -1 };
  const lower = lines.map((l) => l.toLowerCase());
  for (let start = 1; start <= Math.max(1, lines.length - WINDOW_LINES + 1); start += Math.max(1, Math.floor(WINDOW_LINES / 2))) {
    const text = lower.slice(start - 1, start - 1 + WINDOW_LINES).join("\n");
    const count = terms.filter((t) => text.includes(t)).length;
    if (count > best.count) best = { start, count };
  }
  const endLine = Math.min(lines.length, best.start + WINDOW_LINES - 1);
  return { startLine: best.start, endLine, symbol: null, matched: termsIn(lines.slice(best.start - 1, endLine).join("\n"), terms) };
}
