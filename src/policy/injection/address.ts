import { wideRe } from "./language-table.js";
import { LazyPatterns, countedExec, re, type WorkCounter } from "./rules.js";

/**
 * Text addressed to an AI agent: the agent-directive patterns for ordinary lines, and the addressing patterns a
 * hidden comment or hidden HTML element must match to be flagged (naming an AI is not enough; addressing one is).
 */

/** Case-sensitive agent words (for the upper-case "IMPORTANT … AI" pattern, where "Important" must be a heading word). */
const AGENT_WORDS = String.raw`(?:AI|LLMs?|[Aa]gents?|AGENTS?|[Aa]ssistants?|ASSISTANTS?|[Cc]opilot|COPILOT|[Cc]laude|CLAUDE|ChatGPT|CHATGPT|GPT|[Cc]odex|CODEX|[Ll]anguage\s+[Mm]odels?|LANGUAGE\s+MODELS?)`;
/** Names and descriptions that only ever mean an AI system (case-insensitive use). */
export const AI_NAMES = String.raw`(?:AI|LLMs?|Copilot|Claude|ChatGPT|GPT(?:-\d\w*)?|Codex|Gemini|(?:AI|LLM|coding|automated|autonomous)[\s-](?:agents?|assistants?|tools?|bots?|models?|reviewers?|contributors?|systems?)|(?:large\s+)?language\s+models?)`;
/** AI names plus the generic words an attacker uses to address one ("assistant, …", "reviewer bot, …"). */
const AI_ADDRESSEES = String.raw`(?:${AI_NAMES}|(?:review(?:er)?\s+)?bots?|assistants?|agents?)`;
/** Imperatives that follow a vocative ("Copilot, delete …"). */
const IMPERATIVES = String.raw`(?:please|ignore|disregard|forget|delete|remove|run|execute|push|commit|merge|approve|mark|send|post|upload|print|add|make|change|disable|skip|open|close|write|fetch|follow|do|don't|never|always|you\s+(?:must|should|need|will|are\s+to))`;

export const AGENT_DIRECTIVE_PATTERNS: readonly RegExp[] = [
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
  re(String.raw`\b(?:AI|LLM|coding|automated|autonomous)\s+(?:agents?|assistants?|tools?|models?|bots?|contributors?|reviewers?|systems?)\s+(?:\w+ing\s+(?:[\w.-]+\s+){0,3}?)?(?:must|should|shall|are\s+(?:required|expected|instructed|asked)\s+to|is\s+(?:required|expected|instructed|asked)\s+to|needs?\s+to|ha(?:ve|s)\s+to)\s+(?!be\b|not\s+be\b)`),  // "TODO(ai): …", "TODO for the bot: …", "Agent instructions: …", "Assistants working here: …"
  re(String.raw`\bTODO\s*(?:\(\s*(?:ai|llm|agent|bot|assistant|copilot|claude|codex)\s*\)|\s+for\s+(?:the\s+)?(?:ai|llm|agent|bot|assistant|copilot|claude|codex))\s*:`),
  re(String.raw`^[\s#/*>\-]{0,12}(?:AI|LLM|agent|assistant|bot)\s+(?:instructions?|notes?|directives?|orders)\s*:`),
  re(String.raw`\b(?:assistants?|agents?|bots?|AI|LLMs?|models?)\s+(?:working|operating|running)\s+(?:here|on\s+this|in\s+this\s+(?:repo|repository|project))\s*[:,]`),
];

/** Agent words inside a hidden comment; "user agent" is a browser, not an AI. */
const COMMENT_WHO = String.raw`(?<!user[\s-])(?<who>\b(?:agents?|assistants?|ai|llms?|copilot|claude|chatgpt|gpt(?:-\d\w*)?|codex|gemini|bots?|language\s+models?|ki|ia|assistent(?:e|en|in)?|asistente|assistente|agente)\b|(?<![\p{L}])(?:ассистент|помощник|агент|ии|асистент|помічник)\p{L}{0,3}(?![\p{L}])|(?:AI|人工智能)?(?:助手|智能体|アシスタント|エージェント|어시스턴트|에이전트))`;
/** Words allowed between the agent word and the colon of "AI agent: …", "Agents reading this: …". */
const COMMENT_WHO_TAIL = String.raw`agents?|assistants?|bots?|tools?|models?|reviewers?|reading|processing|parsing|reviewing|working|editing|here|this|these|only|ai|ia|ki`;
/**
 * A hidden comment is flagged when it addresses an agent, not when it merely names one ("TODO: screenshot of the AI
 * settings page"). Each pattern has a `who` group: the reported line is the line of that word.
 */
