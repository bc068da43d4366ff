/**
 * Cargo: every Cargo.toml with a [package] is a module named by the crate; [workspace] members (globs,
 * minus `exclude`) decide which crates share a workspace, and so whether a crate is tested with
 * `cargo test -p <name>` from the workspace folder. A virtual manifest (only [workspace]) is not a module.
 */
import { parse as parseToml } from "smol-toml";
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
  lineOf,
  newModule,
  normalizePattern,
  shellQuote,
  workspaceMembers,
  type Collected,
  type Context,
} from "./common.js";
import type { ManifestFile } from "../../../core/knowledge.js";

interface Crate {
  file: ManifestFile;
  dir: string;
  doc: Record<string, unknown>;
  name: string | null;
  workspace: Record<string, unknown> | null;
}

export function parseTomlFile(ctx: Context, file: ManifestFile): Record<string, unknown> | null {
  try {
    return parseToml(file.content) as Record<string, unknown>;
  } catch (e) {
    const line = typeof (e as { line?: unknown }).line === "number" ? (e as { line: number }).line : null;
    ctx.warn(file.path, line, `invalid TOML: ${errorMessage(e)}`);
    return null;
  }
}

const DEP_TABLES = ["dependencies", "dev-dependencies", "build-dependencies"];

export function collectCargo(ctx: Context): Collected {
  const out = emptyCollected();
  const crates = readCrates(ctx);
  if (crates.length === 0) return out;
  const byDir = new Map(crates.map((c) => [c.dir, c]));
  const { wsOf, workspaces } = workspaceMembership(ctx, crates, byDir);

  for (const ws of workspaces) {
    if (ws.dir === "") out.roots.push({ buildSystem: "cargo", command: "cargo test --workspace" });
  }

  const namesByWorkspace = new Map<Crate, Set<string>>();
  for (const c of crates) {
    const ws = wsOf.get(c.dir);
    if (!ws || c.name === null) continue;
    const set = namesByWorkspace.get(ws) ?? new Set<string>();
    set.add(c.name);
    namesByWorkspace.set(ws, set);
  }

  for (const c of crates) {
    if (c.name === null) continue;
    const ws = wsOf.get(c.dir) ?? null;
    const sameWorkspace = (ws && namesByWorkspace.get(ws)) || new Set<string>();
    addCrate(ctx, out, c, c.name, ws, crateDependsOn(c, ws, byDir, sameWorkspace));
  }
  return out;
}

/** Every parsable Cargo.toml with a [package] or a [workspace], named by the crate (or its folder). */
function readCrates(ctx: Context): Crate[] {
  const crates: Crate[] = [];
  for (const file of ctx.named("Cargo.toml")) {
    const doc = parseTomlFile(ctx, file);
    if (!doc) continue;
    const pkg = isRecord(doc["package"]) ? doc["package"] : null;
    const workspace = isRecord(doc["workspace"]) ? doc["workspace"] : null;
    if (!pkg && !workspace) {
      ctx.warn(file.path, null, "neither [package] nor [workspace]");
      continue;
    }
    let name: string | null = null;
    if (pkg) {
      name = asString(pkg["name"]);
      if (!name) {
        ctx.warn(file.path, lineOf(file.content, "[package]"), "[package] has no name; using the folder name");
        name = folderName(dirName(file.path));
      }
    }
    crates.push({ file, dir: dirName(file.path), doc, name, workspace });
  }
  return crates;
}

/**
 * Workspace membership: the innermost workspace whose members match (a workspace crate with a [package] is its
 * own member). Warns about literal members without a crate. `workspaces` is innermost first.
 */
function workspaceMembership(ctx: Context, crates: Crate[], byDir: Map<string, Crate>): { wsOf: Map<string, Crate>; workspaces: Crate[] } {
  const wsOf = new Map<string, Crate>();
  const workspaces = crates.filter((c) => c.workspace !== null).sort((a, b) => b.dir.length - a.dir.length || cmp(a.dir, b.dir));
  for (const ws of workspaces) {
    if (ws.name !== null && !wsOf.has(ws.dir)) wsOf.set(ws.dir, ws);
    const members = asStringArray(ws.workspace!["members"]).map(normalizePattern).filter((p) => p !== "" && p !== ".");
    const excluded = asStringArray(ws.workspace!["exclude"]).map(normalizePattern).filter((p) => p !== "");
    for (const m of members) {
      if (hasGlobChars(m)) continue;
      const dir = joinPath(ws.dir, m);
      if (dir === null || !byDir.get(dir)?.name) ctx.warn(ws.file.path, lineOf(ws.file.content, `"${m}"`), `workspace member "${m}" has no Cargo.toml with a [package]`);
    }
    const candidates = crates.filter((c) => c.name !== null && !wsOf.has(c.dir)).map((c) => c.dir);
    for (const dir of workspaceMembers(ws.dir, members, excluded, candidates)) wsOf.set(dir, ws);
  }
  return { wsOf, workspaces };
}

