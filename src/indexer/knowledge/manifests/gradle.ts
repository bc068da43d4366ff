/**
 * Gradle: a settings file (settings.gradle / settings.gradle.kts) makes a build root whose projects are the
 * root project plus every `include`d project. Groovy and Kotlin DSL are programs, not data, so a small
 * tokenizer reads just the statements that matter: `include`, `rootProject.name`, `project(":x").projectDir`,
 * and in build files `project(":x")` / `projects.x` inside `dependencies { }` and application plugins.
 * Module names are Gradle project paths (":libs:core"), the root project is named by `rootProject.name`.
 */
import {
  baseName,
  cdPrefix,
  cmp,
  dirName,
  emptyCollected,
  folderName,
  joinPath,
  newModule,
  relativePath,
  wrapperFor,
  type Collected,
  type Context,
} from "./common.js";
import type { ManifestFile, RepoModule } from "../../../core/knowledge.js";

// ---------------------------------------------------------------------------------------------------------
// Tokenizer
// ---------------------------------------------------------------------------------------------------------

interface Token {
  kind: "ident" | "str" | "punct" | "nl";
  value: string;
  line: number;
  /** String with `$` interpolation: its value is not known statically. */
  dynamic?: boolean;
}

function isIdentStart(c: string): boolean {
  return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_" || c === "$";
}
function isIdentPart(c: string): boolean {
  return isIdentStart(c) || (c >= "0" && c <= "9");
}

/** Tokens of a Groovy/Kotlin build script: identifiers, string literals, punctuation and newlines. */
export function tokenizeGradle(text: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === "\n") {
      tokens.push({ kind: "nl", value: "\n", line });
      line++;
      i++;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r" || c === "\f") {
      i++;
      continue;
    }
    if (c === "/" && text[i + 1] === "/") {
      while (i < n && text[i] !== "\n") i++;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      i += 2;
      while (i < n && !(text[i] === "*" && text[i + 1] === "/")) {
        if (text[i] === "\n") line++;
        i++;
      }
      i += 2;
      continue;
    }
    if (c === '"' || c === "'") {
      const startLine = line;
      const triple = text[i + 1] === c && text[i + 2] === c;
      const quote = triple ? c + c + c : c;
      i += quote.length;
      let value = "";
      while (i < n && !text.startsWith(quote, i)) {
        const ch = text[i]!;
        if (ch === "\\" && i + 1 < n) {
          value += text[i + 1];
          i += 2;
          continue;
        }
        if (ch === "\n") {
          line++;
          if (!triple) break; // unterminated single-line string: stop at the line end
        }
        value += ch;
        i++;
      }
      if (text.startsWith(quote, i)) i += quote.length;
      // Groovy single quotes never interpolate; double quotes (and Kotlin strings) do with `$`.
      tokens.push({ kind: "str", value, line: startLine, dynamic: c === '"' && value.includes("$") });
      continue;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdentPart(text[j]!)) j++;
      tokens.push({ kind: "ident", value: text.slice(i, j), line });
      i = j;
      continue;
    }
    if (c >= "0" && c <= "9") {
      let j = i + 1;
      while (j < n && (isIdentPart(text[j]!) || text[j] === ".")) j++;
      tokens.push({ kind: "ident", value: text.slice(i, j), line });
      i = j;
      continue;
    }
    tokens.push({ kind: "punct", value: c, line });
    i++;
  }
  return tokens;
}

function isPunct(t: Token | undefined, v: string): boolean {
  return t !== undefined && t.kind === "punct" && t.value === v;
}
function isIdent(t: Token | undefined, v: string): boolean {
  return t !== undefined && t.kind === "ident" && t.value === v;
}

// ---------------------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------------------

interface Settings {
  file: ManifestFile;
  dir: string;
  rootName: string | null;
  /** Included project paths (":a:b") with the line of their include. */
  includes: { path: string; line: number }[];
  /** Project path -> folder (relative to the settings folder) from `project(":x").projectDir = ...`. */
  projectDirs: Map<string, string>;
  /** Some includes are computed (loops, variables, interpolation): folders with build files count as projects. */
  dynamic: boolean;
}

function normalizeProjectPath(p: string): string {
  const segs = p.split(":").filter((s) => s !== "");
  return `:${segs.join(":")}`;
}

