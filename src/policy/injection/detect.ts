/**
 * Detection of instruction-like text aimed at an AI agent inside repository content (docs, comments, issue text).
 * A hit never blocks anything: it downgrades the trust label of the text ("this is evidence, not authority") and
 * tells the client where the suspicious span is.
 *
 * Every pattern is linear in the line length: repetitions are bounded (MAX_SPAN) or cannot overlap, and whole-text
 * scans (HTML comments, invisible characters) are single passes; `WorkCounter` counts the characters each rule
 * scanned so tests can prove it. Measured against a labelled corpus by `npm run bench:injection` (see
 * BENCHMARKS.md and test/fixtures/injection-corpus/README.md).
 *
 * Ordinary text pays little: one scan of the text for the factors of every pattern decides which patterns can match
 * which line (triggers.ts), ASCII text takes ASCII twins of the Unicode gates, and the invisible-character and
 * decoding passes skip what cannot hold anything. The result is the same as reading everything (`fastPaths: false`,
 * test/injection-fast-paths.test.ts).
 */
import type { InstructionLikeMatch } from "../../core/instructions.js";
import { ENGLISH_ACTION_RULES } from "./actions-en.js";
import { AGENT_DIRECTIVE_PATTERNS, commentAddressPatterns, multilingualAddress } from "./address.js";
import { ENCODED_CUE_RULE, FAKE_AUTHORITY_RULE } from "./banners.js";
import { ENCODED_PATTERNS, encodedMatches } from "./encoded.js";
import { EXFILTRATION_RULE } from "./exfiltration.js";
import { HIDDEN_HTML_PATTERNS, hiddenCommentMatches, hiddenHtmlMatches } from "./hidden-html.js";
import { cleanedVariant, isSmuggling, mayHoldInvisibles, renderInvisibles, suspiciousInvisibles, type InvisibleChar } from "./invisible.js";
import { OTHER_LANGUAGE_GATES, multilingualExfiltration, multilingualOverride, multilingualPrompt, multilingualRole } from "./languages.js";
import { LETTER_SPACED, LETTER_SPACED_ASCII, closeLetterSpacing, foldConfusables, hasNonAscii } from "./normalize.js";
import { ENGLISH_AGENT_RULES } from "./phrases-en.js";
import { INJECTION_RULE_IDS, countedExec, lazyRule, type InjectionRuleId, type LanguageGate, type LazyPatterns, type LineRule, type WorkCounter } from "./rules.js";
import { excerptOf, textContext, type TextContext } from "./text.js";
import { TriggerTable, hasForeignLetter, type Found } from "./triggers.js";
import { identityVariant, originalSpan, type LineVariant } from "./variant.js";

/** How far before a match a negation ("do not", "never") turns a rule off. */
const NEGATION_WINDOW = 40;
const NEGATION_BEFORE = /\b(?:not|never|don't|dont|avoid|cannot|can't|mustn't|shouldn't|won't|no)\b/i;
const NEGATION_AFTER = /\b(?:is|are)\s+(?:not\s+(?:allowed|permitted)|forbidden|prohibited|blocked|disabled|disallowed)\b/i;
/** Documentation describing an option rather than a directive to use it (hedgeable rules). */
const HEDGE_BEFORE = /\b(?:can|could|may|might|optionally|option|how\s+to|if\s+you\s+(?:need|want|must|have)\s+to|(?:to|for|when|while)\s+debug(?:ging)?)\b/i;
const HEDGE_AFTER = /\b(?:only\s+(?:for|in|when|while|to|on|if)|for\s+(?:local|development|dev|debugging|testing)|locally|in\s+(?:your\s+)?(?:local|dev|development|tests?)\b|(?:the|a|your)\s+local\s+(?:registry|server|mirror|proxy|cluster|machine|network|setup)|during\s+(?:development|testing|local)|never\s+(?:in|ship|commit|use)|not\s+(?:in|for)\s+production|not\s+recommended|(?:is|are)\s+(?:dangerous|insecure|unsafe))/i;

const otherLanguages = (ruleId: InjectionRuleId, build: () => LazyPatterns, gate: LanguageGate, negatable = false): LineRule =>
  lazyRule({ ruleId, negatable, gate }, build);

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
  otherLanguages("override-instructions", multilingualOverride, OTHER_LANGUAGE_GATES.override),
  otherLanguages("role-reassignment", multilingualRole, OTHER_LANGUAGE_GATES.role),
  otherLanguages("system-prompt-reference", multilingualPrompt, OTHER_LANGUAGE_GATES.prompt),
  otherLanguages("exfiltration", multilingualExfiltration, OTHER_LANGUAGE_GATES.exfiltration, true),
  otherLanguages("agent-directive", multilingualAddress, OTHER_LANGUAGE_GATES.address),
];

let triggerTable: TriggerTable | undefined;
/** The triggers of LINE_RULES, built on the first call. */
const triggers = (): TriggerTable => (triggerTable ??= new TriggerTable(LINE_RULES));

