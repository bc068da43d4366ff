import type { Extraction, ExtractedSymbol, SymbolKind } from "../../core/symbols.js";

/**
 * Fallback for languages without a grammar: definition keywords at the start of a line. It finds the obvious
 * definitions and says so (`extractor: lexical`, `confidence: low`); it yields no references.
 */
const KEYWORD_KINDS: Readonly<Record<string, SymbolKind>> = {
  function: "function",
  func: "function",
  fn: "function",
  def: "function",
  defp: "function",
  sub: "function",
  proc: "function",
  procedure: "function",
  class: "class",
  struct: "class",
  record: "class",
  object: "class",
  interface: "interface",
  trait: "interface",
  protocol: "interface",
  enum: "enum",
  module: "module",
  namespace: "module",
  package: "module",
  type: "type",
};

const MODIFIERS = "(?:(?:export|public|private|protected|internal|static|async|abstract|final|pub|local|extern|inline)\\s+)*";
const DEFINITION = new RegExp(`^[ \\t]*${MODIFIERS}(${Object.keys(KEYWORD_KINDS).join("|")})\\s+([A-Za-z_][\\w]*)`, "gm");
const MAX_SIGNATURE = 200;
/** Keywords that also appear in declarations using a type (`struct sk_buff *skb,`); those lines are not definitions. */
const TYPE_KEYWORDS: ReadonlySet<string> = new Set(["class", "struct", "record", "object", "interface", "trait", "protocol", "enum", "type"]);

export function extractLexical(text: string): Extraction {
  const symbols: ExtractedSymbol[] = [];
  let lineStart = 0;
  let line = 1;
  DEFINITION.lastIndex = 0;
  for (let m = DEFINITION.exec(text); m !== null; m = DEFINITION.exec(text)) {
    while (true) {
      const nl = text.indexOf("\n", lineStart);
      if (nl === -1 || nl >= m.index) break;
      lineStart = nl + 1;
      line += 1;
    }
    const end = text.indexOf("\n", m.index);
    const lineEnd = end === -1 ? text.length : end;
    // `struct sk_buff *skb,` or `struct foo;` name a type in a declaration; they define nothing.
    const rest = text.slice(m.index + m[0].length, lineEnd);
    if (TYPE_KEYWORDS.has(m[1]!) && (/^\s*[*&]/.test(rest) || /[,;]\s*$/.test(rest))) continue;
    const signature = text.slice(m.index, lineEnd).trim().slice(0, MAX_SIGNATURE);
    symbols.push({
      name: m[2]!,
      kind: KEYWORD_KINDS[m[1]!]!,
      qualifiedName: m[2]!,
      container: null,
      startLine: line,
      endLine: line,
      startColumn: m.index - lineStart + (m[0].length - m[0].trimStart().length) + 1,
      visibility: null,
      signature,
    });
  }
  return { status: "ok", extractor: "lexical", confidence: "low", symbols, references: [], detail: null };
}
