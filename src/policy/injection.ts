import type { InstructionLikeMatch } from "../core/instructions.js";
/**
 * Detection of instruction-like text aimed at an AI agent inside repository content (docs, comments, issue text).
 * A hit never blocks anything: it downgrades the trust label of the text ("this is evidence, not authority") and
 * tells the client where the suspicious span is. Patterns are deliberately phrase-shaped so ordinary documentation
 * ("Run the tests", "This function ignores whitespace") does not trip them.
 *
 * Every pattern is linear in the line length: repetitions are bounded (MAX_SPAN) or cannot overlap, and whole-text
 * scans (HTML comments, invisible characters) are single passes. Measured against a labelled corpus by
 * `npm run bench:injection` (see BENCHMARKS.md and test/fixtures/injection-corpus/README.md).
 */


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
  "invisible-characters",
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

const PEOPLE = String.raw`(?:(?:the\s+)?(?:user|human|developer|operator|reviewer|maintainer)s?|the\s+person\s+you(?:'re|\s+are)\s+(?:helping|assisting|working\s+(?:for|with)))`;
const SECRETS = String.raw`(?:secrets?|credentials?|tokens?|api[\s_-]?keys?|passwords?|env(?:ironment)?(?:\s+(?:variables?|vars?|files?))?|\.env(?:\s+files?)?|private\s+keys?|ssh\s+keys?)`;
const OUTSIDE = String.raw`(?:https?:\/\/|[\w.+-]{1,64}@[\w-]{1,64}\.\w|(?:an?\s+|the\s+|this\s+|my\s+|our\s+)?(?:external|remote|third[\s-]party|attacker|outside)\b|pastebin|webhook\.site|requestbin|ngrok)`;
const SECRET_FILES = String.raw`(?:\.env\b|id_rsa|id_ed25519|\.ssh\/|\.aws\/|\.npmrc|\.netrc|\.git-credentials|credentials)`;
const SHELLS = String.raw`(?:sudo\s+(?:-\S+\s+)*)?(?:(?:ba|z|k|da|fi)?sh|python3?|node|perl|ruby|php)\b`;
/** Case-sensitive agent words (for the upper-case "IMPORTANT … AI" pattern, where "Important" must be a heading word). */
const AGENT_WORDS = String.raw`(?:AI|LLMs?|[Aa]gents?|AGENTS?|[Aa]ssistants?|ASSISTANTS?|[Cc]opilot|COPILOT|[Cc]laude|CLAUDE|ChatGPT|CHATGPT|GPT|[Cc]odex|CODEX|[Ll]anguage\s+[Mm]odels?|LANGUAGE\s+MODELS?)`;
/** Names and descriptions that only ever mean an AI system (case-insensitive use). */
const AI_NAMES = String.raw`(?:AI|LLMs?|Copilot|Claude|ChatGPT|GPT(?:-\d\w*)?|Codex|Gemini|(?:AI|LLM|coding|automated|autonomous)[\s-](?:agents?|assistants?|tools?|bots?|models?|reviewers?|contributors?|systems?)|(?:large\s+)?language\s+models?)`;
/** AI names plus the generic words an attacker uses to address one ("assistant, …", "reviewer bot, …"). */
const AI_ADDRESSEES = String.raw`(?:${AI_NAMES}|(?:review(?:er)?\s+)?bots?|assistants?|agents?)`;
/** Imperatives that follow a vocative ("Copilot, delete …"). */
const IMPERATIVES = String.raw`(?:please|ignore|disregard|forget|delete|remove|run|execute|push|commit|merge|approve|mark|send|post|upload|print|add|make|change|disable|skip|open|close|write|fetch|follow|do|don't|never|always|you\s+(?:must|should|need|will|are\s+to))`;

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
      re(String.raw`\bforget\s+(?:what|anything|all)\s+(?:that\s+)?(?:[\w']+\s+){0,3}?(?:told|said|asked|instructed|taught)\b`),
      re(String.raw`\bforget\s+(?:about\s+)?(?:the|your)\s+(?:original\s+|current\s+|previous\s+|actual\s+|assigned\s+)?(?:task|assignment|request|job|objective|mission)s?\b(?!\s+(?:queue|list|runner|ids?|scheduler|manager|table|object)\b)`),
      re(String.raw`\bnew\s+(?:system\s+)?instructions?\s*:`),
      re(String.raw`\boverride\s+(?:all\s+|any\s+)?(?:of\s+)?(?:your|previous|prior|system)\s+(?:[\w-]+\s+)?(?:instructions|prompts?|rules|guidelines)\b`),
      re(String.raw`\boverrid(?:e|es|ing)\s+(?:whatever|anything|everything|what)\s+(?:[\w']+\s+){0,3}?(?:were|was|are|is|have\s+been|has\s+been)\s+(?:asked|told|instructed|given|requested)\b`),
      re(String.raw`\byour\s+(?:previous|original|current|earlier|initial)\s+(?:task|instructions?|assignment|objective|orders)\s+(?:(?:has|have)\s+been|(?:is|are)\s+(?:now\s+)?)\s*(?:cancel+ed|revoked|replaced|superseded|overridden|withdrawn|void|obsolete)\b`),
      re(String.raw`\btreat\s+[^\n]{0,80}?\bas\s+(?:your|their|the)\s+(?:(?:new|real|actual|top[\s-]priority|primary|highest[\s-]priority|only|main)\s+){1,2}(?:instructions|task|orders|directives|prompt)\b`),
      re(String.raw`\b(?:follow|obey|execute|do)\s+(?:it|this|these|them|that|those)\s+instead\s+of\s+(?:the|your)\s+(?:original\s+|actual\s+|given\s+|assigned\s+|current\s+)?(?:task|instructions?|request|prompt|assignment)\b`),
    ],
  },
  {
    ruleId: "role-reassignment",
    negatable: false,
    patterns: [
      re(String.raw`\byou\s+are\s+now\s+(?:a|an|the|my)\s+(?:[\w-]+\s+){0,3}?(?:assistant|agent|ai|model|bot|chatbot|llm|hacker|persona|character|DAN)\b`),
      re(String.raw`\byou\s+are\s+now\s+(?:in\s+)?(?:developer|god|admin|jailbreak|jailbroken|unrestricted|unfiltered|DAN|sudo)\s+mode\b`),
      re(String.raw`\bfrom\s+now\s+on,?\s+you\s+(?:are\s+(?:a|an|the|no\s+longer)|(?:will|shall|must|should)\s+(?:act|respond|behave|ignore|pretend|obey|only\s+(?:respond|answer|follow))|(?:act|behave|pretend|respond|operate|serve)\s+(?:as|like)\b)`),
      re(String.raw`\byou\s+are\s+no\s+longer\s+(?:bound|restricted|limited|required\s+to\s+follow)\b`),
    ],
  },
  {
    ruleId: "system-prompt-reference",
    negatable: false,
    patterns: [
      // A bare mention ("the system prompt API") is ordinary in LLM projects; these are the agent-targeted forms.
      re(String.raw`\b(?:reveal|print|output|show|repeat|leak|dump|disclose|recite|display|expose|ignore|disregard|override|bypass|forget)\s+(?:me\s+)?(?:the\s+|your\s+|its\s+|any\s+)?(?:[\w-]+\s+)?system\s+(?:prompts?|messages?)\b`),
      re(String.raw`\byour\s+(?:[\w-]+\s+)?system\s+(?:prompts?|messages?|instructions)\b`),
      re(String.raw`\bsystem\s+prompts?\s+(?:says?|said|tells?|told|states?|instructs?|requires?|allows?|permits?|(?:is|are)\s+(?:now|overridden|replaced|void|revoked)|(?:has|have)\s+been\s+(?:updated|replaced|overridden|changed|revoked))\b`),
      re(String.raw`\b(?:new|updated|real|actual|override)\s+system\s+prompt\s*:`),
      re(String.raw`<\|im_start\|>|<\|(?:system|user|assistant)\|>|\[\/?INST\]|<<\/?SYS>>`, ""),
      re(String.raw`\b(?:reveal|print|output|show|repeat|leak|dump|disclose|recite|quote)\s+(?:me\s+)?(?:back\s+)?(?:the\s+(?:full\s+|exact\s+|complete\s+)?(?:text|contents?|wording)\s+of\s+)?(?:all\s+)?your\s+(?:initial\s+|original\s+|hidden\s+|full\s+|complete\s+|exact\s+)?(?:prompt|instructions)\b`),
    ],
  },
  {
    ruleId: "conceal-from-user",
    negatable: false,
    patterns: [
      // "Do not tell users to run as root" is writing advice, not concealment.
      re(String.raw`\b(?:do\s+not|don't|dont|never)\s+(?:tell|inform|notify|alert|warn)\s+${PEOPLE}\b(?!\s+(?:to|how)\b)`),
      re(String.raw`\b(?:do\s+not|don't|dont|never)\s+(?:mention|reveal|disclose|report)\s+(?:this|these|it|that|anything)\s+to\s+${PEOPLE}\b`),
      re(String.raw`\b(?:do\s+not|don't|dont|never)\s+(?:bring\s+(?:this|it|that|these)\s+up|mention\s+(?:this|it|that|these))\s+(?:with|to)\s+(?:${PEOPLE}|anyone|anybody)\b`),
      re(String.raw`\b(?:do\s+not|don't|dont|never)\s+let\s+(?:the\s+humans?|humans|anyone|anybody|your\s+(?:user|operator|human)s?|the\s+(?:operator|maintainer|reviewer)s?)\s+know\b`),
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
      re(String.raw`\b(?:grader|autograder|evaluator|verifier|scoring\s+script|judge)\s+only\s+(?:checks?|looks\s+at|verifies|tests)\b`),
      re(String.raw`\b(?:add|insert|put|prepend)\s+[^\n]{0,40}?(?:pytest\.skip|unittest\.skip|\.skip\(|@skip|@Ignore|@Disabled|t\.Skip|\bxit\b|\bxdescribe\b)[^\n]{0,60}?\b(?:every|all|each)\s+(?:of\s+the\s+)?tests?\b`),
    ],
  },
  {
    ruleId: "unsafe-git",
    negatable: true,
    patterns: [
      re(String.raw`\b(?:push|commit|merge)(?:ed|ing|s)?\s+(?:\S+\s+){0,3}?(?:directly|straight)\s+(?:to|into|on(?:to)?)\s+(?:the\s+)?(?:origin\/?\s*)?(?:main|master)\b`),
      // "Push to main only after review" is process advice; "then push to main" is a directive.
      re(String.raw`(?<!\b(?:on|every|each|a|any|after|before|the|upon|for|of|no|you|we|they|i)\s+)\bpush\s+(?:(?:your|the|all|these|those|my)\s+)?(?:(?:changes?|commits?|code|it|them|this)\s+)?(?:to|into)\s+(?:origin\s+)?(?:main|master)\b(?!\s+(?:only\s+)?(?:after|once|when|if|upon)\b)`),
      re(String.raw`\bforce[\s-]?push(?:ed|es|ing)?\b`),
      // "`git push --force` rewrites the remote branch" describes the command; it does not ask anyone to run it.
      re(String.raw`\bgit\s+push\b[^\n]{0,${MAX_SPAN}}?\s(?:--force(?:-with-lease)?|-f)(?![\w-])(?!\x60?\s+(?:is|are|was|will|would|can|could|may|might|should|rewrites|overwrites|replaces|discards|destroys|deletes|refuses)\b)`),
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
      re(String.raw`\b(?:read|cat|open|copy|take|grab)\s+(?:the\s+)?(?:file\s+|contents\s+of\s+)?[^\n]{0,40}?${SECRET_FILES}[^\n]{0,120}?\b(?:paste|post|send|upload|share|e-?mail|attach)(?:s|ed|ing)?\b`),
      re(String.raw`\b(?:env|printenv)\b\s*\|\s*(?:curl|wget|nc|ncat|netcat)\b`),
      re(String.raw`\bcat\s+[^\n|;]{0,${MAX_SPAN}}?${SECRET_FILES}[^\n|;]{0,${MAX_SPAN}}\|\s*(?:curl|wget|nc|ncat|netcat|base64)\b`),
      re(String.raw`\b(?:curl|wget)\b[^\n]{0,${MAX_SPAN}}?(?:\$\(\s*(?:env|printenv|cat\s+[^)\n]{0,${MAX_SPAN}}?${SECRET_FILES})|@\.env\b|@~?\/?\.ssh\/)`),
      // CI secrets piped through an encoder get past log masking.
      re(String.raw`\$\{\{\s*secrets\.[^}\n]{1,100}\}\}[^\n]{0,100}?\|\s*(?:base64|xxd|od|rev|curl|wget|nc)\b`),
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
      re(String.raw`\bas\s+an?\s+(?:AI|artificial\s+intelligence)\s+(?:coding\s+)?(?:agent|assistant|language\s+model|model|bot)\b(?!\s+(?:product|platform|company|startup|vendor|feature|integration|service|team)s?\b)`),
      re(String.raw`\b(?:IMPORTANT|Important|ATTENTION|Attention|URGENT|CRITICAL)\b(?:\s+(?:INSTRUCTIONS?|NOTE|MESSAGE|Instructions?|Note|Message))?\s*(?:[:!\-\u2014]|for\b|to\b|FOR\b|TO\b|(?=\s+(?:ALL\s+|ANY\s+|THE\s+)?${AGENT_WORDS}))[^\n]{0,160}?(?<![Uu]ser[\s-])\b${AGENT_WORDS}\b`, ""),
      re(String.raw`\b(?:notes?|messages?|instructions?|reminders?|notices?)\s+(?:to|for)\s+(?:any\s+|all\s+|the\s+)?(?:AI|LLMs?|(?:AI\s+|coding\s+)?agents|(?:AI\s+)?assistants|language\s+models?|(?:AI|coding|automated)\s+(?:agent|assistant|tool|reviewer)s?)\b`),
      re(String.raw`\b(?:note|message|instructions?|reminder|notice)\s+(?:to|for)\s+(?:any\s+|the\s+)?(?:agent|assistant)\s*(?:[:,]|\u2014)`),
      re(String.raw`\bif\s+you\s+are\s+an?\s+(?:AI|LLM|large\s+language\s+model|language\s+model|(?:AI|coding|automated|autonomous)\s+(?:agent|assistant|tool|bot|system|model|reviewer|contributor))\b`),
      re(String.raw`\b(?:dear|hey)\s+(?:AI|LLM|Claude|Copilot|ChatGPT|GPT|Codex|Gemini|agent|assistant|bot)\b`),
      // A Markdown heading addressed to agents: "### For automated agents".
      re(String.raw`^#{1,6}\s+(?:(?:notes?|instructions?|guidance|rules|information)\s+)?(?:for|to)\s+(?:the\s+|all\s+|any\s+)?(?:AI|LLM|automated|autonomous|coding)\s+(?:[\w-]+\s+)?(?:agents?|assistants?|tools?|contributors?|models?|bots?)\s*$`),
      // Vocative at the start of a line or comment: "copilot: …", "LLM agents: …".
      re(String.raw`^[\s#/*>;'"(\-]{0,12}@?${AI_NAMES}\s*(?::(?!\/)|\u2014)`),
      // Vocative followed by an imperative: "Reviewer bot, please …", "Codex, delete …".
      re(String.raw`(?:^[\s#/*>\-]{0,12}|[.!?;:(]\s+)${AI_ADDRESSEES}\s*,\s*${IMPERATIVES}\b`),
      // "To any AI reading this workflow", "Agents processing this repository".
      re(String.raw`\b(?:to|for)\s+(?:any|all|every|the)\s+${AI_ADDRESSEES}\s+(?:that\s+(?:is|are)\s+|who\s+(?:is|are)\s+)?(?:reading|processing|parsing|reviewing|scanning|triaging|summari[sz]ing|analy[sz]ing|working\s+on|looking\s+at)\b`),
      re(String.raw`\b(?:AI|LLMs?|bots?|agents?|assistants?|language\s+models?)\s+(?:reading|processing|parsing|scanning|summari[sz]ing|editing)\s+(?:this|these|the\s+(?:file|repo|repository|code|codebase|page|document|diff|issue|pr|pull\s+request|workflow))\b`),
      // "AI agents installing this package must also run …" (but "AI tools must be disclosed" is a policy for people).
      re(String.raw`\b(?:AI|LLM|coding|automated|autonomous)\s+(?:agents?|assistants?|tools?|models?|bots?|contributors?|reviewers?|systems?)\s+(?:\w+ing\s+(?:[\w.-]+\s+){0,3}?)?(?:must|should|shall|are\s+(?:required|expected|instructed|asked)\s+to|is\s+(?:required|expected|instructed|asked)\s+to|needs?\s+to|ha(?:ve|s)\s+to)\s+(?!be\b|not\s+be\b)`),
    ],
  },
];