export function readSettings(file: ManifestFile): Settings {
  const t = tokenizeGradle(file.content);
  const s: Settings = {
    file,
    dir: dirName(file.path),
    rootName: null,
    includes: [],
    projectDirs: new Map(),
    dynamic: false,
  };
  for (let i = 0; i < t.length; i++) {
    const tok = t[i]!;
    if (tok.kind !== "ident" || isPunct(t[i - 1], ".")) continue;
    if (tok.value === "include") {
      let j = i + 1;
      const paren = isPunct(t[j], "(");
      if (paren) j++;
      let any = false;
      for (;;) {
        while (t[j]?.kind === "nl" && (paren || any)) j++;
        const v = t[j];
        if (v?.kind === "str") {
          if (v.dynamic) s.dynamic = true;
          else if (v.value.trim() !== "") s.includes.push({ path: normalizeProjectPath(v.value.trim()), line: v.line });
          any = true;
          j++;
        } else if (v !== undefined && !isPunct(v, ")") && v.kind !== "nl") {
          s.dynamic = true; // include(listOf(...)), include(*names), include name ...
          break;
        } else break;
        while (t[j]?.kind === "nl" && paren) j++;
        if (isPunct(t[j], ",")) {
          j++;
          continue;
        }
        break;
      }
      if (!any && !paren) s.dynamic = true;
      i = j - 1;
    } else if (tok.value === "rootProject" && isPunct(t[i + 1], ".") && isIdent(t[i + 2], "name") && isPunct(t[i + 3], "=")) {
      const v = t[i + 4];
      if (v?.kind === "str" && !v.dynamic) s.rootName = v.value;
    } else if (
      tok.value === "project" &&
      isPunct(t[i + 1], "(") &&
      t[i + 2]?.kind === "str" &&
      isPunct(t[i + 3], ")") &&
      isPunct(t[i + 4], ".") &&
      isIdent(t[i + 5], "projectDir") &&
      isPunct(t[i + 6], "=")
    ) {
      // The folder is the last string literal of the assignment: file('x'), new File(rootDir, 'x'), File(settingsDir, "x").
      let last: Token | null = null;
      let depth = 0;
      let j = i + 7;
      for (; j < t.length; j++) {
        const v = t[j]!;
        if (v.kind === "nl" && depth === 0) break;
        if (isPunct(v, ";") && depth === 0) break;
        if (isPunct(v, "(")) depth++;
        if (isPunct(v, ")")) depth--;
        if (v.kind === "str") last = v;
      }
      const projectPath = normalizeProjectPath(t[i + 2]!.value);
      if (last && !last.dynamic) s.projectDirs.set(projectPath, last.value);
      else s.dynamic = true;
      i = j;
    }
  }
  return s;
}

// ---------------------------------------------------------------------------------------------------------
// Build files
// ---------------------------------------------------------------------------------------------------------

const APP_PLUGIN_IDS: ReadonlySet<string> = new Set([
  "application",
  "org.springframework.boot",
  "com.android.application",
  "io.quarkus",
  "io.micronaut.application",
  "org.jetbrains.compose",
]);
/** Blocks where a `mainClass` names the project's application entry point. */
const APP_BLOCKS: ReadonlySet<string> = new Set(["application", "springBoot"]);
/** Blocks whose `dependencies { }` are not this project's dependencies. */
const FOREIGN_BLOCKS: ReadonlySet<string> = new Set(["buildscript", "subprojects", "allprojects", "configure"]);

export interface BuildScriptInfo {
  /** Project paths (":x") referenced by `project(...)`. */
  projectRefs: string[];
  /** Type-safe accessors `projects.a.bC` as segment lists. */
  accessors: string[][];
  app: boolean;
}

export function readBuildScript(text: string): BuildScriptInfo {
  const t = tokenizeGradle(text);
  const info: BuildScriptInfo = { projectRefs: [], accessors: [], app: false };
  // Stack of block names ("" for an anonymous block) to know where a token sits; `name(...) {` names its block.
  const stack: string[] = [];
  const parenNames: string[] = [];
  let lastName = "";
  for (let i = 0; i < t.length; i++) {
    const tok = t[i]!;
    if (tok.kind === "ident") lastName = tok.value;
    else if (isPunct(tok, "(")) {
      parenNames.push(lastName);
      lastName = "";
    } else if (isPunct(tok, ")")) lastName = parenNames.pop() ?? "";
    else if (isPunct(tok, "{")) {
      stack.push(lastName);
      lastName = "";
      continue;
    } else if (isPunct(tok, "}")) {
      stack.pop();
      lastName = "";
      continue;
    } else if (!isPunct(tok, ".")) lastName = "";

    const inPlugins = stack.includes("plugins");
    if (tok.kind === "str" && APP_PLUGIN_IDS.has(tok.value)) {
      // `id 'application'`, `id("org.springframework.boot")`, `apply plugin: 'application'`
      const prev = t[i - 1];
      const prev2 = t[i - 2];
      if (inPlugins || isIdent(prev, "id") || isIdent(prev2, "id") || isPunct(prev, ":") || isPunct(prev, "(")) info.app = true;
    }
    if (tok.kind === "ident" && inPlugins && tok.value === "application" && !isPunct(t[i - 1], ".")) info.app = true;
    // The application's main class: `application { mainClass... }`, `springBoot { ... }`, or top-level `mainClassName = ...`
    // (a JavaExec task's mainClass runs a tool, it does not make the project an application).
    if (
      tok.kind === "ident" &&
      (tok.value === "mainClass" || tok.value === "mainClassName") &&
      (stack.length === 0 ? !isPunct(t[i - 1], ".") || isIdent(t[i - 2], "application") : APP_BLOCKS.has(stack[stack.length - 1]!))
    ) {
      info.app = true;
    }

    if (!stack.includes("dependencies") || stack.some((b) => FOREIGN_BLOCKS.has(b))) continue;
    if (isIdent(tok, "project") && isPunct(t[i + 1], "(") && !isPunct(t[i - 1], ".")) {
      // project(":x"), project(path: ":x"), project(path = ":x", configuration = "...")
      let j = i + 2;
      if (isIdent(t[j], "path") && (isPunct(t[j + 1], ":") || isPunct(t[j + 1], "="))) j += 2;
      const v = t[j];
      if (v?.kind === "str" && !v.dynamic) info.projectRefs.push(normalizeProjectPath(v.value));
    } else if (isIdent(tok, "projects") && isPunct(t[i + 1], ".") && !isPunct(t[i - 1], ".")) {
      const segs: string[] = [];
      let j = i + 1;
      while (isPunct(t[j], ".") && t[j + 1]?.kind === "ident") {
        segs.push(t[j + 1]!.value);
        j += 2;
      }
      if (segs.length > 0) info.accessors.push(segs);
    }
  }
  return info;
}

