import type { SymbolRow } from "../../store/store.js";
import { indexLines, lineOf } from "../snippets.js";

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

/**
 * Where each term occurs in a file, as sorted line numbers: one native substring scan of the lower-cased text per
 * term, so asking which terms a line range holds costs a binary search per term instead of a pass over its lines.
 */
class TermLines {
  private readonly lines = new Map<string, number[]>();

  constructor(text: string, readonly terms: readonly string[]) {
    const lower = text.toLowerCase();
    const idx = indexLines(lower);
    for (const t of terms) {
      const at: number[] = [];
      for (let i = lower.indexOf(t); i !== -1; i = lower.indexOf(t, i + t.length)) {
        const line = lineOf(idx, i);
        if (at[at.length - 1] !== line) at.push(line);
      }
      if (at.length > 0) this.lines.set(t, at);
    }
  }

  /** The terms that occur on some line in start..end (1-based, inclusive). */
  within(start: number, end: number): string[] {
    return this.terms.filter((t) => {
      const at = this.lines.get(t);
      if (!at) return false;
      let lo = 0;
      let hi = at.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (at[mid]! < start) lo = mid + 1;
        else hi = mid;
      }
      return lo < at.length && at[lo]! <= end;
    });
  }
}

function termsIn(text: string, terms: readonly string[]): string[] {
  const lower = text.toLowerCase();
  return terms.filter((t) => lower.includes(t));
}

/**
 * The part of a file that best answers the query: the symbol (method, function, class) whose name and body hold the
 * most query terms, preferring smaller symbols on ties; a line named by a stack frame picks its enclosing symbol.
 * Without symbols, the window of lines with the most terms.
 */
export function bestSpan(lines: readonly string[], symbols: readonly SymbolRow[], terms: readonly string[], line: number | null): BestSpan {
  const where = new TermLines(lines.join("\n"), terms);
  const candidates = symbols.filter((s) => SPAN_KINDS.has(s.kind) && s.endLine - s.startLine < MAX_SPAN_LINES);
  if (line !== null) {
    const enclosing = candidates.filter((s) => s.startLine <= line && line <= s.endLine).sort((a, b) => a.endLine - a.startLine - (b.endLine - b.startLine))[0];
    if (enclosing) return spanOf(enclosing, where);
    const start = Math.max(1, line - Math.floor(WINDOW_LINES / 2));
    const end = Math.min(lines.length, start + WINDOW_LINES - 1);
    return { startLine: start, endLine: end, symbol: null, matched: where.within(start, end) };
  }
  let best: { s: SymbolRow; score: number } | null = null;
  for (const s of candidates) {
    const score = NAME_WEIGHT * termsIn(s.qualifiedName, terms).length + where.within(s.startLine, s.endLine).length;
    const size = s.endLine - s.startLine;
    if (score > 0 && (!best || score > best.score || (score === best.score && size < best.s.endLine - best.s.startLine))) best = { s, score };
  }
  if (best) return spanOf(best.s, where);
  return bestWindow(lines.length, where);
}

function spanOf(s: SymbolRow, where: TermLines): BestSpan {
  return { startLine: s.startLine, endLine: s.endLine, symbol: { qualifiedName: s.qualifiedName, kind: s.kind }, matched: where.within(s.startLine, s.endLine) };
}

function bestWindow(lineCount: number, where: TermLines): BestSpan {
  let best = { start: 1, count: -1 };
  for (let start = 1; start <= Math.max(1, lineCount - WINDOW_LINES + 1); start += Math.max(1, Math.floor(WINDOW_LINES / 2))) {
    const count = where.within(start, start + WINDOW_LINES - 1).length;
    if (count > best.count) best = { start, count };
  }
  const endLine = Math.min(lineCount, best.start + WINDOW_LINES - 1);
  return { startLine: best.start, endLine, symbol: null, matched: where.within(best.start, endLine) };
}
