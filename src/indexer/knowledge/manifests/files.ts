/**
 * Files -> modules: innermost assignment (one walk up the folder chain per file, so O(files x depth)), the
 * language affinity that settles two modules sharing a folder (pom.xml next to package.json), and the per-module
 * statistics (languages, test folders) the stage derives from the files.
 */
import { linguistLanguages } from "../../classify/linguist.js";
import { languageIdFromLinguistName } from "../../classify/language.js";
import { isTestPath } from "../../../policy/labels.js";
import type { BuildSystem, RepoModule } from "../../../core/knowledge.js";
import { baseName, cmp, dirName, NOTABLE_NAMES, type ModuleStats } from "./common.js";

/** Order of build systems when nothing else decides (ties in counts, modules sharing a folder). */
export const SYSTEM_ORDER: readonly BuildSystem[] = ["maven", "gradle", "npm", "pnpm", "yarn", "go", "cargo", "python", "dotnet"];

type Family = "maven" | "gradle" | "jvm" | "node" | "go" | "cargo" | "python" | "dotnet";

export function familyOf(system: BuildSystem): Family {
  return system === "npm" || system === "yarn" || system === "pnpm" ? "node" : system;
}

function familyMatches(f: Family, system: BuildSystem): boolean {
  const s = familyOf(system);
  return f === s || (f === "jvm" && (s === "maven" || s === "gradle"));
}

/** Manifests the stage reads (by file name), each with the family its folder belongs to. */
const MANIFEST_NAME_FAMILY: readonly (readonly [string, Family])[] = [
  ["pom.xml", "maven"],
  ["build.gradle", "gradle"],
  ["build.gradle.kts", "gradle"],
  ["settings.gradle", "gradle"],
  ["settings.gradle.kts", "gradle"],
  ["package.json", "node"],
  ["pnpm-workspace.yaml", "node"],
  ["go.mod", "go"],
  ["go.work", "go"],
  ["Cargo.toml", "cargo"],
  ["pyproject.toml", "python"],
  ["setup.py", "python"],
  ["setup.cfg", "python"],
  ["tox.ini", "python"],
];

/** Manifests the stage reads (by extension): .NET solutions and projects. */
const MANIFEST_EXTENSION_FAMILY: readonly (readonly [string, Family])[] = [
  [".csproj", "dotnet"],
  [".fsproj", "dotnet"],
  [".vbproj", "dotnet"],
  [".sln", "dotnet"],
  [".slnx", "dotnet"],
];

const MANIFEST_NAMES: ReadonlySet<string> = new Set(MANIFEST_NAME_FAMILY.map(([name]) => name));
const MANIFEST_EXTENSIONS: readonly string[] = MANIFEST_EXTENSION_FAMILY.map(([ext]) => ext);

/** Is this file name (no folder) one of the manifests the stage reads? */
export function isManifestName(base: string): boolean {
  if (MANIFEST_NAMES.has(base)) return true;
  const lower = base.toLowerCase();
  return MANIFEST_EXTENSIONS.some((e) => lower.endsWith(e) && lower.length > e.length);
}

/** File names that tie a folder to a family: the manifests, and wrappers, lockfiles and tool settings. */
const NAME_FAMILY: ReadonlyMap<string, Family> = new Map([
  ...MANIFEST_NAME_FAMILY,
  ["mvnw", "maven"],
  ["mvnw.cmd", "maven"],
  ["gradle.properties", "gradle"],
  ["gradlew", "gradle"],
  ["gradlew.bat", "gradle"],
  ["package-lock.json", "node"],
  ["npm-shrinkwrap.json", "node"],
  ["yarn.lock", "node"],
  ["pnpm-lock.yaml", "node"],
  ["tsconfig.json", "node"],
  ["go.sum", "go"],
  ["Cargo.lock", "cargo"],
  ["pytest.ini", "python"],
  ["requirements.txt", "python"],
]);

const LANGUAGE_FAMILY: ReadonlyMap<string, Family> = new Map([
  ["java", "jvm"],
  ["kotlin", "jvm"],
  ["groovy", "jvm"],
  ["scala", "jvm"],
  ["typescript", "node"],
  ["javascript", "node"],
  ["tsx", "node"],
  ["jsx", "node"],
  ["vue", "node"],
  ["svelte", "node"],
  ["python", "python"],
  ["go", "go"],
  ["rust", "cargo"],
  ["csharp", "dotnet"],
  ["fsharp", "dotnet"],
  ["visual-basic-.net", "dotnet"],
]);

