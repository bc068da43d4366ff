/**
 * Languages are data: each entry names a prebuilt grammar, its tags query under `queries/`, and how its names
 * qualify. Adding a language touches this table, one `.scm` file and one fixture, never the pipeline.
 *
 * Query capture convention (see queries/README.md):
 *   @definition.<kind> + @name      a definition (kind: class interface enum function method field constant type module)
 *   @reference.<kind>  + @name      a reference (kind: call import type reference)
 *   @package                        the file's package / namespace name (Java, Kotlin, Scala, Go, C#, PHP)
 *   @scope + @scope.name            a container that qualifies names but is not a symbol (Rust impl, Swift extension)
 *   @container (inside a definition pattern) an explicit container name (Go method receivers)
 *   @reference.value + @name        a name used as a value (argument, assignment, return, raise, except…), told from
 *                                   locals by @value.scope, .bind, .label, .member, .skip and .global (values.ts)
 */

export type GrammarPackage = "@vscode/tree-sitter-wasm" | "tree-sitter-wasms";

export type VisibilityRule =
  /** Modifier keywords on the definition (public, private, protected, internal). */
  | "modifiers"
  /** Go: an upper-case initial letter is exported. */
  | "capitalized"
  /** Python: a leading underscore is private by convention. */
  | "underscore"
  | "none";

export interface LanguageSpec {
  grammar: { package: GrammarPackage; file: string };
  /** Query file name under queries/ (several languages may share one, e.g. tsx uses the TypeScript query). */
  query: string;
  /** Further query files appended to `query` (tsx adds JSX component uses to the TypeScript query). */
  extraQueries?: string[];
  /** Where the qualified-name prefix comes from: a @package capture, the file path (Python modules), or nowhere. */
  qualifier: "package" | "path" | "none";
  visibility: VisibilityRule;
  /** Extensions stripped when a path becomes a module name (qualifier "path"). */
  moduleExtensions?: string[];
}

const VSCODE = "@vscode/tree-sitter-wasm" as const;
const WASMS = "tree-sitter-wasms" as const;

export const LANGUAGES: Readonly<Record<string, LanguageSpec>> = {
  typescript: {
    grammar: { package: VSCODE, file: "wasm/tree-sitter-typescript.wasm" },
    query: "typescript.scm",
    extraQueries: ["values-js.scm", "values-typescript.scm"],
    qualifier: "none",
    visibility: "modifiers",
  },
  tsx: {
    grammar: { package: VSCODE, file: "wasm/tree-sitter-tsx.wasm" },
    query: "typescript.scm",
    extraQueries: ["jsx.scm", "values-js.scm", "values-typescript.scm", "values-jsx.scm"],
    qualifier: "none",
    visibility: "modifiers",
  },
  javascript: {
    grammar: { package: VSCODE, file: "wasm/tree-sitter-javascript.wasm" },
    query: "javascript.scm",
    extraQueries: ["values-js.scm", "values-javascript.scm", "values-jsx.scm"],
    qualifier: "none",
    visibility: "none",
  },
  python: {
    grammar: { package: VSCODE, file: "wasm/tree-sitter-python.wasm" },
    query: "python.scm",
    qualifier: "path",
    visibility: "underscore",
    moduleExtensions: [".py", ".pyi"],
  },
  java: { grammar: { package: VSCODE, file: "wasm/tree-sitter-java.wasm" }, query: "java.scm", extraQueries: ["values-java.scm"], qualifier: "package", visibility: "modifiers" },
  go: { grammar: { package: VSCODE, file: "wasm/tree-sitter-go.wasm" }, query: "go.scm", extraQueries: ["values-go.scm"], qualifier: "package", visibility: "capitalized" },
  rust: { grammar: { package: VSCODE, file: "wasm/tree-sitter-rust.wasm" }, query: "rust.scm", extraQueries: ["values-rust.scm"], qualifier: "none", visibility: "modifiers" },
  csharp: { grammar: { package: VSCODE, file: "wasm/tree-sitter-c-sharp.wasm" }, query: "csharp.scm", qualifier: "package", visibility: "modifiers" },
  c: { grammar: { package: WASMS, file: "out/tree-sitter-c.wasm" }, query: "c.scm", qualifier: "none", visibility: "none" },
  cpp: { grammar: { package: VSCODE, file: "wasm/tree-sitter-cpp.wasm" }, query: "cpp.scm", qualifier: "none", visibility: "modifiers" },
  kotlin: { grammar: { package: WASMS, file: "out/tree-sitter-kotlin.wasm" }, query: "kotlin.scm", qualifier: "package", visibility: "modifiers" },
  ruby: { grammar: { package: VSCODE, file: "wasm/tree-sitter-ruby.wasm" }, query: "ruby.scm", qualifier: "none", visibility: "none" },
  php: { grammar: { package: VSCODE, file: "wasm/tree-sitter-php.wasm" }, query: "php.scm", qualifier: "package", visibility: "modifiers" },
  scala: { grammar: { package: WASMS, file: "out/tree-sitter-scala.wasm" }, query: "scala.scm", qualifier: "package", visibility: "modifiers" },
  swift: { grammar: { package: WASMS, file: "out/tree-sitter-swift.wasm" }, query: "swift.scm", qualifier: "none", visibility: "modifiers" },
};

export function languageSpec(language: string | null): LanguageSpec | undefined {
  return language === null ? undefined : LANGUAGES[language];
}

/**
 * Programming languages without a grammar here: they get the lexical fallback (definitions only, low confidence).
 * Prose and data files (Markdown, JSON, YAML...) get no symbol extraction at all.
 */
export const LEXICAL_LANGUAGES: ReadonlySet<string> = new Set([
  "perl", "lua", "shell", "elixir", "erlang", "haskell", "ocaml", "r", "julia", "dart", "objective-c", "objective-cpp",
  "groovy", "clojure", "fsharp", "visual-basic-.net", "powershell", "zig", "nim", "crystal", "d", "fortran",
  "pascal", "ada", "cobol", "tcl", "racket", "scheme", "common-lisp", "emacs-lisp", "solidity", "vue", "svelte",
]);

/** Files classified with these generated reasons are not parsed: minified bundles and lock files hold no symbols worth it. */
export const NO_SYMBOL_GENERATED_REASONS: ReadonlySet<string> = new Set(["minified", "lock-file", "source-map"]);
