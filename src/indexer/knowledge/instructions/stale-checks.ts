/** Stale commands and paths in instruction files, found by comparing them with what the index holds. */
import type { ManifestFile, PathInfo } from "../../../core/knowledge.js";
import type { InstructionFile } from "../../../core/instructions.js";
import { looksLikePath } from "./commands.js";
import { lint } from "./parse.js";
import { cleanRelPath, dirOf, joinPath } from "./paths.js";
import { codeSpans, excerpt, uniq } from "./text.js";

// ---------------------------------------------------------------------------------------------------------------
// Stale commands and paths: checked against what the index holds.

/** What the stale checks need to know about the indexed repository. */
export interface RepoFacts {
  files: ReadonlySet<string>;
  dirs: ReadonlySet<string>;
  /** package.json folder → script names (null: unreadable). */
  packageScripts: ReadonlyMap<string, ReadonlySet<string> | null>;
  /** Makefile folder → targets (null: not known, e.g. includes or pattern rules). */
  makeTargets: ReadonlyMap<string, ReadonlySet<string> | null>;
  hasPython: boolean;
}

const MAKEFILE_NAMES = new Set(["Makefile", "makefile", "GNUmakefile"]);

export function isMakefilePath(path: string): boolean {
  return MAKEFILE_NAMES.has(path.slice(path.lastIndexOf("/") + 1));
}

