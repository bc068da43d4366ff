import { MAX_SPAN, re, type LineRule } from "./rules.js";
import { OUTSIDE, PEOPLE, SECRETS, SECRET_FILES, SHELLS } from "./vocabulary.js";

/**
 * English phrase rules: overrides, role changes, prompt leaks, concealment, verifier gaming, unsafe git,
 * exfiltration and remote execution. Phrase-shaped on purpose so ordinary documentation ("Run the tests", "This
 * function ignores whitespace") does not trip them; every repetition is bounded.
 */
export const ENGLISH_RULES: readonly LineRule[] = [
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
];
