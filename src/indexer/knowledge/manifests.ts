/**
 * Manifests -> modules: the pure stage that turns the text of a repository's build manifests (and the list of
 * indexed paths) into modules, their internal dependencies, build/test commands and entrypoints.
 *
 * One reader per ecosystem (./manifests/*.ts) turns its manifests into draft modules; this file assigns every
 * indexed file to its innermost module in one pass, derives what needs the files (main language, test
 * folders, test-only modules), and assembles a deterministic graph. A broken manifest is a warning, never an
 * exception. Every command runs from the repository root (`cd <folder> && ...` when the tool needs it).
 */
import { detectGenerated } from "../classify/generated.js";
import type { BuildGraph, BuildSystem, ManifestEntrypoint, ManifestFile, ManifestWarning, PathInfo, RepoModule } from "../../core/knowledge.js";
import { collectCargo } from "./manifests/cargo.js";
import { baseName, cmp, Context, errorMessage, stripBom, type Collected, type Draft, type RootCommand } from "./manifests/common.js";
import { collectDotnet } from "./manifests/dotnet.js";
import {
  addFileToStats,
  isTestSourceSet,
  boundedTestPaths,
  compareModules,
  familyOf,
  indexByFolder,
  innermost,
  isManifestName,
  mainLanguageOf,
  newStats,
  SYSTEM_ORDER,
} from "./manifests/files.js";
import { collectGo } from "./manifests/go.js";
import { collectGradle } from "./manifests/gradle.js";
import { collectMaven } from "./manifests/maven.js";
import { collectNode } from "./manifests/node.js";
import { collectPython } from "./manifests/python.js";
import { normalizePath } from "./module-of.js";

export { testCommandFor, type TestTarget } from "./manifests/test-command.js";
export { moduleOf } from "./module-of.js";

/**
 * Folders whose manifests are not modules of this repository: version control, tool caches and virtual
 * environments, and test data (a fixture's package.json describes a pretend project). Vendored and build-output
 * folders are recognised by `detectGenerated`.
 */
const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  ".git",
  ".hg",
  ".svn",
  ".venv",
  "venv",
  "site-packages",
  "__pycache__",
  ".tox",
  ".nox",
  ".gradle",
  ".m2",
  ".yarn",
  ".pnpm-store",
  ".cache",
  ".idea",
  "fixtures",
  "__fixtures__",
  "fixture",
  "testdata",
  "test-data",
  "test_data",
  "__snapshots__",
  "__tests__",
  "__mocks__",
  "archetype-resources",
]);

const COLLECTORS: readonly (readonly [string, (ctx: Context) => Collected])[] = [
  ["Maven", collectMaven],
  ["Gradle", collectGradle],
  ["npm", collectNode],
  ["Go", collectGo],
  ["Cargo", collectCargo],
  ["Python", collectPython],
  [".NET", collectDotnet],
];

const MAX_TEST_PATHS = 10;

/** Is this path a manifest the stage wants to read (by file name)? Used by the indexer to keep their text. */
export function isManifestPath(path: string): boolean {
  const p = normalizePath(path);
  if (!isManifestName(baseName(p))) return false;
  const segs = p.split("/");
  for (let i = 0; i < segs.length - 1; i++) {
    const seg = segs[i]!;
    if (SKIPPED_DIRS.has(seg)) return false;
    // Test source sets (src/test, src/it, src/integrationTest ...) hold pretend projects for tests.
    if (seg === "src" && i + 2 < segs.length && isTestSourceSet(segs[i + 1]!)) return false;
  }
  return !detectGenerated(p, null).generated;
}

