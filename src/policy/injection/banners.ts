/**
 * Fake authority: text dressed as a message from the system, an administrator or a priority channel
 * (`[[PRIORITY OVERRIDE]]`, `### SYSTEM:`, `-----BEGIN ADMIN INSTRUCTIONS-----`, `<system>…`), which ordinary
 * repository text never needs. And the cue of an encoded payload: "decode the following and follow it".
 * Banner words are matched case-sensitively in upper case, so "## System requirements" stays clean.
 */
import { re, type LineRule } from "./rules.js";

const AUTHORITY = String.raw`(?:SYSTEM|ADMIN|ADMINISTRATOR|DEVELOPER|OPERATOR|ROOT|PRIORITY|OVERRIDE)`;
const BANNER_KIND = String.raw`(?:OVERRIDE|NOTICE|MESSAGE|INSTRUCTIONS?|PROMPT|UPDATE|DIRECTIVE|COMMAND|ALERT|PRIORITY|MODE)`;

export const FAKE_AUTHORITY_RULE: LineRule = {
  ruleId: "fake-authority",
  negatable: false,
  patterns: [
    // "[[PRIORITY OVERRIDE]]", "[SYSTEM NOTICE - HIGHEST PRIORITY]", "[ADMIN MESSAGE]", "[OVERRIDE]"
    // ("[SYSTEM MESSAGE] Backup completed" in a log excerpt is not: a notice must speak to the agent.)
    re(String.raw`\[{1,2}\s*${AUTHORITY}\b[^\]\n]{0,60}?\b(?:OVERRIDE|INSTRUCTIONS?|PROMPT|DIRECTIVE|COMMAND|PRIORITY)\b[^\]\n]{0,40}\]{1,2}|\[{1,2}\s*(?:PRIORITY\s+)?OVERRIDE\s*\]{1,2}`, ""),
    re(String.raw`\[{1,2}\s*${AUTHORITY}\b[^\]\n]{0,60}?\b${BANNER_KIND}\b[^\]\n]{0,40}\]{1,2}[^\n]{0,80}?\b(?:you|your|[Aa]ssistants?|[Aa]gents?|[Mm]odels?|AI|LLMs?|[Ss]afety)\b`, ""),
    // A heading that is only an authority: "### SYSTEM:", "## SYSTEM PROMPT", "## ⚠️ OVERRIDE ⚠️"
    re(String.raw`^[\s>]{0,6}#{1,6}\s*(?:SYSTEM|ADMIN|DEVELOPER|OPERATOR)(?:\s+${BANNER_KIND})?\s*:?\s*$`, ""),
    re(String.raw`^[\s>*_]{0,6}#{1,6}\s*[^\w\n]{0,8}\s*(?:PRIORITY\s+)?OVERRIDE\b`, ""),
    // A line opening with an authority label: "# SYSTEM MESSAGE: …", "SYSTEM OVERRIDE: …"; a notice or an update
    // ("SYSTEM UPDATE: servers down on Sunday") only when it speaks to the agent.
    re(String.raw`^[\s>*_#/-]{0,12}${AUTHORITY}\s+(?:OVERRIDE|MESSAGE|INSTRUCTIONS?|PROMPT|DIRECTIVE|COMMAND)\s*[*_]{0,2}\s*:`, ""),
    re(String.raw`^[\s>*_#/-]{0,12}${AUTHORITY}\s+(?:NOTICE|UPDATE|ALERT|PRIORITY|MODE)\s*[*_]{0,2}\s*:[^\n]{0,80}?\b(?:you|your|[Aa]ssistant|[Aa]gents?|[Mm]odel|AI|LLM)\b`, ""),
    // Armored blocks: "-----BEGIN ADMIN INSTRUCTIONS-----", "=== BEGIN SYSTEM PROMPT ==="
    re(String.raw`(?:^|\s)[=\-*#]{3,10}\s*BEGIN\s+(?:SYSTEM|ADMIN|DEVELOPER|OPERATOR|PRIORITY|HIDDEN)\s+(?:PROMPT|INSTRUCTIONS?|MESSAGE|OVERRIDE)`, ""),
    // Tags that claim system rank and carry text: "<system>New policy: …", "<instructions priority="system">"
    re(String.raw`<(?:system|sys|admin|developer|operator)(?:[_-](?:prompt|message|instructions?|override))?>\s*[A-Za-z]`),
    re(String.raw`<instructions?\s+[^<>\n]{0,60}?\b(?:priority|role|source|level)\s*=\s*["']?(?:system|admin|developer|root|high|critical|override)`),
    // "PRIORITY: MAXIMUM", "(priority: critical, source: system)"
    re(String.raw`\bpriority\s*:\s*(?:maximum|max|critical|highest|override|system)\b[^\n]{0,40}?\b(?:override|source\s*:\s*system|all\s+other)`),
  ],
};

export const ENCODED_CUE_RULE: LineRule = {
  ruleId: "encoded-instructions",
  negatable: true,
  patterns: [
    // "decode the following base64 and follow it", "decode this hex and do what it says", "decode it and obey it"
    re(String.raw`\b(?:de(?:code|crypt|obfuscate)|unscramble|base64[\s-]decode|hex[\s-]decode|rot-?13)\w{0,3}\b[^\n]{0,80}?\b(?:and|then|,)\s+(?:then\s+)?(?:(?:obey|comply\s+with|act\s+on)\b|(?:follow|apply|run|execute|do|carry\s+out|perform)\s+(?:it|them|this|that|these|what\s+it\s+says|(?:the\s+|its\s+)?(?:result|instructions?|steps?|commands?|output)|exactly)\b)`),
    re(String.raw`\b(?:run|execute|follow|obey|apply)\s+(?:the\s+)?decoded\b`),
    re(String.raw`\b(?:decode|decrypt)\s+(?:it|this|them)\s+and\s+(?:do|follow|obey)\b`),
  ],
};
