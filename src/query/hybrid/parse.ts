import { summarizeVerifierLog } from "../context-package/verifier-log.js";
import { queryTermCounts, queryTerms } from "../../core/terms.js";

/** What a natural-language or issue-text query holds besides its words. */
export interface ParsedQuery {
  /** Lower-case terms (identifiers split, stopwords out), for the first stage and for spans. */
  terms: string[];
  /** Identifier-like words as written (`QuoteService`, `is_expired`, `Quote#get`): exact symbol lookups. */
  identifiers: string[];
  /** Stack frames and `path:line` mentions: the strongest evidence a query can carry. */
  locations: { path: string; line: number }[];
  /** File paths named in the query (`src/quote.ts`), with or without a line. */
  paths: string[];
  /** Text the query quotes or pastes that code may hold as written: error messages, quoted phrases. */
  phrases: string[];
  /** How often each term occurs in the query, and in its first line (an issue's title). */
  termCounts: Map<string, number>;
  titleTerms: Set<string>;
  /** Terms the query writes as code: in backticks, fenced or indented blocks, `>>>` lines, or identifier-shaped. */
  codeTerms: Set<string>;
  /** The query is about tests: test files are not pushed down. */
  aboutTests: boolean;
}

/** Words that look like identifiers: camelCase, PascalCase with an inner capital, snake_case, qualified names. */
const IDENTIFIER = /\b[A-Za-z_$][\w$]*(?:(?:\.|#|::)[A-Za-z_$][\w$]*)*\b/g;
const PATH_MENTION = /(?:^|[\s("'`])((?:[\w.-]+\/)+[\w.-]+\.[A-Za-z0-9]{1,8})\b/g;
const TEST_WORDS = /\b(tests?|spec|specs|unit test|failing test|test case|assert\w*)\b/i;
/**
 * Longest query that can be a question about tests: an issue text mentions tests and pasted assertions in passing
 * ("the tests pass", "assert x == y"), which must not lift the prior that keeps tests below the code they test.
 */
const MAX_TEST_QUESTION_CHARS = 200;
const MAX_IDENTIFIERS = 20;
const MAX_LOCATIONS = 20;

function isIdentifierLike(w: string): boolean {
  return /[a-z][A-Z]/.test(w) || /^[A-Z][a-z]+[A-Z]/.test(w) || /\w_\w/.test(w) || /[.#]|::/.test(w);
}

/**
 * Lines of an issue that describe the reporter's machine or the template rather than the problem: an environment
 * or version listing (`numpy: 1.19.2`, `requests==2.25.1`, `OS: Linux`, `python-bits: 64`), a template checklist
 * (`- [x] I searched existing issues`) and HTML comments (where templates keep their instructions). Their words are
 * rare in the code by accident (package names, versions) and would otherwise pick the query's terms.
 */
const VERSION_LINE = /^\s*[-*|]?\s*[\w.\-/]{1,40}\s*(?::|==|>=|<=|~=|@|\s|\|)\s*v?\d+(?:\.[\w+-]+)+\b[^\n]{0,40}$/;
const ENVIRONMENT_LINE =
  /^\s*[-*]?\s*(?:commit|python|python-bits|os|os-release|machine|processor|byteorder|lc_all|lang|locale|platform|kernel|arch|architecture|node|npm|yarn|browser|version|rustc|cargo|go version|java version|jdk|jvm|compiler|distribution|distro|installed versions|environment|operating system|os version|python version|node version)\s*[:=][^\n]{0,120}$/i;
const CHECKLIST_LINE = /^\s*[-*]\s*\[[ xX]\]\s/;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;

/** The issue text without its environment listings, template checklists and HTML comments (see VERSION_LINE). */
export function withoutNoise(text: string): string {
  return text
    .replace(HTML_COMMENT, " ")
    .split("\n")
    .filter((line) => !(VERSION_LINE.test(line) || ENVIRONMENT_LINE.test(line) || CHECKLIST_LINE.test(line)))
    .join("\n");
}

/** Quoted text: "…", '…' and `…` on one line. */
const QUOTED = /"([^"\n]{12,200})"|'([^'\n]{12,200})'|`([^`\n]{12,200})`/g;
/** An error line: `ValueError: message`, `Error: message`, `panicked at 'message'`, `error[E0425]: message`. */
const ERROR_LINE = /(?:^|\s)(?:[A-Z]\w*(?:Error|Exception|Warning)|[Ee]rror(?:\[\w+\])?|FATAL|fatal|panicked at)\s*:?\s+['"]?([^\n]{12,200}?)['"]?\s*$/gm;
/** Parts of a message that a program fills in (quoted values, numbers, paths): the literal lies between them. */
const FILLED_IN = /'[^']*'|"[^"]*"|`[^`]*`|<[^>]*>|\b\d[\w.:-]*|(?:[\w.-]*\/)+[\w.-]+/g;
const MIN_PHRASE_WORDS = 3;
const QUESTION = /^(where|how|which|what|why|when|who|whose|does|do|is|are|can|should|find|show|list)\b|\?\s*$/i;
const MAX_PHRASES = 12;

/**
 * Phrases to look for as written: a short one-line query itself, quoted text and error messages, each also cut at
 * what a program fills in (`Object of type 'Foo' is not JSON serializable` → `is not JSON serializable`), longest
 * pieces of at least MIN_PHRASE_WORDS words.
 */
function phrasesOf(text: string): string[] {
  const whole: string[] = [];
  const line = text.trim();
  // A question is asked in the asker's words, not the program's: only a one-line statement may be pasted output.
  if (!line.includes("\n") && line.length <= 200 && !QUESTION.test(line)) whole.push(line);
  for (const m of text.matchAll(QUOTED)) whole.push((m[1] ?? m[2] ?? m[3])!);
  for (const m of text.matchAll(ERROR_LINE)) whole.push(m[1]!);
  const out = new Set<string>();
  for (const w of whole) {
    for (const piece of [w, ...w.split(FILLED_IN)]) {
      const p = piece.trim().replace(/^['"`]+|['"`.,;:!?]+$/g, "");
      if (p.split(/\s+/).filter((x) => /[A-Za-z]/.test(x)).length >= MIN_PHRASE_WORDS) out.add(p);
    }
  }
  return [...out].sort((a, b) => b.length - a.length).slice(0, MAX_PHRASES);
}

const FENCED = /```[^\n]*\n([\s\S]*?)```/g;
const BACKTICKED = /`([^`\n]+)`/g;
const CODE_LINE = /^(?: {4}|\t|>>> |\.\.\. |\$ )(.+)$/gm;

/** The parts of an issue written as code: fenced blocks, backticked spans, indented and prompt lines. */
function codeParts(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(FENCED)) out.push(m[1]!);
  const rest = text.replace(FENCED, " ");
  for (const m of rest.matchAll(BACKTICKED)) out.push(m[1]!);
  for (const m of rest.matchAll(CODE_LINE)) out.push(m[1]!);
  return out;
}

/**
 * A Python traceback frame line, as Python prints it (`File "x.py", line 3, in f`) or IPython does
 * (`File ~/x.py:3, in f`): both list the outermost call first ("most recent call last").
 */
const PYTHON_FRAME = /^\s*File (?:"[^"]+", line \d+|\S+\.py:\d+, in )/;

/**
 * Stack frames with the innermost first, where it happened: each run of Python frames is reversed (Python prints
 * the most recent call last); Java, JavaScript, Go and Rust traces already list the innermost frame first.
 */
function innermostFirst<T extends { text: string }>(locations: readonly T[]): T[] {
  const out: T[] = [];
  let run: T[] = [];
  for (const l of locations) {
    if (PYTHON_FRAME.test(l.text)) {
      run.push(l);
      continue;
    }
    out.push(...run.reverse(), l);
    run = [];
  }
  return [...out, ...run.reverse()];
}

/** A frame of an older IPython traceback: `~/src/pkg/plot.py in _plot(self, pyplot)`, its line on the next `--> 841`. */
const NOTEBOOK_FRAME = /^\s*((?:~|\/|[\w.-]+\/)[^\s:]*\.py) in [\w<>.]+\(/;
const NOTEBOOK_ARROW = /^\s*-+>\s*(\d+)/;
/** Lines after a notebook frame in which its arrow line is looked for. */
const NOTEBOOK_ARROW_LINES = 20;

/** The frames of older IPython tracebacks (which the log summarizer does not read), innermost first. */
function notebookFrames(text: string): { path: string; line: number }[] {
  const lines = text.split("\n");
  const out: { path: string; line: number }[] = [];
  lines.forEach((l, i) => {
    const m = NOTEBOOK_FRAME.exec(l);
    if (!m) return;
    let line = 1;
    for (let j = i + 1; j < Math.min(lines.length, i + NOTEBOOK_ARROW_LINES); j++) {
      const a = NOTEBOOK_ARROW.exec(lines[j]!);
      if (a) {
        line = Number(a[1]);
        break;
      }
      if (NOTEBOOK_FRAME.test(lines[j]!)) break;
    }
    out.push({ path: m[1]!, line });
  });
  return out.reverse();
}

/** Identifiers, stack frames and paths in a query, and its terms (environment listings and template noise left out). */
export function parseQuery(raw: string): ParsedQuery {
  const text = withoutNoise(raw);
  const identifiers = [...new Set((text.match(IDENTIFIER) ?? []).filter(isIdentifierLike))].slice(0, MAX_IDENTIFIERS);
  // The repository may be the library a trace passes through: its frames in site-packages or node_modules are ours.
  const log = summarizeVerifierLog(text, { libraryFrames: true });
  const locations = [...innermostFirst(log.locations), ...notebookFrames(text)].slice(0, MAX_LOCATIONS).map((l) => ({ path: l.path, line: l.line }));
  const paths = [...new Set([...text.matchAll(PATH_MENTION)].map((m) => m[1]!))];
  // Distinct terms in first-occurrence order are the counts' keys: one pass over the text gives both.
  const termCounts = queryTermCounts(text);
  const title = text.trimStart().split("\n", 1)[0] ?? "";
  const code = [...codeParts(text), ...(text.match(IDENTIFIER) ?? []).filter(isIdentifierLike)].join("\n");
  return { terms: [...termCounts.keys()], phrases: phrasesOf(text), termCounts, titleTerms: new Set(queryTerms(title)), codeTerms: new Set(queryTerms(code)), identifiers, locations, paths, aboutTests: text.length <= MAX_TEST_QUESTION_CHARS && TEST_WORDS.test(text) };
}

/** Suffixes dropped before a term is looked for in text: `expiration`, `expired` and `expires` all find `expir`. */
const SUFFIXES = ["ations", "ation", "ings", "ing", "ions", "ion", "ments", "ment", "ers", "er", "ed", "es", "s", "ly"];
const MIN_STEM = 3;

/** A crude stem for substring matching in text (the index itself stems with Porter's algorithm). */
export function stemForMatch(term: string): string {
  for (const s of SUFFIXES) if (term.endsWith(s) && term.length - s.length >= MIN_STEM) return term.slice(0, -s.length);
  return term;
}

/** Words from which a query may be a question rather than a literal (it is ranked when found nowhere as written). */
const NATURAL_WORDS = 2;

/**
 * A query reads as prose or an issue rather than a string to find: several words, a line break, or a stack frame.
 * Those go to ranked retrieval; a short literal stays an exact search.
 */
export function looksNatural(query: string): boolean {
  return wordCount(query) >= NATURAL_WORDS || looksLikeProse(query);
}

function wordCount(query: string): number {
  return query.trim().split(/\s+/).filter((w) => /[A-Za-z]/.test(w)).length;
}

/** Words enough that no one means them as one literal string. */
const PROSE_WORDS = 6;

/** A question, asked in the asker's words: never a literal to look for as written. */
export function looksLikeQuestion(query: string): boolean {
  return wordCount(query) >= NATURAL_WORDS && QUESTION.test(query.trim());
}

/** Unmistakably not a literal: a long sentence, several lines, or a stack frame. */
export function looksLikeProse(query: string): boolean {
  return wordCount(query) >= PROSE_WORDS || /\n/.test(query.trim()) || /\bat [\w$.]+\(|File "[^"]+", line \d+/.test(query);
}
