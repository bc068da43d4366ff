/** What symbol extraction yields per file; languages differ only in their `.scm` query and a few settings. */

export const SYMBOL_KINDS = ["class", "interface", "enum", "function", "method", "field", "constant", "type", "module"] as const;
export type SymbolKind = (typeof SYMBOL_KINDS)[number];

export const REFERENCE_KINDS = ["call", "import", "type", "reference", "value"] as const;
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];
/**
 * Languages whose tags queries capture names used as values (`value` references: arguments, assignments, returns…).
 * Elsewhere references are calls, imports, types and member accesses, and a value use is found only as text.
 * (test/complete-evidence.test.ts keeps this list and the queries in step.)
 */
export const VALUE_REFERENCE_LANGUAGES: ReadonlySet<string> = new Set(["python", "javascript", "typescript", "tsx", "rust", "go", "java"]);

/**
 * `scip`: a SCIP index from the build (scip-typescript, scip-python, …) resolved this file's references; its
 * definitions' shapes still come from tree-sitter, which is also the fallback for files the SCIP index misses.
 */
export const EXTRACTORS = ["scip", "tree-sitter", "lexical"] as const;
export type Extractor = (typeof EXTRACTORS)[number];
/** Whether an extractor parsed the file (so its references are syntactic, not text matches). */
export function isParsedExtractor(extractor: Extractor | null): boolean {
  return extractor === "tree-sitter" || extractor === "scip";
}
/** `exact`: resolved by a compiler-backed SCIP index to one definition. */
export const CONFIDENCE_LEVELS = ["exact", "high", "medium", "low"] as const;
export type Confidence = (typeof CONFIDENCE_LEVELS)[number];

export interface ExtractedSymbol {
  name: string;
  kind: SymbolKind;
  /** `pkg.Class#method`, `pkg.Class.Nested`, `module.function` (see the README's table per language). */
  qualifiedName: string;
  /** Qualified name of the enclosing container (class, module...), or null at top level. */
  container: string | null;
  startLine: number;
  endLine: number;
  startColumn: number;
  visibility: "public" | "protected" | "private" | "internal" | "package" | null;
  /** The definition's first line up to its body, trimmed. */
  signature: string;
  /** The SCIP symbol of this definition, when a SCIP index defines it here. */
  scipSymbol?: string | null;
}

export interface ExtractedReference {
  name: string;
  kind: ReferenceKind;
  line: number;
  column: number;
  /** Qualified name of the innermost definition containing the reference (the calling function), or null. */
  enclosing: string | null;
  /** The SCIP symbol this reference resolves to, when a SCIP index resolved it. */
  target?: string | null;
}

export const EXTRACTION_STATUSES = ["ok", "syntax_errors", "timeout", "failed", "no_grammar", "skipped"] as const;
export type ExtractionStatus = (typeof EXTRACTION_STATUSES)[number];

export interface Extraction {
  status: ExtractionStatus;
  extractor: Extractor | null;
  confidence: Confidence;
  symbols: ExtractedSymbol[];
  references: ExtractedReference[];
  /** Why extraction was partial or absent (grammar failed to load, timeout after N ms...). */
  detail: string | null;
}
