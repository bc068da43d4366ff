/**
 * Which of several same-named definitions a reference means, as far as a syntactic index can tell: the one in the
 * referencing file itself, or the one its imports name (Python `from m import name` / `import m`, absolute or
 * relative; JavaScript and TypeScript `import { name } from "./m"`, `import name from`, `require("./m")`; Go, Java,
 * Kotlin and Rust packages and imports, resolve-packages.ts). A member access (`obj.name`, but for Go's `pkg.Name`)
 * or an import from outside the repository stays unresolved.
 */
import type { SymbolRow } from "../store/store.js";
import { joinPath } from "../indexer/knowledge/manifests/common.js";
import { jsModule } from "./knowledge/related/imports.js";
import { dirName } from "./knowledge/related/names.js";
import { packageCandidates } from "./resolve-packages.js";

const PY_FROM = /^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)/gm;
const PY_IMPORT = /^[ \t]*import[ \t]+([^\n#]+)/gm;
const JS_IMPORT = /\bimport\s+(?:type\s+)?([\w$]+\s*,?\s*)?(\{[^}]*\}|\*\s+as\s+[\w$]+)?\s*(?:from\s*)?["']([^"']+)["']/g;
const JS_REQUIRE = /(?:const|let|var)\s+(\{[^}]*\}|[\w$]+)\s*=\s*require\(\s*["']([^"']+)["']\s*\)/g;

/** The names an import list brings in under their own name (`a`, `b as c` → a; a star brings everything). */
function importedNames(list: string): { names: Set<string>; star: boolean } {
  const names = new Set<string>();
  let star = false;
  for (const raw of list.replace(/[(){}\n]/g, " ").split(",")) {
    const part = raw.trim();
    if (part === "*") star = true;
    const m = /^(?:type\s+)?([\w$]+)(?:\s+as\s+[\w$]+)?$/.exec(part);
    if (m) names.add(m[1]!);
  }
  return { names, star };
}

/** A Python module a file imports `name` from: a dotted path, absolute (`pkg.mod`) or resolved from a relative one. */
function pythonSources(text: string, fromPath: string, name: string): { dotted: string[]; paths: string[] } {
  const dotted: string[] = [];
  const paths: string[] = [];
  for (const m of text.matchAll(PY_FROM)) {
    const { names, star } = importedNames(m[2]!);
    // `from pkg import mod` names a module `mod` too.
    if (!names.has(name) && !star) continue;
    const mod = m[1]!;
    const dots = /^\.*/.exec(mod)![0].length;
    const rest = mod.slice(dots).replace(/\./g, "/");
    if (dots === 0) dotted.push(mod, `${mod}.${name}`);
    else {
      let dir: string | null = dirName(fromPath);
      for (let i = 1; i < dots && dir !== null; i++) dir = dir === "" ? null : dirName(dir);
      // A relative import reaching above the repository root names nothing here.
      const base = dir === null ? null : joinPath(dir, rest);
      if (base !== null) paths.push(base, `${base === "" ? "" : `${base}/`}${name}`);
    }
  }
  for (const m of text.matchAll(PY_IMPORT)) {
    for (const part of m[1]!.split(",")) {
      const mod = part.trim().split(/\s+as\s+/)[0]!.trim();
      if (mod === name || mod.endsWith(`.${name}`)) dotted.push(mod);
    }
  }
  return { dotted, paths };
}

/** Modules (as `jsModule` names them) a JavaScript or TypeScript file imports `name` from, relative specifiers only. */
function jsSources(text: string, fromPath: string, name: string): string[] {
  const out: string[] = [];
  const add = (spec: string) => {
    const p = spec.startsWith(".") ? joinPath(dirName(fromPath), spec) : null;
    if (p !== null) out.push(jsModule(p));
  };
  for (const m of text.matchAll(JS_IMPORT)) {
    const def = m[1]?.replace(/[\s,]/g, "");
    const named = m[2] && m[2].startsWith("{") ? importedNames(m[2]).names : new Set<string>();
    if (def === name || named.has(name) || (m[2]?.startsWith("*") ?? false)) add(m[3]!);
  }
  for (const m of text.matchAll(JS_REQUIRE)) {
    const target = m[1]!;
    if (target === name || (target.startsWith("{") && importedNames(target).names.has(name))) add(m[2]!);
  }
  return out;
}

/** `pkg/mod.py`, `pkg/mod/__init__.py` → `pkg/mod`: a Python module's path without extension. */
function pythonModulePath(path: string): string {
  return path.replace(/\.pyi?$/, "").replace(/\/__init__$/, "");
}

/**
 * Of `defs` (same-named definitions), the one a reference in `fromPath` means: defined in that file, or imported
 * from the file that defines it; null when the text does not say. `importLine`: the reference is an import, on this line. `member`: the reference is `receiver.name`
 * (receiver null when it is not a plain name), which only Go's package qualifiers let a syntactic index resolve.
 */
export function resolveDefinition(
  defs: readonly SymbolRow[],
  fromPath: string,
  language: string | null,
  text: string | null,
  member: { receiver: string | null } | null,
  importLine: string | null = null,
): SymbolRow | null {
  if (member && (language !== "go" || member.receiver === null || text === null)) return null;
  if (member) return unique(packageCandidates(defs, fromPath, language, text!, member.receiver) ?? []);
  const local = defs.filter((d) => d.path === fromPath);
  if (local.length === 1) return local[0]!;
  if (text === null || local.length > 1) return null;
  const name = defs[0]?.name ?? "";
  let hits: SymbolRow[] = [];
  if (language === "python") {
    const { dotted, paths } = pythonSources(text, fromPath, name);
    hits = defs.filter((d) => {
      const modulePath = pythonModulePath(d.path);
      const mod = modulePath.replace(/\//g, ".");
      return dotted.some((m) => mod === m || mod.endsWith(`.${m}`)) || paths.includes(modulePath);
    });
  } else if (language === "javascript" || language === "typescript" || language === "tsx") {
    const sources = jsSources(text, fromPath, name);
    hits = defs.filter((d) => sources.includes(jsModule(d.path)));
  } else {
    // An import is resolved by its own line where the language's imports are one per line (a Rust alias, `use a::x as y`).
    hits = (importLine !== null ? packageCandidates(defs, fromPath, language, importLine, null, true) : null) ?? packageCandidates(defs, fromPath, language, text, null) ?? [];
  }
  return unique(hits);
}

/** The one definition file among candidates, or null when none or several. */
function unique(hits: readonly SymbolRow[]): SymbolRow | null {
  return new Set(hits.map((h) => h.path)).size === 1 ? hits[0]! : null;
}
