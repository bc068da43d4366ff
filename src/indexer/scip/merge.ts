import type { Extraction, ExtractedReference, ExtractedSymbol, ReferenceKind } from "../../core/symbols.js";
import { SCIP_ROLE, type ScipDocument } from "./decode.js";
import { definitionOf, namedDescriptor } from "./symbol.js";

/**
 * One file's tree-sitter extraction joined with its SCIP document. Tree-sitter keeps what it is good at (each
 * definition's kind, qualified name, extent and signature); the SCIP index says exactly what each name refers to:
 * a definition it confirms gets its SCIP symbol, every resolved use of a global symbol becomes a reference with a
 * target, and a tree-sitter reference where SCIP saw a local (or nothing to resolve) is dropped or kept unresolved.
 *
 * A SCIP index is of one commit: before trusting a document its occurrences are checked against this file's text
 * (each named occurrence must cover its name). A document that does not match — the file changed since the index
 * was made — is not used, and the file keeps its tree-sitter rows with a detail saying why.
 */

/** Share of named occurrences that may miss their name before the document is judged out of date. */
const MAX_MISMATCH_SHARE = 0.02;
/** Mismatches tolerated regardless of share (indexers differ on a few synthetic names). */
const MAX_MISMATCH_FLOOR = 2;

/** Words every SCIP-made detail holds, and those of a document that no longer matched its file. */
export const SCIP_DETAIL = "SCIP index (";
export const SCIP_MISMATCH = "does not match this file";

export interface ScipMerge {
  extraction: Extraction;
  /** Whether the SCIP document was used (false: it did not match the text, tree-sitter rows kept). */
  used: boolean;
}

interface Occ {
  line: number;
  column: number;
  text: string;
  symbol: string;
  roles: number;
}

/** Converts a SCIP character offset on `line` to a JavaScript string index (UTF-16). */
function toIndex(line: string, offset: number, encoding: number): number {
  // 1 = UTF-8 bytes, 3 = UTF-32 code points; 0 (unspecified, what older indexers write) and 2 are UTF-16.
  if ((encoding !== 1 && encoding !== 3) || !/[^\x00-\x7f]/.test(line)) return offset;
  let units = 0;
  let i = 0;
  for (const ch of line) {
    if (units >= offset) break;
    units += encoding === 1 ? Buffer.byteLength(ch) : 1;
    i += ch.length;
  }
  return i;
}

const IDENTIFIER_CHAR = /[\p{L}\p{N}_$]/u;

const IDENTIFIER = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

/**
 * The name an occurrence covers on its line, or null when the range does not cover a whole identifier there (the
 * sign of a file changed since the index was made). Usually the range is the symbol's name; it may run on past it
 * (scip-python covers `Environment as BaseEnvironment` for the imported name), and a use may name the symbol by an
 * alias the indexer saw through (`pytest.mark` is `MARK_GEN`, `new Box()` is Box's constructor): then the name is
 * the text, since that is what a search for the name meets. A definition must cover its own name.
 */
function coveredName(line: string, start: number, end: number, name: string, definition: boolean): string | null {
  const covered = line.slice(start, end);
  if (IDENTIFIER_CHAR.test(line[start - 1] ?? "") || IDENTIFIER_CHAR.test(line[end] ?? "")) return null;
  if (covered === name) return name;
  if (covered.startsWith(name) && !IDENTIFIER_CHAR.test(covered[name.length]!)) return name;
  if (definition && name !== "<constructor>") return null;
  return IDENTIFIER.test(covered) ? covered : null;
}

interface Occurrences {
  occs: Occ[];
  /** Positions (line:column) where SCIP saw a use of a global symbol, named or not, and where it saw a definition. */
  positions: Set<string>;
  definitions: Set<string>;
  /** Positions of each local symbol, and the locals this document defines. */
  locals: Map<string, string[]>;
  definedLocals: Set<string>;
  checked: number;
  mismatched: number;
}

/** Occurrences of global, named symbols on one line, with the text they cover; counts those that miss their name. */
function readOccurrences(doc: ScipDocument, lines: string[]): Occurrences {
  const occs: Occ[] = [];
  const positions = new Set<string>();
  const locals = new Map<string, string[]>();
  const definedLocals = new Set<string>();
  const definitions = new Set<string>();
  let checked = 0;
  let mismatched = 0;
  for (const o of doc.occurrences) {
    const r = o.range;
    if (r.length !== 3 && r.length !== 4) continue;
    const [line, start] = [r[0]!, r[1]!];
    const end = r.length === 3 ? r[2]! : r[3]!;
    if (r.length === 4 && r[2] !== line) continue;
    if (end <= start) continue;
    const text = lines[line];
    if (text === undefined) {
      mismatched += 1;
      continue;
    }
    const s = toIndex(text, start, doc.positionEncoding);
    const e = toIndex(text, end, doc.positionEncoding);
    const at = `${line + 1}:${s + 1}`;
    const definition = (o.roles & SCIP_ROLE.definition) !== 0;
    if (o.symbol.startsWith("local ")) {
      if (definition) definedLocals.add(o.symbol);
      const list = locals.get(o.symbol);
      if (list) list.push(at);
      else locals.set(o.symbol, [at]);
      continue;
    }
    (definition ? definitions : positions).add(at);
    const d = namedDescriptor(o.symbol);
    if (!d) continue;
    checked += 1;
    const name = coveredName(text, s, e, d.name, definition);
    if (name === null) {
      mismatched += 1;
      continue;
    }
    occs.push({ line: line + 1, column: s + 1, text: name, symbol: definitionOf(o.symbol), roles: o.roles });
  }
  return { occs, positions, definitions, locals, definedLocals, checked, mismatched };
}

