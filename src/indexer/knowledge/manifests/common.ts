/**
 * Shared pieces of the manifests stage: the context every ecosystem reader gets (manifest texts, the set of
 * indexed paths, warnings), the draft a reader produces per module, and small path/shell helpers.
 *
 * Conventions used by every reader:
 * - paths are repository-relative with "/", folders have no trailing slash, the root folder is "";
 * - every command runs from the repository root; when the tool must run inside a folder the command
 *   starts with `cd <folder> && ` (see `splitCd`).
 */
import picomatch from "picomatch";
import type {
  BuildSystem,
  ManifestEntrypoint,
  ManifestFile,
  ManifestWarning,
  PathInfo,
  RepoModule,
  TestRunner,
} from "../../../core/knowledge.js";

/** What the one pass over every indexed path learns about a module's own files (innermost assignment). */
export interface ModuleStats {
  files: number;
  /** language id -> file count */
  languages: Map<string, number>;
  /** Files in a programming language. */
  codeFiles: number;
  /** Programming-language files that are test code by path convention. */
  testCodeFiles: number;
  /** Test folder or glob (repository-relative) -> file count. */
  testRoots: Map<string, number>;
  /** Base names of notable files anywhere in the module (see NOTABLE_NAMES). */
  names: Set<string>;
  /** First folder segment of every file below the module folder. */
  topDirs: Set<string>;
}

/** Files whose mere presence inside a module changes what a reader concludes. */
export const NOTABLE_NAMES: ReadonlySet<string> = new Set(["main.go", "conftest.py", "__main__.py", "pytest.ini"]);

export interface Draft {
  module: RepoModule;
  /** Runs after the file pass, for conclusions that need the module's files (Go `cmd/`, Python `conftest.py`). */
  finish?: (stats: ModuleStats) => void;
}

/** A command that tests everything from the root, defined by a root manifest that is not itself a module. */
export interface RootCommand {
  buildSystem: BuildSystem;
  command: string;
}

export interface Collected {
  drafts: Draft[];
  entrypoints: ManifestEntrypoint[];
  roots: RootCommand[];
}

export function emptyCollected(): Collected {
  return { drafts: [], entrypoints: [], roots: [] };
}

export class Context {
  readonly warnings: ManifestWarning[] = [];
  private readonly files: Set<string>;
  private readonly dirs: Set<string>;
  private readonly byBase = new Map<string, ManifestFile[]>();
  private readonly byExt = new Map<string, ManifestFile[]>();
  private readonly manifestPaths = new Set<string>();

  constructor(manifests: readonly ManifestFile[], paths: readonly PathInfo[]) {
    this.files = new Set();
    this.dirs = new Set([""]);
    for (const p of paths) this.addFile(p.path);
    const sorted = [...manifests].sort((a, b) => cmp(a.path, b.path));
    for (const m of sorted) {
      if (this.manifestPaths.has(m.path)) continue;
      this.manifestPaths.add(m.path);
      this.addFile(m.path);
      push(this.byBase, baseName(m.path), m);
      const dot = m.path.lastIndexOf(".");
      if (dot > m.path.lastIndexOf("/")) push(this.byExt, m.path.slice(dot).toLowerCase(), m);
    }
  }

  private addFile(path: string): void {
    this.files.add(path);
    let dir = dirName(path);
    // Stop at the first folder already known: all of its ancestors are known too, so this stays linear.
    while (!this.dirs.has(dir)) {
      this.dirs.add(dir);
      dir = dirName(dir);
    }
  }

  /** Manifests with one of these base names, sorted by path. */
  named(...names: string[]): ManifestFile[] {
    const out: ManifestFile[] = [];
    for (const n of names) out.push(...(this.byBase.get(n) ?? []));
    return names.length > 1 ? out.sort((a, b) => cmp(a.path, b.path)) : out;
  }

  /** Manifests whose name ends with one of these extensions (".csproj"), sorted by path. */
  withExtension(...exts: string[]): ManifestFile[] {
    const out: ManifestFile[] = [];
    for (const e of exts) out.push(...(this.byExt.get(e) ?? []));
    return exts.length > 1 ? out.sort((a, b) => cmp(a.path, b.path)) : out;
  }

  isManifest(path: string): boolean {
    return this.manifestPaths.has(path);
  }

  /** Is there an indexed file (or manifest) at this path? */
  hasFile(path: string): boolean {
    return this.files.has(path);
  }

  /** Does any indexed file live in this folder or below it? */
  hasDir(dir: string): boolean {
    return this.dirs.has(dir);
  }

