/**
 * The import graph from tests to changed code, one step deep: which changed file, or the package holding it, a
 * test's imports name, by each language's own resolution: relative JavaScript/TypeScript specifiers and package
 * names, Python dotted modules (absolute and relative), Java/Kotlin qualified names, Go import paths, Rust `use`
 * paths of a crate. A test importing the library's entry, which imports the changed file, is not followed: every
 * test of a library does that, and it says nothing about which one exercises the change.
 */
import type { RepoModule } from "../../../core/knowledge.js";
import { joinPath } from "../../../indexer/knowledge/manifests/common.js";
import { rustModulePath } from "./inline.js";
import { familyOf } from "./roles.js";
import { dirName } from "./names.js";

export type ImportLink = "file" | "package";

/** One import of a test: a repository path (relative specifiers), a qualified name, or a package name with a subpath. */
type Target =
  | { kind: "path"; path: string; folder?: boolean }
  | { kind: "qualified"; segs: string[]; wildcard?: boolean }
  | { kind: "bare"; name: string; sub: string };

/** A changed file as imports can name it. */
export interface ChangedUnit {
  path: string;
  family: string | null;
  module: RepoModule | null;
}

/** A suffix of one name (`utils`) would match any file so called: qualified names match from two segments on. */
const MIN_SUFFIX_SEGMENTS = 2;
const RUST_BINARY = /(^|\/)src\/(main\.rs$|bin\/)/;
const JS_EXTENSION = /\.(d\.ts|[cm]?[jt]sx?|vue|svelte)$/;

/** A JavaScript module as imports name it: no extension, a folder for its index file. */
export function jsModule(path: string): string {
  return path.replace(JS_EXTENSION, "").replace(/(^|\/)index$/, "");
}

function jsTargets(testPath: string, text: string): Target[] {
  const out: Target[] = [];
  const re = /\bfrom\s*['"]([^'"\n]+)['"]|\bimport\s*\(?\s*['"]([^'"\n]+)['"]|\brequire\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) {
    const spec = (m[1] ?? m[2] ?? m[3])!;
    if (spec.startsWith(".")) {
      const p = joinPath(dirName(testPath), spec);
      if (p !== null) out.push({ kind: "path", path: jsModule(p) });
    } else if (!spec.startsWith("/") && !/^[a-z]+:/.test(spec)) {
      const segs = spec.split("/");
      const n = spec.startsWith("@") ? 2 : 1;
      out.push({ kind: "bare", name: segs.slice(0, n).join("/"), sub: segs.slice(n).join("/") });
    }
  }
  return out;
}

function pythonTargets(testPath: string, text: string): Target[] {
  const out: Target[] = [];
  const dotted = (from: string, name: string | null): Target | null => {
    const lead = /^\.*/.exec(from)![0].length;
    const rest = from.slice(lead).split(".").filter((s) => s !== "");
    const segs = name === null ? rest : [...rest, name];
    if (lead === 0) return segs.length > 0 ? { kind: "qualified", segs } : null;
    let base: string | null = dirName(testPath);
    for (let i = 1; i < lead && base !== null; i++) base = base === "" ? null : dirName(base);
    if (base === null) return null;
    const p = joinPath(base, segs.join("/"));
    return p === null ? null : { kind: "path", path: p, folder: name === null };
  };
  for (const m of text.matchAll(/^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]+)/gm)) {
    const from = m[1]!;
    const whole = dotted(from, null);
    if (whole) out.push(whole);
    for (const name of m[2]!.replace(/[()]/g, "").split(",")) {
      const n = name.trim().split(/\s+/)[0] ?? "";
      if (!/^\w+$/.test(n)) continue;
      const t = dotted(from, n);
      if (t) out.push(t);
    }
  }
  for (const m of text.matchAll(/^[ \t]*import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)/gm)) {
    for (const part of m[1]!.split(",")) {
      const name = part.trim().split(/\s+/)[0]!;
      out.push({ kind: "qualified", segs: name.split(".") });
    }
  }
  return out;
}

function jvmTargets(text: string): Target[] {
  const out: Target[] = [];
  for (const m of text.matchAll(/^[ \t]*import[ \t]+(static[ \t]+)?([\w.]+?)(\.\*)?[ \t]*;?[ \t]*$/gm)) {
    const segs = m[2]!.split(".");
    if (m[3]) out.push({ kind: "qualified", segs, wildcard: true });
    else {
      out.push({ kind: "qualified", segs });
      // A static import names a member: its class is the one before it.
      if (m[1]) out.push({ kind: "qualified", segs: segs.slice(0, -1) });
    }
  }
  return out;
}

function goTargets(text: string): Target[] {
  const specs: string[] = [];
  for (const m of text.matchAll(/^import[ \t]+(?:[\w.]+[ \t]+)?"([^"]+)"/gm)) specs.push(m[1]!);
  for (const m of text.matchAll(/^import[ \t]*\(([\s\S]*?)\)/gm)) for (const s of m[1]!.matchAll(/"([^"]+)"/g)) specs.push(s[1]!);
  return specs.map((s) => ({ kind: "qualified", segs: s.split("/"), wildcard: true }));
}

