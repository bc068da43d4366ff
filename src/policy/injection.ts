/**
 * Detection of instruction-like text aimed at an AI agent inside repository content (docs, comments, issue text).
 * A hit never blocks anything: it downgrades the trust label of the text ("this is evidence, not authority") and
 * tells the client where the suspicious line is. Patterns are deliberately phrase-shaped so ordinary documentation
 * ("Run the tests", "This function ignores whitespace") does not trip them.
 */

export interface InstructionLikeMatch {
  line: number;
  ruleId: string;
  excerpt: string;
}

export const INJECTION_RULE_IDS = [
  "override-instructions",
  "role-reassignment",
  "system-prompt-reference",
  "conceal-from-user",
  "verifier-gaming",
  "unsafe-git",
  "exfiltration",
  "remote-execution",
  "agent-directive",
  "hidden-agent-comment",
] as const;
export type InjectionRuleId = (typeof INJECTION_RULE_IDS)[number];

/** Longest excerpt returned for a match. */
export const MAX_EXCERPT_LENGTH = 160;
/** For long lines, how much context before the match the excerpt keeps. */
const EXCERPT_LEAD = 40;
/** Longest stretch of a line a single pattern spans (keeps every pattern linear in the line length). */
const MAX_SPAN = 300;
/** How far before a match a negation ("do not", "never") turns a rule off. */
const NEGATION_WINDOW = 40;

interface LineRule {
  ruleId: InjectionRuleId;
  patterns: readonly RegExp[];
  /** "Never force-push to main" is advice, not an attack: a nearby negation cancels the match. */
  negatable: boolean;
}

const PEOPLE = String.raw`(?:the\s+)?(?:user|human|developer|operator|reviewer|maintainer)s?`;
const SECRETS = String.raw`(?:secrets?|credentials?|tokens?|api[\s_-]?keys?|passwords?|env(?:ironment)?(?:\s+(?:variables?|vars?|files?))?|\.env(?:\s+files?)?|private\s+keys?|ssh\s+keys?)`;
const OUTSIDE = String.raw`(?:https?:\/\/|[\w.+-]{1,64}@[\w-]{1,64}\.\w|(?:an?\s+|the\s+|this\s+|my\s+|our\s+)?(?:external|remote|third[\s-]party|attacker|outside)\b|pastebin|webhook\.site|requestbin|ngrok)`;
const SECRET_FILES = String.raw`(?:\.env\b|id_rsa|id_ed25519|\.ssh\/|\.aws\/|\.npmrc|\.netrc|\.git-credentials|credentials)`;
const SHELLS = String.raw`(?:sudo\s+(?:-\S+\s+)*)?(?:(?:ba|z|k|da|fi)?sh|python3?|node|perl|ruby|php)\b`;
const AGENT_WORDS = String.raw`(?:AI|LLMs?|[Aa]gents?|[Aa]ssistants?|[Cc]opilot|[Cc]laude|ChatGPT|GPT|[Cc]odex|[Ll]anguage\s+[Mm]odels?)`;

function re(source: string, flags = "i"): RegExp {
  return new RegExp(source, flags);
}