/** Names of the crates `c` depends on: path dependencies (also through `workspace = true`), and same-workspace crates by name. */
function crateDependsOn(c: Crate, ws: Crate | null, byDir: Map<string, Crate>, sameWorkspace: Set<string>): string[] {
  const dependsOn: string[] = [];
  for (const table of dependencyTables(c.doc)) {
    for (const [key, spec] of Object.entries(table)) {
      const realName = isRecord(spec) ? (asString(spec["package"]) ?? key) : key;
      let pathSpec = isRecord(spec) ? asString(spec["path"]) : null;
      let base = c.dir;
      if (!pathSpec && isRecord(spec) && spec["workspace"] === true && ws?.workspace) {
        const wsDeps = isRecord(ws.workspace["dependencies"]) ? ws.workspace["dependencies"] : {};
        const wsSpec = wsDeps[key];
        if (isRecord(wsSpec) && typeof wsSpec["path"] === "string") {
          pathSpec = wsSpec["path"];
          base = ws.dir;
        }
      }
      if (pathSpec) {
        const target = joinPath(base, pathSpec);
        const hit = target === null ? undefined : byDir.get(target);
        if (hit?.name && hit !== c) dependsOn.push(hit.name);
        continue;
      }
      if (realName !== c.name && sameWorkspace.has(realName)) dependsOn.push(realName);
    }
  }
  return dependsOn;
}

/** The crate's module (built and tested with `-p <name>` from its workspace, else its own folder) and its binaries. */
function addCrate(ctx: Context, out: Collected, c: Crate, name: string, ws: Crate | null, dependsOn: string[]): void {
  const bins = Array.isArray(c.doc["bin"]) ? c.doc["bin"].filter(isRecord) : [];
  const mainRs = joinPath(c.dir, "src/main.rs")!;
  const binDir = joinPath(c.dir, "src/bin")!;
  const isApp = bins.length > 0 || ctx.hasFile(mainRs) || ctx.hasDir(binDir);

  const runFrom = ws ? ws.dir : c.dir;
  const select = ` -p ${shellQuote(name)}`;
  out.drafts.push({
    module: newModule({
      name,
      path: c.dir,
      buildSystem: "cargo",
      manifest: c.file.path,
      type: isApp ? "app" : "library",
      dependsOn,
      buildCommand: `${cdPrefix(runFrom)}cargo build${select}`,
      testCommand: `${cdPrefix(runFrom)}cargo test${select}`,
      testRunner: "cargo",
      commandSource: ws ? "Cargo.toml [workspace] members" : "convention: cargo test",
    }),
  });

  // Entrypoints: [[bin]] targets, else the implicit src/main.rs binary.
  let from = 0;
  for (const bin of bins) {
    const at = c.file.content.indexOf("[[bin]]", from);
    const line = at < 0 ? null : lineOf(c.file.content, "[[bin]]", from);
    if (at >= 0) from = at + 7;
    const binName = asString(bin["name"]) ?? name;
    const binPath = asString(bin["path"]);
    const target = binPath ? joinPath(c.dir, binPath) : binName === name && ctx.hasFile(mainRs) ? mainRs : joinPath(c.dir, `src/bin/${binName}.rs`);
    out.entrypoints.push({ type: "cli-bin", path: c.file.path, name: binName, module: name, startLine: line, endLine: line, target });
  }
  if (bins.length === 0 && ctx.hasFile(mainRs)) {
    out.entrypoints.push({ type: "cli-bin", path: c.file.path, name, module: name, startLine: null, endLine: null, target: mainRs });
  }
}

/** [dependencies], [dev-dependencies], [build-dependencies] and their [target.'cfg'.*] variants. */
function dependencyTables(doc: Record<string, unknown>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const t of DEP_TABLES) if (isRecord(doc[t])) out.push(doc[t]);
  const target = doc["target"];
  if (isRecord(target)) {
    for (const spec of Object.values(target)) {
      if (!isRecord(spec)) continue;
      for (const t of DEP_TABLES) if (isRecord(spec[t])) out.push(spec[t]);
    }
  }
  return out;
}
