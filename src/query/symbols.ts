import type { Confidence, ReferenceKind, SymbolKind } from "../core/symbols.js";
import { resolveDefinition } from "./resolve.js";
import { dirName } from "./knowledge/related/names.js";
import { textReader, type TextFn } from "./text.js";
import type { FileRow, ReferenceRow, SymbolRow } from "../store/store.js";
import { labelInputOf, type QueryContext, type QueryResult } from "./context.js";
import { QueryError } from "../core/errors.js";
import { compilePathGlobs } from "./paths.js";
import { knowledgeOf } from "./knowledge/load.js";
import { lexicalMentions } from "./mentions.js";
import type { EvidenceDraft, Warning } from "../core/evidence.js";

export type SymbolIntent = "definition" | "references" | "call_sites";
export type SymbolMatchType = "symbol_definition" | "syntactic_reference" | "lexical_mention";

export interface FindSymbolInput {
  symbol: string;
  intent: SymbolIntent;
  language?: string;
  kind?: SymbolKind;
  paths?: string[];
  maxResults?: number;
  /** Count hits per file and confidence instead of returning them. */
  countOnly?: boolean;
}

/** A `countOnly` answer gathers up to this many hits. */
const COUNT_MAX_HITS = 20_000;
/** Files listed with their counts, most hits first. */
const COUNT_FILES_LISTED = 100;

export interface SymbolHit {
  path: string;
  startLine: number;
  endLine: number;
  column: number;
  matchType: SymbolMatchType;
  confidence: Confidence;
  contentHash: string;
  language: string | null;
  /** Definitions: kind, qualified name, signature, visibility. References: reference kind and enclosing symbol. */
  kind: SymbolKind | ReferenceKind;
  qualifiedName?: string;
  signature?: string;
  visibility?: string | null;
  enclosing?: string | null;
  snippet?: string;
  reason: string;
  /** The innermost module (from the build manifests) containing the hit, or null. */
  module?: string | null;
}

export interface SymbolCandidate {
  qualifiedName: string;
  kind: SymbolKind;
  path: string;
  startLine: number;
}

/** Rows fetched from the store per requested result before filtering by qualifier and globs. */
const FETCH_FACTOR = 4;
const MIN_FETCH = 200;