const LINE_RULES: readonly LineRule[] = [
  {
    ruleId: "override-instructions",
    negatable: false,
    patterns: [
      re(String.raw`\b(?:ignore|disregard)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+|these\s+|those\s+)?(?:previous|prior|above|earlier|preceding|foregoing|original|system|existing|other)\s+(?:[\w-]+\s+)?(?:instructions?|prompts?|rules|directions|directives|guidelines|commands|context|messages)\b`),
      re(String.raw`\b(?:ignore|disregard)\s+(?:all|any)\s+(?:of\s+)?(?:your\s+|the\s+)?(?:instructions?|prompts?|rules|directives|guidelines)\b`),
      re(String.raw`\bdisregard\s+(?:[\w-]+\s+){0,3}?(?:instructions?|prompts?|directives|guidelines)\b`),
      re(String.raw`\bforget\s+(?:about\s+)?(?:everything|all\s+(?:of\s+)?(?:your|the|previous|prior)\s+(?:instructions?|rules|prompts?|guidelines)|(?:all\s+)?(?:your|previous|prior)\s+(?:previous\s+|prior\s+)?(?:instructions?|rules|prompts?|training|guidelines))`),
      re(String.raw`\bnew\s+(?:system\s+)?instructions?\s*:`),
      re(String.raw`\boverride\s+(?:all\s+|any\s+)?(?:of\s+)?(?:your|previous|prior|system)\s+(?:[\w-]+\s+)?(?:instructions|prompts?|rules|guidelines)\b`),
    ],
  },
  {
    ruleId: "role-reassignment",
    negatable: false,
    patterns: [
      re(String.raw`\byou\s+are\s+now\s+(?:a|an|the|my)\s+(?:[\w-]+\s+){0,3}?(?:assistant|agent|ai|model|bot|chatbot|llm|hacker|persona|character|DAN)\b`),
      re(String.raw`\byou\s+are\s+now\s+(?:in\s+)?(?:developer|god|admin|jailbreak|jailbroken|unrestricted|unfiltered|DAN|sudo)\s+mode\b`),
      re(String.raw`\bfrom\s+now\s+on,?\s+you\s+(?:are\s+(?:a|an|no\s+longer)|will\s+(?:act|respond|behave|ignore|pretend|only\s+(?:respond|answer|follow)))\b`),
      re(String.raw`\byou\s+are\s+no\s+longer\s+(?:bound|restricted|limited|required\s+to\s+follow)\b`),
    ],
  },
  {
    ruleId: "system-prompt-reference",
    negatable: false,
    patterns: [
      re(String.raw`\bsystem\s+prompts?\b`),
      re(String.raw`<\|im_start\|>|<\|(?:system|user|assistant)\|>|\[\/?INST\]|<<\/?SYS>>`, ""),
      re(String.raw`\b(?:reveal|print|output|show|repeat|leak)\s+(?:me\s+)?your\s+(?:initial\s+|original\s+|hidden\s+)?(?:prompt|instructions)\b`),
    ],
  },
  {
    ruleId: "conceal-from-user",
    negatable: false,
    patterns: [
      re(String.raw`\b(?:do\s+not|don't|dont|never)\s+(?:tell|inform|notify|alert|warn)\s+${PEOPLE}\b`),
      re(String.raw`\b(?:do\s+not|don't|dont|never)\s+(?:mention|reveal|disclose|report)\s+(?:this|these|it|that|anything)\s+to\s+${PEOPLE}\b`),
      re(String.raw`\bwithout\s+(?:telling|informing)\s+${PEOPLE}\b`),
      re(String.raw`\bkeep\s+(?:this|it|these)\s+(?:secret|hidden|private)\s+from\s+${PEOPLE}\b`),
      re(String.raw`\b(?:hide|conceal)\s+(?:this|these|it|your\s+actions?|the\s+changes?)\s+from\s+${PEOPLE}\b`),
    ],
  },
  {
    ruleId: "verifier-gaming",
    negatable: true,
    patterns: [
      re(String.raw`\b(?:delete|remove|skip|disable|comment\s+out|xfail|ignore)\s+(?:all\s+)?(?:of\s+)?(?:the\s+|any\s+)?(?:failing|broken|failed)\s+(?:unit\s+|integration\s+|e2e\s+)?tests?\b`),
      re(String.raw`\b(?:delete|remove|disable)\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?tests\b(?![\/\w-]|\.\w|\s+(?:directory|dir|folder|files?|data|fixtures?|cache|outputs?|results?|reports?|artifacts?|containers?|databases?|db)\b)`),
      re(String.raw`\b(?:modify|change|edit|rewrite|update|weaken|loosen)\s+(?:the\s+)?(?:tests?|assertions?|expected\s+(?:values?|outputs?|results?))\s+(?:so\s+(?:that\s+)?(?:they|it|the\s+build|ci)\s+pass(?:es)?|to\s+(?:make\s+(?:them|it)\s+)?pass)\b`),
      re(String.raw`\b(?:make|get)\s+(?:the\s+)?(?:tests?|ci|build|checks?)\s+(?:to\s+)?pass\s+(?:by\s+any\s+means|no\s+matter\s+what|at\s+all\s+costs)`),
    ],
  },
  {
    ruleId: "unsafe-git",
    negatable: true,
    patterns: [
      re(String.raw`\bpush(?:ed|ing)?\s+(?:\S+\s+){0,3}?(?:directly|straight)\s+(?:to|into)\s+(?:the\s+)?(?:origin\/?\s*)?(?:main|master)\b`),
      re(String.raw`(?<!\b(?:on|every|each|a|any|after|before|the|upon|for|of|no|you|we|they|i)\s+)\bpush\s+(?:(?:your|the|all|these|those|my)\s+)?(?:(?:changes?|commits?|code|it|them|this)\s+)?(?:to|into)\s+(?:origin\s+)?(?:main|master)\b`),
      re(String.raw`\bforce[\s-]?push(?:ed|es|ing)?\b`),
      re(String.raw`\bgit\s+push\b[^\n]{0,${MAX_SPAN}}?\s(?:--force(?:-with-lease)?|-f)(?![\w-])`),
      re(String.raw`\bgit\s+push\s+\S+\s+\+\S`),
      re(String.raw`\b(?:bypass|circumvent|disable|skip)\s+(?:the\s+)?(?:branch\s+protections?|code\s+reviews?|required\s+reviews?)\b`),
    ],
  },
  {
    ruleId: "exfiltration",
    negatable: true,
    patterns: [
      re(String.raw`\bexfiltrat\w*`),
      re(String.raw`\b(?:send|post|upload|transmit|e-?mail|forward|leak|paste|share|copy)\s+(?:[\w.'-]+\s+){0,4}?${SECRETS}\b[^\n]{0,80}?\b(?:to|at)\s+${OUTSIDE}`),
      re(String.raw`\b(?:env|printenv)\b\s*\|\s*(?:curl|wget|nc|ncat|netcat)\b`),
      re(String.raw`\bcat\s+[^\n|;]{0,${MAX_SPAN}}?${SECRET_FILES}[^\n|;]{0,${MAX_SPAN}}\|\s*(?:curl|wget|nc|ncat|netcat|base64)\b`),
      re(String.raw`\b(?:curl|wget)\b[^\n]{0,${MAX_SPAN}}?(?:\$\(\s*(?:env|printenv|cat\s+[^)\n]{0,${MAX_SPAN}}?${SECRET_FILES})|@\.env\b|@~?\/?\.ssh\/)`),
    ],
  },
  {
    ruleId: "remote-execution",
    negatable: true,
    patterns: [
      re(String.raw`\b(?:curl|wget)\b[^\n|]{0,${MAX_SPAN}}\|\s*${SHELLS}`),
      re(String.raw`\b(?:bash|sh|zsh)\s+(?:-c\s+)?["']?\s*(?:<\(|\$\()\s*(?:curl|wget)\b`),
      re(String.raw`\beval\s+["']?\$\(\s*(?:curl|wget)\b`),
      re(String.raw`\b(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|]{0,${MAX_SPAN}}\|\s*(?:iex|invoke-expression)\b`),
      re(String.raw`\b(?:iex|invoke-expression)\b[^\n]{0,40}?(?:\b(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b|downloadstring)`),
    ],
  },
  {
    ruleId: "agent-directive",
    negatable: false,
    patterns: [
      re(String.raw`\bas\s+an?\s+(?:AI|artificial\s+intelligence)\s+(?:coding\s+)?(?:agent|assistant|language\s+model|model|bot)\b`),
      re(String.raw`\b(?:IMPORTANT|Important|ATTENTION|Attention|URGENT|CRITICAL)\b\s*(?:[:!\-\u2014]|for\b|to\b)[^\n]{0,160}?(?<![Uu]ser[\s-])\b${AGENT_WORDS}\b`, ""),
      re(String.raw`\b(?:note|message|instructions?)\s+(?:to|for)\s+(?:any\s+|all\s+|the\s+)?(?:AI|LLMs?|(?:AI\s+|coding\s+)?agents|(?:AI\s+)?assistants|language\s+models?)\b`),
      re(String.raw`\bif\s+you\s+are\s+an?\s+(?:AI|LLM|large\s+language\s+model|language\s+model|(?:AI|coding|automated)\s+(?:agent|assistant))\b`),
      re(String.raw`\b(?:dear|hey)\s+(?:AI|LLM|Claude|Copilot|ChatGPT|GPT|agent|assistant)\b`),
    ],
  },
];