  warn(path: string, line: number | null, reason: string): void {
    this.warnings.push({ path, line, reason });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Module construction
// ---------------------------------------------------------------------------------------------------------

export function newModule(init: {
  name: string;
  path: string;
  buildSystem: BuildSystem;
  manifest: string;
  type?: RepoModule["type"];
  dependsOn?: Iterable<string>;
  buildCommand?: string | null;
  testCommand?: string | null;
  testRunner?: TestRunner | null;
  commandSource?: string | null;
}): RepoModule {
  return {
    name: init.name,
    path: init.path,
    buildSystem: init.buildSystem,
    manifest: init.manifest,
    type: init.type ?? "library",
    mainLanguage: null,
    testPaths: [],
    dependsOn: [...new Set(init.dependsOn ?? [])].filter((d) => d !== init.name).sort(cmp),
    buildCommand: init.buildCommand ?? null,
    testCommand: init.testCommand ?? null,
    testRunner: init.testRunner ?? null,
    commandSource: init.commandSource ?? null,
  };
}

/** Name for a module whose manifest names none: its folder's name, "root" for the repository root. */
export function folderName(dir: string): string {
  return dir === "" ? "root" : baseName(dir);
}

// ---------------------------------------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------------------------------------

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function baseName(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? path : path.slice(i + 1);
}

/** Parent folder; "" for top-level entries and for "" itself. */
export function dirName(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/** File name without its last extension. */
export function stemOf(path: string): string {
  const base = baseName(path);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

/**
 * `rel` (which may use "\", "./", "../", trailing "/") resolved against folder `dir`; null when it leaves the
 * repository or is absolute.
 */
export function joinPath(dir: string, rel: string): string | null {
  const r = rel.replace(/\\/g, "/").trim();
  if (r.startsWith("/") || /^[A-Za-z]:\//.test(r)) return null;
  const out = dir === "" ? [] : dir.split("/");
  for (const seg of r.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(seg);
  }
  return out.join("/");
}

export function isUnder(path: string, dir: string): boolean {
  return dir === "" || path === dir || path.startsWith(`${dir}/`);
}

/** `path` relative to folder `dir` ("" when equal), with "../" when it is outside. */
export function relativePath(dir: string, path: string): string {
  if (dir === path) return "";
  if (isUnder(path, dir)) return dir === "" ? path : path.slice(dir.length + 1);
  const from = dir.split("/");
  const to = path === "" ? [] : path.split("/");
  let i = 0;
  while (i < from.length && i < to.length && from[i] === to[i]) i++;
  return [...from.slice(i).map(() => ".."), ...to.slice(i)].join("/");
}

/** `path` relative to folder `dir` when inside it, else null. */
export function insidePath(dir: string, path: string): string | null {
  if (!isUnder(path, dir) || path === dir) return null;
  return dir === "" ? path : path.slice(dir.length + 1);
}

export function hasGlobChars(pattern: string): boolean {
  return /[*?[\]{}!()]/.test(pattern);
}

/** Workspace/member pattern in a normal form: "/" separators, no "./" prefix, no trailing "/". */
export function normalizePattern(pattern: string): string {
  let p = pattern.trim().replace(/\\/g, "/");
  while (p.startsWith("./")) p = p.slice(2);
  while (p.endsWith("/")) p = p.slice(0, -1);
  return p;
}

/**
 * The folders of `dirs` strictly below workspace folder `root` whose path relative to it matches an `include`
 * pattern and no `exclude` pattern (normalized patterns, dotfiles matched); none when `include` is empty.
 */
export function workspaceMembers(root: string, include: string[], exclude: string[], dirs: readonly string[]): string[] {
  if (include.length === 0) return [];
  const included = picomatch(include, { dot: true });
  const excluded = exclude.length > 0 ? picomatch(exclude, { dot: true }) : () => false;
  return dirs.filter((dir) => {
    if (dir === root || !isUnder(dir, root)) return false;
    const rel = relativePath(root, dir);
    return included(rel) && !excluded(rel);
  });
}

// ---------------------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------------------

/** Quote for a POSIX shell when needed. */
export function shellQuote(s: string): string {
  // `#` starts a comment and `~` expands only at the start of a word.
  if (s !== "" && /^[A-Za-z0-9@%+=:,./_~#-]+$/.test(s) && !s.startsWith("~") && !s.startsWith("#")) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Single quotes always (for filter arguments, whose examples are always quoted). */
export function alwaysQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** `cd <dir> && ` for a folder below the root, "" for the root. */
export function cdPrefix(dir: string): string {
  return dir === "" ? "" : `cd ${shellQuote(dir)} && `;
}

/** Split a command into its `cd <dir> && ` prefix (as written) and the rest. */
export function splitCd(command: string): { prefix: string; rest: string } {
  if (!command.startsWith("cd ")) return { prefix: "", rest: command };
  const i = command.indexOf(" && ");
  if (i < 0) return { prefix: "", rest: command };
  return { prefix: command.slice(0, i + 4), rest: command.slice(i + 4) };
}

/**
 * The build-tool wrapper (`gradlew`, `mvnw`) to run in folder `dir`: its own ("./gradlew") or the nearest
 * ancestor's ("../gradlew"; both wrappers work from any folder of the build), or null when there is none.
 */
export function wrapperFor(ctx: Context, dir: string, script: string): string | null {
  for (let d = dir; ; d = dirName(d)) {
    const p = joinPath(d, script);
    if (p !== null && ctx.hasFile(p)) return d === dir ? `./${script}` : `${relativePath(dir, d)}/${script}`;
    if (d === "") return null;
  }
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// ---------------------------------------------------------------------------------------------------------
// Text helpers
// ---------------------------------------------------------------------------------------------------------

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** 1-based line of the first occurrence of `needle` at or after `from`, or null. */
export function lineOf(text: string, needle: string, from = 0): number | null {
  const i = text.indexOf(needle, from);
  return i < 0 ? null : lineAt(text, i);
}

export function errorMessage(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const first = msg.split("\n")[0] ?? msg;
  return first.length > 300 ? `${first.slice(0, 300)}...` : first;
}

/** Line of a JSON.parse error, from the position or line the engine reports. */
export function jsonErrorLine(text: string, e: unknown): number | null {
  const msg = e instanceof Error ? e.message : "";
  const line = /\(line (\d+) column \d+\)/.exec(msg);
  if (line) return Number(line[1]);
  const pos = /at position (\d+)/.exec(msg);
  if (pos) return lineAt(text, Number(pos[1]));
  if (/Unexpected end of JSON input/.test(msg)) return lineAt(text, text.length);
  return null;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function asString(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

export function asStringArray(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

/** A value that XML parsing gives as one item or a list, as a list. */
export function asList(v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
