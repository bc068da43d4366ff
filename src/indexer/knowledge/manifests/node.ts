/**
 * npm / yarn / pnpm: every package.json is a module. Workspace roots (package.json `workspaces`,
 * pnpm-workspace.yaml `packages`) decide which packages are members and so how a package's scripts are run
 * (`npm test -w <name>`, `pnpm --filter <name> test`, `yarn workspace <name> test`). The package manager comes
 * from `packageManager`, else the lockfile.
 */
import { parseDocument } from "yaml";
import {
  asString,
  asStringArray,
  cdPrefix,
  cmp,
  dirName,
  emptyCollected,
  errorMessage,
  folderName,
  hasGlobChars,
  isRecord,
  joinPath,
  jsonErrorLine,
  lineAt,
  lineOf,
  newModule,
  normalizePattern,
  relativePath,
  shellQuote,
  stripBom,
  workspaceMembers,
  type Collected,
  type Context,
} from "./common.js";
import type { ManifestFile, TestRunner } from "../../../core/knowledge.js";
import { detectRunner } from "./node-runner.js";

type PackageManager = "npm" | "yarn" | "pnpm";

interface Pkg {
  file: ManifestFile;
  dir: string;
  json: Record<string, unknown>;
  name: string | null;
}

interface WorkspaceRoot {
  dir: string;
  manifest: string;
  patterns: { pattern: string; line: number | null }[];
  pm: PackageManager;
}

const DEP_FIELDS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"];
const LOCKFILES: readonly (readonly [string, PackageManager])[] = [
  ["pnpm-lock.yaml", "pnpm"],
  ["yarn.lock", "yarn"],
  ["package-lock.json", "npm"],
  ["npm-shrinkwrap.json", "npm"],
];

export function collectNode(ctx: Context): Collected {
  const out = emptyCollected();
  const pkgs = readPackages(ctx);
  const pnpmFiles = ctx.named("pnpm-workspace.yaml");
  if (pkgs.length === 0 && pnpmFiles.length === 0) return out;
  const pkgByDir = new Map(pkgs.map((p) => [p.dir, p]));
  const roots = workspaceRoots(ctx, pkgs, pnpmFiles, pkgByDir);
  const memberOf = workspaceMembership(ctx, roots, pkgs, pkgByDir);
  const names = new Set(pkgs.map((p) => p.name).filter((n): n is string => n !== null));
  for (const p of pkgs) addPackage(ctx, out, p, memberOf.get(p.dir) ?? null, roots.get(p.dir) ?? null, names);
  return out;
}

/** Every package.json that parses to a JSON object. */
function readPackages(ctx: Context): Pkg[] {
  const pkgs: Pkg[] = [];
  for (const file of ctx.named("package.json")) {
    const text = stripBom(file.content);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      ctx.warn(file.path, jsonErrorLine(text, e), `invalid JSON: ${errorMessage(e)}`);
      continue;
    }
    if (!isRecord(json)) {
      ctx.warn(file.path, 1, "package.json is not a JSON object");
      continue;
    }
    const name = asString(json["name"])?.trim() || null;
    pkgs.push({ file, dir: dirName(file.path), json, name });
  }
  return pkgs;
}

/** Workspace roots by folder: package.json `workspaces`, then pnpm-workspace.yaml (which wins for pnpm), with their package manager. */
function workspaceRoots(ctx: Context, pkgs: Pkg[], pnpmFiles: ManifestFile[], pkgByDir: Map<string, Pkg>): Map<string, WorkspaceRoot> {
  const roots = new Map<string, WorkspaceRoot>();
  for (const p of pkgs) {
    const ws = p.json["workspaces"];
    if (ws === undefined) continue;
    const list = Array.isArray(ws) ? ws : isRecord(ws) ? ws["packages"] : undefined;
    if (!Array.isArray(list)) {
      ctx.warn(p.file.path, keyLine(p.file.content, "workspaces"), "`workspaces` is neither a list nor { packages: [...] }");
      continue;
    }
    const patterns = asStringArray(list).map((pattern) => ({ pattern, line: stringLine(p.file.content, pattern) }));
    roots.set(p.dir, { dir: p.dir, manifest: p.file.path, patterns, pm: "npm" });
  }
  for (const f of pnpmFiles) {
    const root = pnpmWorkspaceRoot(ctx, f);
    // pnpm reads pnpm-workspace.yaml, not package.json `workspaces`.
    if (root !== null) roots.set(root.dir, root);
  }
  for (const r of roots.values()) r.pm = packageManagerAt(ctx, r.dir, pkgByDir.get(r.dir) ?? null) ?? r.pm;
  return roots;
}

