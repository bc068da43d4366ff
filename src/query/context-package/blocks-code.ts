/**
 * Code evidence of a context package: lossless excerpts with line numbers (target symbols with header, container
 * line and same-file helpers; whole small files; outlines), call sites, related types, tests and examples.
 */
import { isTestPath } from "../../policy/labels.js";
import { redactText } from "../../policy/redact.js";
import type { SymbolRow } from "../../store/store.js";
import type { QueryContext } from "../context.js";
import type { RelatedTest } from "../knowledge/related-tests.js";
import { findSymbol } from "../symbols.js";
import { EVIDENCE_SLOT, type Candidate } from "./budget.js";
import {
  FileReader,
  enclosingSymbol,
  evidenceFor,
  guardText,
  normalizeSpans,
  numberedExcerpt,
  rawExcerpt,
  signatureSpans,
  symbolSpan,
  type LoadedFile,
  type Span,
} from "./excerpts.js";
import type { BlockKind, Priority } from "./types.js";


/** A file this short is shown whole when no symbol narrows it. */
const WHOLE_FILE_LINES = 150;
/** Header lines (package, imports) shown above a target symbol. */
const HEADER_LINES = 15;
/** Lines around a call site or failure line when no symbol encloses it. */
const AROUND = 4;
/** Lines of an enclosing symbol shown for a call site or an example. */
const CALLER_LINES = 40;
/** Same-file helpers and related types shown beside a target. */
const MAX_HELPERS = 3;
const MAX_RELATED_TYPES = 3;
const RELATED_TYPE_LINES = 25;
/** Signature lines in a file outline. */
const MAX_OUTLINE = 80;
const MAX_TESTS = 3;
const MAX_EXAMPLES = 2;
/** Words that look like identifiers in prose but name nothing worth a lookup. */
export const COMMON_CAPITALIZED = new Set(["The", "This", "That", "When", "Then", "Use", "Do", "Don", "Not", "And", "Or", "If", "In", "On", "To", "For", "Add", "Fix", "Make", "Replace", "Remove", "Update", "Keep", "Move", "Java", "String", "List", "Map"]);

/**
 * A path may hold a secret (`docs/keys/AKIA….txt`): titles and pointers are redacted here, where their tokens are
 * counted, since the envelope's redaction afterwards would change the text the budget measured.
 */
export function titleFor(f: LoadedFile, spans: Span[], why: string): string {
  const a = spans[0]?.start ?? 1;
  const b = spans[spans.length - 1]?.end ?? a;
  return `${EVIDENCE_SLOT} ${redactText(`${f.row.path}:${a}-${b} (${f.trustLevel}, ${f.row.contentHash.slice(0, 19)}) — ${why}`).text}`;
}

export function pointerText(f: LoadedFile, spans: Span[]): string {
  const a = spans[0]?.start ?? 1;
  const b = spans[spans.length - 1]?.end ?? a;
  return redactText(`(not included for budget: get_file_slice {"path":${JSON.stringify(f.row.path)},"startLine":${a},"endLine":${b}})`).text;
}

/** One evidence block over spans of a file, with the forms the budget may choose from. */
export function excerptCandidate(
  f: LoadedFile,
  spans: Span[],
  opts: { priority: Priority; kind: BlockKind; why: string; reducedSpans?: Span[]; formsFrom?: "full" | "reduced"; workingTree: boolean; prefix?: string; retrieval?: Candidate["retrieval"] },
): Candidate {
  const attrs = (s: Span[]) => ({ source: f.row.path, lines: `${s[0]?.start ?? 1}-${s[s.length - 1]?.end ?? 1}` });
  const make = (s: Span[]) => guardText(`${opts.prefix ?? ""}${numberedExcerpt(f.lines, s)}`, f.trustLevel, attrs(spans), rawExcerpt(f.lines, s));
  const full = make(spans);
  const reduced = make(opts.reducedSpans ?? signatureSpans(spans));
  const forms: Candidate["forms"] = [];
  if (opts.formsFrom !== "reduced") forms.push({ form: "full", text: full.text });
  forms.push({ form: "reduced", text: reduced.text }, { form: "pointer", text: pointerText(f, spans) });
  return {
    priority: opts.priority,
    role: "user",
    kind: opts.kind,
    title: titleFor(f, spans, opts.why),
    forms,
    trustLevel: full.trustLevel,
    reason: opts.why,
    evidence: evidenceFor(f, spans, opts.kind, opts.workingTree),
    retrieval: opts.retrieval ?? "syntactic",
    flagged: full.flaggedSpans,
  };
}

