/**
 * Resolution by package and import for languages whose files name what they use by package (resolve.ts asks these
 * when several definitions share a name):
 * - Go: an unqualified name means the definition in the file's own package (its folder); `pkg.Name` means the one
 *   in the folder the import bound to `pkg` points at (its alias, or the import path's last segment).
 * - Java and Kotlin: the file's own package (folder), a single-type import (`import a.b.Name;`), then a
 *   wildcard import (`import a.b.*;`) — the order the language itself uses.
 * - Rust: the file itself, then a `use` path that names it (`use crate::filter::SizeFilter;`, `use super::x::{A, B}`,
 *   `use other_crate::m::Name`), matched against each definition's module path (`src/filter.rs` → `filter`).
 */
import type { SymbolRow } from "../store/store.js";
import { dirName } from "./knowledge/related/names.js";

const GO_IMPORT_BLOCK = /^import\s*\(([\s\S]*?)^\)/gm;
const GO_IMPORT_LINE = /^import\s+((?:[\w.]+\s+)?"[^"]+")/gm;
const GO_SPEC = /^\s*(?:([\w.]+)\s+)?"([^"]+)"/;

/** Go imports of a file: the name each binds (alias, or the path's last segment) and the import path. */
function goImports(text: string): Map<string, string> {
  const specs: string[] = [];
  for (const m of text.matchAll(GO_IMPORT_BLOCK)) specs.push(...m[1]!.split("\n"));
  for (const m of text.matchAll(GO_IMPORT_LINE)) specs.push(m[1]!);
  const out = new Map<string, string>();
  for (const s of specs) {
    const m = GO_SPEC.exec(s);
    if (!m) continue;
    const path = m[2]!;
    // `gopkg.in/yaml.v3` binds `yaml`; a major-version suffix (`/v2`) is not the name either.
    const segs = path.split("/").filter((x) => !/^v\d+$/.test(x));
    const last = (segs[segs.length - 1] ?? path).replace(/\.v\d+$/, "").replace(/^go-/, "");
    out.set(m[1] ?? last, path);
  }
  return out;
}

function goResolve(defs: readonly SymbolRow[], fromPath: string, text: string, receiver: string | null): SymbolRow[] {
  if (receiver === null) return defs.filter((d) => dirName(d.path) === dirName(fromPath));
  const path = goImports(text).get(receiver);
  if (path === undefined) return [];
  // The import path ends with the folder: `example.com/app/internal/cache` → `internal/cache` in the repository.
  return defs.filter((d) => {
    const dir = dirName(d.path);
    return dir !== "" && (path === dir || path.endsWith(`/${dir}`));
  });
}

const JAVA_PACKAGE = /^\s*package\s+([\w.]+)\s*;?/m;
const JAVA_IMPORT = /^\s*import\s+(?!static\s)([\w.]+?)(\.\*)?\s*;?\s*$/gm;

function javaResolve(defs: readonly SymbolRow[], fromPath: string, text: string): SymbolRow[] {
  const name = defs[0]?.name ?? "";
  const single: string[] = [];
  const wildcard: string[] = [];
  for (const m of text.matchAll(JAVA_IMPORT)) (m[2] ? wildcard : single).push(m[1]!);
  const qualified = (d: SymbolRow) => d.qualifiedName.replace(/#.*$/, "");
  const imported = defs.filter((d) => single.some((s) => s.endsWith(`.${name}`) && qualified(d) === s));
  if (imported.length > 0) return imported;
  const pkg = JAVA_PACKAGE.exec(text)?.[1];
  const samePackage = defs.filter((d) => dirName(d.path) === dirName(fromPath) || (pkg !== undefined && qualified(d) === `${pkg}.${name}`));
  if (samePackage.length > 0) return samePackage;
  return defs.filter((d) => wildcard.some((w) => qualified(d) === `${w}.${name}`));
}

const RUST_USE = /^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]+);/gm;

/** `src/filter.rs`, `src/filter/mod.rs` → `filter`; `src/lib.rs`, `src/main.rs` → "" (the crate root). */
function rustModule(path: string): string {
  const inSrc = path.lastIndexOf("src/");
  const rel = (inSrc >= 0 ? path.slice(inSrc + 4) : path).replace(/\.rs$/, "").replace(/(^|\/)mod$/, "");
  return rel === "lib" || rel === "main" ? "" : rel;
}

/**
 * The module paths (`a/b`) a file's `use` declarations import `name` from; a path's first segment may be a crate.
 * `use a::name as other` binds `other`, not `name`: it counts only for the import itself (`aliased`).
 */
function rustSources(text: string, name: string, aliased: boolean): string[][] {
  const out: string[][] = [];
  for (const m of text.matchAll(RUST_USE)) {
    const tree = m[1]!.replace(/\s+as\s+(\w+)/g, "@$1").replace(/\s+/g, "");
    // Expand one level of braces: `a::{B,c::D}` → `a::B`, `a::c::D`.
    const brace = /^(.*?)::\{(.*)\}$/.exec(tree);
    const paths = brace ? brace[2]!.split(",").map((p) => `${brace[1]}::${p}`) : [tree];
    for (const p of paths) {
      const segs = p.split("::");
      const [last, alias] = segs[segs.length - 1]!.split("@");
      if (last !== name || (alias !== undefined && alias !== name && !aliased)) continue;
      out.push(segs.slice(0, -1).filter((s) => s !== "crate" && s !== "self" && s !== "super"));
    }
  }
  return out;
}

function rustResolve(defs: readonly SymbolRow[], text: string, importLine: boolean): SymbolRow[] {
  const sources = rustSources(text, defs[0]?.name ?? "", importLine);
  return defs.filter((d) => {
    const mod = rustModule(d.path);
    // The module path, or the module path under a crate name (`grep_searcher::sink` → `sink`).
    return sources.some((s) => s.join("/") === mod || s.slice(1).join("/") === mod);
  });
}

/** The definitions a reference in `fromPath` may mean by its package and imports, for Go, Java, Kotlin and Rust. */
export function packageCandidates(defs: readonly SymbolRow[], fromPath: string, language: string | null, text: string, receiver: string | null, importLine = false): SymbolRow[] | null {
  if (language === "go") return goResolve(defs, fromPath, text, receiver);
  if (receiver !== null) return null;
  if (language === "java" || language === "kotlin") return javaResolve(defs, fromPath, text);
  if (language === "rust") return rustResolve(defs, text, importLine);
  return null;
}