const NEGATION_BEFORE = /\b(?:not|never|don't|dont|avoid|cannot|can't|mustn't|shouldn't|won't|no)\b/i;
const NEGATION_AFTER = /\b(?:is|are)\s+(?:not\s+(?:allowed|permitted)|forbidden|prohibited|blocked|disabled|disallowed)\b/i;

/** Agent words inside a hidden comment; "user agent" is a browser, not an AI. */
const COMMENT_WHO = String.raw`(?<!user[\s-])\b(?<who>agents?|assistants?|ai|llms?|copilot|claude|chatgpt|gpt(?:-\d\w*)?|codex|gemini|bots?|language\s+models?)\b`;
/** Words allowed between the agent word and the colon of "AI agent: …", "Agents reading this: …". */
const COMMENT_WHO_TAIL = String.raw`agents?|assistants?|bots?|tools?|models?|reviewers?|reading|processing|parsing|reviewing|working|editing|here|this|these|only`;
/**
 * A hidden comment is flagged when it addresses an agent, not when it merely names one ("TODO: screenshot of the AI
 * settings page"). Each pattern has a `who` group: the reported line is the line of that word.
 */
const COMMENT_ADDRESS: readonly RegExp[] = [
  // "AI: …", "note for the assistant: …", "Agents reading this: …", "Copilot — …"
  new RegExp(String.raw`${COMMENT_WHO}(?:\s+(?:${COMMENT_WHO_TAIL})){0,2}\s*(?::(?!\/)|\u2014|\s-\s)`, "id"),
  // "agent, …" at the start of the comment or of a sentence
  new RegExp(String.raw`(?:^|[.!?;]\s)\s*${COMMENT_WHO}\s*,`, "id"),
  // "note to the agent", "instructions for any AI"
  new RegExp(String.raw`\b(?:note|message|instructions?|reminder|notice|directive|request|hint|attention)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+|an?\s+)?(?:[\w-]+\s+)?${COMMENT_WHO}`, "id"),
  // "the AI should …", "agents reading this …"
  new RegExp(String.raw`${COMMENT_WHO}\s+(?:that\s+(?:is|are)\s+)?(?:must|should|shall|needs?\s+to|ha(?:s|ve)\s+to|will|(?:is|are)\s+(?:required|expected|instructed)|reading|processing|parsing|reviewing|scanning|editing|working\s+on|summari[sz]ing)\b`, "id"),
  // "dear AI", "if you are an AI assistant", "as an AI"
  new RegExp(String.raw`\b(?:dear|hey|hi|hello|attention|calling)\s+(?:all\s+|any\s+)?${COMMENT_WHO}`, "id"),
  new RegExp(String.raw`\b(?:if\s+)?you\s+are\s+an?\s+(?:[\w-]+\s+)?${COMMENT_WHO}`, "id"),
];
const COMMENT_OPEN = "<!--";
const COMMENT_CLOSE = "-->";
/** Markdown's unrendered link-reference "comments": `[//]: # (…)`, `[comment]: <> "…"`. */
const MARKDOWN_COMMENT = /^[ \t]{0,3}\[[^\]\n]{1,40}\]:[ \t]{0,10}(?:#|<>)[ \t]{0,10}[("']/;

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

// ---------------------------------------------------------------------------------------------------------------
// Invisible characters

/** Invisible code points that can smuggle text: zero-width, word joiner and invisible operators, BOM, bidi, tags. */
const enum Invisible {
  /** Not invisible. */
  None,
  /** Suspicious in numbers or inside a word (zero-width and directional marks). */
  Weak,
  /** Suspicious on its own (bidi overrides and isolates outside right-to-left text, tags, a BOM inside the text). */
  Strong,
}

const RTL_LETTER = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const EMOJI_LEFT = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]/u;
const EMOJI_RIGHT = /\p{Extended_Pictographic}/u;
/** Scripts that use ZWJ/ZWNJ/ZWSP in ordinary spelling (Persian, Indic, Thai, …): any non-Latin letter or mark. */
const COMPLEX_SCRIPT = /[\p{L}\p{M}]/u;
const LATIN = /[\p{Script=Latin}\p{Script=Common}]/u;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const BLACK_FLAG = 0x1f3f4;
const TAG_FIRST = 0xe0000;
const TAG_LAST = 0xe007f;
const TAG_CANCEL = 0xe007f;
/** Longest subdivision code in an emoji tag sequence (🏴 + "gbeng" + cancel tag). */
const MAX_FLAG_TAGS = 7;

