import type { TrustLevel } from "../core/evidence.js";
/**
 * Trust labels: the single place where a path (and what the indexer learned about it) becomes a trust level.
 * Every tool result passes through here via the projection middleware; tools never pick labels themselves.
 */


/** What the labeller needs to know about a file. */
export interface LabelInput {
  path: string;
  isGenerated: boolean;
  hasInstructionLikeText: boolean;
}

const INSTRUCTION_FILES = new Set(["AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md", ".agents/AGENTS.md"]);
const METADATA_FILES = new Set([
  "CODEOWNERS",
  "package.json",
  "pom.xml",
  "build.gradle",
  "build.gradle.kts",
  "settings.gradle",
  "settings.gradle.kts",
  "go.mod",
  "go.work",
  "Cargo.toml",
  "pyproject.toml",
  "setup.cfg",
  "setup.py",
  "pnpm-workspace.yaml",
  "tsconfig.json",
  "Makefile",
  "Gemfile",
  "composer.json",
]);
const DOC_EXTENSIONS = /\.(md|mdx|markdown|rst|adoc|asciidoc|txt)$/i;
const DOC_NAMES = /^(README|CONTRIBUTING|CHANGELOG|CHANGES|HISTORY|SECURITY|MIGRATION|UPGRADING|NOTICE|LICENSE)([.-].*)?$/i;

function baseName(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? path : path.slice(i + 1);
}

/** Instruction files for agents: AGENTS.md anywhere, CLAUDE.md anywhere, Copilot instructions. */
export function isInstructionFile(path: string): boolean {
  const name = baseName(path);
  return INSTRUCTION_FILES.has(path) || name === "AGENTS.md" || name === "CLAUDE.md";
}

export function isMetadataFile(path: string): boolean {
  const name = baseName(path);
  return METADATA_FILES.has(name) || name.endsWith(".csproj") || name.endsWith(".sln");
}

/** Test code by the conventions of the mainstream ecosystems (folders and file-name patterns). */
export function isTestPath(path: string): boolean {
  const lower = path.toLowerCase();
  if (/(^|\/)(test|tests|__tests__|spec|specs|testing|testdata|test_data|e2e)\//.test(lower)) return true;
  // Maven's src/test and src/it (failsafe). A bare `it/` elsewhere is usually a Java package (it.unimi...).
  if (/(^|\/)src\/(test|it)\//.test(lower) || lower.startsWith("it/")) return true;
  const name = baseName(path);
  return (
    /\.(test|spec)\.[cm]?[jt]sx?$/i.test(name) ||
    /_test\.(go|py|rb|exs?|dart|cc|cpp|c)$/i.test(name) ||
    /^test_.*\.py$/i.test(name) ||
    /^.+_spec\.rb$/i.test(name) ||
    /^(.+Tests?|Test[A-Z0-9_].*)\.(java|kt|kts|scala|cs|swift|php|groovy)$/.test(name) ||
    /^.+(Spec|IT)\.(java|kt|scala|groovy)$/.test(name)
  );
}

export function isDocPath(path: string): boolean {
  const lower = path.toLowerCase();
  const name = baseName(path);
  // README, LICENSE-MIT, CHANGELOG.md - but not src/security.ts or lib/history.py.
  if (DOC_NAMES.test(name) && (!name.includes(".") || DOC_EXTENSIONS.test(name))) return true;
  if (/(^|\/)(docs?|documentation|adr|adrs)\//.test(lower) && DOC_EXTENSIONS.test(name)) return true;
  return /\.(md|mdx|markdown|rst|adoc|asciidoc)$/i.test(name);
}

/** The trust level of a file: repository text is always evidence, never authority. */
export function trustLevelFor(f: LabelInput): TrustLevel {
  if (isInstructionFile(f.path)) return "repo_instructions";
  if (f.isGenerated) return "generated_code";
  if (isDocPath(f.path)) {
    return f.hasInstructionLikeText ? "repo_documentation_untrusted_instruction" : "repo_documentation";
  }
  if (isTestPath(f.path)) return "test_code";
  if (isMetadataFile(f.path)) return "repo_metadata";
  return "source_code";
}