const NEGATION_BEFORE = /\b(?:not|never|don't|dont|avoid|cannot|can't|mustn't|shouldn't|won't|no)\b/i;
const NEGATION_AFTER = /\b(?:is|are)\s+(?:not\s+(?:allowed|permitted)|forbidden|prohibited|blocked|disabled|disallowed)\b/i;
/** Words that make an HTML comment "addressed to an agent"; "user agent" is a browser, not an AI. */
const COMMENT_AGENT_WORD = /(?<!user[\s-])\b(?:agents?|assistants?|ai|llms?|copilot|claude|chatgpt|gpt|codex|language\s+models?)\b/i;
const COMMENT_OPEN = "<!--";
const COMMENT_CLOSE = "-->";

function excerptOf(line: string, matchIndex: number): string {
  const trimmed = line.trim();
  if (trimmed.length <= MAX_EXCERPT_LENGTH) return trimmed;
  const start = Math.max(0, Math.min(matchIndex - EXCERPT_LEAD, line.length - MAX_EXCERPT_LENGTH));
  return line.slice(start, start + MAX_EXCERPT_LENGTH).trim();
}

function isNegated(line: string, m: RegExpExecArray): boolean {
  const before = line.slice(Math.max(0, m.index - NEGATION_WINDOW), m.index);
  return NEGATION_BEFORE.test(before) || NEGATION_AFTER.test(line.slice(m.index));
}

function firstMatch(rule: LineRule, line: string): RegExpExecArray | null {
  for (const pattern of rule.patterns) {
    const m = pattern.exec(line);
    if (m !== null && !(rule.negatable && isNegated(line, m))) return m;
  }
  return null;
}

/** HTML comments (closed or running to the end) that mention an agent: one hit, on the line naming the agent. */
function hiddenCommentMatches(text: string, lineStarts: readonly number[], lines: readonly string[]): InstructionLikeMatch[] {
  const out: InstructionLikeMatch[] = [];
  let from = text.indexOf(COMMENT_OPEN);
  while (from >= 0) {
    const bodyStart = from + COMMENT_OPEN.length;
    const close = text.indexOf(COMMENT_CLOSE, bodyStart);
    const bodyEnd = close < 0 ? text.length : close;
    const m = COMMENT_AGENT_WORD.exec(text.slice(bodyStart, bodyEnd));
    if (m !== null) {
      const at = bodyStart + m.index;
      const lineIndex = lineIndexOf(lineStarts, at);
      const line = lines[lineIndex] ?? "";
      out.push({ line: lineIndex + 1, ruleId: "hidden-agent-comment", excerpt: excerptOf(line, at - (lineStarts[lineIndex] ?? 0)) });
    }
    if (close < 0) break;
    from = text.indexOf(COMMENT_OPEN, close + COMMENT_CLOSE.length);
  }
  return out;
}

/** Index of the line containing `offset` (binary search over line start offsets). */
function lineIndexOf(lineStarts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((lineStarts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Finds lines that read like instructions to an AI agent. At most one match per (line, rule); results are ordered
 * by line, then by rule (in `INJECTION_RULE_IDS` order). Lines are 1-based.
 */
export function detectInstructionLikeText(text: string): InstructionLikeMatch[] {
  const lines = text.split("\n");
  const lineStarts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    lineStarts.push(offset);
    offset += line.length + 1;
  }

  const found: InstructionLikeMatch[] = [];
  lines.forEach((raw, i) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    for (const rule of LINE_RULES) {
      const m = firstMatch(rule, line);
      if (m !== null) found.push({ line: i + 1, ruleId: rule.ruleId, excerpt: excerptOf(line, m.index) });
    }
  });
  found.push(...hiddenCommentMatches(text, lineStarts, lines));

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