function invisibleKind(cp: number): Invisible {
  if (cp === 0x200b || cp === 0x200c || cp === 0x200d || cp === 0x200e || cp === 0x200f) return Invisible.Weak;
  if (cp >= 0x2060 && cp <= 0x2064) return Invisible.Weak;
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return Invisible.Strong;
  if (cp === 0xfeff) return Invisible.Strong;
  if (cp >= TAG_FIRST && cp <= TAG_LAST) return Invisible.Strong;
  return Invisible.None;
}

const charAt = (s: string, i: number): string => String.fromCodePoint(s.codePointAt(i) ?? 0);
/** The code point that ends just before index `i` (handles surrogate pairs). */
function charBefore(s: string, i: number): string {
  if (i <= 0) return "";
  const low = s.charCodeAt(i - 1);
  if (i >= 2 && low >= 0xdc00 && low <= 0xdfff) return s.slice(i - 2, i);
  return s[i - 1] ?? "";
}

/** Length in UTF-16 units of an emoji tag sequence (🏴 + [0-9a-z]{1,7} tags + cancel tag) starting at `i`, else 0. */
function flagSequenceLength(s: string, i: number): number {
  let j = i + 2;
  let tags = 0;
  while (tags <= MAX_FLAG_TAGS) {
    const cp = s.codePointAt(j);
    if (cp === TAG_CANCEL) return tags > 0 ? j + 2 - i : 0;
    if (cp === undefined || !((cp >= 0xe0030 && cp <= 0xe0039) || (cp >= 0xe0061 && cp <= 0xe007a))) return 0;
    j += 2;
    tags++;
  }
  return 0;
}

