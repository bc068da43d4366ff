/**
 * Detection of instruction-like text aimed at an AI agent inside repository content (docs, comments, issue text).
 * A hit never blocks anything: it downgrades the trust label of the text ("this is evidence, not authority") and
 * tells the client where the suspicious span is.
 *
 * Every pattern is linear in the line length: repetitions are bounded (MAX_SPAN) or cannot overlap, and whole-text
 * scans (HTML comments, invisible characters) are single passes; `WorkCounter` counts the characters each rule
 * scanned so tests can prove it. Measured against a labelled corpus by `npm run bench:injection` (see
 * BENCHMARKS.md and test/fixtures/injection-corpus/README.md).
 */
import type { InstructionLikeMatch } from "../../core/instructions.js";
import { AGENT_DIRECTIVE_PATTERNS } from "./address.js";
import { hiddenCommentMatches } from "./hidden-html.js";
import { cleanedVariant, isSmuggling, renderInvisibles, suspiciousInvisibles, type LineVariant } from "./invisible.js";
import { ENGLISH_RULES } from "./phrases-en.js";
import { INJECTION_RULE_IDS, countedExec, type InjectionRuleId, type LineRule, type WorkCounter } from "./rules.js";
import { excerptOf, textContext, type TextContext } from "./text.js";

/** How far before a match a negation ("do not", "never") turns a rule off. */
const NEGATION_WINDOW = 40;
const NEGATION_BEFORE = /\b(?:not|never|don't|dont|avoid|cannot|can't|mustn't|shouldn't|won't|no)\b/i;
const NEGATION_AFTER = /\b(?:is|are)\s+(?:not\s+(?:allowed|permitted)|forbidden|prohibited|blocked|disabled|disallowed)\b/i;

export const LINE_RULES: readonly LineRule[] = [
  ...ENGLISH_RULES,
  { ruleId: "agent-directive", negatable: false, patterns: AGENT_DIRECTIVE_PATTERNS },
];

function isNegated(line: string, m: RegExpExecArray): boolean {
  const before = line.slice(Math.max(0, m.index - NEGATION_WINDOW), m.index);
  return NEGATION_BEFORE.test(before) || NEGATION_AFTER.test(line.slice(m.index, m.index + 2 * NEGATION_WINDOW + m[0].length));
}

function firstMatch(rule: LineRule, line: string, work: WorkCounter | undefined): RegExpExecArray | null {
  for (const pattern of rule.patterns) {
    const m = countedExec(pattern, line, rule.ruleId, work);
    if (m !== null && !(rule.negatable && isNegated(line, m))) return m;
  }
  return null;
}

/** The first match of `rule` on any variant of a line, with its span mapped back to the original line. */
function ruleMatch(rule: LineRule, variants: readonly LineVariant[], lineNo: number, work: WorkCounter | undefined): InstructionLikeMatch | null {
  for (const v of variants) {
    const m = firstMatch(rule, v.text, work);
    if (m === null) continue;
    const last = m.index + Math.max(1, m[0].length) - 1;
    const start = v.starts === null ? m.index : (v.starts[m.index] ?? 0);
    const end = v.ends === null ? last + 1 : (v.ends[Math.min(last, v.ends.length - 1)] ?? start + 1);
    return { line: lineNo, ruleId: rule.ruleId, excerpt: excerptOf(v.text, m.index), startColumn: start + 1, endColumn: end + 1 };
  }
  return null;
}

/** Invisible-character hit and phrase-rule hits of one line. */
function lineMatches(line: string, index: number, work: WorkCounter | undefined): InstructionLikeMatch[] {
  const found: InstructionLikeMatch[] = [];
  const variants: LineVariant[] = [{ text: line, starts: null, ends: null }];
  work?.add("invisible-characters", line.length);
  const invisibles = suspiciousInvisibles(line, index === 0);
  if (invisibles.length > 0) {
    if (isSmuggling(line, invisibles)) {
      const first = invisibles[0]!;
      const last = invisibles[invisibles.length - 1]!;
      const rendered = renderInvisibles(line, invisibles);
      found.push({
        line: index + 1,
        ruleId: "invisible-characters",
        excerpt: excerptOf(rendered.text, rendered.firstAt),
        startColumn: first.index + 1,
        endColumn: last.index + last.width + 1,
      });
    }
    // Phrase rules also read the line as it looks without the invisible characters (and with tag text decoded).
    variants.push(cleanedVariant(line, invisibles, ""), cleanedVariant(line, invisibles, " "));
  }
  for (const rule of LINE_RULES) {
    const m = ruleMatch(rule, variants, index + 1, work);
    if (m !== null) found.push(m);
  }
  return found;
}

function ordered(found: InstructionLikeMatch[]): InstructionLikeMatch[] {
  const order = (id: string): number => INJECTION_RULE_IDS.indexOf(id as InjectionRuleId);
  const seen = new Set<string>();
  return found
    .sort((a, b) => a.line - b.line || order(a.ruleId) - order(b.ruleId))
    .filter((m) => {
      const key = `${m.line}:${m.ruleId}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/**
 * Finds lines that read like instructions to an AI agent. At most one match per (line, rule); results are ordered
 * by line, then by rule (in `INJECTION_RULE_IDS` order). Lines are 1-based; each match carries the span it found on
 * its line (`startColumn` inclusive, `endColumn` exclusive, both 1-based, in UTF-16 code units). With `work`, the
 * characters each rule scanned are added to it.
 */
export function detectInstructionLikeText(text: string, work?: WorkCounter): InstructionLikeMatch[] {
  const ctx: TextContext = textContext(text, work);
  const found: InstructionLikeMatch[] = [];
  ctx.lines.forEach((line, i) => found.push(...lineMatches(line, i, work)));
  found.push(...hiddenCommentMatches(ctx));
  return ordered(found);
}