export function repoFactsFrom(paths: PathInfo[], manifests: ManifestFile[], makefiles: ManifestFile[]): RepoFacts {
  const files = new Set<string>();
  const dirs = new Set<string>([""]);
  let hasPython = false;
  for (const p of paths) {
    files.add(p.path);
    if (p.language === "Python" || p.path.endsWith(".py")) hasPython = true;
    let d = dirOf(p.path);
    while (d !== "" && !dirs.has(d)) {
      dirs.add(d);
      d = dirOf(d);
    }
  }
  const packageScripts = new Map<string, ReadonlySet<string> | null>();
  for (const m of manifests) {
    if (!m.path.endsWith("package.json") || (m.path !== "package.json" && !m.path.endsWith("/package.json"))) continue;
    try {
      const json = JSON.parse(m.content) as { scripts?: Record<string, unknown> };
      packageScripts.set(dirOf(m.path), new Set(Object.keys(json.scripts ?? {})));
    } catch {
      packageScripts.set(dirOf(m.path), null);
    }
  }
  const makeTargets = new Map<string, ReadonlySet<string> | null>();
  for (const m of makefiles) {
    if (/^\s*-?include\s/m.test(m.content) || /^[^\t#\n]*%[^\n=]*:/m.test(m.content)) {
      makeTargets.set(dirOf(m.path), null);
      continue;
    }
    const targets = new Set<string>();
    for (const line of m.content.split("\n")) {
      const t = /^([^\t#:=\s][^:=]*?)\s*::?(?!=)/.exec(line);
      if (t) for (const name of t[1]!.split(/\s+/)) if (name.length > 0) targets.add(name);
    }
    makeTargets.set(dirOf(m.path), targets);
  }
  // Files outside the parsed manifests (a package.json the manifest reader skipped) still count as present.
  for (const f of files) {
    if (f.endsWith("package.json") && (f === "package.json" || f.endsWith("/package.json")) && !packageScripts.has(dirOf(f))) packageScripts.set(dirOf(f), null);
    if (isMakefilePath(f) && !makeTargets.has(dirOf(f))) makeTargets.set(dirOf(f), null);
  }
  return { files, dirs, packageScripts, makeTargets, hasPython };
}

function ancestorsOf(dir: string): string[] {
  const out = [dir];
  let d = dir;
  while (d !== "") {
    d = dirOf(d);
    out.push(d);
  }
  return out;
}

function nearest<T>(map: ReadonlyMap<string, T>, dir: string): { dir: string; value: T } | null {
  for (const d of ancestorsOf(dir)) if (map.has(d)) return { dir: d, value: map.get(d)! };
  return null;
}

function exists(facts: RepoFacts, p: string): boolean {
  return facts.files.has(p) || facts.dirs.has(p);
}

function where(dir: string): string {
  return dir === "" ? "the repository root" : `${dir}/`;
}

const NPM_BUILTINS = new Set(["install", "i", "ci", "add", "exec", "x", "init", "publish", "pack", "link", "audit", "outdated", "update", "remove", "uninstall", "why", "list", "ls", "dlx", "info", "view", "config", "version", "login", "cache", "prune", "dedupe", "rebuild", "workspaces", "workspace", "create", "help"]);

/** Why one shell command cannot work here, or null when nothing says so (unknown tools are given the benefit of the doubt). */
export function staleReason(command: string, cwd: string, facts: RepoFacts): string | null {
  let dir = cwd;
  for (const segment of command.split(/\s*(?:&&|\|\||;)\s*/)) {
    const words = segment.trim().split(/\s+/).filter((w) => w.length > 0);
    while (words.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(words[0]!)) words.shift();
    const [tool, ...args] = words;
    if (tool === undefined) continue;
    if (tool === "cd") {
      const next = joinPath(dir, args[0] ?? "");
      if (!facts.dirs.has(next)) return `folder ${where(next)} does not exist`;
      dir = next;
      continue;
    }
    const positional = args.filter((a) => !a.startsWith("-"));
    if (tool === "npm" || tool === "yarn" || tool === "pnpm") {
      const pkg = nearest(facts.packageScripts, dir);
      if (!pkg) return `no package.json in ${where(dir)} or above`;
      let sub = positional[0];
      let script: string | null = null;
      if (sub === undefined) script = tool === "yarn" ? null : null;
      else if (sub === "run" || sub === "run-script") script = positional[1] ?? null;
      else if (["test", "t", "tst"].includes(sub)) script = "test";
      else if (sub === "start" || sub === "stop" || sub === "restart") script = sub;
      else if (tool !== "npm" && !NPM_BUILTINS.has(sub)) script = sub;
      if (args.some((a) => a === "-w" || a === "--workspace" || a.startsWith("--workspace=") || a === "--filter" || a === "-r" || a === "--recursive")) script = null;
      if (script !== null && pkg.value !== null && !pkg.value.has(script)) {
        return `${pkg.dir === "" ? "package.json" : `${pkg.dir}/package.json`} has no "${script}" script`;
      }
      sub = undefined;
      continue;
    }
    if (tool.startsWith("./") || tool.startsWith("../")) {
      const p = joinPath(dir, tool);
      if (!facts.files.has(p)) return `${p} does not exist`;
      continue;
    }
    if (tool === "mvn") {
      const f = args.indexOf("-f");
      const pom = f >= 0 && args[f + 1] ? joinPath(dir, args[f + 1]!) : joinPath(dir, "pom.xml");
      if (!facts.files.has(pom) && !facts.files.has(joinPath(pom, "pom.xml"))) return `no pom.xml in ${where(dir)}`;
    } else if (tool === "gradle") {
      if (!ancestorsOf(dir).some((d) => ["build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"].some((n) => facts.files.has(joinPath(d, n))))) {
        return `no Gradle build file in ${where(dir)} or above`;
      }
    } else if (tool === "make") {
      const c = args.indexOf("-C");
      const mdir = c >= 0 && args[c + 1] ? joinPath(dir, args[c + 1]!) : dir;
      if (!facts.makeTargets.has(mdir)) return `no Makefile in ${where(mdir)}`;
      const targets = facts.makeTargets.get(mdir)!;
      const wanted = positional.filter((a) => a !== args[c + 1] && !a.includes("="));
      const missing = targets === null ? [] : wanted.filter((t) => !targets.has(t));
      if (missing.length > 0) return `the Makefile in ${where(mdir)} has no target ${missing.join(", ")}`;
    } else if (tool === "go" && ["test", "build", "vet", "run", "generate"].includes(positional[0] ?? "")) {
      if (!ancestorsOf(dir).some((d) => facts.files.has(joinPath(d, "go.mod")) || facts.files.has(joinPath(d, "go.work")))) return `no go.mod in ${where(dir)} or above`;
    } else if (tool === "cargo") {
      if (!ancestorsOf(dir).some((d) => facts.files.has(joinPath(d, "Cargo.toml")))) return `no Cargo.toml in ${where(dir)} or above`;
    } else if (tool === "pytest" || tool === "tox" || tool === "nox" || ((tool === "python" || tool === "python3") && args[0] === "-m" && ["pytest", "unittest", "tox"].includes(args[1] ?? ""))) {
      if (!facts.hasPython) return "the repository has no Python files";
    } else if (tool === "dotnet" && ["test", "build", "run"].includes(positional[0] ?? "")) {
      if (![...facts.files].some((f) => /\.(?:sln|slnx|csproj|fsproj|vbproj)$/.test(f) && (dir === "" || f.startsWith(`${dir}/`)))) return `no .NET project in ${where(dir)}`;
    }
    if (["node", "python", "python3", "bash", "sh", "ruby", "perl", "deno", "bun"].includes(tool) && positional[0] && /[/.]/.test(positional[0]) && !positional[0].startsWith("-")) {
      const script = positional[0];
      if (/\.(?:m?[jt]s|cjs|py|sh|rb|pl)$/.test(script) && !facts.files.has(joinPath(dir, script))) return `${joinPath(dir, script)} does not exist`;
    }
  }
  return null;
}

/** Does a path named in an instruction exist: from the root, from the file's folder, or as the tail of any indexed path. */
function pathResolves(facts: RepoFacts, scope: string, raw: string): string | null {
  const p = cleanRelPath(raw).replace(/\/+$/, "");
  const literal = p.split(/[*?[\]{}]/)[0]!.replace(/\/+$/, "");
  if (literal === "") return "";
  if (exists(facts, literal)) return literal;
  const scoped = joinPath(scope, literal);
  if (exists(facts, scoped)) return scoped;
  if (/[*?[\]{}]/.test(p) && literal.includes("/")) return null;
  for (const f of facts.files) if (f.endsWith(`/${literal}`) || f.includes(`/${literal}/`)) return f;
  return null;
}

/**
 * Checks every command and path of a file against the index: a command whose script, wrapper, manifest or folder is
 * missing is marked stale (it is then never offered as a command), a path that exists nowhere is STALE_PATH.
 * Forbidden paths of a nested file are made repository-relative (relative to the file's folder unless they exist
 * from the root).
 */
export function checkInstructionFreshness(file: InstructionFile, facts: RepoFacts): void {
  for (const r of file.rules) {
    for (const c of r.claims.commands) {
      let why = staleReason(c.command, c.cwd, facts);
      // A nested file's command may be meant for the repository root (`./mvnw -pl services/x test`).
      if (why !== null && c.cwd === file.scope && file.scope !== "" && staleReason(c.command, "", facts) === null) {
        c.cwd = "";
        c.appliesTo = c.appliesTo.map((a) => (a.startsWith(`${file.scope}/`) ? a.slice(file.scope.length + 1) : a));
        why = null;
      }
      if (why !== null) {
        c.stale = why;
        file.lint.push(lint(file.path, r.startLine, "STALE_COMMAND", `\`${excerpt(c.command)}\`: ${why}`, "Update the command to one the repository defines, or remove it; it is not offered as a verifier command."));
      }
      for (const a of c.appliesTo) {
        if (!facts.dirs.has(a) && !facts.files.has(a)) {
          file.lint.push(lint(file.path, r.startLine, "STALE_PATH", `\`${excerpt(c.command)}\` names ${a}, which does not exist`, "Update the folder the command names."));
        }
      }
    }
    if (file.scope !== "") {
      r.claims.forbidPaths = r.claims.forbidPaths.map((g) => {
        const literal = g.split(/[*?[\]{}]/)[0]!.replace(/\/+$/, "");
        return literal !== "" && exists(facts, literal) ? g : `${file.scope}/${g}`;
      });
    }
    const commandText = new Set(r.claims.commands.map((c) => c.command));
    const named = uniq(codeSpans(r.text).filter((s) => !commandText.has(s) && looksLikePath(s)));
    for (const p of named) {
      if (pathResolves(facts, file.scope, p) === null) {
        file.lint.push(lint(file.path, r.startLine, "STALE_PATH", `\`${excerpt(p)}\` exists nowhere in the indexed repository`, "Update or remove the path."));
      }
    }
  }
  file.lint.sort((a, b) => a.line - b.line || a.ruleId.localeCompare(b.ruleId));
}