/** Build the graph. `manifests`: text of every manifest file (those isManifestPath accepted); `paths`: every indexed file with language. */
export function buildGraphFrom(manifests: ManifestFile[], paths: PathInfo[]): BuildGraph {
  const kept: ManifestFile[] = [];
  for (const m of manifests) {
    const path = normalizePath(m.path);
    if (isManifestPath(path)) kept.push({ path, content: typeof m.content === "string" ? stripBom(m.content) : "" });
  }
  const files = paths.some((p) => p.path.includes("\\") || p.path.startsWith("./"))
    ? paths.map((p) => ({ path: normalizePath(p.path), language: p.language }))
    : paths;
  const ctx = new Context(kept, files);

  const drafts: Draft[] = [];
  const entrypoints: ManifestEntrypoint[] = [];
  const roots: RootCommand[] = [];
  for (const [label, collect] of COLLECTORS) {
    try {
      const c = collect(ctx);
      drafts.push(...c.drafts);
      entrypoints.push(...c.entrypoints);
      roots.push(...c.roots);
    } catch (e) {
      ctx.warn("", null, `${label} manifests could not be read: ${errorMessage(e)}`);
    }
  }
  drafts.sort((a, b) => compareModules(a.module, b.module));

  // One pass over every path: innermost module, then that module's statistics.
  const stats = new Map(drafts.map((d) => [d, newStats()]));
  const index = indexByFolder(drafts);
  for (const f of files) {
    const d = innermost(index, (x: Draft) => x.module, f.path, f.language);
    if (d) addFileToStats(stats.get(d)!, d.module.path, f.path, f.language);
  }

  const modules: RepoModule[] = [];
  for (const d of drafts) {
    const s = stats.get(d)!;
    const m = d.module;
    try {
      d.finish?.(s);
    } catch (e) {
      ctx.warn(m.manifest, null, `could not finish module ${m.name}: ${errorMessage(e)}`);
    }
    if (m.type === "library" && s.codeFiles > 0 && s.testCodeFiles === s.codeFiles) m.type = "test";
    m.mainLanguage = mainLanguageOf(s.languages);
    m.testPaths = m.type === "test" ? [m.path === "" ? "." : m.path] : boundedTestPaths(s.testRoots, MAX_TEST_PATHS);
    m.dependsOn = [...new Set(m.dependsOn)].filter((n) => n !== m.name).sort(cmp);
    modules.push(m);
  }

  warnDuplicateNames(ctx, modules);

  const edges: BuildGraph["edges"] = [];
  const seenEdges = new Set<string>();
  for (const m of modules) {
    for (const to of m.dependsOn) {
      const key = `${m.name}\u0000${to}`;
      if (seenEdges.has(key)) continue;
      seenEdges.add(key);
      edges.push({ from: m.name, to });
    }
  }
  edges.sort((a, b) => cmp(a.from, b.from) || cmp(a.to, b.to));

  const buildSystems = rankBuildSystems(modules);
  return {
    buildSystems,
    modules,
    edges,
    rootTestCommand: pickRootTestCommand(modules, roots, buildSystems),
    entrypoints: sortEntrypoints(entrypoints),
    warnings: sortWarnings(ctx.warnings),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Assembly helpers
// ---------------------------------------------------------------------------------------------------------

function warnDuplicateNames(ctx: Context, modules: RepoModule[]): void {
  const first = new Map<string, RepoModule>();
  for (const m of modules) {
    const key = `${familyOf(m.buildSystem)}\u0000${m.name}`;
    const prev = first.get(key);
    if (prev === undefined) first.set(key, m);
    else ctx.warn(m.manifest, null, `duplicate module name "${m.name}" (also ${prev.manifest})`);
  }
}

function rankBuildSystems(modules: RepoModule[]): BuildSystem[] {
  const counts = new Map<BuildSystem, number>();
  for (const m of modules) counts.set(m.buildSystem, (counts.get(m.buildSystem) ?? 0) + 1);
  return [...counts.keys()].sort(
    (a, b) => counts.get(b)! - counts.get(a)! || SYSTEM_ORDER.indexOf(a) - SYSTEM_ORDER.indexOf(b),
  );
}

/**
 * The command that tests everything from the root: a root aggregator's (Cargo workspace, solution, go.work)
 * or the root module's, preferring the build system with most modules.
 */
function pickRootTestCommand(modules: RepoModule[], roots: RootCommand[], ranked: BuildSystem[]): string | null {
  const rank = (s: BuildSystem): number => {
    const i = ranked.indexOf(s);
    return i < 0 ? ranked.length + SYSTEM_ORDER.indexOf(s) : i;
  };
  const candidates: { system: BuildSystem; command: string; aggregate: boolean }[] = [
    ...roots.map((r) => ({ system: r.buildSystem, command: r.command, aggregate: true })),
    ...modules
      .filter((m) => m.path === "" && m.testCommand !== null)
      .map((m) => ({ system: m.buildSystem, command: m.testCommand!, aggregate: false })),
  ];
  candidates.sort((a, b) => rank(a.system) - rank(b.system) || Number(b.aggregate) - Number(a.aggregate) || cmp(a.command, b.command));
  return candidates[0]?.command ?? null;
}

function sortEntrypoints(list: ManifestEntrypoint[]): ManifestEntrypoint[] {
  return list.sort(
    (a, b) =>
      cmp(a.path, b.path) ||
      (a.startLine ?? Number.MAX_SAFE_INTEGER) - (b.startLine ?? Number.MAX_SAFE_INTEGER) ||
      cmp(a.type, b.type) ||
      cmp(a.name ?? "", b.name ?? ""),
  );
}

function sortWarnings(list: ManifestWarning[]): ManifestWarning[] {
  const seen = new Set<string>();
  const out: ManifestWarning[] = [];
  for (const w of list) {
    const key = `${w.path}\u0000${w.line ?? ""}\u0000${w.reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(w);
  }
  return out.sort((a, b) => cmp(a.path, b.path) || (a.line ?? 0) - (b.line ?? 0) || cmp(a.reason, b.reason));
}