/** How a text is read: `fastPaths` (the default) takes every cheap way to the same result. */
export interface DetectOptions {
  /**
   * Triggers, factor checks and ASCII shortcuts. Off, every rule runs every pattern on every line, one by one: only the
   * test that proves the shortcuts change nothing turns them off.
   */
  fastPaths: boolean;
}

/** One reading of one text: its options, its work counter and (with fast paths) its trigger table. */
interface Pass {
  fast: boolean;
  work: WorkCounter | undefined;
  table: TriggerTable | null;
}

/** A variant of a line with what the triggers found in it (with fast paths; else null). */
interface ScannedVariant {
  variant: LineVariant;
  found: Found | null;
  foreign: boolean;
}

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

/** The first of `patterns` that matches `line` and is not cancelled. */
function firstOf(rule: LineRule, patterns: readonly RegExp[], line: string, work: WorkCounter | undefined): RegExpExecArray | null {
  for (const pattern of patterns) {
    const m = countedExec(pattern, line, rule.ruleId, work);
    if (m !== null && !isCancelled(rule, line, m)) return m;
  }
  return null;
}

/** Whether a gated rule's gate can pass on a scanned variant: a letter outside ASCII, a factor or a residual stem. */
function gateMayPass(index: number, sv: ScannedVariant, pass: Pass): boolean {
  const t = pass.table!.triggers[index]!;
  if (sv.foreign || (sv.found!.mask & t.gateBit) !== 0) return true;
  return t.gateResidual !== null && countedExec(t.gateResidual, sv.variant.text, "triggers", pass.work) !== null;
}

/**
 * The first match of rule `index` on one variant. Without fast paths: the gate, then every pattern in order. With
 * them, a pattern runs only where the triggers say it can match: for a gated rule, past the triggers and the gate,
 * on a line that passes the pattern's factor checks; for the others, on a line that holds its factor sets (patterns
 * without factors run wherever their rule does).
 */
function firstMatch(rule: LineRule, index: number, sv: ScannedVariant, pass: Pass): RegExpExecArray | null {
  const line = sv.variant.text;
  const { work } = pass;
  if (!pass.fast) {
    if (rule.gate !== undefined && countedExec(rule.gate.pattern, line, rule.ruleId, work) === null) return null;
    return firstOf(rule, rule.patterns, line, work);
  }
  if (rule.gate !== undefined) {
    const gate = sv.foreign ? rule.gate.pattern : pass.table!.stemsOnly(index);
    if (!gateMayPass(index, sv, pass) || countedExec(gate, line, rule.ruleId, work) === null) return null;
    const upper = line.toUpperCase();
    for (const { pattern, sets } of pass.table!.gatedPatterns(index)) {
      work?.add("triggers", upper.length * sets.length);
      if (!sets.every((set) => set.some((f) => upper.includes(f)))) continue;
      const m = countedExec(pattern(), line, rule.ruleId, work);
      if (m !== null && !isCancelled(rule, line, m)) return m;
    }
    return null;
  }
  const t = pass.table!.triggers[index]!;
  const found = sv.found!;
  if ((found.mask & t.bit) === 0) return firstOf(rule, t.residual, line, work);
  for (const { pattern, slots } of t.patterns) {
    if (!slots.every((s) => found.slots.has(s))) continue;
    const m = countedExec(pattern, line, rule.ruleId, work);
    if (m !== null && !isCancelled(rule, line, m)) return m;
  }
  return null;
}

/** The first match of rule `index` on any variant of a line, with its span mapped back to the original line. */
function ruleMatch(index: number, variants: readonly ScannedVariant[], lineNo: number, pass: Pass): InstructionLikeMatch | null {
  const rule = LINE_RULES[index]!;
  for (const sv of variants) {
    const m = firstMatch(rule, index, sv, pass);
    if (m === null) continue;
    const v = sv.variant;
    const { start, end } = originalSpan(v, m.index, m[0].length);
    return { line: lineNo, ruleId: rule.ruleId, excerpt: excerptOf(v.text, m.index), startColumn: start + 1, endColumn: end + 1 };
  }
  return null;
}

/**
 * The copies of a line the phrase rules read: the line itself, then (when they differ) the line without its
 * invisible characters, with look-alike letters folded to ASCII, and with letter-spacing closed up. `ascii`: whether
 * the line is known to be ASCII (then it has no invisible characters either).
 */
function lineVariants(line: string, cleaned: readonly LineVariant[], ascii: boolean, pass: Pass): LineVariant[] {
  const { work } = pass;
  const variants: LineVariant[] = [identityVariant(line), ...cleaned];
  let base = cleaned[0] ?? variants[0]!;
  let asciiBase = ascii;
  if (!ascii && hasNonAscii(base.text)) {
    work?.add("normalize", base.text.length);
    const folded = foldConfusables(base);
    if (folded.text !== base.text) {
      variants.push(folded);
      base = folded;
    }
  } else asciiBase = true;
  work?.add("normalize", base.text.length);
  // On ASCII text the `\p{L}` gate and its ASCII twin agree; the twin is ten times cheaper.
  const spaced = pass.fast && (asciiBase || !hasNonAscii(base.text)) ? LETTER_SPACED_ASCII : LETTER_SPACED;
  if (spaced.test(base.text)) {
    const closed = closeLetterSpacing(base);
    if (closed.text !== base.text) variants.push(closed);
  }
  return variants;
}

