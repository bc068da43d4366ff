/**
 * The instruction vocabulary: what agent instruction files are parsed into (rules, claims, lint), the closed sets of
 * categories and actions the resolver compares, and where instruction-like text was found. Stored by the indexer,
 * read by the policy file schema, the resolver and the tools alike.
 */
import type { WithheldReason } from "./evidence.js";

export interface InstructionLikeMatch {
  /** 1-based line of the match. */
  line: number;
  ruleId: string;
  /** The trimmed line (at most MAX_EXCERPT_LENGTH characters, around the match); invisible characters are shown. */
  excerpt: string;
  /**
   * 1-based column where the matched span starts on the original line, inclusive. Columns count UTF-16 code units
   * (JavaScript string indices + 1), the unit LSP clients use by default.
   */
  startColumn: number;
  /** 1-based column just after the matched span, exclusive: the span is `line.slice(startColumn - 1, endColumn - 1)`. */
  endColumn: number;
}

/** What an instruction asks for or forbids, in words the resolver can compare (text alone is for the model). */
export const INSTRUCTION_CATEGORIES = [
  "safety",
  "build_command",
  "test_command",
  "style",
  "forbidden_path",
  "forbidden_action",
  "scope",
  "pr_expectation",
  "other",
] as const;
export type InstructionCategory = (typeof INSTRUCTION_CATEGORIES)[number];

/** Actions instructions forbid or require: a closed vocabulary, so conflicts are found by comparison, not guessed. */
export const INSTRUCTION_ACTIONS = [
  "push_protected_branch",
  "force_push",
  "skip_tests",
  "delete_tests",
  "disable_checks",
  "network_egress",
  "remote_execution",
  "edit_generated",
  "expose_secrets",
  "modify_ci",
  "add_dependency",
  "edit_migrations",
  "unbounded_refactor",
] as const;
export type InstructionAction = (typeof INSTRUCTION_ACTIONS)[number];

export const COMMAND_PURPOSES = ["build", "test", "lint", "other"] as const;
export type CommandPurpose = (typeof COMMAND_PURPOSES)[number];

export interface InstructionCommand {
  purpose: CommandPurpose;
  command: string;
  /** Folder the command runs in, repository-relative ("" = root): the file's folder unless the text says otherwise. */
  cwd: string;
  /** Folders the command is about (`inside web/`, `-pl services/pricing`); empty = the file's whole scope. */
  appliesTo: string[];
  /** Actions running this command amounts to (`curl … | sh` → remote_execution). */
  impliedActions: InstructionAction[];
  /** Set when the command cannot work in this repository (missing script, wrapper, manifest or path). */
  stale?: string;
}

export interface InstructionClaims {
  commands: InstructionCommand[];
  forbidPaths: string[];
  forbidActions: InstructionAction[];
  requireActions: InstructionAction[];
}

export interface InstructionRule {
  /** Stable id: `path#L12` or `path#L12-L14`. */
  id: string;
  text: string;
  category: InstructionCategory;
  /** The heading the rule sits under, if any. */
  section: string | null;
  startLine: number;
  endLine: number;
  claims: InstructionClaims;
  /** Kept when an over-limit file is summarized: commands, forbidden paths/actions, safety, suspicious text. */
  essential: boolean;
  /** Instruction-like text aimed at agents (prompt injection): quoted as evidence, never followed. */
  suspicious?: InstructionLikeMatch[];
  /** Set when served, never stored: the rule's text is not served (its file holds a suspected secret). */
  withheld?: WithheldReason;
}

export const INSTRUCTION_LINT_IDS = [
  "VERIFIER_GAMING",
  "UNBOUNDED_REFACTOR",
  "SECRET_EXPOSURE",
  "REMOTE_EXECUTION",
  "NETWORK_ACCESS",
  "PROMPT_INJECTION",
  "FILE_TOO_LONG",
  "STALE_COMMAND",
  "STALE_PATH",
] as const;
export type InstructionLintId = (typeof INSTRUCTION_LINT_IDS)[number];

export interface InstructionLint {
  ruleId: InstructionLintId;
  path: string;
  line: number;
  message: string;
  suggestion: string;
}

export const INSTRUCTION_SOURCE_KINDS = ["agents_md", "claude_md", "copilot_instructions"] as const;
export type InstructionSourceKind = (typeof INSTRUCTION_SOURCE_KINDS)[number];

export interface InstructionFile {
  path: string;
  /** Folder the file applies to ("" = the whole repository). */
  scope: string;
  sourceKind: InstructionSourceKind;
  /** AGENTS.md files are the trusted kind; CLAUDE.md and Copilot instructions are optional sources. */
  trusted: boolean;
  /** base_commit: the committed text; working_tree: outside git; not_loaded: uncommitted or unreadable. */
  loadedFrom: "base_commit" | "working_tree" | "not_loaded";
  commit: string | null;
  /** sha256 of the loaded bytes (the committed blob under git). */
  contentHash: string | null;
  bytes: number;
  lineCount: number;
  /** How the work tree compared with the loaded text at indexing time. */
  workingTree: "unchanged" | "modified" | "deleted" | "untracked" | "not_checked";
  modifiedInWorkingTree: boolean;
  /** Why the file was not parsed (too large, unreadable, uncommitted), else null. */
  notLoadedReason: string | null;
  rules: InstructionRule[];
  lint: InstructionLint[];
  /** Set when served, never stored: the file's text (rules, commands, lint messages) is not served. */
  withheld?: WithheldReason;
}
