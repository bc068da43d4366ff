import type { InstructionFile } from "./instructions.js";

/**
 * What the indexer learns about a repository beyond single files: modules and their build commands (from the
 * manifests), documentation, and code ownership. Computed once per index build, stored with it, served by the
 * repository-knowledge tools and resources.
 */

export const BUILD_SYSTEMS = ["maven", "gradle", "npm", "yarn", "pnpm", "go", "cargo", "python", "dotnet"] as const;
export type BuildSystem = (typeof BUILD_SYSTEMS)[number];

/** The test runner a module's test command really uses, so a hint can run one test with it. */
export const TEST_RUNNERS = [
  "maven",
  "gradle",
  "jest",
  "vitest",
  "mocha",
  "node-test",
  "npm-script",
  "pytest",
  "unittest",
  "go",
  "cargo",
  "dotnet",
] as const;
export type TestRunner = (typeof TEST_RUNNERS)[number];

/** A manifest file as the knowledge stage receives it (text files only, at the indexed commit). */
export interface ManifestFile {
  path: string;
  content: string;
}

/** Every indexed path with its language: test roots, main language and wrapper/lockfile detection use it. */
export interface PathInfo {
  path: string;
  language: string | null;
}

export interface RepoModule {
  /** The build tool's own name (artifactId, package name, module path, crate name, project name). */
  name: string;
  /** Folder relative to the repository root, "" for the root. */
  path: string;
  buildSystem: BuildSystem;
  /** The manifest that defines it (pom.xml, package.json, go.mod ...). */
  manifest: string;
  type: "library" | "app" | "test";
  mainLanguage: string | null;
  /** Folders (relative to the repository root) or globs where this module's tests live. */
  testPaths: string[];
  /** Names of other modules of this repository it depends on. */
  dependsOn: string[];
  /** Commands the manifests really define, with the repository's wrapper or package manager; null when none. */
  buildCommand: string | null;
  testCommand: string | null;
  testRunner: TestRunner | null;
  /** Where the command came from: "pom.xml <modules>", "package.json scripts.test", "convention: go test". */
  commandSource: string | null;
  /**
   * npm/yarn/pnpm: the command that runs just the test files appended to it, with the options and environment
   * the test script gives its runner (`npm test -w @acme/core --`, `cd packages/cli && node --import tsx --test`).
   */
  testFileCommand?: string;
}

export interface ManifestWarning {
  path: string;
  line: number | null;
  reason: string;
}

export interface ManifestEntrypoint {
  type: "cli-bin" | "package-main" | "main-function" | "http-controller" | "http-route";
  path: string;
  name: string | null;
  module: string | null;
  /** Lines of the evidence (the manifest entry or the definition), when known. */
  startLine: number | null;
  endLine: number | null;
  /** For an entry read from a manifest (`path` is then the manifest): the file or `module:function` it names. */
  target?: string | null;
}

export interface BuildGraph {
  /** Build systems present, most modules first. */
  buildSystems: BuildSystem[];
  modules: RepoModule[];
  /** Internal edges, one per dependsOn entry. */
  edges: { from: string; to: string }[];
  /** The command that tests everything from the root, when the root manifest defines one. */
  rootTestCommand: string | null;
  entrypoints: ManifestEntrypoint[];
  warnings: ManifestWarning[];
}

export interface OwnershipRule {
  /** Position in the file (0-based), which decides "last match wins". */
  ordinal: number;
  pattern: string;
  owners: string[];
  /** GitLab section name; null in a file without sections. */
  section: string | null;
  /** GitLab optional section (`^[Section]`): its owners are suggested reviewers, not required approvers. */
  optional: boolean;
  source: string;
  line: number;
  /** GitLab `[Section][N]`: approvals the section requires, when the header states a count. */
  approvals?: number;
  /** True when `owners` came from the section header's default owners because the entry listed none. */
  inheritedOwners?: boolean;
}

export interface OwnershipFile {
  /** The CODEOWNERS file in force (the first one found in the host's search order), or null when none. */
  path: string | null;
  /** Other CODEOWNERS files present but not read because `path` takes precedence. */
  shadowed: string[];
  rules: OwnershipRule[];
  /** Lines that could not be parsed, with line numbers. */
  warnings: ManifestWarning[];
}

export const DOC_SOURCE_TYPES = [
  "readme",
  "contributing",
  "changelog",
  "adr",
  "migration_guide",
  "openapi",
  "package_doc",
  "instructions",
  "docs",
] as const;
export type DocSourceType = (typeof DOC_SOURCE_TYPES)[number];

export interface RepoDoc {
  /** Stable id: the path, so `repo://docs/{docId}` names the same document at every commit. */
  docId: string;
  path: string;
  title: string | null;
  sourceType: DocSourceType;
  headings: { level: number; text: string; line: number }[];
  contentHash: string;
  lineCount: number;
  hasInstructionLikeText: boolean;
}

/** Everything the knowledge stage yields for one index build. */
export interface RepoKnowledge {
  /** Paths that differed from the commit when the index was built (git status), re-checked by the next update. */
  dirtyPaths?: string[];
  graph: BuildGraph;
  ownership: OwnershipFile;
  docs: RepoDoc[];
  /** Agent instruction files, read from the indexed commit (src/indexer/knowledge/instructions/load.ts). */
  instructions: InstructionFile[];
}