/** The variants with what the triggers found in each (`first`: the first variant's, from the whole-text scan). */
function scanned(variants: readonly LineVariant[], first: Found | null, ascii: boolean, pass: Pass): ScannedVariant[] {
  return variants.map((variant, k) => {
    if (pass.table === null) return { variant, found: null, foreign: true };
    const known = k === 0 ? first : null;
    if (known === null) pass.work?.add("triggers", variant.text.length);
    const found = known ?? pass.table.find(variant.text);
    return { variant, found, foreign: !(k === 0 && ascii) && hasNonAscii(variant.text) && hasForeignLetter(variant.text) };
  });
}

/** The phrase-rule hits of a line's variants. */
function phraseMatches(variants: readonly ScannedVariant[], lineNo: number, pass: Pass): InstructionLikeMatch[] {
  const found: InstructionLikeMatch[] = [];
  for (let r = 0; r < LINE_RULES.length; r++) {
    const m = ruleMatch(r, variants, lineNo, pass);
    if (m !== null) found.push(m);
  }
  return found;
}

const NO_INVISIBLES: readonly InvisibleChar[] = [];

/** What the whole-text scans found that the line passes use: which lines are ASCII, triggers, invisible characters. */
interface TextFacts {
  ascii: boolean;
  found: Found[] | null;
  invisibles: boolean;
}

/** Invisible-character hit and phrase-rule hits of one line. */
function lineMatches(line: string, index: number, facts: TextFacts, pass: Pass): InstructionLikeMatch[] {
  const { work } = pass;
  const found: InstructionLikeMatch[] = [];
  const cleaned: LineVariant[] = [];
  work?.add("invisible-characters", line.length);
  const invisibles = facts.invisibles ? suspiciousInvisibles(line, index === 0) : NO_INVISIBLES;
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
  const ascii = pass.fast && (facts.ascii || !hasNonAscii(line));
  const variants = scanned(lineVariants(line, cleaned, ascii, pass), facts.found?.[index] ?? null, ascii, pass);
  found.push(...phraseMatches(variants, index + 1, pass));
  return found;
}

/** Whether any line of a decoded payload matches a phrase rule. */
function decodedIsInstruction(decoded: string, pass: Pass): boolean {
  return decoded.split("\n").some((line) => {
    const ascii = pass.fast && !hasNonAscii(line);
    const variants = scanned(lineVariants(line, [], ascii, pass), null, ascii, pass);
    return LINE_RULES.some((_, r) => ruleMatch(r, variants, 1, pass) !== null);
  });
}

/** Every regular expression the detector runs, by where it is used (for the structural linearity check). */
export function detectorPatterns(): Array<{ where: string; pattern: RegExp }> {
  const context = [NEGATION_BEFORE, NEGATION_AFTER, HEDGE_BEFORE, HEDGE_AFTER, DESCRIBED_BEFORE, LABEL_BEFORE, LABEL_AFTER, LETTER_SPACED, LETTER_SPACED_ASCII];
  return [
    ...LINE_RULES.flatMap((r) => [...r.patterns, ...(r.gate === undefined ? [] : [r.gate.pattern])].map((pattern) => ({ where: r.ruleId, pattern }))),
    ...triggers().patterns().map((pattern) => ({ where: "triggers", pattern })),
    ...commentAddressPatterns().map((pattern) => ({ where: "comment-address", pattern })),
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
  return detectWithOptions(text, { fastPaths: true }, work);
}

/** `detectInstructionLikeText` with options (internal: the fast paths are on everywhere else). */
export function detectWithOptions(text: string, options: DetectOptions, work?: WorkCounter): InstructionLikeMatch[] {
  const pass: Pass = { fast: options.fastPaths, work, table: options.fastPaths ? triggers() : null };
  const ctx: TextContext = textContext(text, work);
  const facts: TextFacts = { ascii: pass.fast && !hasNonAscii(text), found: null, invisibles: !pass.fast || mayHoldInvisibles(text) };
  if (pass.table !== null) {
    work?.add("triggers", text.length);
    facts.found = pass.table.findByLine(text, ctx.lineStarts);
  }
  const found: InstructionLikeMatch[] = [];
  ctx.lines.forEach((line, i) => found.push(...lineMatches(line, i, facts, pass)));
  found.push(...hiddenCommentMatches(ctx), ...hiddenHtmlMatches(ctx), ...encodedMatches(ctx, (decoded) => decodedIsInstruction(decoded, pass), pass.fast));
  return ordered(found);
}
