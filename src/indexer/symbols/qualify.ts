import type { ExtractedReference, ExtractedSymbol, SymbolKind } from "../../core/symbols.js";

/** A definition as the query found it, before names are qualified. */
export interface RawDefinition {
  name: string;
  kind: SymbolKind;
  start: number;
  end: number;
  startLine: number;
  endLine: number;
  startColumn: number;
  visibility: ExtractedSymbol["visibility"];
  signature: string;
  /** An explicit container name from the query (Go receivers), overriding nesting. */
  explicitContainer: string | null;
}

/** A range that qualifies names inside it without being a symbol itself (Rust `impl Foo`, Swift `extension Foo`). */
export interface RawScope {
  name: string;
  start: number;
  end: number;
}

export interface RawReference {
  name: string;
  kind: ExtractedReference["kind"];
  start: number;
  line: number;
  column: number;
}

const CONTAINER_KINDS: ReadonlySet<SymbolKind> = new Set(["class", "interface", "enum", "module"]);
const MEMBER_KINDS: ReadonlySet<SymbolKind> = new Set(["method", "field", "constant", "function"]);
const LOCAL_SCOPES: ReadonlySet<SymbolKind> = new Set(["function", "method"]);

interface Node {
  start: number;
  end: number;
  qualified: string;
  isContainer: boolean;
  def: RawDefinition | null;
}

/** Containment order: outer ranges before the ranges they contain. */
function byRange(a: { start: number; end: number }, b: { start: number; end: number }): number {
  return a.start - b.start || b.end - a.end;
}

/**
 * Qualified names from nesting: containers (class, interface, enum, module, scopes) join with `.`; members of a
 * type join with `#` (`com.acme.QuoteService#quote`). A prefix (package, module path) leads top-level names.
 */
export function qualify(
  defs: RawDefinition[],
  scopes: RawScope[],
  refs: RawReference[],
  prefix: string | null,
): { symbols: ExtractedSymbol[]; references: ExtractedReference[] } {
  const items: Node[] = [
    ...scopes.map((s) => ({ start: s.start, end: s.end, qualified: s.name, isContainer: true, def: null })),
    ...defs.map((d) => ({ start: d.start, end: d.end, qualified: d.name, isContainer: CONTAINER_KINDS.has(d.kind), def: d })),
  ].sort(byRange);
  const stack: Node[] = [];
  const symbols: ExtractedSymbol[] = [];
  // Every enclosing definition, innermost last, for the reference sweep below.
  const spans: { start: number; end: number; qualified: string }[] = [];
  for (const item of items) {
    while (stack.length > 0 && stack[stack.length - 1]!.end <= item.start) stack.pop();
    let parent: Node | null = null;
    for (let k = stack.length - 1; k >= 0 && parent === null; k--) if (stack[k]!.isContainer) parent = stack[k]!;
    const innermost = stack.length > 0 ? stack[stack.length - 1]! : null;
    const explicit = item.def?.explicitContainer ?? null;
    const name = item.def ? item.def.name : item.qualified;
    // A function (or type) defined inside a function or method is local to it: `outer.inner`, never a member of the
    // class around. Fields assigned in a constructor (`self.x = …`, `this.x = …`) stay members of the class.
    const local =
      explicit === null && item.def !== null && item.def.kind !== "field" && innermost?.def != null && LOCAL_SCOPES.has(innermost.def.kind);
    const containerName = local ? innermost!.qualified : explicit !== null ? join(prefix, explicit, ".") : parent ? parent.qualified : null;
    const isMember =
      !local && item.def !== null && containerName !== null && MEMBER_KINDS.has(item.def.kind) && (explicit !== null || parent?.def?.kind !== "module");
    item.qualified = isMember ? `${containerName}#${name}` : join(containerName ?? prefix, name, ".");
    if (item.def) {
      const d = item.def;
      symbols.push({
        name: d.name,
        kind: isMember && d.kind === "function" ? "method" : d.kind,
        qualifiedName: item.qualified,
        container: containerName,
        startLine: d.startLine,
        endLine: d.endLine,
        startColumn: d.startColumn,
        visibility: d.visibility,
        signature: d.signature,
      });
      spans.push({ start: d.start, end: d.end, qualified: item.qualified });
    }
    stack.push(item);
  }
  return { symbols: symbols.sort((a, b) => a.startLine - b.startLine || a.startColumn - b.startColumn), references: enclose(refs, spans) };
}

function join(prefix: string | null, name: string, sep: string): string {
  return prefix ? `${prefix}${sep}${name}` : name;
}

/** The innermost definition around each reference, found in one sweep over both lists in position order. */
function enclose(refs: RawReference[], spans: { start: number; end: number; qualified: string }[]): ExtractedReference[] {
  const sortedSpans = [...spans].sort(byRange);
  const sortedRefs = [...refs].sort((a, b) => a.start - b.start);
  const out: ExtractedReference[] = [];
  const stack: { start: number; end: number; qualified: string }[] = [];
  let i = 0;
  for (const r of sortedRefs) {
    while (i < sortedSpans.length && sortedSpans[i]!.start <= r.start) {
      const s = sortedSpans[i]!;
      while (stack.length > 0 && stack[stack.length - 1]!.end <= s.start) stack.pop();
      stack.push(s);
      i += 1;
    }
    while (stack.length > 0 && stack[stack.length - 1]!.end <= r.start) stack.pop();
    out.push({ name: r.name, kind: r.kind, line: r.line, column: r.column, enclosing: stack.length > 0 ? stack[stack.length - 1]!.qualified : null });
  }
  return out;
}