interface InvisibleChar {
  index: number;
  width: number;
  cp: number;
}

/** Invisible characters on one line that are not part of ordinary text (emoji sequences, complex-script joiners, RTL marks). */
function suspiciousInvisibles(line: string, atTextStart: boolean): InvisibleChar[] {
  const out: InvisibleChar[] = [];
  let rtl: boolean | undefined;
  const hasRtl = (): boolean => (rtl ??= RTL_LETTER.test(line));
  for (let i = 0; i < line.length; ) {
    const cp = line.codePointAt(i) ?? 0;
    const width = cp > 0xffff ? 2 : 1;
    if (cp === BLACK_FLAG) {
      const n = flagSequenceLength(line, i);
      i += n > 0 ? n : width;
      continue;
    }
    const kind = invisibleKind(cp);
    if (kind !== Invisible.None && !isOrdinaryInvisible(line, i, cp, atTextStart && i === 0, hasRtl)) out.push({ index: i, width, cp });
    i += width;
  }
  return out;
}

function isOrdinaryInvisible(line: string, i: number, cp: number, atTextStart: boolean, hasRtl: () => boolean): boolean {
  if (cp === 0xfeff) return atTextStart;
  if (cp === 0x202d || cp === 0x202e || (cp >= TAG_FIRST && cp <= TAG_LAST)) return false;
  // Directional marks, embeddings and isolates belong in right-to-left text.
  if (cp === 0x200e || cp === 0x200f || (cp >= 0x202a && cp <= 0x202c) || (cp >= 0x2066 && cp <= 0x2069)) return hasRtl();
  if (cp === 0x200b || cp === 0x200c || cp === 0x200d) {
    const before = charBefore(line, i);
    const after = i + 1 < line.length ? charAt(line, i + 1) : "";
    if (cp === 0x200d && EMOJI_LEFT.test(before) && EMOJI_RIGHT.test(after)) return true;
    const complex = (c: string): boolean => COMPLEX_SCRIPT.test(c) && !LATIN.test(c);
    return complex(before) && complex(after);
  }
  return false;
}