/** The workspace root a pnpm-workspace.yaml defines (its `packages`), or null (with a warning) when it cannot be read. */
function pnpmWorkspaceRoot(ctx: Context, f: ManifestFile): WorkspaceRoot | null {
  const doc = parseDocument(f.content, { prettyErrors: false });
  if (doc.errors.length > 0) {
    const err = doc.errors[0]!;
    const offset = err.pos?.[0];
    ctx.warn(f.path, typeof offset === "number" ? lineAt(f.content, offset) : null, `invalid YAML: ${errorMessage(err)}`);
    return null;
  }
  let data: unknown;
  try {
    data = doc.toJS();
  } catch (e) {
    ctx.warn(f.path, null, `invalid YAML: ${errorMessage(e)}`);
    return null;
  }
  const dir = dirName(f.path);
  const list = isRecord(data) ? data["packages"] : undefined;
  if (list !== undefined && !Array.isArray(list)) {
    ctx.warn(f.path, null, "`packages` is not a list");
    return null;
  }
  const patterns = asStringArray(list).map((pattern) => ({ pattern, line: stringLine(f.content, pattern) }));
  return { dir, manifest: f.path, patterns, pm: "pnpm" };
}

/** Membership: the innermost workspace root whose patterns match the package folder. Warns about literal patterns without a package. */
function workspaceMembership(ctx: Context, roots: Map<string, WorkspaceRoot>, pkgs: Pkg[], pkgByDir: Map<string, Pkg>): Map<string, WorkspaceRoot> {
  const memberOf = new Map<string, WorkspaceRoot>();
  const rootsInnermostFirst = [...roots.values()].sort((a, b) => b.dir.length - a.dir.length || cmp(a.dir, b.dir));
  for (const r of rootsInnermostFirst) {
    const positives: string[] = [];
    const negatives: string[] = [];
    for (const { pattern, line } of r.patterns) {
      const neg = pattern.startsWith("!");
      const p = normalizePattern(neg ? pattern.slice(1) : pattern);
      if (p === "" || p === ".") continue;
      (neg ? negatives : positives).push(p);
      if (!neg && !hasGlobChars(p)) {
        const target = joinPath(r.dir, p);
        if (target === null || !pkgByDir.has(target)) ctx.warn(r.manifest, line, `workspace "${pattern}" has no package.json`);
      }
    }
    const candidates = pkgs.filter((p) => !memberOf.has(p.dir)).map((p) => p.dir);
    for (const dir of workspaceMembers(r.dir, positives, negatives, candidates)) memberOf.set(dir, r);
  }
  return memberOf;
}

/** The package's module: package manager, scripts that build and test it (and its runner), internal dependencies; and its entrypoints. */
function addPackage(ctx: Context, out: Collected, p: Pkg, member: WorkspaceRoot | null, root: WorkspaceRoot | null, names: Set<string>): void {
  const pm: PackageManager = member?.pm ?? root?.pm ?? packageManagerAt(ctx, p.dir, p) ?? nearestLockfile(ctx, p.dir) ?? "npm";
  const name = p.name ?? folderName(p.dir);
  const scripts = scriptsOf(p.json);
  const testScript = scripts.get("test");
  const hasTest = testScript !== undefined && !isDefaultTestScript(testScript);
  const hasBuild = scripts.has("build");

  const dependsOn: string[] = [];
  for (const field of DEP_FIELDS) {
    const deps = p.json[field];
    if (!isRecord(deps)) continue;
    for (const dep of Object.keys(deps)) if (dep !== p.name && names.has(dep)) dependsOn.push(dep);
  }

  const found = hasTest ? detectRunner(scripts, "test", new Set()) : null;
  const runner: TestRunner | null = hasTest ? (found?.runner ?? "npm-script") : null;

  const hasBin = p.json["bin"] !== undefined && p.json["bin"] !== null;
  const hasEntry = p.json["main"] !== undefined || p.json["exports"] !== undefined || p.json["module"] !== undefined;
  const type = hasBin || (!hasEntry && scripts.has("start")) ? "app" : "library";

  const module = newModule({
    name,
    path: p.dir,
    buildSystem: pm,
    manifest: p.file.path,
    type,
    dependsOn,
    buildCommand: hasBuild ? scriptCommand(pm, "build", p, member) : null,
    testCommand: hasTest ? scriptCommand(pm, "test", p, member) : null,
    testRunner: runner,
    commandSource: hasTest ? "package.json scripts.test" : hasBuild ? "package.json scripts.build" : null,
  });
  if (found && module.testCommand !== null) {
    module.testFileCommand = found.appendable
      ? `${module.testCommand} --`
      : `${cdPrefix(p.dir)}${[...found.env, ...found.direct].join(" ")}`;
  }
  out.drafts.push({ module });
  out.entrypoints.push(...entrypointsOf(p, name));
}

function scriptsOf(json: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  const scripts = json["scripts"];
  if (isRecord(scripts)) for (const [k, v] of Object.entries(scripts)) if (typeof v === "string") out.set(k, v);
  return out;
}

/** npm init's placeholder script. */
function isDefaultTestScript(script: string): boolean {
  return script.includes("Error: no test specified");
}