export async function fileSymbols(ctx: QueryContext, path: string): Promise<SymbolRow[]> {
  return ctx.store.findSymbols(ctx.index.id, { path, limit: 2000 });
}

export function headerSpan(symbols: SymbolRow[]): Span | null {
  const first = Math.min(...symbols.map((s) => s.startLine));
  if (!Number.isFinite(first) || first <= 1) return null;
  return { start: 1, end: Math.min(first - 1, HEADER_LINES) };
}

/** The candidate file: its target symbols with header, container line and same-file helpers; else whole or outline. */
export async function fileBlock(ctx: QueryContext, f: LoadedFile, targets: SymbolRow[], mode: "full" | "reduced" | "outline", isWorkingTree: (p: string) => boolean, targetSpans: Map<string, Span[]>): Promise<Candidate> {
  const symbols = await fileSymbols(ctx, f.row.path);
  const here = targets.filter((t) => t.path === f.row.path);
  const lineCount = f.lines.length;
  const workingTree = isWorkingTree(f.row.path);
  const formsFrom = mode === "full" ? "full" : "reduced";
  if (here.length > 0) {
    const spans: Span[] = [];
    const header = headerSpan(symbols);
    if (header) spans.push(header);
    for (const t of here) {
      const container = symbols.find((s) => s.qualifiedName === t.container || (t.container !== null && s.name === t.container.split(/[.#]/).pop()));
      if (container) spans.push({ start: container.startLine, end: container.startLine });
      spans.push(symbolSpan(t));
    }
    const targetText = here.map((t) => f.lines.slice(t.startLine - 1, t.endLine).join("\n")).join("\n");
    const helpers = symbols
      .filter((s) => (s.kind === "method" || s.kind === "function") && !here.some((t) => t.startLine === s.startLine) && new RegExp(`\\b${s.name.replace(/[$]/g, "\\$")}\\s*\\(`).test(targetText))
      .slice(0, MAX_HELPERS);
    for (const h of helpers) spans.push(symbolSpan(h, CALLER_LINES));
    const merged = normalizeSpans(spans, lineCount);
    targetSpans.set(f.row.path, normalizeSpans(here.map((t) => symbolSpan(t)), lineCount));
    const why = `defines ${here.map((t) => t.qualifiedName).join(", ")}${helpers.length ? `; helpers ${helpers.map((h) => h.name).join(", ")}` : ""}`;
    return excerptCandidate(f, merged, { priority: "code_evidence", kind: "symbol_definition", why, formsFrom, workingTree, retrieval: "symbol" });
  }
  const outline = normalizeSpans(symbols.slice(0, MAX_OUTLINE).map((s) => ({ start: s.startLine, end: s.startLine })), lineCount);
  if (lineCount <= WHOLE_FILE_LINES && mode !== "outline") {
    return excerptCandidate(f, [{ start: 1, end: lineCount }], { priority: "code_evidence", kind: "file_excerpt", why: "candidate file, whole", reducedSpans: outline.length ? outline : [{ start: 1, end: Math.min(lineCount, HEADER_LINES) }], formsFrom, workingTree });
  }
  const header = headerSpan(symbols);
  const spans = normalizeSpans([...(header ? [header] : []), ...outline], lineCount);
  const topLevel = normalizeSpans(symbols.filter((s) => s.container === null).map((s) => ({ start: s.startLine, end: s.startLine })), lineCount);
  return excerptCandidate(f, spans.length ? spans : [{ start: 1, end: Math.min(lineCount, HEADER_LINES) }], { priority: "code_evidence", kind: "file_excerpt", why: "candidate file, outline (signatures with line numbers)", reducedSpans: topLevel.length ? topLevel : undefined, formsFrom: "full", workingTree });
}

/** Spans around lines of a file: the enclosing symbol (cut) or a few lines either side. */
export async function spansAround(ctx: QueryContext, f: LoadedFile, lines: number[]): Promise<{ spans: Span[]; enclosing: (SymbolRow | null)[] }> {
  const symbols = await fileSymbols(ctx, f.row.path);
  const enclosing = lines.map((l) => {
    const s = enclosingSymbol(symbols.filter((x) => x.kind === "method" || x.kind === "function"), l);
    return s && s.endLine - s.startLine < CALLER_LINES * 2 ? s : null;
  });
  const spans = lines.map((l, i) => {
    const s = enclosing[i];
    return s ? symbolSpan(s, CALLER_LINES) : { start: l - AROUND, end: l + AROUND };
  });
  return { spans: normalizeSpans(spans, f.lines.length), enclosing };
}

export async function callSiteBlocks(ctx: QueryContext, reader: FileReader, targets: SymbolRow[], targetSpans: Map<string, Span[]>, maxFiles: number, mode: "full" | "reduced", isWorkingTree: (p: string) => boolean): Promise<Candidate[]> {
  const byFile = new Map<string, { line: number; name: string }[]>();
  for (const name of [...new Set(targets.map((t) => t.qualifiedName))]) {
    const r = await findSymbol(ctx, { symbol: name, intent: "call_sites", maxResults: 50 });
    for (const h of r.items) {
      if (h.matchType === "symbol_definition") continue;
      if ((targetSpans.get(h.path) ?? []).some((s) => s.start <= h.startLine && h.startLine <= s.end)) continue;
      (byFile.get(h.path) ?? byFile.set(h.path, []).get(h.path)!).push({ line: h.startLine, name });
    }
  }
  const out: Candidate[] = [];
  for (const [path, hits] of [...byFile].slice(0, maxFiles)) {
    const f = await reader.read(path);
    if (!f) continue;
    const lines = [...new Set(hits.map((h) => h.line))];
    const { spans } = await spansAround(ctx, f, lines);
    const why = `calls ${[...new Set(hits.map((h) => h.name))].join(", ")} at line ${lines.join(", ")}`;
    out.push(excerptCandidate(f, spans, { priority: "code_evidence", kind: "call_site", why, reducedSpans: lines.map((l) => ({ start: l, end: l })), formsFrom: mode, workingTree: isWorkingTree(path), retrieval: "syntactic" }));
  }
  return out;
}

/** Types named in the target code and defined elsewhere in the repository: their declaration and first lines. */
export async function relatedTypeBlocks(ctx: QueryContext, reader: FileReader, files: LoadedFile[], targets: SymbolRow[], isWorkingTree: (p: string) => boolean): Promise<Candidate[]> {
  const text = targets
    .map((t) => files.find((f) => f.row.path === t.path)?.lines.slice(t.startLine - 1, t.endLine).join("\n") ?? "")
    .join("\n");
  const own = new Set(targets.flatMap((t) => [t.name, ...(t.container ? [t.container.split(/[.#]/).pop()!] : [])]));
  const names = [...new Set(text.match(/\b[A-Z][A-Za-z0-9_]{2,}\b/g) ?? [])].filter((n) => !own.has(n) && !COMMON_CAPITALIZED.has(n));
  const out: Candidate[] = [];
  for (const name of names) {
    if (out.length >= MAX_RELATED_TYPES) break;
    const defs = await ctx.store.findSymbols(ctx.index.id, { name, kinds: ["class", "interface", "enum", "type"], limit: 3 });
    const d = defs.find((x) => !targets.some((t) => t.path === x.path) && !x.file.isSecretSuspect);
    if (!d) continue;
    const f = await reader.read(d.path);
    if (!f) continue;
    const span = normalizeSpans([symbolSpan(d, RELATED_TYPE_LINES)], f.lines.length);
    out.push(excerptCandidate(f, span, { priority: "code_evidence", kind: "related_type", why: `type ${d.qualifiedName} used by the target`, reducedSpans: [{ start: d.startLine, end: d.startLine }], workingTree: isWorkingTree(d.path), retrieval: "symbol" }));
  }
  return out;
}

export async function testBlocks(ctx: QueryContext, reader: FileReader, t: { tests: RelatedTest[] }, targets: SymbolRow[], mode: "full" | "reduced", isWorkingTree: (p: string) => boolean): Promise<Candidate[]> {
  const names = [...new Set(targets.map((x) => x.name))];
  const out: Candidate[] = [];
  for (const test of t.tests.slice(0, MAX_TESTS)) {
    const f = await reader.read(test.path);
    if (!f) continue;
    const symbols = (await fileSymbols(ctx, f.row.path)).filter((s) => s.kind === "method" || s.kind === "function");
    const mentioning = symbols.filter((s) => names.some((n) => f.lines.slice(s.startLine - 1, s.endLine).join("\n").includes(n)));
    const chosen = mentioning.length > 0 ? mentioning : symbols;
    const spans = f.lines.length <= WHOLE_FILE_LINES && mentioning.length === 0 ? [{ start: 1, end: f.lines.length }] : normalizeSpans(chosen.slice(0, 6).map((s) => symbolSpan(s, CALLER_LINES)), f.lines.length);
    const why = `related test (${test.confidence}: ${test.reasons.join(", ")})${test.testCommandHint ? `; run: ${test.testCommandHint}` : ""}`;
    out.push(excerptCandidate(f, spans.length ? spans : [{ start: 1, end: Math.min(f.lines.length, HEADER_LINES) }], { priority: "build_test_evidence", kind: "test_file", why, reducedSpans: symbols.length ? normalizeSpans(symbols.map((s) => ({ start: s.startLine, end: s.startLine })), f.lines.length) : undefined, formsFrom: mode, workingTree: isWorkingTree(test.path), retrieval: "heuristic" }));
  }
  return out;
}

/** Where the repository already uses the target API: one or two call sites to imitate, with what not to copy. */
export async function exampleBlocks(ctx: QueryContext, reader: FileReader, to: string, scope: Set<string>, isWorkingTree: (p: string) => boolean): Promise<Candidate[]> {
  const r = await findSymbol(ctx, { symbol: to, intent: "call_sites", maxResults: 40 });
  const seen = new Set<string>();
  const out: Candidate[] = [];
  const hits = r.items.filter((h) => h.matchType !== "symbol_definition" && !scope.has(h.path)).sort((a, b) => Number(isTestPath(a.path)) - Number(isTestPath(b.path)));
  for (const h of hits) {
    if (out.length >= MAX_EXAMPLES || seen.has(h.path)) continue;
    seen.add(h.path);
    const f = await reader.read(h.path);
    if (!f) continue;
    const { spans, enclosing } = await spansAround(ctx, f, [h.startLine]);
    const callLine = (f.lines[h.startLine - 1] ?? "").trim();
    const where = enclosing[0]?.qualifiedName ?? f.row.path;
    const prefix = `do_copy: how ${to} is called at line ${h.startLine} (\`${callLine}\`) and how its result is used.\ndo_not_copy: names, fields and logic specific to ${where}; anything outside the allowed paths.\n`;
    out.push(excerptCandidate(f, spans, { priority: "examples", kind: "example", why: `existing use of ${to} in ${where}`, reducedSpans: [{ start: h.startLine, end: h.startLine }], workingTree: isWorkingTree(h.path), prefix: redactText(prefix).text, retrieval: "syntactic" }));
  }
  return out;
}
