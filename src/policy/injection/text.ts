/** Lines, offsets and excerpts: the bookkeeping every rule shares. */
import type { InstructionLikeMatch } from "../../core/instructions.js";
import { MAX_EXCERPT_LENGTH, type InjectionRuleId, type WorkCounter } from "./rules.js";

/** For long lines, how much context before the match the excerpt keeps. */
const EXCERPT_LEAD = 40;

export const stripCr = (line: string): string => (line.endsWith("\r") ? line.slice(0, -1) : line);

/** The trimmed line, or for long lines MAX_EXCERPT_LENGTH characters around `matchIndex`. */
export function excerptOf(line: string, matchIndex: number): string {
  const trimmed = line.trim();
  if (trimmed.length <= MAX_EXCERPT_LENGTH) return trimmed;
  const start = Math.max(0, Math.min(matchIndex - EXCERPT_LEAD, line.length - MAX_EXCERPT_LENGTH));
  return line.slice(start, start + MAX_EXCERPT_LENGTH).trim();
}

/** Start offset of every line of `lines` (split on "\n") in the whole text. */
export function lineStartsOf(lines: readonly string[]): number[] {
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  return starts;
}

/** Index of the line containing `offset` (binary search over line start offsets). */
export function lineIndexOf(lineStarts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((lineStarts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A whole text split into CR-stripped lines with their start offsets, and the optional work counter. */
export interface TextContext {
  text: string;
  lines: readonly string[];
  lineStarts: readonly number[];
  work: WorkCounter | undefined;
}

export function textContext(text: string, work?: WorkCounter): TextContext {
  const raw = text.split("\n");
  return { text, lines: raw.map(stripCr), lineStarts: lineStartsOf(raw), work };
}

/**
 * A match for a region `[regionStart, regionEnd)` of the whole text (a comment, a hidden element, an encoded
 * payload), reported on the line of offset `at`, spanning the region's part of that line.
 */
export function regionMatch(ctx: TextContext, ruleId: InjectionRuleId, regionStart: number, regionEnd: number, at: number, excerpt?: string): InstructionLikeMatch {
  const lineIndex = lineIndexOf(ctx.lineStarts, at);
  const lineStart = ctx.lineStarts[lineIndex] ?? 0;
  const line = ctx.lines[lineIndex] ?? "";
  const start = Math.min(Math.max(regionStart, lineStart) - lineStart, line.length);
  const end = Math.min(regionEnd - lineStart, line.length);
  return {
    line: lineIndex + 1,
    ruleId,
    excerpt: excerpt ?? excerptOf(line, at - lineStart),
    startColumn: start + 1,
    endColumn: Math.max(start, end) + 1,
  };
}