/** A line is flagged for a strong character, two or more weak ones, or one weak character splitting a word. */
function isSmuggling(line: string, found: readonly InvisibleChar[]): boolean {
  if (found.some((c) => invisibleKind(c.cp) === Invisible.Strong)) return true;
  if (found.length >= 2) return true;
  return found.some((c) => {
    const after = c.index + c.width < line.length ? charAt(line, c.index + c.width) : "";
    return WORD_CHAR.test(charBefore(line, c.index)) && WORD_CHAR.test(after);
  });
}

/** The line with invisible runs spelled out: tag text decoded, other runs named by code point. */
function renderInvisibles(line: string, found: readonly InvisibleChar[]): { text: string; firstAt: number } {
  let text = "";
  let from = 0;
  let firstAt = -1;
  let k = 0;
  while (k < found.length) {
    const first = found[k]!;
    let end = first.index + first.width;
    const run: InvisibleChar[] = [first];
    while (k + 1 < found.length && found[k + 1]!.index === end) {
      k++;
      run.push(found[k]!);
      end += found[k]!.width;
    }
    k++;
    text += line.slice(from, first.index);
    if (firstAt < 0) firstAt = text.length;
    const tagText = run
      .filter((c) => c.cp > TAG_FIRST + 0x1f && c.cp < TAG_LAST)
      .map((c) => String.fromCharCode(c.cp - TAG_FIRST))
      .join("");
    const codes = [...new Set(run.map((c) => `U+${c.cp.toString(16).toUpperCase().padStart(4, "0")}`))];
    text += tagText.length > 0 ? `[hidden text: ${JSON.stringify(tagText)}]` : `[${run.length} invisible: ${codes.slice(0, 3).join(" ")}${codes.length > 3 ? " …" : ""}]`;
    from = end;
  }
  text += line.slice(from);
  return { text, firstAt: Math.max(0, firstAt) };
}