/** `com.acme.Quote#get`, `Quote.get`, `get` → the simple name and the qualifier to match (`.` and `#` equal). */
export function parseSymbol(symbol: string): { name: string; qualified: string | null } {
  const trimmed = symbol.trim();
  const parts = trimmed.split(/[#.]|::/).filter((p) => p.length > 0);
  const name = parts[parts.length - 1] ?? trimmed;
  return { name, qualified: parts.length > 1 ? parts.join(".") : null };
}

function normalizeQualified(q: string): string {
  return q.replace(/#|::/g, ".");
}

export function matchesQualifier(row: SymbolRow, qualified: string | null): boolean {
  if (qualified === null) return true;
  const n = normalizeQualified(row.qualifiedName);
  return n === qualified || n.endsWith(`.${qualified}`);
}

function definitionHit(s: SymbolRow): SymbolHit {
  return {
    path: s.path,
    startLine: s.startLine,
    endLine: s.endLine,
    column: s.startColumn,
    matchType: "symbol_definition",
    confidence: s.confidence,
    contentHash: s.contentHash,
    language: s.language,
    kind: s.kind,
    qualifiedName: s.qualifiedName,
    signature: s.signature,
    visibility: s.visibility,
    reason: s.scipSymbol ? `definition of ${s.qualifiedName} confirmed by the SCIP index` : `${s.extractor} definition of ${s.qualifiedName}`,
  };
}

/**
 * Definitions, references or call sites of a symbol, each as evidence with a match type and a confidence.
 * References are syntactic: a call named `quote` is reported for `QuoteService#quote` with high confidence only
 * when no other definition shares that name; otherwise the hit says so. An ambiguous name lists its candidates.
 */
export async function findSymbol(ctx: QueryContext, input: FindSymbolInput): Promise<QueryResult<SymbolHit> & { stats: { candidates: SymbolCandidate[] } }> {
  const { name, qualified } = parseSymbol(input.symbol);
  if (name.length === 0) throw new QueryError("invalid_input", "symbol must name an identifier");
  const maxResults = input.countOnly ? COUNT_MAX_HITS : Math.min(input.maxResults ?? ctx.policy.maxSearchResults, ctx.policy.maxSearchResults);
  const paths = compilePathGlobs(input.paths);
  const fetch = Math.max(MIN_FETCH, maxResults * FETCH_FACTOR);
  const base = { ...(input.language ? { language: input.language } : {}), ...(paths.prefix ? { pathPrefix: paths.prefix } : {}) };
  const warnings: Warning[] = [];
  // Resolution and snippets read the same files: each is read and split once.
  const texts = fileLines(textReader(ctx));
  const files = new Map<string, FileRow>();
  const allowed = (f: FileRow): boolean =>
    paths.matches(f.path) && (ctx.policy.includeSecretSuspectFiles || !f.isSecretSuspect);

  const named = await ctx.store.findSymbols(ctx.index.id, { name, ...base, limit: fetch });
  const defs = named.filter((s) => matchesQualifier(s, qualified) && (!input.kind || s.kind === input.kind) && allowed(s.file));
  const distinct = [...new Set(defs.map(definitionKey))];
  const candidates: SymbolCandidate[] = defs.map((d) => ({ qualifiedName: d.qualifiedName, kind: d.kind, path: d.path, startLine: d.startLine }));
  const ambiguous = distinct.length > 1;
  if (ambiguous) {
    warnings.push({
      code: "ambiguous_symbol",
      message: `'${input.symbol}' names ${distinct.length} different definitions; see data.candidates and qualify the name (e.g. Class#method)`,
    });
  }

  let hits: SymbolHit[] = [];
  let mentionsSkipped = false;
  if (input.intent === "definition") {
    hits = defs.map(definitionHit);
    for (const d of defs) files.set(d.path, d.file);
  } else {
    const kinds: ReferenceKind[] | undefined = input.intent === "call_sites" ? ["call"] : undefined;
    const refs = (await ctx.store.findReferences(ctx.index.id, { name, ...base, ...(kinds ? { kinds } : {}), limit: fetch })).filter((r) => allowed(r.file));
    const resolved = await resolveReferences(texts, refs, named, defs);
    hits = resolved.hits;
    if (resolved.keptApart > 0) {
      warnings.push({ code: "references_kept_apart", message: `${resolved.keptApart} reference(s) resolve to another definition named '${name}' and are left out` });
    }
    for (const r of refs) files.set(r.path, r.file);
    // Mentions in unparsed text come after syntactic references; read text for them only while room is left
    // (one more than the room, so a cut still reports `truncated`).
    const room = maxResults - hits.length;
    const covered = new Set(refs.map((r) => `${r.path}:${r.line}`));
    const { mentions, cut } = room >= 0 ? await lexicalMentions(ctx, name, paths, room + 1, input.intent === "call_sites" ? null : covered) : { mentions: [], cut: false };
    if (room < 0 || cut) mentionsSkipped = true;
    if (cut) warnings.push({ code: "mentions_truncated", message: `the text search for '${name}' stopped after too many files; narrow with 'paths' or 'language'` });
    for (const m of mentions) {
      hits.push(m.hit);
      files.set(m.file.path, m.file);
    }
    if (defs.length === 0 && named.length === 0) {
      warnings.push({ code: "no_definition_found", message: `no definition of '${name}' is indexed; references may point at an external symbol` });
    }
  }
  const truncated = hits.length > maxResults || mentionsSkipped;
  if (input.countOnly) return countAnswer(input, hits.slice(0, maxResults), { truncated, ambiguous, candidates, definitions: defs.length }, warnings);
  const items = hits.slice(0, maxResults);
  await attachSnippets(texts, items);
  const k = await knowledgeOf(ctx);
  for (const h of items) h.module = k.moduleOf(h.path)?.name ?? null;
  const evidence: EvidenceDraft[] = items.map((h) => ({
    path: h.path,
    startLine: h.startLine,
    endLine: h.endLine,
    contentHash: h.contentHash,
    retrieval: h.matchType === "lexical_mention" ? "lexical" : h.matchType === "symbol_definition" ? "symbol" : "syntactic",
  }));
  return {
    items,
    stats: {
      truncated,
      intent: input.intent,
      symbol: input.symbol,
      ambiguous,
      candidates: ambiguous ? candidates : [],
      definitions: defs.length,
      ...(truncated ? { followUp: "narrow with 'paths', 'language' or a qualified name (Class#method)" } : {}),
    },
    evidence,
    labels: new Map([...files.values()].map((f) => [f.path, labelInputOf(f)])),
    warnings,
  };
}

/** A `countOnly` answer: hits per file and per confidence, no lines or text. */
function countAnswer(
  input: FindSymbolInput,
  hits: SymbolHit[],
  found: { truncated: boolean; ambiguous: boolean; candidates: SymbolCandidate[]; definitions: number },
  warnings: Warning[],
): QueryResult<SymbolHit> & { stats: { candidates: SymbolCandidate[] } } {
  const byFile = new Map<string, number>();
  const byConfidence: Record<string, number> = {};
  for (const h of hits) {
    byFile.set(h.path, (byFile.get(h.path) ?? 0) + 1);
    byConfidence[h.confidence] = (byConfidence[h.confidence] ?? 0) + 1;
  }
  const files = [...byFile].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return {
    items: [],
    stats: {
      truncated: found.truncated,
      intent: input.intent,
      symbol: input.symbol,
      countOnly: true,
      count: hits.length,
      byConfidence,
      files: files.length,
      byFile: files.slice(0, COUNT_FILES_LISTED).map(([path, count]) => ({ path, count })),
      ...(files.length > COUNT_FILES_LISTED ? { moreFiles: files.length - COUNT_FILES_LISTED } : {}),
      ambiguous: found.ambiguous,
      candidates: found.ambiguous ? found.candidates : [],
      definitions: found.definitions,
    },
    evidence: [],
    labels: new Map(),
    warnings,
  };
}

/** One definition: two files defining the same qualified name (JavaScript's module-less `paint` in lib/a.js and lib/b.js) are two. */
function definitionKey(d: SymbolRow): string {
  return `${d.path}#${d.qualifiedName}`;
}

/**
 * References as hits, each resolved where the name is shared: a reference in a file defining the name, or importing
 * it from the file of one definition, means that one (`confidence: high`, the reason says which); one resolved to a
 * definition not asked for is kept apart (counted, left out); one the text does not resolve (a member access, an
 * import from outside) is `medium` and says so. An unshared name keeps the extractor's confidence.
 */
async function resolveReferences(texts: LinesFn, refs: ReferenceRow[], named: SymbolRow[], defs: SymbolRow[]): Promise<{ hits: SymbolHit[]; keptApart: number }> {
  const shared = new Set(named.map(definitionKey)).size > 1;
  const scip = scipTargets(named, defs);
  const hits: SymbolHit[] = [];
  let keptApart = 0;
  for (const r of refs) {
    const base = { path: r.path, startLine: r.line, endLine: r.line, column: r.column, matchType: "syntactic_reference" as const, contentHash: r.contentHash, language: r.language, kind: r.kind, enclosing: r.enclosing };
    if (defs.length > 0 && !defs.some((d) => referenceFits(r.kind, d.kind))) {
      keptApart += 1;
      continue;
    }
    const exact = r.target ? scip.resolve(r.target) : "unknown";
    if (typeof exact === "object") {
      hits.push({ ...base, confidence: "exact", reason: `${r.kind} of ${exact.qualifiedName} in ${exact.path} (resolved by the SCIP index)` });
      continue;
    }
    if (exact === "other") {
      keptApart += 1;
      continue;
    }
    if (defs.length === 0) {
      hits.push({ ...base, confidence: "low", reason: `${r.kind} of '${r.name}'; no matching definition is indexed` });
      continue;
    }
    if (!shared) {
      hits.push({ ...base, confidence: r.confidence === "high" ? "high" : "medium", reason: `${r.kind} of '${r.name}'` });
      continue;
    }
    const file = await texts(r.path);
    const target = resolveDefinition(named, r.path, r.language, file?.text ?? null, r.kind === "import" ? null : memberAt(file?.lines[r.line - 1], r.column), r.kind === "import" ? (file?.lines[r.line - 1] ?? null) : null);
    if (target && !defs.includes(target)) {
      keptApart += 1;
      continue;
    }
    hits.push(
      target
        ? { ...base, confidence: "high", reason: `${r.kind} of ${target.qualifiedName} (${howResolved(target, r)})` }
        : { ...base, confidence: "medium", reason: `${r.kind} of '${r.name}'; ${named.length} definitions share this name and this use does not say which (a member access or an outside import)` },
    );
  }
  return { hits, keptApart };
}

const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set(["class", "interface", "enum", "type", "module"]);

/**
 * Whether a reference of this kind can name a definition of that kind: a type use names a type (`String` in
 * `List<String>` is not the enum constant `String`); every other use may name anything (`new Foo()` is a call).
 */
export function referenceFits(ref: ReferenceKind, def: SymbolKind): boolean {
  return ref !== "type" || TYPE_KINDS.has(def);
}

/**
 * What a SCIP-resolved reference names: the asked definition, another one (a same-named definition, or a symbol
 * outside every asked definition's file when all of them are SCIP-defined), or unknown (the asked definitions are
 * not all SCIP-defined: the file of one changed since the SCIP index, or SCIP does not cover it).
 */
function scipTargets(named: SymbolRow[], defs: SymbolRow[]): { resolve(target: string): SymbolRow | "other" | "unknown" } {
  const asked = new Map(defs.flatMap((d) => (d.scipSymbol ? [[d.scipSymbol, d] as const] : [])));
  const others = new Set(named.flatMap((d) => (d.scipSymbol && !asked.has(d.scipSymbol) ? [d.scipSymbol] : [])));
  const allKnown = defs.length > 0 && defs.every((d) => d.scipSymbol);
  return {
    resolve: (target) => asked.get(target) ?? (others.has(target) || allKnown ? "other" : "unknown"),
  };
}

/** How a use was tied to its definition: the file itself, its package (a folder, in Go, Java and Kotlin), an import. */
function howResolved(target: SymbolRow, r: ReferenceRow): string {
  if (target.path === r.path) return "defined in this file";
  const samePackage = ["go", "java", "kotlin"].includes(r.language ?? "") && dirName(target.path) === dirName(r.path);
  return samePackage ? `in this package, ${target.path}` : `imported from ${target.path}`;
}

/**
 * Whether the name at `column` (1-based) of this line follows a `.`, `->` or `::`: a member, with its receiver when
 * that is a plain name (`cache.New` → `cache`), which only Go's package qualifiers let resolve.
 */
function memberAt(line: string | undefined, column: number): { receiver: string | null } | null {
  const before = line?.slice(0, column - 1) ?? "";
  if (!before.endsWith(".") && !before.endsWith("->") && !before.endsWith("::")) return null;
  const m = /(?:^|[^\w$.])([A-Za-z_]\w*)\s*\.$/.exec(before);
  return { receiver: m ? m[1]! : null };
}

/** A file's text and its lines, each read and split once per call. */
type LinesFn = (path: string) => Promise<{ text: string; lines: string[] } | null>;

function fileLines(textOf: TextFn): LinesFn {
  const split = new Map<string, Promise<{ text: string; lines: string[] } | null>>();
  return (path) => {
    let f = split.get(path);
    if (!f) split.set(path, (f = textOf(path).then((text) => (text === null ? null : { text, lines: text.split("\n") }))));
    return f;
  };
}

const MAX_SNIPPET_CHARS = 300;

/** The source line of each hit (redaction happens later, in the projection, like every returned string). */
async function attachSnippets(texts: LinesFn, hits: SymbolHit[]): Promise<void> {
  for (const h of hits) {
    const line = (await texts(h.path))?.lines[h.startLine - 1];
    if (line !== undefined) h.snippet = line.trim().slice(0, MAX_SNIPPET_CHARS);
  }
}
