/** Assertions shared by the injection detector's tests. */
import assert from "node:assert/strict";
import type { InstructionLikeMatch } from "../../src/core/instructions.js";
import { detectWithOptions } from "../../src/policy/injection/detect.js";

/**
 * The detector, checked: every text a test gives it is also read without the fast paths (triggers, factor checks,
 * ASCII shortcuts), and the two readings must agree match for match. So every test input doubles as a proof that
 * the fast paths change nothing.
 */
export function detectInstructionLikeText(text: string): InstructionLikeMatch[] {
  const fast = detectWithOptions(text, { fastPaths: true });
  const plain = detectWithOptions(text, { fastPaths: false });
  assert.deepEqual(fast, plain, `the fast paths changed the matches of ${JSON.stringify(text.slice(0, 300))}`);
  return fast;
}

export function ruleIds(text: string): string[] {
  return [...new Set(detectInstructionLikeText(text).map((m) => m.ruleId))].sort();
}

export function expectRule(text: string, ruleId: string): void {
  const ids = ruleIds(text);
  assert.ok(ids.includes(ruleId), `expected ${ruleId} for ${JSON.stringify(text)}, got ${JSON.stringify(ids)}`);
}

export function expectClean(text: string): void {
  assert.deepEqual(detectInstructionLikeText(text), [], `expected no match for ${JSON.stringify(text)}`);
}

/** The text each match points at: `line.slice(startColumn - 1, endColumn - 1)` on its (CR-stripped) line. */
export function spanText(text: string, m: { line: number; startColumn: number; endColumn: number }): string {
  const line = (text.split("\n")[m.line - 1] ?? "").replace(/\r$/, "");
  return line.slice(m.startColumn - 1, m.endColumn - 1);
}