/**
 * A copy of the line with invisible characters removed (or turned into spaces) and tag characters decoded, so the
 * phrase rules see smuggled text; `starts[i]`/`ends[i]` give the original span of character i of the copy.
 */
interface LineVariant {
  text: string;
  starts: number[] | null;
  ends: number[] | null;
}

function cleanedVariant(line: string, found: readonly InvisibleChar[], replacement: "" | " "): LineVariant {
  const byIndex = new Map(found.map((c) => [c.index, c]));
  let text = "";
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < line.length; ) {
    const c = byIndex.get(i);
    if (c === undefined) {
      text += line[i];
      starts.push(i);
      ends.push(i + 1);
      i++;
      continue;
    }
    const decoded = c.cp > TAG_FIRST + 0x1f && c.cp < TAG_LAST ? String.fromCharCode(c.cp - TAG_FIRST) : replacement;
    if (decoded !== "") {
      text += decoded;
      starts.push(i);
      ends.push(i + c.width);
    }
    i += c.width;
  }
  return { text, starts, ends };
}

// ---------------------------------------------------------------------------------------------------------------
// Hidden comments

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

/** Offset of the agent word the first addressing pattern found in `body`, or -1. */
function addressedAt(body: string): number {
  let best = -1;
  for (const pattern of COMMENT_ADDRESS) {
    const m = pattern.exec(body);
    const at = m?.indices?.groups?.["who"]?.[0];
    if (at !== undefined && (best < 0 || at < best)) best = at;
  }
  return best;
}