function packageManagerAt(ctx: Context, dir: string, pkg: Pkg | null): PackageManager | null {
  const declared = pkg ? asString(pkg.json["packageManager"]) : null;
  if (declared) {
    const tool = declared.split("@")[0]?.trim();
    if (tool === "npm" || tool === "yarn" || tool === "pnpm") return tool;
  }
  for (const [file, pm] of LOCKFILES) {
    const p = joinPath(dir, file);
    if (p !== null && ctx.hasFile(p)) return pm;
  }
  const ws = joinPath(dir, "pnpm-workspace.yaml");
  if (ws !== null && ctx.hasFile(ws)) return "pnpm";
  return null;
}

function nearestLockfile(ctx: Context, dir: string): PackageManager | null {
  for (let d = dir; d !== ""; ) {
    d = dirName(d);
    for (const [file, pm] of LOCKFILES) {
      const p = joinPath(d, file);
      if (p !== null && ctx.hasFile(p)) return pm;
    }
  }
  return null;
}

function scriptCommand(pm: PackageManager, script: "test" | "build", p: Pkg, member: WorkspaceRoot | null): string {
  const run = script === "test" ? "test" : "run build";
  if (member === null || (pm === "yarn" && p.name === null)) {
    return `${cdPrefix(p.dir)}${pm} ${run}`;
  }
  const prefix = cdPrefix(member.dir);
  const rel = relativePath(member.dir, p.dir);
  switch (pm) {
    case "npm":
      return `${prefix}npm ${run} -w ${shellQuote(p.name ?? rel)}`;
    case "pnpm":
      return `${prefix}pnpm --filter ${shellQuote(p.name ?? `./${rel}`)} ${run}`;
    case "yarn":
      return `${prefix}yarn workspace ${shellQuote(p.name!)} ${run}`;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Entrypoints and JSON key lines
// ---------------------------------------------------------------------------------------------------------

function entrypointsOf(p: Pkg, moduleName: string) {
  const out: Collected["entrypoints"] = [];
  const bin = p.json["bin"];
  const main = asString(p.json["main"]);
  if (bin === undefined && main === null) return out;
  const lines = jsonKeyLines(p.file.content);
  const target = (rel: string): string => joinPath(p.dir, rel) ?? rel;
  if (typeof bin === "string") {
    const line = lines.get("bin") ?? null;
    const unscoped = p.name ? (p.name.startsWith("@") ? p.name.slice(p.name.indexOf("/") + 1) : p.name) : folderName(p.dir);
    out.push({ type: "cli-bin", path: p.file.path, name: unscoped, module: moduleName, startLine: line, endLine: line, target: target(bin) });
  } else if (isRecord(bin)) {
    for (const [name, rel] of Object.entries(bin)) {
      if (typeof rel !== "string") continue;
      const line = lines.get(`bin\u0000${name}`) ?? lines.get("bin") ?? null;
      out.push({ type: "cli-bin", path: p.file.path, name, module: moduleName, startLine: line, endLine: line, target: target(rel) });
    }
  }
  if (main !== null) {
    const line = lines.get("main") ?? null;
    out.push({ type: "package-main", path: p.file.path, name: p.name ?? moduleName, module: moduleName, startLine: line, endLine: line, target: target(main) });
  }
  return out;
}

/**
 * Lines of the keys of a JSON text's top-level object and of its direct child objects
 * ("bin" and "bin\u0000name"). Only positions are read here; values come from JSON.parse.
 */
export function jsonKeyLines(text: string): Map<string, number> {
  const out = new Map<string, number>();
  const stack: ("{" | "[")[] = [];
  const keys: (string | null)[] = [];
  let expectKey = false;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n") line++;
    else if (c === "{" || c === "[") {
      stack.push(c);
      keys.push(null);
      expectKey = c === "{";
    } else if (c === "}" || c === "]") {
      stack.pop();
      keys.pop();
      expectKey = false;
    } else if (c === ",") expectKey = stack[stack.length - 1] === "{";
    else if (c === ":") expectKey = false;
    else if (c === '"') {
      const startLine = line;
      let raw = "";
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === "\\") raw += text[i++];
        if (text[i] === "\n") line++;
        raw += text[i];
      }
      if (expectKey && stack[stack.length - 1] === "{") {
        let key = raw;
        if (raw.includes("\\")) {
          try {
            key = JSON.parse(`"${raw}"`) as string;
          } catch {
            key = raw;
          }
        }
        keys[keys.length - 1] = key;
        const depth = stack.length;
        if (depth <= 2) {
          const path = keys.slice(0, depth).join("\u0000");
          if (!out.has(path)) out.set(path, startLine);
        }
        expectKey = false;
      }
    }
  }
  return out;
}

function keyLine(text: string, key: string): number | null {
  return jsonKeyLines(text).get(key) ?? null;
}

/** Line of a string value in a manifest text (for warnings about a pattern). */
function stringLine(text: string, value: string): number | null {
  return lineOf(text, `"${value}"`) ?? lineOf(text, `'${value}'`) ?? lineOf(text, value);
}