const EXTENSION_FAMILY: ReadonlyMap<string, Family> = new Map([
  [".java", "jvm"],
  [".kt", "jvm"],
  [".kts", "jvm"],
  [".groovy", "jvm"],
  [".scala", "jvm"],
  [".ts", "node"],
  [".tsx", "node"],
  [".mts", "node"],
  [".cts", "node"],
  [".js", "node"],
  [".jsx", "node"],
  [".mjs", "node"],
  [".cjs", "node"],
  [".vue", "node"],
  [".svelte", "node"],
  [".py", "python"],
  [".go", "go"],
  [".rs", "cargo"],
  [".cs", "dotnet"],
  [".fs", "dotnet"],
  [".vb", "dotnet"],
  ...MANIFEST_EXTENSION_FAMILY,
]);

function affinity(path: string, language: string | null): Family | null {
  const base = baseName(path);
  const byName = NAME_FAMILY.get(base);
  if (byName) return byName;
  if (language !== null) {
    const byLang = LANGUAGE_FAMILY.get(language);
    if (byLang) return byLang;
  }
  const dot = base.lastIndexOf(".");
  return dot > 0 ? (EXTENSION_FAMILY.get(base.slice(dot).toLowerCase()) ?? null) : null;
}

/** Modules by folder, each list in SYSTEM_ORDER then name order. */
export function indexByFolder<T extends { module: RepoModule } | RepoModule>(items: readonly T[]): Map<string, T[]> {
  const moduleOfItem = (t: T): RepoModule => ("module" in t ? t.module : t);
  const out = new Map<string, T[]>();
  for (const item of items) {
    const p = moduleOfItem(item).path;
    const list = out.get(p);
    if (list) list.push(item);
    else out.set(p, [item]);
  }
  for (const list of out.values()) list.sort((a, b) => compareModules(moduleOfItem(a), moduleOfItem(b)));
  return out;
}

export function compareModules(a: RepoModule, b: RepoModule): number {
  return (
    cmp(a.path, b.path) ||
    SYSTEM_ORDER.indexOf(a.buildSystem) - SYSTEM_ORDER.indexOf(b.buildSystem) ||
    cmp(a.name, b.name) ||
    cmp(a.manifest, b.manifest)
  );
}