/**
 * HTML comments (closed or running to the end) and Markdown link-reference comments that address an agent: one hit
 * per comment, on the line of the agent word, spanning the comment's part of that line.
 */
function hiddenCommentMatches(text: string, lineStarts: readonly number[], lines: readonly string[]): InstructionLikeMatch[] {
  const out: InstructionLikeMatch[] = [];
  const report = (commentStart: number, commentEnd: number, at: number): void => {
    const lineIndex = lineIndexOf(lineStarts, at);
    const lineStart = lineStarts[lineIndex] ?? 0;
    const line = stripCr(lines[lineIndex] ?? "");
    const start = Math.max(commentStart, lineStart) - lineStart;
    const end = Math.min(commentEnd - lineStart, line.length);
    out.push({
      line: lineIndex + 1,
      ruleId: "hidden-agent-comment",
      excerpt: excerptOf(line, at - lineStart),
      startColumn: start + 1,
      endColumn: Math.max(start, end) + 1,
    });
  };

  let from = text.indexOf(COMMENT_OPEN);
  while (from >= 0) {
    const bodyStart = from + COMMENT_OPEN.length;
    const close = text.indexOf(COMMENT_CLOSE, bodyStart);
    const bodyEnd = close < 0 ? text.length : close;
    const at = addressedAt(text.slice(bodyStart, bodyEnd));
    if (at >= 0) report(from, close < 0 ? text.length : close + COMMENT_CLOSE.length, bodyStart + at);
    if (close < 0) break;
    from = text.indexOf(COMMENT_OPEN, close + COMMENT_CLOSE.length);
  }

  lines.forEach((raw, i) => {
    const line = stripCr(raw);
    const m = MARKDOWN_COMMENT.exec(line);
    if (m === null) return;
    const lineStart = lineStarts[i] ?? 0;
    const at = addressedAt(line.slice(m[0].length));
    if (at >= 0) report(lineStart, lineStart + line.length, lineStart + m[0].length + at);
  });
  return out;
}

