/** Claims of prose: the commands, forbidden paths and forbidden or required actions a sentence states. */
import type { InstructionAction, InstructionClaims } from "../../../core/instructions.js";
import { looksLikeCommand, looksLikePath, makeCommand } from "./commands.js";
import { pathToGlob } from "./paths.js";
import { codeSpans, uniq } from "./text.js";

// ---------------------------------------------------------------------------------------------------------------
// Phrase patterns. They look for what a sentence asks an agent to do, not for keywords: "Do not delete failing
// tests" forbids delete_tests, "delete any failing test file" requires it, "tests are deleted nightly" is neither.

const NEG_BEFORE =
  /\b(?:do\s+not|don['’]t|dont|never|must\s+not|mustn['’]t|should\s+not|shouldn['’]t|shall\s+not|cannot|can['’]t|may\s+not|not\s+allowed\s+to|forbidden\s+to|avoid|refrain\s+from|without|no\s+one\s+may)\b|^\s*no\b/i;
/** Clauses that forbid by their shape ("… is generated and must not be edited"). */
const NEG_INHERENT =
  /\b(?:must|should|may|shall)\s+not\s+be\s+(?:edited|modified|changed|touched|updated|committed|deleted|removed|rewritten)|\b(?:must|should|shall)\s+never\s+be\s+(?:edited|modified|changed|touched|updated)|\b(?:is|are)\s+(?:read[\s-]only|off[\s-]limits|forbidden|prohibited|not\s+to\s+be\s+(?:edited|modified|changed|touched))\b/i;
const EDIT_VERBS = /\b(?:edit|edits|editing|modify|modifying|change|changing|touch|touching|write|writing|commit|update|updating|delete|remove|rename|move|rewrite|hand[\s-]?edit|alter)\b/i;