/** The innermost entry of `index` containing `path` (a file or a folder); affinity settles shared folders. */
export function innermost<T>(index: Map<string, T[]>, moduleOfItem: (t: T) => RepoModule, path: string, language: string | null): T | null {
  for (let d = path; ; d = dirName(d)) {
    const list = index.get(d);
    if (list && list.length > 0) {
      if (list.length === 1) return list[0]!;
      const f = affinity(path, language);
      if (f !== null) for (const item of list) if (familyMatches(f, moduleOfItem(item).buildSystem)) return item;
      return list[0]!;
    }
    if (d === "") return null;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Languages
// ---------------------------------------------------------------------------------------------------------

let tiers: Map<string, number> | null = null;

/** 0 programming (and unknown ids), 1 markup, 2 data and prose: main language prefers lower tiers. */
export function languageTier(id: string): number {
  if (tiers === null) {
    tiers = new Map();
    for (const lang of linguistLanguages()) {
      const tier = lang.type === "programming" ? 0 : lang.type === "markup" ? 1 : 2;
      const key = languageIdFromLinguistName(lang.name);
      if (!tiers.has(key)) tiers.set(key, tier);
    }
    tiers.set("text", 2);
  }
  return tiers.get(id) ?? 0;
}

export function mainLanguageOf(languages: Map<string, number>): string | null {
  let best: string | null = null;
  let bestTier = 99;
  let bestCount = 0;
  for (const [lang, count] of languages) {
    const tier = languageTier(lang);
    if (
      tier < bestTier ||
      (tier === bestTier && (count > bestCount || (count === bestCount && best !== null && lang < best)))
    ) {
      best = lang;
      bestTier = tier;
      bestCount = count;
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------------------------
// Statistics and test locations
// ---------------------------------------------------------------------------------------------------------

export function newStats(): ModuleStats {
  return { files: 0, languages: new Map(), codeFiles: 0, testCodeFiles: 0, testRoots: new Map(), names: new Set(), topDirs: new Set() };
}

const TEST_DIRS: ReadonlySet<string> = new Set(["test", "tests", "__tests__", "spec", "specs", "testing", "e2e"]);
/** Folders of test data, not tests. */
const TEST_DATA_DIRS: ReadonlySet<string> = new Set(["testdata", "test_data", "test-data", "fixtures", "__fixtures__", "__snapshots__", "__mocks__"]);

/** Build-tool wrapper scripts: they say nothing about the module's language. */
const WRAPPER_SCRIPTS: ReadonlySet<string> = new Set(["mvnw", "mvnw.cmd", "gradlew", "gradlew.bat"]);

export function addFileToStats(s: ModuleStats, modulePath: string, path: string, language: string | null): void {
  s.files++;
  const rel = modulePath === "" ? path : path.slice(modulePath.length + 1);
  const slash = rel.indexOf("/");
  if (slash > 0) s.topDirs.add(rel.slice(0, slash));
  const base = baseName(rel);
  if (NOTABLE_NAMES.has(base)) s.names.add(base);
  if (WRAPPER_SCRIPTS.has(base)) return;
  if (language !== null) s.languages.set(language, (s.languages.get(language) ?? 0) + 1);
  const code = language !== null && languageTier(language) === 0;
  const mavenTestDir = rel.startsWith("src/test/") || rel.startsWith("src/it/");
  if (!code && !mavenTestDir) return;
  if (code) s.codeFiles++;
  if (!isTestPath(path)) return;
  if (code) s.testCodeFiles++;
  const root = testRootOf(rel, modulePath, base, code);
  if (root !== null) s.testRoots.set(root, (s.testRoots.get(root) ?? 0) + 1);
}

function under(modulePath: string, rel: string): string {
  return modulePath === "" ? rel : `${modulePath}/${rel}`;
}

/** Maven/Gradle test source sets: `test`, `it`, and Gradle/Kotlin ones like `integrationTest`, `jvmTest`, `androidTest`. */
export function isTestSourceSet(name: string): boolean {
  return name === "test" || name === "it" || (name.length > 4 && name.endsWith("Test"));
}

/** Where a test file's tests live: a test folder, a glob for tests next to the code, or the whole module. */
function testRootOf(rel: string, modulePath: string, base: string, code: boolean): string | null {
  const segs = rel.split("/");
  if (segs.length > 3 && segs[0] === "src" && isTestSourceSet(segs[1]!)) return under(modulePath, segs.slice(0, 3).join("/"));
  if (!code) return null;
  for (let i = 0; i < segs.length - 1; i++) {
    const low = segs[i]!.toLowerCase();
    if (TEST_DATA_DIRS.has(low)) return null;
    if (TEST_DIRS.has(low)) return under(modulePath, i === 0 ? segs[0]! : `**/${segs[i]}/**`);
  }
  const pattern = testNamePattern(base);
  if (pattern !== null) return under(modulePath, `**/${pattern}`);
  // A test only because of a folder above the module (tests/Foo.Tests/Bar.cs): the whole module is tests.
  return modulePath === "" ? "." : modulePath;
}

/** The file-name convention a colocated test follows: "*.test.ts", "*_test.go", "test_*.py", "*Test.java". */
export function testNamePattern(base: string): string | null {
  const lower = base.toLowerCase();
  for (const marker of [".test.", ".spec."]) {
    const i = lower.indexOf(marker);
    if (i > 0) return `*${base.slice(i)}`;
  }
  const u = lower.lastIndexOf("_test.");
  if (u > 0) return `*${base.slice(u)}`;
  if (lower.startsWith("test_") && lower.endsWith(".py")) return "test_*.py";
  if (lower.endsWith("_spec.rb")) return "*_spec.rb";
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return null;
  const stem = base.slice(0, dot);
  const ext = base.slice(dot);
  for (const suffix of ["Tests", "Test", "Spec", "IT"]) if (stem.endsWith(suffix) && stem.length > suffix.length) return `*${suffix}${ext}`;
  if (stem.startsWith("Test") && stem.length > 4) return `Test*${ext}`;
  return null;
}

/** At most `max` test locations: the ones with most files, then in name order. */
export function boundedTestPaths(roots: Map<string, number>, max: number): string[] {
  const ranked = [...roots.entries()].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]));
  return ranked
    .slice(0, max)
    .map(([p]) => p)
    .sort(cmp);
}