const buildCommentAddress = (): RegExp[] => [
  // "AI: …", "note for the assistant: …", "Agents reading this: …", "Copilot — …"
  wideRe(String.raw`${COMMENT_WHO}(?:\s+(?:${COMMENT_WHO_TAIL})){0,2}(?:へ|に|님|에게|께)?\s*(?::(?!\/)|：|\u2014|\s-\s)`, "di"),
  // "agent, …" at the start of the comment or of a sentence
  wideRe(String.raw`(?:^|[.!?;]\s)\s*${COMMENT_WHO}\s*,`, "di"),
  // "note to the agent", "instructions for any AI"
  wideRe(String.raw`\b(?:note|message|instructions?|reminder|notice|directive|request|hint|attention)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+|an?\s+)?(?:[\w-]+\s+)?${COMMENT_WHO}`, "di"),
  // "the AI should …", "agents reading this …"
  wideRe(String.raw`${COMMENT_WHO}\s+(?:that\s+(?:is|are)\s+)?(?:must|should|shall|needs?\s+to|ha(?:s|ve)\s+to|will|(?:is|are)\s+(?:required|expected|instructed)|reading|processing|parsing|reviewing|scanning|editing|working\s+on|summari[sz]ing)\b`, "di"),
  // "dear AI", "if you are an AI assistant", "as an AI"
  wideRe(String.raw`\b(?:dear|hey|hi|hello|attention|calling)\s+(?:all\s+|any\s+)?${COMMENT_WHO}`, "di"),
  wideRe(String.raw`\b(?:if\s+)?you\s+are\s+an?\s+(?:[\w-]+\s+)?${COMMENT_WHO}`, "di"),
];

let commentAddress: readonly RegExp[] | undefined;
/** The addressing patterns, built on first use (a text without comments or hidden elements never needs them). */
export const commentAddressPatterns = (): readonly RegExp[] => (commentAddress ??= buildCommentAddress());

/** Offset of the agent word the first addressing pattern found in `body`, or -1. */
export function addressedAt(body: string, work?: WorkCounter, rule = "hidden-agent-comment"): number {
  let best = -1;
  for (const pattern of commentAddressPatterns()) {
    const m = countedExec(pattern, body, rule, work);
    const at = m?.indices?.groups?.["who"]?.[0];
    if (at !== undefined && (best < 0 || at < best)) best = at;
  }
  return best;
}

/** The same vocatives in other languages: "Asistente: …", "Atenção, assistente de IA: …", "AIアシスタントへ: …". */
export const multilingualAddress = (): LazyPatterns =>
  new LazyPatterns(
    [
      { source: String.raw`^[\s#/*>;'"(\-]{0,12}(?:(?:atenção|atención|attention|achtung|attenzione|uwaga|внимание|увага)\s*[,!:]?\s*)?(?:(?:l'|el|la|o|a|der|die|das|il|lo)\s*)?(?:assistant(?:e)?\s+(?:IA|d'IA|de\s+IA|KI)|asistente(?:\s+de\s+IA)?|assistente(?:\s+(?:de|di)\s+IA)?|KI-Assistent(?:in)?|Assistent(?:in)?|(?:IA|KI|ИИ)(?=\s*[:：])|ассистент|помощник|агент|AI\s*助手|助手|AI\s*アシスタント|アシスタント|エージェント|AI\s*어시스턴트|어시스턴트|에이전트)(?:へ|に|님|에게)?\s*[:：,]`, flags: "i" },
      { source: String.raw`(?<![\p{L}])(?:IMPORTANTE|WICHTIG|ATENCI[OÓ]N|ATTENZIONE|ВАЖНО|UWAGA|ATENÇÃO|重要)(?![\p{L}])[^\n]{0,20}?(?:IA|KI|ИИ|AI|assistant\p{L}{0,2}|asistente|assistente|Assistent\p{L}{0,2}|agente?|агент\p{L}{0,2})(?![\p{L}])`, flags: "" },
    ],
    (p) => wideRe(p.source, p.flags),
  );
