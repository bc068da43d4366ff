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
import { ENGLISH_ACTION_RULES } from "./actions-en.js";
import { AGENT_DIRECTIVE_PATTERNS, COMMENT_ADDRESS, MULTILINGUAL_ADDRESS_PATTERNS } from "./address.js";
import { ENCODED_CUE_RULE, FAKE_AUTHORITY_RULE } from "./banners.js";
import { ENCODED_PATTERNS, encodedMatches } from "./encoded.js";
import { EXFILTRATION_RULE } from "./exfiltration.js";
import { HIDDEN_HTML_PATTERNS, hiddenCommentMatches, hiddenHtmlMatches } from "./hidden-html.js";
import { cleanedVariant, isSmuggling, renderInvisibles, suspiciousInvisibles } from "./invisible.js";
import { MULTILINGUAL_EXFILTRATION, MULTILINGUAL_OVERRIDE, MULTILINGUAL_PROMPT, MULTILINGUAL_ROLE, OTHER_LANGUAGE_GATES } from "./languages.js";
import { LETTER_SPACED, closeLetterSpacing, foldConfusables, hasNonAscii } from "./normalize.js";
import { ENGLISH_AGENT_RULES } from "./phrases-en.js";
import { INJECTION_RULE_IDS, countedExec, type InjectionRuleId, type LineRule, type WorkCounter } from "./rules.js";
import { excerptOf, textContext, type TextContext } from "./text.js";
import { identityVariant, originalSpan, type LineVariant } from "./variant.js";

