import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Language, Parser, Query, type Node } from "web-tree-sitter";
import { extractLexical } from "./lexical.js";
import { languageSpec, type LanguageSpec } from "./languages.js";
import { qualify, type RawDefinition, type RawReference, type RawScope } from "./qualify.js";
import { localValueUses, type ValueContext } from "./values.js";
import { REFERENCE_KINDS, SYMBOL_KINDS, type Extraction, type ExtractedSymbol, type ReferenceKind, type SymbolKind } from "../../core/symbols.js";

/** A file's parse is abandoned after this long; the file then gets lexical symbols and `status: timeout`. */
export const DEFAULT_PARSE_TIMEOUT_MS = 2000;
/** Query matching is bounded too, for pathological trees. */
const QUERY_MATCH_LIMIT = 1 << 16;
const MAX_SIGNATURE = 200;
const MAX_NAME = 200;

interface LoadedLanguage {
  spec: LanguageSpec;
  language: Language;
  query: Query;
}

const SYMBOL_KIND_SET: ReadonlySet<string> = new Set(SYMBOL_KINDS);
const REFERENCE_KIND_SET: ReadonlySet<string> = new Set(REFERENCE_KINDS);
/** Modifier keywords and the visibility they mean (Swift `fileprivate`/`open`, Rust `pub`). */
const KEYWORD_VISIBILITY: Readonly<Record<string, ExtractedSymbol["visibility"]>> = {
  public: "public",
  private: "private",
  protected: "protected",
  internal: "internal",
  fileprivate: "private",
  open: "public",
  pub: "public",
};

export function queryText(file: string): string {
  return readFileSync(new URL(`./queries/${file}`, import.meta.url), "utf8");
}

/**
 * The definition's line that holds its name (so annotations and decorators above it are skipped), up to the body's
 * `{` — the first one outside parentheses and string literals, so destructured parameters stay in the signature.
 */
function signatureOf(node: Node, name: Node): string {
  const line = node.text.split("\n", name.startPosition.row - node.startPosition.row + 1).pop() ?? "";
  let depth = 0;
  let cut = line.length;
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote !== null) {
      if (c === "\\") i += 1;
      else if (c === quote) quote = null;
      continue;
    }
    // A single quote opens a literal only as a char literal ('{', '\n'); otherwise it is a Rust lifetime ('a, '_).
    if (c === '"' || c === "`" || (c === "'" && (line[i + 2] === "'" || (line[i + 1] === "\\" && line[i + 3] === "'")))) quote = c;
    else if (c === "(" || c === "[") depth += 1;
    else if ((c === ")" || c === "]") && depth > 0) depth -= 1;
    else if (c === "{" && depth === 0 && i > 0) {
      cut = i;
      break;
    }
  }
  return line.slice(0, cut).trim().slice(0, MAX_SIGNATURE);
}

/** Decorators, annotations and attributes may hold any words (`@Attr('private')`): never read as modifiers. */
const NOT_MODIFIERS = /decorator|annotation|attribute/;
const MODIFIER_CONTAINERS = /modifier|visibility|access/;

