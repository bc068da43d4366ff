/**
 * Python: a folder with a pyproject.toml (that describes a project or pytest), a setup.cfg (with metadata,
 * options or pytest settings) or a setup.py is a module. pytest is the runner when it is configured, listed in
 * the dependencies, or a conftest.py exists in the module; else unittest. Commands run in the module folder.
 */
import {
  asString,
  asStringArray,
  cdPrefix,
  cmp,
  dirName,
  emptyCollected,
  folderName,
  isRecord,
  joinPath,
  lineOf,
  newModule,
  type Collected,
  type Context,
} from "./common.js";
import { parseTomlFile } from "./cargo.js";
import type { ManifestFile } from "../../../core/knowledge.js";

// ---------------------------------------------------------------------------------------------------------
// INI (setup.cfg, tox.ini)
// ---------------------------------------------------------------------------------------------------------

export type Ini = Map<string, Map<string, string>>;

/** A configparser-like reader: `[section]`, `key = value` / `key: value`, indented continuation lines. */
export function parseIni(text: string, warn: (line: number, reason: string) => void): Ini {
  const out: Ini = new Map();
  let section: Map<string, string> | null = null;
  let lastKey: string | null = null;
  const lines = text.split("\n");
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    const raw = line.endsWith("\r") ? line.slice(0, -1) : line;
    const trimmed = raw.trim();
    if (trimmed === "" || trimmed.startsWith("#") || trimmed.startsWith(";")) {
      if (trimmed === "") lastKey = null;
      continue;
    }
    const indented = raw[0] === " " || raw[0] === "\t";
    if (indented && section && lastKey !== null) {
      section.set(lastKey, `${section.get(lastKey) ?? ""}\n${trimmed}`);
      continue;
    }
    if (trimmed.startsWith("[")) {
      const close = trimmed.indexOf("]");
      if (close < 0) {
        warn(n + 1, `section header without "]": ${trimmed.slice(0, 80)}`);
        section = null;
        continue;
      }
      const name = trimmed.slice(1, close).trim();
      section = out.get(name) ?? new Map();
      out.set(name, section);
      lastKey = null;
      continue;
    }
    const eq = trimmed.indexOf("=");
    const colon = trimmed.indexOf(":");
    const sep = eq < 0 ? colon : colon < 0 ? eq : Math.min(eq, colon);
    if (sep <= 0) {
      warn(n + 1, `not a "key = value" line: ${trimmed.slice(0, 80)}`);
      continue;
    }
    if (!section) {
      warn(n + 1, "key before any [section]");
      continue;
    }
    lastKey = trimmed.slice(0, sep).trim().toLowerCase();
    section.set(lastKey, trimmed.slice(sep + 1).trim());
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Requirements
// ---------------------------------------------------------------------------------------------------------

/** PEP 503 normal form of a distribution name. */
export function normalizePyName(name: string): string {
  let out = "";
  let sep = false;
  for (const c of name.toLowerCase()) {
    if (c === "-" || c === "_" || c === ".") sep = true;
    else {
      if (sep && out !== "") out += "-";
      sep = false;
      out += c;
    }
  }
  return out;
}

/** The distribution name at the start of a requirement ("pytest>=7; python_version>'3.8'" -> "pytest"). */
function requirementName(req: string): string | null {
  const s = req.trim();
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    const ok = (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c === "-" || c === "_" || c === ".";
    if (!ok) break;
    i++;
  }
  return i > 0 ? s.slice(0, i) : null;
}

function requirementsOfPyproject(doc: Record<string, unknown>): string[] {
  const names: string[] = [];
  const addList = (v: unknown): void => {
    for (const r of asStringArray(v)) {
      const n = requirementName(r);
      if (n) names.push(n);
    }
  };
  const addTables = (v: unknown): void => {
    if (isRecord(v)) for (const list of Object.values(v)) addList(list);
  };
  const addKeys = (v: unknown): void => {
    if (isRecord(v)) names.push(...Object.keys(v));
  };
  const project = isRecord(doc["project"]) ? doc["project"] : {};
  addList(project["dependencies"]);
  addTables(project["optional-dependencies"]);
  addTables(doc["dependency-groups"]);
  const tool = isRecord(doc["tool"]) ? doc["tool"] : {};
  const poetry = isRecord(tool["poetry"]) ? tool["poetry"] : {};
  addKeys(poetry["dependencies"]);
  addKeys(poetry["dev-dependencies"]);
  if (isRecord(poetry["group"])) for (const g of Object.values(poetry["group"])) if (isRecord(g)) addKeys(g["dependencies"]);
  if (isRecord(tool["pdm"])) addTables(tool["pdm"]["dev-dependencies"]);
  if (isRecord(tool["uv"])) addList(tool["uv"]["dev-dependencies"]);
  return names;
}

function requirementsOfSetupCfg(ini: Ini): string[] {
  const names: string[] = [];
  const addLines = (v: string | undefined): void => {
    if (!v) return;
    for (const line of v.split("\n")) {
      const n = requirementName(line);
      if (n) names.push(n);
    }
  };
  const options = ini.get("options");
  addLines(options?.get("install_requires"));
  addLines(options?.get("tests_require"));
  for (const v of ini.get("options.extras_require")?.values() ?? []) addLines(v);
  return names;
}

/** Line of `key =` inside TOML table `[header]` (for entrypoint evidence); the header's line when not found. */
function tomlKeyLine(text: string, header: string, key: string): number | null {
  const lines = text.split("\n");
  let start = -1;
  for (let n = 0; n < lines.length; n++) {
    if (lines[n]!.trim() === `[${header}]`) {
      start = n;
      break;
    }
  }
  if (start < 0) return null;
  for (let n = start + 1; n < lines.length; n++) {
    const t = lines[n]!.trim();
    if (t.startsWith("[")) break;
    for (const k of [key, `"${key}"`, `'${key}'`]) {
      if (t.startsWith(k) && t.slice(k.length).trimStart().startsWith("=")) return n + 1;
    }
  }
  return start + 1;
}

// ---------------------------------------------------------------------------------------------------------
// Collector
// ---------------------------------------------------------------------------------------------------------

interface PyFolder {
  dir: string;
  pyproject?: ManifestFile;
  setupCfg?: ManifestFile;
  setupPy?: ManifestFile;
  toxIni?: ManifestFile;
}

interface Candidate {
  folder: PyFolder;
  name: string;
  manifest: string;
  requirements: string[];
  pytestSource: string | null;
  buildCommand: string | null;
  scripts: { name: string; target: string; line: number | null; manifest: string }[];
}

export function collectPython(ctx: Context): Collected {
  const out = emptyCollected();
  const candidates: Candidate[] = [];
  for (const f of pythonFolders(ctx)) {
    const c = readCandidate(ctx, f);
    if (c !== null) candidates.push(c);
  }

  const byNormal = new Map<string, string>();
  for (const c of candidates) if (!byNormal.has(normalizePyName(c.name))) byNormal.set(normalizePyName(c.name), c.name);

  for (const c of candidates) addCandidate(out, c, byNormal);
  return out;
}

/** Folders with a pyproject.toml, setup.cfg or setup.py (and the tox.ini beside them), in folder order. */
function pythonFolders(ctx: Context): PyFolder[] {
  const folders = new Map<string, PyFolder>();
  const folder = (dir: string): PyFolder => {
    let f = folders.get(dir);
    if (!f) folders.set(dir, (f = { dir }));
    return f;
  };
  for (const f of ctx.named("pyproject.toml")) folder(dirName(f.path)).pyproject = f;
  for (const f of ctx.named("setup.cfg")) folder(dirName(f.path)).setupCfg = f;
  for (const f of ctx.named("setup.py")) folder(dirName(f.path)).setupPy = f;
  for (const f of ctx.named("tox.ini")) {
    const existing = folders.get(dirName(f.path));
    if (existing) existing.toxIni = f;
  }
  return [...folders.values()].sort((a, b) => cmp(a.dir, b.dir));
}

/** A folder's module as its manifests describe it, or null when none of them defines a project. */
function readCandidate(ctx: Context, f: PyFolder): Candidate | null {
  const doc = f.pyproject ? parseTomlFile(ctx, f.pyproject) : null;
  const cfg = f.setupCfg ? parseIni(f.setupCfg.content, (line, reason) => ctx.warn(f.setupCfg!.path, line, reason)) : null;
  const tox = f.toxIni ? parseIni(f.toxIni.content, (line, reason) => ctx.warn(f.toxIni!.path, line, reason)) : null;

  const project = doc && isRecord(doc["project"]) ? doc["project"] : null;
  const tool = doc && isRecord(doc["tool"]) ? doc["tool"] : {};
  const poetry = isRecord(tool["poetry"]) ? tool["poetry"] : null;
  const pytestToml = isRecord(tool["pytest"]) ? tool["pytest"] : null;
  const buildSystem = doc && isRecord(doc["build-system"]) ? doc["build-system"] : null;
  const pyprojectDefines = doc !== null && (project !== null || poetry !== null || buildSystem !== null || pytestToml !== null);
  const cfgDefines = cfg !== null && (cfg.has("metadata") || cfg.has("options") || cfg.has("tool:pytest"));
  if (!pyprojectDefines && !cfgDefines && !f.setupPy) return null;

  const manifest = pyprojectDefines ? f.pyproject!.path : cfgDefines ? f.setupCfg!.path : f.setupPy!.path;
  const name =
    asString(project?.["name"]) ?? asString(poetry?.["name"]) ?? cfg?.get("metadata")?.get("name") ?? folderName(f.dir);

  const requirements = [...(doc ? requirementsOfPyproject(doc) : []), ...(cfg ? requirementsOfSetupCfg(cfg) : [])];
  const pytestIni = joinPath(f.dir, "pytest.ini");
  let pytestSource: string | null = null;
  if (pytestToml !== null) pytestSource = isRecord(pytestToml["ini_options"]) ? "pyproject.toml [tool.pytest.ini_options]" : "pyproject.toml [tool.pytest]";
  else if (cfg?.has("tool:pytest")) pytestSource = "setup.cfg [tool:pytest]";
  else if (pytestIni !== null && ctx.hasFile(pytestIni)) pytestSource = "pytest.ini";
  else if (tox?.has("pytest")) pytestSource = "tox.ini [pytest]";
  else if (requirements.some((r) => normalizePyName(r) === "pytest")) pytestSource = "pytest in dependencies";

  let buildCommand: string | null = null;
  if (buildSystem !== null) {
    const backend = asString(buildSystem["build-backend"]) ?? "";
    buildCommand = backend.startsWith("poetry") ? "poetry build" : "python -m build";
  } else if (f.setupPy) buildCommand = "python -m build";

  const scripts = scriptsOf(f, project, poetry, cfg);
  return { folder: f, name, manifest, requirements, pytestSource, buildCommand, scripts };
}

/** Console scripts: pyproject [project.scripts] and [tool.poetry.scripts], setup.cfg [options.entry_points] console_scripts. */
function scriptsOf(f: PyFolder, project: Record<string, unknown> | null, poetry: Record<string, unknown> | null, cfg: Ini | null): Candidate["scripts"] {
  const scripts: Candidate["scripts"] = [];
  const addScripts = (table: unknown, header: string): void => {
    if (!isRecord(table) || !f.pyproject) return;
    for (const [key, value] of Object.entries(table)) {
      const target = typeof value === "string" ? value : isRecord(value) ? (asString(value["callable"]) ?? asString(value["reference"])) : null;
      if (target === null) continue;
      scripts.push({ name: key, target, line: tomlKeyLine(f.pyproject.content, header, key), manifest: f.pyproject.path });
    }
  };
  addScripts(project?.["scripts"], "project.scripts");
  addScripts(poetry?.["scripts"], "tool.poetry.scripts");
  const consoleScripts = cfg?.get("options.entry_points")?.get("console_scripts");
  if (consoleScripts && f.setupCfg) {
    for (const line of consoleScripts.split("\n")) {
      const eq = line.indexOf("=");
      if (eq <= 0) continue;
      const key = line.slice(0, eq).trim();
      scripts.push({ name: key, target: line.slice(eq + 1).trim(), line: lineOf(f.setupCfg.content, line.trim()), manifest: f.setupCfg.path });
    }
  }
  return scripts;
}

/**
 * The candidate's module (its test runner settled after the file pass: pytest when configured or a conftest.py or
 * pytest.ini exists, else unittest) and its console scripts as entrypoints.
 */
function addCandidate(out: Collected, c: Candidate, byNormal: Map<string, string>): void {
  const dependsOn: string[] = [];
  for (const r of c.requirements) {
    const hit = byNormal.get(normalizePyName(r));
    if (hit !== undefined && hit !== c.name) dependsOn.push(hit);
  }
  const prefix = cdPrefix(c.folder.dir);
  const module = newModule({
    name: c.name,
    path: c.folder.dir,
    buildSystem: "python",
    manifest: c.manifest,
    type: c.scripts.length > 0 ? "app" : "library",
    dependsOn,
    buildCommand: c.buildCommand === null ? null : `${prefix}${c.buildCommand}`,
  });
  out.drafts.push({
    module,
    finish: (stats) => {
      let source = c.pytestSource;
      if (source === null && stats.names.has("conftest.py")) source = "conftest.py";
      if (source === null && stats.names.has("pytest.ini")) source = "pytest.ini";
      if (source !== null) {
        module.testRunner = "pytest";
        module.testCommand = `${prefix}pytest`;
        module.commandSource = source;
      } else {
        module.testRunner = "unittest";
        module.testCommand = `${prefix}python -m unittest discover`;
        module.commandSource = "convention: unittest";
      }
      if (stats.names.has("__main__.py") && module.type === "library") module.type = "app";
    },
  });
  for (const s of c.scripts) {
    out.entrypoints.push({ type: "cli-bin", path: s.manifest, name: s.name, module: c.name, startLine: s.line, endLine: s.line, target: s.target });
  }
}