/** How far before a match a negation ("do not", "never") turns a rule off. */
const NEGATION_WINDOW = 40;
const NEGATION_BEFORE = /\b(?:not|never|don't|dont|avoid|cannot|can't|mustn't|shouldn't|won't|no)\b/i;
const NEGATION_AFTER = /\b(?:is|are)\s+(?:not\s+(?:allowed|permitted)|forbidden|prohibited|blocked|disabled|disallowed)\b/i;
/** Documentation describing an option rather than a directive to use it (hedgeable rules). */
const HEDGE_BEFORE = /\b(?:can|could|may|might|optionally|option|how\s+to|if\s+you\s+(?:need|want|must|have)\s+to|(?:to|for|when|while)\s+debug(?:ging)?)\b/i;
const HEDGE_AFTER = /\b(?:only\s+(?:for|in|when|while|to|on|if)|for\s+(?:local|development|dev|debugging|testing)|locally|in\s+(?:your\s+)?(?:local|dev|development|tests?)\b|(?:the|a|your)\s+local\s+(?:registry|server|mirror|proxy|cluster|machine|network|setup)|during\s+(?:development|testing|local)|never\s+(?:in|ship|commit|use)|not\s+(?:in|for)\s+production|not\s+recommended|(?:is|are)\s+(?:dangerous|insecure|unsafe))/i;

const otherLanguages = (ruleId: InjectionRuleId, patterns: readonly RegExp[], gate: RegExp, negatable = false): LineRule => ({
  ruleId,
  negatable,
  patterns,
  gate,
});

/**
 * Every line rule: English phrases, banners, actions, exfiltration and addresses to agents, then the same rules in
 * other languages (gated). A rule id may appear twice; the first match on a line wins.
 */
export const LINE_RULES: readonly LineRule[] = [
  ...ENGLISH_AGENT_RULES,
  FAKE_AUTHORITY_RULE,
  ...ENGLISH_ACTION_RULES,
  EXFILTRATION_RULE,
  { ruleId: "agent-directive", negatable: false, patterns: AGENT_DIRECTIVE_PATTERNS },
  ENCODED_CUE_RULE,
  otherLanguages("override-instructions", MULTILINGUAL_OVERRIDE, OTHER_LANGUAGE_GATES.override),
  otherLanguages("role-reassignment", MULTILINGUAL_ROLE, OTHER_LANGUAGE_GATES.role),
  otherLanguages("system-prompt-reference", MULTILINGUAL_PROMPT, OTHER_LANGUAGE_GATES.prompt),
  otherLanguages("exfiltration", MULTILINGUAL_EXFILTRATION, OTHER_LANGUAGE_GATES.exfiltration, true),
  otherLanguages("agent-directive", MULTILINGUAL_ADDRESS_PATTERNS, OTHER_LANGUAGE_GATES.address),
];

/** A phrase named as the object of an attempt, not said: "requests to disregard the system prompt". */
const DESCRIBED_BEFORE = /\b(?:(?:requests?|attempts?|tries|trying|attempting|asks?|asking|designed|meant|how)\s+(?:(?:the|a|an)\s+(?:model|assistant|agent|LLM)\s+|it\s+|them\s+)?|(?:told|instructed|asked|tricked|convinced|persuaded|tells|instructs)\s+(?:the\s+|an?\s+)?(?:agents?|assistants?|models?|LLMs?|AI|bots?|it|them|Copilot|Claude)\s+)to\s+$/i;
/** A label, a table cell or a CLI help line ("Disable two-factor authentication", `--insecure   Skip TLS verification`). */
const LABEL_BEFORE = /(?:["'>|]|(?:^|\s)--?[\w-]+\s{2,})\s*$/;
const LABEL_AFTER = /^\s*(?:\([^)\n]{0,40}\)\s*)?(?:["'<|]|$)/;

/** Whether the context around a match cancels it (negation, hedge or description, as the rule allows). */
function isCancelled(rule: LineRule, line: string, m: RegExpExecArray): boolean {
  const before = line.slice(Math.max(0, m.index - NEGATION_WINDOW), m.index);
  const after = line.slice(m.index, m.index + 2 * NEGATION_WINDOW + m[0].length);
  if (rule.negatable && (NEGATION_BEFORE.test(before) || NEGATION_AFTER.test(after))) return true;
  if (rule.hedgeable === true && (HEDGE_BEFORE.test(before) || HEDGE_AFTER.test(after))) return true;
  if (rule.hedgeable === true && LABEL_BEFORE.test(before) && LABEL_AFTER.test(line.slice(m.index + m[0].length))) return true;
  return rule.describable === true && DESCRIBED_BEFORE.test(before);
}

/**
 * One alternation of a rule's patterns per flag set: most lines match none of them, and one execution per rule is
 * much cheaper than one per pattern. Only when it matches are the patterns tried one by one, in order.
 */
const prefilters = new Map<LineRule, RegExp[]>();
const LEADING_LOOKBEHIND = /^\(\?<!\[[^\]]*\]\)/;
function prefiltersOf(rule: LineRule): RegExp[] {
  let found = prefilters.get(rule);
  if (found === undefined) {
    const byFlags = new Map<string, string[]>();
    // A superset is enough: leading look-behinds (word edges) are left out, so the engine can scan for the first word.
    for (const p of rule.patterns) byFlags.set(p.flags, [...(byFlags.get(p.flags) ?? []), `(?:${p.source.replace(LEADING_LOOKBEHIND, "")})`]);
    found = [...byFlags].map(([flags, sources]) => new RegExp(sources.join("|"), flags));
    prefilters.set(rule, found);
  }
  return found;
}

function firstMatch(rule: LineRule, line: string, work: WorkCounter | undefined): RegExpExecArray | null {
  if (rule.gate !== undefined && countedExec(rule.gate, line, rule.ruleId, work) === null) return null;
  if (!prefiltersOf(rule).some((p) => countedExec(p, line, rule.ruleId, work) !== null)) return null;
  for (const pattern of rule.patterns) {
    const m = countedExec(pattern, line, rule.ruleId, work);
    if (m !== null && !isCancelled(rule, line, m)) return m;
  }
  return null;
}

/** The first match of `rule` on any variant of a line, with its span mapped back to the original line. */
function ruleMatch(rule: LineRule, variants: readonly LineVariant[], lineNo: number, work: WorkCounter | undefined): InstructionLikeMatch | null {
  for (const v of variants) {
    const m = firstMatch(rule, v.text, work);
    if (m === null) continue;
    const { start, end } = originalSpan(v, m.index, m[0].length);
    return { line: lineNo, ruleId: rule.ruleId, excerpt: excerptOf(v.text, m.index), startColumn: start + 1, endColumn: end + 1 };
  }
  return null;
}

/**
 * The copies of a line the phrase rules read: the line itself, then (when they differ) the line without its
 * invisible characters, with look-alike letters folded to ASCII, and with letter-spacing closed up.
 */
function lineVariants(line: string, cleaned: readonly LineVariant[], work: WorkCounter | undefined): LineVariant[] {
  const variants: LineVariant[] = [identityVariant(line), ...cleaned];
  let base = cleaned[0] ?? variants[0]!;
  if (hasNonAscii(base.text)) {
    work?.add("normalize", base.text.length);
    const folded = foldConfusables(base);
    if (folded.text !== base.text) {
      variants.push(folded);
      base = folded;
    }
  }
  work?.add("normalize", base.text.length);
  if (LETTER_SPACED.test(base.text)) {
    const closed = closeLetterSpacing(base);
    if (closed.text !== base.text) variants.push(closed);
  }
  return variants;
}

/** Invisible-character hit and phrase-rule hits of one line. */
function lineMatches(line: string, index: number, work: WorkCounter | undefined): InstructionLikeMatch[] {
  const found: InstructionLikeMatch[] = [];
  const cleaned: LineVariant[] = [];
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
    cleaned.push(cleanedVariant(line, invisibles, ""), cleanedVariant(line, invisibles, " "));
  }
  const variants = lineVariants(line, cleaned, work);
  for (const rule of LINE_RULES) {
    const m = ruleMatch(rule, variants, index + 1, work);
    if (m !== null) found.push(m);
  }
  return found;
}

/** Whether any line of a decoded payload matches a phrase rule. */
function decodedIsInstruction(decoded: string, work: WorkCounter | undefined): boolean {
  return decoded.split("\n").some((line) => {
    const variants = lineVariants(line, [], work);
    return LINE_RULES.some((rule) => ruleMatch(rule, variants, 1, work) !== null);
  });
}

/** Every regular expression the detector runs, by where it is used (for the structural linearity check). */
export function detectorPatterns(): Array<{ where: string; pattern: RegExp }> {
  const context = [NEGATION_BEFORE, NEGATION_AFTER, HEDGE_BEFORE, HEDGE_AFTER, DESCRIBED_BEFORE, LABEL_BEFORE, LABEL_AFTER, LETTER_SPACED];
  return [
    ...LINE_RULES.flatMap((r) => [...r.patterns, ...prefiltersOf(r), ...(r.gate === undefined ? [] : [r.gate])].map((pattern) => ({ where: r.ruleId, pattern }))),
    ...COMMENT_ADDRESS.map((pattern) => ({ where: "comment-address", pattern })),
    ...HIDDEN_HTML_PATTERNS.map((pattern) => ({ where: "hidden-html", pattern })),
    ...ENCODED_PATTERNS.map((pattern) => ({ where: "encoded", pattern })),
    ...context.map((pattern) => ({ where: "context", pattern })),
  ];
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
  found.push(...hiddenCommentMatches(ctx), ...hiddenHtmlMatches(ctx), ...encodedMatches(ctx, (decoded) => decodedIsInstruction(decoded, work)));
  return ordered(found);
}
