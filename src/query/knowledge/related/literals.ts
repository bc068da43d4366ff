/**
 * Tests that expect what the changed code says: the string literals of a changed file (its messages, option names,
 * formats) found as written in test files and test data. A test holding a message the changed code produces checks
 * that output; a data-driven suite (`tests/jq.test`, a compiler's `.stderr` expectations) is found the same way,
 * though no import or name links it. Only literals few tests hold count: a string every test holds says nothing.
 */
import type { QueryContext } from "../../context.js";
import { isTestPath } from "../../../policy/labels.js";
import { isCodeLanguage } from "./roles.js";
import { indexLines, lineOf } from "../../snippets.js";
import { textReader } from "../../text.js";

export interface LiteralSource {
  path: string;
  text: string;
  /** Lines whose literals are looked up first (the symbols asked for). */
  focus?: (line: number) => boolean;
}

export interface LiteralHit {
  /** The test file (or test data) holding the literal. */
  path: string;
  literal: string;
  /** The changed file it comes from. */
  source: string;
  line: number;
  /** From the lines asked about (a symbol asked for), not only from the changed file. */
  focused: boolean;
}

/** A piece of a literal shorter than this is a word, not a message. */
const MIN_LITERAL = 6;
const MAX_LITERAL = 200;
/** Literals looked up per call, longest first: each is one trigram lookup. */
const MAX_LITERALS = 60;
/** Files read for literals per call. */
const MAX_SOURCE_FILES = 5;
/** A literal more test files hold than this says nothing about which test checks the change. */
const MAX_LITERAL_TESTS = 3;
/** Candidates the trigram index may return for one literal; past it the literal is too common to tell. */
const MAX_LITERAL_CANDIDATES = 40;

const QUOTED = /"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'/g;
/** Where a program fills values in or breaks a line: printf and format placeholders, template slots, escapes. */
const HOLES = /%[-+ #0-9.*]*[a-zA-Z]|\$\{[^}]*\}|\{[^{}]*\}|\\[nrt0"'\\]/;
/** Lines whose strings name modules or files, not messages: imports, includes, requires. */
const IMPORT_LINE = /^\s*(#\s*include|import\b|from\s+\S+\s+import\b|export\s.*\sfrom\s|use\s|package\s|mod\s)|\brequire\s*\(/;
/** Words with a space between: a message or usage text; a lone token (`Content-Type`, a key) is in every test. */
const MESSAGE = /[A-Za-z]{2,}[^\S\n]+\S*[A-Za-z]{2,}/;
const COMMENT_LINE = /^\s*(\/\/|\/\*|\*|#(?!\s*include)|--)/;

/**
 * The message-like pieces of a text's string literals, each with its line: split where values are filled in, at
 * least MIN_LITERAL characters with a letter, imports and comments left out.
 */
export function stringLiterals(text: string): { literal: string; line: number }[] {
  const out = new Map<string, number>();
  const all = text.split("\n");
  for (const [i, raw] of all.entries()) {
    if (IMPORT_LINE.test(raw) || COMMENT_LINE.test(raw) || raw.length > 2000) continue;
    for (const m of raw.matchAll(QUOTED)) {
      const body = m[1] ?? m[2] ?? "";
      for (const piece of body.split(HOLES)) {
        const p = piece.trim();
        if (p.length < MIN_LITERAL || p.length > MAX_LITERAL || !MESSAGE.test(p) || out.has(p)) continue;
        out.set(p, i + 1);
      }
    }
  }
  return [...out].map(([literal, line]) => ({ literal, line }));
}

/**
 * Test files holding literals of the changed files, as written (case included). `focus` gives, per path, the lines
 * whose literals are looked up first (the symbols asked for); the rest of the file follows, longest first.
 */
export async function literalHits(ctx: QueryContext, sources: LiteralSource[]): Promise<LiteralHit[]> {
  const literals: { literal: string; source: string; focused: boolean }[] = [];
  const seen = new Set<string>();
  for (const s of sources.slice(0, MAX_SOURCE_FILES)) {
    for (const { literal, line } of stringLiterals(s.text)) {
      if (seen.has(literal)) continue;
      seen.add(literal);
      literals.push({ literal, source: s.path, focused: s.focus?.(line) ?? false });
    }
  }
  literals.sort((a, b) => Number(b.focused) - Number(a.focused) || b.literal.length - a.literal.length || a.literal.localeCompare(b.literal));
  const hits: LiteralHit[] = [];
  const textOf = textReader(ctx);
  for (const { literal, source, focused } of literals.slice(0, MAX_LITERALS)) {
    const { files, more } = await ctx.store.candidateFiles(ctx.index.id, { fragments: [literal] }, MAX_LITERAL_CANDIDATES);
    if (more) continue;
    const holding: LiteralHit[] = [];
    for (const f of files) {
      if (!isTestPath(f.path) || sources.some((s) => s.path === f.path)) continue;
      const text = await textOf(f.path);
      const at = text?.indexOf(literal) ?? -1;
      if (at < 0) continue;
      holding.push({ path: f.path, literal, source, line: lineOf(indexLines(text!), at), focused });
      if (holding.length > MAX_LITERAL_TESTS) break;
    }
    if (holding.length <= MAX_LITERAL_TESTS) hits.push(...holding);
  }
  return hits;
}

/** The changed code files (not tests) to read literals from, each focused on the line ranges asked about in it. */
export async function literalSources(ctx: QueryContext, paths: string[], ranges: Map<string, [number, number][]>): Promise<LiteralSource[]> {
  const sources: LiteralSource[] = [];
  for (const path of paths) {
    const file = isTestPath(path) ? null : await ctx.store.getFile(ctx.index.id, path);
    const text = file && isCodeLanguage(file.language) ? await ctx.store.getContent(ctx.index.id, path) : null;
    if (text === null) continue;
    const asked = ranges.get(path);
    sources.push({ path, text, ...(asked ? { focus: (n: number) => asked.some(([a, b]) => a <= n && n <= b) } : {}) });
  }
  return sources;
}