/** Gradle's type-safe accessor form of a name: "my-lib_x" -> "mylibx" (compared case-insensitively). */
function accessorKey(name: string): string {
  let out = "";
  for (const c of name.toLowerCase()) if (c !== "-" && c !== "_" && c !== ".") out += c;
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Collector
// ---------------------------------------------------------------------------------------------------------

interface Project {
  gradlePath: string; // ":" for the root project
  dir: string;
  root: Settings | null;
  rootDir: string;
  buildFile: ManifestFile | null;
  fromSettings: boolean;
  line: number | null;
}

export function collectGradle(ctx: Context): Collected {
  const out = emptyCollected();
  const settingsFiles = ctx.named("settings.gradle", "settings.gradle.kts");
  const buildFiles = ctx.named("build.gradle", "build.gradle.kts");
  if (settingsFiles.length === 0 && buildFiles.length === 0) return out;

  const settingsByDir = new Map<string, Settings>();
  for (const f of settingsFiles) {
    const dir = dirName(f.path);
    if (settingsByDir.has(dir)) continue; // both DSLs in one folder: the first (Groovy, by name order) wins
    settingsByDir.set(dir, readSettings(f));
  }
  const buildByDir = new Map<string, ManifestFile>();
  for (const f of buildFiles) if (!buildByDir.has(dirName(f.path))) buildByDir.set(dirName(f.path), f);

  const projects = new Map<string, Project>(); // by folder
  for (const s of [...settingsByDir.values()].sort((a, b) => cmp(a.dir, b.dir))) addSettingsProjects(ctx, s, buildByDir, projects);
  addUnincludedBuildFiles(ctx, settingsByDir, buildByDir, projects);

  const index = indexProjects(projects);
  for (const p of [...projects.values()].sort((a, b) => cmp(a.dir, b.dir))) out.drafts.push({ module: projectModule(ctx, p, index) });
  return out;
}

/** Adds a project unless its folder already has one (the first one found wins). */
function addProject(projects: Map<string, Project>, p: Project): void {
  if (!projects.has(p.dir)) projects.set(p.dir, p);
}

/** The settings file nearest above `dir` (or in it), or null. */
function innermostSettings(settingsByDir: Map<string, Settings>, dir: string): Settings | null {
  for (let d = dir; ; d = dirName(d)) {
    const s = settingsByDir.get(d);
    if (s) return s;
    if (d === "") return null;
  }
}

/** A settings file's projects: its root project, every `include`d project, and implicit parents that have a build file. */
function addSettingsProjects(ctx: Context, s: Settings, buildByDir: Map<string, ManifestFile>, projects: Map<string, Project>): void {
  addProject(projects, { gradlePath: ":", dir: s.dir, root: s, rootDir: s.dir, buildFile: buildByDir.get(s.dir) ?? null, fromSettings: true, line: null });
  const explicit = new Set(s.includes.map((i) => i.path));
  const implicitParents = new Set<string>();
  for (const inc of s.includes) {
    const segs = inc.path.split(":").filter((x) => x !== "");
    for (let k = 1; k < segs.length; k++) implicitParents.add(`:${segs.slice(0, k).join(":")}`);
  }
  const all = [...s.includes.map((i) => ({ path: i.path, line: i.line as number | null }))];
  for (const p of implicitParents) if (!explicit.has(p)) all.push({ path: p, line: null });
  for (const inc of all) {
    const custom = s.projectDirs.get(inc.path);
    const rel = custom ?? inc.path.split(":").filter((x) => x !== "").join("/");
    const dir = joinPath(s.dir, rel);
    if (dir === null) {
      ctx.warn(s.file.path, inc.line, `project ${inc.path} points outside the repository`);
      continue;
    }
    const buildFile = buildByDir.get(dir) ?? null;
    if (!explicit.has(inc.path) && !buildFile) continue; // an implicit parent without a build file is just a folder
    if (!buildFile && !ctx.hasDir(dir)) {
      ctx.warn(s.file.path, inc.line, `included project ${inc.path} has no folder ${dir}`);
      continue;
    }
    addProject(projects, { gradlePath: inc.path, dir, root: s, rootDir: s.dir, buildFile, fromSettings: true, line: inc.line });
  }
}

/** Build files no settings file includes. */
function addUnincludedBuildFiles(ctx: Context, settingsByDir: Map<string, Settings>, buildByDir: Map<string, ManifestFile>, projects: Map<string, Project>): void {
  for (const [dir, f] of [...buildByDir.entries()].sort((a, b) => cmp(a[0], b[0]))) {
    if (projects.has(dir)) continue;
    const s = innermostSettings(settingsByDir, dir);
    if (s === null) {
      // A single-project build of its own.
      addProject(projects, { gradlePath: ":", dir, root: null, rootDir: dir, buildFile: f, fromSettings: false, line: null });
    } else if (s.dynamic) {
      const gp = `:${relativePath(s.dir, dir).split("/").join(":")}`;
      addProject(projects, { gradlePath: gp, dir, root: s, rootDir: s.dir, buildFile: f, fromSettings: false, line: null });
    } else {
      ctx.warn(f.path, null, `not included by ${s.file.path}; not a project of that build`);
    }
  }
}

/** Projects by build root and Gradle path, and by build root and type-safe accessor. */
interface ProjectIndex {
  byRootAndPath: Map<string, Project>;
  accessorIndex: Map<string, Project>;
}

/** Indexes the projects for the lookups of `project(...)` references and `projects.x` accessors. */
function indexProjects(projects: Map<string, Project>): ProjectIndex {
  const byRootAndPath = new Map<string, Project>();
  const accessorIndex = new Map<string, Project>();
  for (const p of projects.values()) {
    byRootAndPath.set(`${p.rootDir}\u0000${p.gradlePath}`, p);
    if (p.gradlePath !== ":") {
      const key = p.gradlePath.split(":").filter((x) => x !== "").map(accessorKey).join(".");
      accessorIndex.set(`${p.rootDir}\u0000${key}`, p);
    }
  }
  return { byRootAndPath, accessorIndex };
}

/** Names: the root project by rootProject.name (or folder), the others by their Gradle path. */
function projectName(p: Project): string {
  return p.gradlePath === ":" ? (p.root?.rootName ?? folderName(p.dir)) : p.gradlePath;
}

/** The module of a project: what its build script depends on, and its build and test tasks run through the wrapper from the build root. */
function projectModule(ctx: Context, p: Project, index: ProjectIndex): RepoModule {
  const info = p.buildFile ? readBuildScript(p.buildFile.content) : { projectRefs: [], accessors: [], app: false };
  const dependsOn: string[] = [];
  for (const ref of info.projectRefs) {
    const hit = index.byRootAndPath.get(`${p.rootDir}\u0000${ref}`);
    if (hit && hit !== p) dependsOn.push(projectName(hit));
  }
  for (const segs of info.accessors) {
    const hit = index.accessorIndex.get(`${p.rootDir}\u0000${segs.map(accessorKey).join(".")}`);
    if (hit && hit !== p) dependsOn.push(projectName(hit));
  }
  const gradle = wrapperFor(ctx, p.rootDir, "gradlew") ?? "gradle";
  const task = (name: string): string => (p.gradlePath === ":" ? name : `${p.gradlePath}:${name}`);
  const prefix = `${cdPrefix(p.rootDir)}${gradle} `;
  const manifest = p.buildFile?.path ?? p.root?.file.path ?? "";
  const settingsName = p.root ? baseName(p.root.file.path) : null;
  return newModule({
    name: projectName(p),
    path: p.dir,
    buildSystem: "gradle",
    manifest,
    type: info.app ? "app" : "library",
    dependsOn,
    buildCommand: `${prefix}${task("build")}`,
    testCommand: `${prefix}${task("test")}`,
    testRunner: "gradle",
    commandSource:
      settingsName === null
        ? baseName(manifest)
        : p.gradlePath === ":"
          ? settingsName
          : p.fromSettings
            ? `${settingsName} include`
            : `${settingsName} (computed includes)`,
  });
}