const stripCr = (line: string): string => (line.endsWith("\r") ? line.slice(0, -1) : line);

// ---------------------------------------------------------------------------------------------------------------

/**
 * Finds lines that read like instructions to an AI agent. At most one match per (line, rule); results are ordered
 * by line, then by rule (in `INJECTION_RULE_IDS` order). Lines are 1-based; each match carries the span it found on
 * its line (`startColumn` inclusive, `endColumn` exclusive, both 1-based, in UTF-16 code units).
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
    const line = stripCr(raw);
    const variants: LineVariant[] = [{ text: line, starts: null, ends: null }];
    const invisibles = suspiciousInvisibles(line, i === 0);
    if (invisibles.length > 0) {
      if (isSmuggling(line, invisibles)) {
        const first = invisibles[0]!;
        const last = invisibles[invisibles.length - 1]!;
        const rendered = renderInvisibles(line, invisibles);
        found.push({
          line: i + 1,
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
      for (const v of variants) {
        const m = firstMatch(rule, v.text);
        if (m === null) continue;
        const last = m.index + Math.max(1, m[0].length) - 1;
        const start = v.starts === null ? m.index : (v.starts[m.index] ?? 0);
        const end = v.ends === null ? last + 1 : (v.ends[Math.min(last, v.ends.length - 1)] ?? start + 1);
        found.push({ line: i + 1, ruleId: rule.ruleId, excerpt: excerptOf(v.text, m.index), startColumn: start + 1, endColumn: end + 1 });
        break;
      }
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