function rustTargets(text: string): Target[] {
  const out: Target[] = [];
  for (const m of text.matchAll(/^[ \t]*(?:pub[ \t]+)?use[ \t]+(?:::)?([\w:]+?)(?:::\{([^}]*)\})?[ \t]*;/gm)) {
    const segs = m[1]!.split("::").filter((s) => s !== "" && s !== "*");
    if (m[2]) for (const item of m[2].split(",")) {
      const first = item.trim().split(/::|\s/)[0] ?? "";
      if (/^\w+$/.test(first) && first !== "self") out.push({ kind: "qualified", segs: [...segs, first] });
    }
    out.push({ kind: "qualified", segs });
  }
  for (const m of text.matchAll(/^[ \t]*extern[ \t]+crate[ \t]+(\w+)/gm)) out.push({ kind: "qualified", segs: [m[1]!] });
  return out;
}

/** The imports of one test file, in its language's terms; none for a language this does not read. */
export function importTargets(testPath: string, language: string | null, text: string): Target[] {
  switch (familyOf(language)) {
    case "js":
      return jsTargets(testPath, text);
    case "python":
      return pythonTargets(testPath, text);
    case "jvm":
      return jvmTargets(text);
    case "go":
      return goTargets(text);
    case "rust":
      return rustTargets(text);
    default:
      return [];
  }
}

/** `path` ends with the segments (from MIN_SUFFIX_SEGMENTS on), or is them. */
function endsWithSegments(path: string, segs: string[]): boolean {
  const tail = segs.join("/");
  return path === tail || (segs.length >= MIN_SUFFIX_SEGMENTS && path.endsWith(`/${tail}`));
}

/** The Go import path of a changed file's package: its module's path and the folder below the module. */
function goPackagePath(u: ChangedUnit): string | null {
  if (!u.module || u.module.buildSystem !== "go") return null;
  const dir = dirName(u.path);
  const below = u.module.path === "" ? dir : dir.startsWith(`${u.module.path}/`) ? dir.slice(u.module.path.length + 1) : dir === u.module.path ? "" : null;
  return below === null ? null : below === "" ? u.module.name : `${u.module.name}/${below}`;
}

function pyModule(path: string): string {
  return path.replace(/\.pyi?$/, "").replace(/\/__init__$/, "");
}

/** Whether one import names the changed file itself, or only the package (folder, Go package, crate) holding it. */
function linkOf(t: Target, u: ChangedUnit): ImportLink | null {
  switch (u.family) {
    case "js": {
      if (t.kind === "path") return t.path === jsModule(u.path) ? "file" : null;
      if (t.kind !== "bare" || !u.module || t.name !== u.module.name) return null;
      if (t.sub === "") return "package";
      const p = joinPath(u.module.path, t.sub);
      return p !== null && jsModule(p) === jsModule(u.path) ? "file" : null;
    }
    case "python": {
      const mod = pyModule(u.path);
      if (t.kind === "path") return t.path === mod ? "file" : t.folder && t.path === dirName(u.path) ? "package" : null;
      if (t.kind !== "qualified") return null;
      if (endsWithSegments(mod, t.segs)) return "file";
      return endsWithSegments(dirName(u.path), t.segs) ? "package" : null;
    }
    case "jvm": {
      if (t.kind !== "qualified") return null;
      if (t.wildcard) return endsWithSegments(dirName(u.path), t.segs) ? "package" : null;
      return endsWithSegments(u.path.replace(/\.\w+$/, ""), t.segs) ? "file" : null;
    }
    case "go": {
      if (t.kind !== "qualified") return null;
      const pkg = goPackagePath(u);
      return (pkg !== null ? t.segs.join("/") === pkg : endsWithSegments(dirName(u.path), t.segs)) ? "package" : null;
    }
    case "rust": {
      // `use my_crate::…` names the library: a binary (`src/main.rs`, `src/bin/…`) is not in it.
      if (t.kind !== "qualified" || !u.module || u.module.buildSystem !== "cargo" || RUST_BINARY.test(u.path)) return null;
      if (t.segs[0] !== u.module.name.replace(/-/g, "_")) return null;
      const mod = rustModulePath(u.path)?.split("::") ?? [];
      const rest = t.segs.slice(1);
      return mod.length > 0 && mod.every((s, i) => rest[i] === s) ? "file" : "package";
    }
    default:
      return null;
  }
}

/** The strongest link from a test's imports to a changed file: the file itself over its package; null for none. */
export function importLink(targets: readonly Target[], u: ChangedUnit): ImportLink | null {
  let best: ImportLink | null = null;
  for (const t of targets) {
    const l = linkOf(t, u);
    if (l === "file") return "file";
    best ??= l;
  }
  return best;
}
