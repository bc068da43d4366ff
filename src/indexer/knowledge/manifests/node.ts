/**
 * npm / yarn / pnpm: every package.json is a module. Workspace roots (package.json `workspaces`,
 * pnpm-workspace.yaml `packages`) decide which packages are members and so how a package's scripts are run
 * (`npm test -w <name>`, `pnpm --filter <name> test`, `yarn workspace <name> test`). The package manager comes
 * from `packageManager`, else the lockfile.
 */
import picomatch from "picomatch";
import { parseDocument } from "yaml";
import {
  asString,
  asStringArray,
  baseName,
  cdPrefix,
  cmp,
  dirName,
  emptyCollected,
  errorMessage,
  folderName,
  hasGlobChars,
  isRecord,
  isUnder,
  joinPath,
  jsonErrorLine,
  lineAt,
  lineOf,
  newModule,
  normalizePattern,
  relativePath,
  shellQuote,
  stripBom,
  type Collected,
  type Context,
} from "./common.js";
import type { ManifestFile, TestRunner } from "../../../core/knowledge.js";

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
  const pnpmFiles = ctx.named("pnpm-workspace.yaml");
  if (pkgs.length === 0 && pnpmFiles.length === 0) return out;
  const pkgByDir = new Map(pkgs.map((p) => [p.dir, p]));

  // Workspace roots.
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
    const doc = parseDocument(f.content, { prettyErrors: false });
    if (doc.errors.length > 0) {
      const err = doc.errors[0]!;
      const offset = err.pos?.[0];
      ctx.warn(f.path, typeof offset === "number" ? lineAt(f.content, offset) : null, `invalid YAML: ${errorMessage(err)}`);
      continue;
    }
    let data: unknown;
    try {
      data = doc.toJS();
    } catch (e) {
      ctx.warn(f.path, null, `invalid YAML: ${errorMessage(e)}`);
      continue;
    }
    const dir = dirName(f.path);
    const list = isRecord(data) ? data["packages"] : undefined;
    if (list !== undefined && !Array.isArray(list)) {
      ctx.warn(f.path, null, "`packages` is not a list");
      continue;
    }
    const patterns = asStringArray(list).map((pattern) => ({ pattern, line: stringLine(f.content, pattern) }));
    // pnpm reads pnpm-workspace.yaml, not package.json `workspaces`.
    roots.set(dir, { dir, manifest: f.path, patterns, pm: "pnpm" });
  }
  for (const r of roots.values()) r.pm = packageManagerAt(ctx, r.dir, pkgByDir.get(r.dir) ?? null) ?? r.pm;

  // Membership: the innermost workspace root whose patterns match the package folder.
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
    if (positives.length === 0) continue;
    const include = picomatch(positives, { dot: true });
    const exclude = negatives.length > 0 ? picomatch(negatives, { dot: true }) : () => false;
    for (const p of pkgs) {
      if (p.dir === r.dir || !isUnder(p.dir, r.dir) || memberOf.has(p.dir)) continue;
      const rel = relativePath(r.dir, p.dir);
      if (include(rel) && !exclude(rel)) memberOf.set(p.dir, r);
    }
  }

  const names = new Set(pkgs.map((p) => p.name).filter((n): n is string => n !== null));
  for (const p of pkgs) {
    const member = memberOf.get(p.dir) ?? null;
    const root = roots.get(p.dir) ?? null;
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
  return out;
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
// Test runner detection from script text
// ---------------------------------------------------------------------------------------------------------

/** Programs that run another program: skip them (and their options) to find the real one. */
const WRAPPERS: ReadonlySet<string> = new Set(["npx", "cross-env", "dotenv", "env", "c8", "nyc", "bunx", "env-cmd", "dotenvx"]);
/** Node options a one-file run must keep; the ones in the first set take a value. */
const NODE_VALUE_FLAGS: ReadonlySet<string> = new Set(["--import", "--loader", "--experimental-loader", "--require", "-r", "--conditions", "-C", "--env-file"]);
const JEST_VALUE_FLAGS: ReadonlySet<string> = new Set(["--config", "-c", "--project", "--selectProjects", "--root", "-r", "--dir", "--environment", "--rootDir", "--setupFiles"]);
const MOCHA_VALUE_FLAGS: ReadonlySet<string> = new Set(["--require", "-r", "--import", "--loader", "--extension", "--ui", "-u", "--config", "--timeout", "-t"]);

interface RunnerInfo {
  runner: TestRunner;
  /** The runner run directly on some files: `npx vitest run --config x.ts`, `node --import tsx --test`. */
  direct: string[];
  /** Environment assignments the script gives the runner (`NODE_OPTIONS=--experimental-vm-modules`). */
  env: string[];
  /** Whether `<test command> -- <file>` reaches the runner. */
  appendable: boolean;
}

/** Split a script into its commands (at `&&`, `||`, `;`, `|`), outside quotes. */
function splitCommands(script: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = "";
  let quote: string | null = null;
  let inWord = false;
  const endWord = (): void => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endCommand = (): void => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let i = 0; i < script.length; i++) {
    const c = script[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && i + 1 < script.length) word += script[++i];
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "&" || c === "|" || c === ";") {
      endCommand();
      if (script[i + 1] === c) i++;
    } else if (c === " " || c === "\t" || c === "\n") endWord();
    else if (c === "\\" && i + 1 < script.length) {
      word += script[++i];
      inWord = true;
    } else {
      word += c;
      inWord = true;
    }
  }
  endCommand();
  return commands;
}

