import { summarizeVerifierLog } from "../context-package/verifier-log.js";
import { queryTerms } from "../../core/terms.js";

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

/** Identifiers, stack frames and paths in a query, and its terms. */
export function parseQuery(text: string): ParsedQuery {
  const identifiers = [...new Set((text.match(IDENTIFIER) ?? []).filter(isIdentifierLike))].slice(0, MAX_IDENTIFIERS);
  const log = summarizeVerifierLog(text);
  const locations = log.locations.slice(0, MAX_LOCATIONS).map((l) => ({ path: l.path, line: l.line }));
  const paths = [...new Set([...text.matchAll(PATH_MENTION)].map((m) => m[1]!))];
  return { terms: queryTerms(text), identifiers, locations, paths, aboutTests: text.length <= MAX_TEST_QUESTION_CHARS && TEST_WORDS.test(text) };
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
const NATURAL_WORDS = 3;

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

/** Unmistakably not a literal: a long sentence, several lines, or a stack frame. */
export function looksLikeProse(query: string): boolean {
  return wordCount(query) >= PROSE_WORDS || /\n/.test(query.trim()) || /\bat [\w$.]+\(|File "[^"]+", line \d+/.test(query);
}
