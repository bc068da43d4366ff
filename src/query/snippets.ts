/** Line arithmetic and snippets over a file's text, shared by every query that returns spans. */

const SNIPPET_CONTEXT_LINES = 1;
const MAX_SNIPPET_LINE_CHARS = 400;

export interface LineIndex {
  starts: number[];
  totalLines: number;
}

/** Offsets where each line starts, computed in one pass. */
export function indexLines(content: string): LineIndex {
  const starts = [0];
  let i = content.indexOf("\n");
  while (i !== -1) {
    starts.push(i + 1);
    i = content.indexOf("\n", i + 1);
  }
  return { starts, totalLines: content.endsWith("\n") ? starts.length - 1 : starts.length };
}

/** 1-based line of an offset (binary search). */
export function lineOf(idx: LineIndex, offset: number): number {
  let lo = 0;
  let hi = idx.starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (idx.starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

export function lineText(content: string, idx: LineIndex, line: number): string {
  const s = idx.starts[line - 1];
  if (s === undefined) return "";
  const e = line < idx.starts.length ? idx.starts[line]! - 1 : content.length;
  const text = content.slice(s, e).replace(/\r$/, "");
  return text.length > MAX_SNIPPET_LINE_CHARS ? `${text.slice(0, MAX_SNIPPET_LINE_CHARS)}…` : text;
}

/** The line with one line of context either side, clamped to the file. */
export function contextSpan(idx: LineIndex, line: number): { startLine: number; endLine: number } {
  return {
    startLine: Math.max(1, line - SNIPPET_CONTEXT_LINES),
    endLine: Math.min(Math.max(idx.totalLines, 1), line + SNIPPET_CONTEXT_LINES),
  };
}

export function snippetOf(content: string, idx: LineIndex, from: number, to: number): string {
  const lines: string[] = [];
  for (let n = from; n <= to; n++) lines.push(lineText(content, idx, n));
  return lines.join("\n");
}