function isEnvAssignment(w: string): boolean {
  const eq = w.indexOf("=");
  if (eq <= 0 || w.startsWith("-")) return false;
  for (let i = 0; i < eq; i++) {
    const c = w[i]!;
    const ok = (c >= "A" && c <= "Z") || (c >= "a" && c <= "z") || c === "_" || (i > 0 && c >= "0" && c <= "9");
    if (!ok) return false;
  }
  return true;
}

function detectRunner(scripts: Map<string, string>, scriptName: string, seen: Set<string>): RunnerInfo | null {
  const script = scripts.get(scriptName);
  if (script === undefined || seen.has(scriptName) || seen.size > 8) return null;
  const top = seen.size === 0;
  seen.add(scriptName);
  const commands = splitCommands(script);
  for (let c = 0; c < commands.length; c++) {
    const words = commands[c]!;
    const env: string[] = [];
    let k = 0;
    for (;;) {
      const w = words[k];
      if (w === undefined) break;
      if (isEnvAssignment(w)) {
        env.push(w);
        k++;
        continue;
      }
      const b = baseName(w);
      if (WRAPPERS.has(b)) {
        k++;
        while (words[k]?.startsWith("-")) k++;
        if (b === "dotenv" || b === "env-cmd") while (words[k] !== undefined && words[k] !== "--" && !words[k]!.startsWith("-") && words[k]!.includes(".")) k++;
        if (words[k] === "--") k++;
        continue;
      }
      if ((b === "pnpm" || b === "yarn") && (words[k + 1] === "exec" || words[k + 1] === "dlx")) {
        k += 2;
        continue;
      }
      break;
    }
    const program = words[k] === undefined ? "" : baseName(words[k]!);
    const args = words.slice(k + 1);
    if (program === "npm" || program === "pnpm" || program === "yarn" || program === "bun") {
      let target: string | undefined;
      if (args[0] === "run" || args[0] === "run-script") target = args[1];
      else if (args[0] === "test" || args[0] === "t") target = "test";
      else if (program !== "npm" && args[0] !== undefined && scripts.has(args[0])) target = args[0];
      if (target !== undefined && !args.includes("-w") && !args.includes("--workspace") && !args.includes("--filter") && !args.includes("-r") && !args.includes("--recursive")) {
        const found = detectRunner(scripts, target, seen);
        if (found) return { ...found, appendable: false };
      }
      continue;
    }
    // Arguments given to `npm test -- ...` land at the end of the script: they reach the runner only when
    // the runner is the script's last command.
    const appendable = top && c === commands.length - 1;
    const envWords = env.map((e) => `${e.slice(0, e.indexOf("="))}=${shellQuote(e.slice(e.indexOf("=") + 1))}`);
    if (program === "jest") return { runner: "jest", direct: ["npx", "jest", ...keepFlags(args, JEST_VALUE_FLAGS, false)], env: envWords, appendable };
    if ((program === "react-scripts" || program === "craco") && args[0] === "test") {
      return { runner: "jest", direct: ["npx", program, "test", "--watchAll=false"], env: envWords, appendable };
    }
    if (program === "vitest") return { runner: "vitest", direct: ["npx", "vitest", "run", ...keepFlags(args, JEST_VALUE_FLAGS, false)], env: envWords, appendable };
    if (program === "mocha" || program === "_mocha") {
      return { runner: "mocha", direct: ["npx", "mocha", ...keepFlags(args, MOCHA_VALUE_FLAGS, false)], env: envWords, appendable: false };
    }
    if ((program === "node" || program === "tsx") && args.includes("--test")) {
      const flags = keepFlags(args, NODE_VALUE_FLAGS, true);
      const direct = ["node", ...(program === "tsx" ? ["--import", "tsx"] : []), ...flags, "--test"];
      // Its file arguments (test/*.test.ts) would still run: never append to the script.
      return { runner: "node-test", direct, env: envWords, appendable: false };
    }
  }
  return null;
}

/** Options before the first positional argument that a one-file run keeps. */
function keepFlags(args: string[], valueFlags: ReadonlySet<string>, keepExperimental: boolean): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith("-")) continue;
    const eq = a.indexOf("=");
    const flag = eq > 0 ? a.slice(0, eq) : a;
    if (valueFlags.has(flag)) {
      if (eq > 0) out.push(a);
      else if (args[i + 1] !== undefined) {
        out.push(a, args[i + 1]!);
        i++;
      }
    } else if (keepExperimental && (flag.startsWith("--experimental-") || flag === "--enable-source-maps" || flag === "--no-warnings")) {
      out.push(a);
    }
  }
  return out.map(shellQuote);
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