const ACTION_PATTERNS: readonly (readonly [InstructionAction, RegExp])[] = [
  ["push_protected_branch", /\bpush(?:ing|es)?\s+(?:(?:your\s+|the\s+|any\s+)?(?:changes|commits|code)\s+)?(?:directly\s+|straight\s+)?(?:to|into|onto|on)\s+(?:the\s+)?(?:main|master|trunk|develop|production|release|protected|default)\b/i],
  ["push_protected_branch", /\bcommit(?:ting)?\s+(?:directly|straight)\s+(?:to|on)\s+(?:the\s+)?(?:main|master|trunk|default|protected)\b/i],
  ["force_push", /\bforce[\s-]?push(?:ing|es|ed)?\b|\bpush\s+(?:\S+\s+){0,3}?(?:--force(?:-with-lease)?|-f)\b/i],
  ["skip_tests", /\bskip(?:ping|s)?\s+(?:the\s+|any\s+|all\s+)?(?:failing\s+|flaky\s+|broken\s+|slow\s+)?(?:unit\s+|integration\s+|e2e\s+)?(?:tests?|specs?|test\s+suites?)\b/i],
  ["skip_tests", /\bmark\s+(?:the\s+|any\s+|all\s+)?(?:failing\s+|flaky\s+)?tests?\s+as\s+(?:skipped|ignored|xfail|pending|disabled)\b/i],
  ["delete_tests", /\b(?:delete|remove|drop)\s+(?:the\s+|any\s+|all\s+)?(?:failing\s+|flaky\s+|broken\s+)?(?:unit\s+|integration\s+)?(?:tests?|test\s+(?:files?|cases?|suites?)|specs?)\b/i],
  ["disable_checks", /\b(?:disable|turn\s+off|bypass|comment\s+out|silence)\s+(?:the\s+|any\s+|all\s+)?(?:failing\s+|flaky\s+)?(?:tests?|checks?|verifiers?|verification|linters?|linting|type[\s-]?check(?:ing|s|er)?|ci|pre-commit\s+hooks?|hooks?|assertions?)\b/i],
  ["disable_checks", /--no-verify\b/i],
  ["remote_execution", /\b(?:curl|wget)\b[^|\n]{0,300}\|\s*(?:sudo\s+)?(?:ba|z|k|da|fi)?sh\b/i],
  ["remote_execution", /\b(?:execute|run|source|eval)\s+(?:the\s+)?(?:returned|downloaded|fetched|remote|resulting)\s+(?:script|code|file|commands?|installer)\b/i],
  ["remote_execution", /\b(?:ba)?sh\s+<\(\s*(?:curl|wget)\b/i],
  ["network_egress", /\b(?:curl|wget)\s+(?:-\S+\s+)*(?:https?:\/\/|this\s+url|the\s+url|[\w-]+\.[\w.-]+\/)/i],
  ["network_egress", /\bfrom\s+the\s+internet\b|\bdownload(?:s|ing)?\s+(?:\S+\s+){0,3}?from\s+(?:https?:\/\/|the\s+internet|the\s+web)/i],
  ["edit_generated", /\b(?:edit|modify|change|touch|update|hand[\s-]?edit|rewrite)\b[^.;:]{0,80}?\bgenerated\b/i],
  ["edit_generated", /\bgenerated\b[^.;:]{0,60}?\b(?:edited|modified|changed|touched)\b/i],
  ["expose_secrets", /\b(?:print|echo|log|paste|commit|share|send|upload|post|cat|copy|expose|leak|output|dump|reveal|exfiltrate)\s+(?:the\s+|any\s+|your\s+|all\s+|our\s+)?(?:\S+\s+)?(?:secrets?|credentials?|tokens?|api[\s_-]?keys?|passwords?|private\s+keys?|\.env(?:\.[\w-]+)?)(?![\w-])/i],
  ["expose_secrets", /\buse\s+(?:the\s+)?\.env(?:\.[\w-]+)?(?![\w-])|\b(?:paste|include|attach)\s+(?:\S+\s+){0,4}?(?:from|of)\s+\.env\b/i],
  ["modify_ci", /\b(?:edit|modify|change|touch|update|alter)\s+(?:the\s+)?(?:ci\b|ci\s+config(?:uration)?|(?:github\s+)?workflows?|pipelines?|\.github\/workflows)/i],
  ["add_dependency", /\badd(?:ing)?\s+(?:a\s+|any\s+|new\s+|extra\s+|more\s+|third[\s-]party\s+|runtime\s+|npm\s+|maven\s+)*dependenc(?:y|ies)\b/i],
  ["edit_migrations", /\b(?:edit|modify|change|touch|update|alter|rewrite)\s+(?:the\s+|any\s+|existing\s+)*(?:database\s+|db\s+|schema\s+|sql\s+|flyway\s+|liquibase\s+)?(?:db\/|database\/)?migrations?\b/i],
  ["unbounded_refactor", /\b(?:refactor|reformat|rewrite|restructure|clean\s+up|improve|modernize)\s+(?:all|every|everything|any|unrelated|the\s+(?:whole|entire))\b/i],
  ["unbounded_refactor", /\bimprove\s+(?:the\s+)?architecture\b|\bmake\s+all\s+(?:the\s+)?code\b/i],
];

function splitClauses(text: string): string[] {
  return text.split(/[.;!?](?=\s|$)|\s(?=then\s)|,\s+(?:and\s+)?then\s|\bbut\b/i).filter((c) => c.trim().length > 0);
}

interface ActionHit {
  action: InstructionAction;
  negated: boolean;
}

function actionHits(text: string): ActionHit[] {
  const plain = text.replace(/`+/g, "");
  const hits: ActionHit[] = [];
  for (const clause of splitClauses(plain)) {
    for (const [action, re] of ACTION_PATTERNS) {
      const m = re.exec(clause);
      if (!m) continue;
      const before = clause.slice(0, m.index);
      const negated = NEG_BEFORE.test(before) || NEG_INHERENT.test(clause.slice(m.index)) || /\bnot\s*$/i.test(before);
      hits.push({ action, negated });
    }
  }
  return hits;
}

/** Claims of a piece of prose (a rule, a user task): commands in code spans, forbidden paths, actions. */
export function claimsFromText(text: string, scope = ""): InstructionClaims {
  const spans = codeSpans(text);
  const commands = spans.filter(looksLikeCommand).map((s) => makeCommand(s, scope, text));
  const forbidActions = new Set<InstructionAction>();
  const requireActions = new Set<InstructionAction>();
  for (const h of actionHits(text)) (h.negated ? forbidActions : requireActions).add(h.action);
  for (const c of commands) for (const a of c.impliedActions) if (!forbidActions.has(a)) requireActions.add(a);
  const forbidPaths: string[] = [];
  for (const clause of splitClauses(text)) {
    const plain = clause.replace(/`+/g, "");
    const negated = (NEG_BEFORE.test(plain) && EDIT_VERBS.test(plain)) || NEG_INHERENT.test(plain);
    if (!negated) continue;
    const candidates = codeSpans(clause).filter(looksLikePath);
    if (candidates.length === 0) {
      // Bare paths in prose: "Do not edit src/main/generated."
      for (const m of plain.matchAll(/(?:^|\s)((?:\.{0,2}\/)?[\w.-]+\/[\w./*-]*[\w/*])(?=[\s,)]|$)/g)) candidates.push(m[1]!);
    }
    for (const c of candidates) forbidPaths.push(pathToGlob(c));
  }
  if (forbidPaths.some((p) => /(?:^|\/)generated(?:\/|$)/i.test(p)) && !requireActions.has("edit_generated")) forbidActions.add("edit_generated");
  if (forbidPaths.some((p) => /(?:^|\/)(?:db\/)?migrations?(?:\/|$)/i.test(p)) && !requireActions.has("edit_migrations")) forbidActions.add("edit_migrations");
  if (forbidPaths.some((p) => /^\.github\/workflows(?:\/|$)/.test(p)) && !requireActions.has("modify_ci")) forbidActions.add("modify_ci");
  for (const a of forbidActions) requireActions.delete(a);
  return { commands, forbidPaths: uniq(forbidPaths), forbidActions: [...forbidActions].sort(), requireActions: [...requireActions].sort() };
}