/**
 * Positions where tree-sitter's reference is overruled: SCIP resolved a use of a global symbol there, saw a
 * definition (unless tree-sitter saw an import: `const Route = require('./route')` defines a name and imports one),
 * or saw a local this document defines. A local it does not define is one the indexer could not name across files
 * (a CommonJS export, which scip-typescript leaves local), and a local first met at an import (`from pkg import
 * name` of a package scip-python could not resolve) is an unresolved import: their uses keep tree-sitter's
 * references, unresolved.
 */
function overruled(o: Occurrences, treeSitter: Map<string, ExtractedReference>): Set<string> {
  const out = new Set(o.positions);
  for (const at of o.definitions) if (treeSitter.get(at)?.kind !== "import") out.add(at);
  for (const [local, at] of o.locals) {
    if (!o.definedLocals.has(local) || treeSitter.get(at[0]!)?.kind === "import") continue;
    for (const p of at) out.add(p);
  }
  return out;
}

/** The innermost definition containing a line, by qualified name. */
function enclosingAt(symbols: readonly ExtractedSymbol[], line: number): string | null {
  let best: ExtractedSymbol | null = null;
  for (const s of symbols) {
    if (s.startLine <= line && line <= s.endLine && (!best || s.endLine - s.startLine < best.endLine - best.startLine)) best = s;
  }
  return best?.qualifiedName ?? null;
}

/** Gives each SCIP definition's symbol to the smallest tree-sitter definition of that name around it. */
function markDefinitions(symbols: ExtractedSymbol[], defs: Occ[]): number {
  const byName = new Map<string, ExtractedSymbol[]>();
  for (const s of symbols) (byName.get(s.name) ?? byName.set(s.name, []).get(s.name)!).push(s);
  let matched = 0;
  for (const d of defs) {
    let best: ExtractedSymbol | null = null;
    for (const s of byName.get(d.text) ?? []) {
      if (s.scipSymbol || d.line < s.startLine || d.line > s.endLine) continue;
      if (!best || s.endLine - s.startLine < best.endLine - best.startLine) best = s;
    }
    if (best) {
      best.scipSymbol = d.symbol;
      matched += 1;
    }
  }
  return matched;
}

export function mergeScip(ts: Extraction, doc: ScipDocument, content: string, tool: string): ScipMerge {
  const lines = content.split("\n");
  const read = readOccurrences(doc, lines);
  const { occs, checked, mismatched } = read;
  if (mismatched > Math.max(MAX_MISMATCH_FLOOR, checked * MAX_MISMATCH_SHARE)) {
    const note = `${SCIP_DETAIL}${tool}) ${SCIP_MISMATCH} (${mismatched} of ${checked} occurrences differ): it changed since the index was made; tree-sitter only`;
    return { extraction: { ...ts, detail: ts.detail ? `${ts.detail}; ${note}` : note }, used: false };
  }
  const symbols = ts.symbols.map((s) => ({ ...s }));
  const defined = markDefinitions(symbols, occs.filter((o) => (o.roles & SCIP_ROLE.definition) !== 0));
  const byPosition = new Map(ts.references.map((r) => [`${r.line}:${r.column}`, r]));
  const positions = overruled(read, byPosition);
  const references: ExtractedReference[] = [];
  for (const o of occs) {
    if ((o.roles & SCIP_ROLE.definition) !== 0) continue;
    const seen = byPosition.get(`${o.line}:${o.column}`);
    const kind: ReferenceKind = seen?.kind ?? ((o.roles & SCIP_ROLE.import) !== 0 ? "import" : "reference");
    references.push({ name: o.text, kind, line: o.line, column: o.column, enclosing: seen?.enclosing ?? enclosingAt(symbols, o.line), target: o.symbol });
  }
  // Tree-sitter's own references where SCIP resolved nothing (a dynamic member, an unresolved import) stay, without
  // a target; where SCIP saw the name as something else (a local, a parameter) they go.
  let unresolved = 0;
  for (const r of ts.references) {
    if (positions.has(`${r.line}:${r.column}`)) continue;
    references.push({ ...r, target: null });
    unresolved += 1;
  }
  references.sort((a, b) => a.line - b.line || a.column - b.column);
  const detail = `${SCIP_DETAIL}${tool}): ${defined} of ${symbols.length} definitions and ${references.length - unresolved} references resolved; ${unresolved} tree-sitter references unresolved by it`;
  return { extraction: { ...ts, extractor: "scip", confidence: "exact", symbols, references, detail }, used: true };
}