/** A visibility keyword among the definition's modifier tokens before its name. */
function modifierVisibility(def: Node, nameStart: number): ExtractedSymbol["visibility"] {
  const scan = (node: Node, top: boolean): ExtractedSymbol["visibility"] => {
    if (NOT_MODIFIERS.test(node.type)) return null;
    if (node.childCount === 0) return KEYWORD_VISIBILITY[node.text] ?? null;
    if (!top && !MODIFIER_CONTAINERS.test(node.type)) return null;
    if (node.type === "visibility_modifier" && /^pub\s*\(/.test(node.text)) return "internal";
    for (const child of node.children) {
      const found = child ? scan(child, false) : null;
      if (found) return found;
    }
    return null;
  };
  for (const child of def.children) {
    if (!child) continue;
    if (child.startIndex >= nameStart) break;
    const found = scan(child, MODIFIER_CONTAINERS.test(child.type) || child.type === "modifiers");
    if (found) return found;
  }
  return null;
}

function visibilityOf(spec: LanguageSpec, def: Node, nameNode: Node, name: string): ExtractedSymbol["visibility"] {
  switch (spec.visibility) {
    case "capitalized":
      return /^[A-Z]/.test(name) ? "public" : "package";
    case "underscore":
      return name.startsWith("_") && !(name.startsWith("__") && name.endsWith("__")) ? "private" : "public";
    case "modifiers":
      return modifierVisibility(def, nameNode.startIndex);
    default:
      return null;
  }
}

/** Module path from a file path: `tools/pricing_report.py` → `tools.pricing_report` (`__init__` names the package). */
function modulePath(spec: LanguageSpec, path: string): string | null {
  let p = path;
  for (const ext of spec.moduleExtensions ?? []) if (p.endsWith(ext)) p = p.slice(0, -ext.length);
  const parts = p.split("/").filter((s) => s.length > 0);
  if (parts[parts.length - 1] === "__init__") parts.pop();
  return parts.length > 0 ? parts.join(".") : null;
}

function cleanPackage(text: string): string {
  return text.replace(/^(package|namespace)\s+/, "").replace(/[;{\s]+$/g, "").replace(/\\/g, ".").trim();
}

/** A scope, binding, label, member name, import or `global` declaration the query marked (`@value.*`, values.ts). */
function noteValueContext(context: ValueContext, capture: string, node: Node): void {
  const range = { start: node.startIndex, end: node.endIndex };
  if (capture === "value.scope") context.scopes.push({ ...range, nameStart: node.childForFieldName("name")?.startIndex ?? null });
  else if (capture === "value.skip") context.skips.push(range);
  else if (capture === "value.global") context.globals.push(range);
  else if (capture === "value.bind") context.binds.set(node.startIndex, node.text);
  else if (capture === "value.label") context.labels.add(node.startIndex);
  else if (capture === "value.member") context.members.add(node.startIndex);
  else if (capture === "value.statement") context.statements.push(range);
}

/**
 * Parses files with tree-sitter and runs each language's tags query. One instance per thread: it caches parsers,
 * grammars and compiled queries, loading a grammar only when its first file arrives.
 */
export class SymbolExtractor {
  private readonly loaded = new Map<string, Promise<LoadedLanguage>>();
  private readonly require = createRequire(import.meta.url);

  private constructor(private readonly parser: Parser) {}

  static async create(): Promise<SymbolExtractor> {
    await Parser.init();
    return new SymbolExtractor(new Parser());
  }

  supports(language: string | null): boolean {
    return languageSpec(language) !== undefined;
  }

  /** Grammar loads run one at a time: concurrent loads of WebAssembly grammars corrupt each other's linking. */
  private loading: Promise<unknown> = Promise.resolve();

  private load(language: string, spec: LanguageSpec): Promise<LoadedLanguage> {
    let p = this.loaded.get(language);
    if (!p) {
      const previous = this.loading;
      p = previous.then(async () => {
        const wasm = this.require.resolve(`${spec.grammar.package}/${spec.grammar.file}`);
        const lang = await Language.load(readFileSync(wasm));
        const source = [spec.query, ...(spec.extraQueries ?? [])].map(queryText).join("\n");
        try {
          return { spec, language: lang, query: new Query(lang, source) };
        } catch (err) {
          throw new Error(`tags query ${spec.query} is invalid: ${err instanceof Error ? err.message : String(err)}`);
        }
      });
      this.loading = p.catch(() => undefined);
      this.loaded.set(language, p);
    }
    return p;
  }

  /** Loads a language's grammar and compiles its queries now, so that its first file parses at once. */
  async prepare(language: string): Promise<void> {
    const spec = languageSpec(language);
    if (spec) await this.load(language, spec).catch(() => undefined);
  }

  /** The languages whose grammar has been asked for (loaded, or loading). */
  loadedLanguages(): string[] {
    return [...this.loaded.keys()];
  }

  async extract(language: string | null, path: string, text: string, timeoutMs = DEFAULT_PARSE_TIMEOUT_MS): Promise<Extraction> {
    const spec = languageSpec(language);
    if (!spec || language === null) return { ...extractLexical(text), status: "no_grammar" };
    let loaded: LoadedLanguage;
    try {
      loaded = await this.load(language, spec);
    } catch (err) {
      return { ...extractLexical(text), status: "failed", detail: `grammar or query failed to load: ${err instanceof Error ? err.message : String(err)}` };
    }
    this.parser.setLanguage(loaded.language);
    const deadline = Date.now() + timeoutMs;
    let tree;
    try {
      tree = this.parser.parse(text, null, { progressCallback: () => Date.now() > deadline });
    } catch (err) {
      return { ...extractLexical(text), status: "failed", detail: `parse failed: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (!tree) return { ...extractLexical(text), status: "timeout", detail: `parse exceeded ${timeoutMs} ms` };
    try {
      const result = this.run(loaded, path, tree.rootNode);
      const status = tree.rootNode.hasError ? "syntax_errors" : "ok";
      return { status, extractor: "tree-sitter", confidence: status === "ok" ? "high" : "medium", ...result, detail: null };
    } finally {
      tree.delete();
    }
  }

  private run(loaded: LoadedLanguage, path: string, root: Node): Pick<Extraction, "symbols" | "references"> {
    const { spec, query } = loaded;
    const defs = new Map<number, RawDefinition & { patternIndex: number }>();
    const scopes: RawScope[] = [];
    const refs = new Map<string, RawReference>();
    const valueNodes: { start: number; name: string }[] = [];
    const valueContext: ValueContext = { scopes: [], skips: [], globals: [], binds: new Map(), labels: new Set(), members: new Set(), statements: [] };
    let pkg: string | null = null;
    for (const match of query.matches(root, { matchLimit: QUERY_MATCH_LIMIT })) {
      if (match.captures.length === 1 && match.captures[0]!.name.startsWith("value.")) {
        noteValueContext(valueContext, match.captures[0]!.name, match.captures[0]!.node);
        continue;
      }
      let role: Node | null = null;
      let roleName = "";
      let nameNode: Node | null = null;
      let container: string | null = null;
      for (const c of match.captures) {
        if (c.name === "name" || c.name === "scope.name") nameNode = c.node;
        else if (c.name === "container") container = c.node.text;
        else if (c.name === "package") pkg ??= cleanPackage(c.node.text);
        else if (c.name.startsWith("definition.") || c.name.startsWith("reference.") || c.name === "scope") {
          role = c.node;
          roleName = c.name;
        }
      }
      if (!role || !nameNode) continue;
      const name = nameNode.text.slice(0, MAX_NAME);
      if (name.length === 0) continue;
      if (roleName === "scope") {
        scopes.push({ name, start: role.startIndex, end: role.endIndex });
      } else if (roleName.startsWith("definition.")) {
        const kind = roleName.slice("definition.".length);
        const existing = defs.get(nameNode.startIndex);
        // The earliest pattern in the query wins, whatever order matches complete in.
        if (!SYMBOL_KIND_SET.has(kind) || (existing && existing.patternIndex <= match.patternIndex)) continue;
        defs.set(nameNode.startIndex, {
          name,
          kind: kind as SymbolKind,
          start: role.startIndex,
          end: role.endIndex,
          startLine: role.startPosition.row + 1,
          // A node that ends with its newline (`#define X 1\n`) ends on the line before.
          endLine: role.endPosition.column === 0 && role.endPosition.row > role.startPosition.row ? role.endPosition.row : role.endPosition.row + 1,
          startColumn: nameNode.startPosition.column + 1,
          visibility: visibilityOf(spec, role, nameNode, name),
          patternIndex: match.patternIndex,
          signature: signatureOf(role, nameNode),
          explicitContainer: container,
        });
      } else {
        const kind = roleName.slice("reference.".length);
        const key = `${nameNode.startIndex}`;
        if (kind === "value") valueNodes.push({ start: nameNode.startIndex, name });
        // The first pattern to take a name wins, but a value use (the most general pattern) yields to any other kind
        // that completes later on the same name (`const fs = require("fs")` is an import).
        const taken = refs.get(key);
        if (!REFERENCE_KIND_SET.has(kind) || (taken && (taken.kind !== "value" || kind === "value"))) continue;
        refs.set(key, {
          name,
          kind: kind as ReferenceKind,
          start: nameNode.startIndex,
          line: nameNode.startPosition.row + 1,
          column: nameNode.startPosition.column + 1,
        });
      }
    }
    const defNames = new Set(defs.keys());
    // Names that are no use of a definition elsewhere (locals, labels, import lists); an import stays what it is.
    const notUses = valueNodes.length > 0 ? localValueUses(valueContext, valueNodes) : new Set<number>();
    const references = [...refs.values()].filter((r) => !defNames.has(r.start) && !(notUses.has(r.start) && r.kind !== "import"));
    const prefix = spec.qualifier === "path" ? modulePath(spec, path) : spec.qualifier === "package" ? pkg : null;
    return qualify([...defs.values()].sort((a, b) => a.start - b.start), scopes, references, prefix);
  }
}
