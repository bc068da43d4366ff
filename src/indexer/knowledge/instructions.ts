import { detectInstructionLikeText } from "../../policy/injection.js";
import { isInstructionFile } from "../../policy/labels.js";
import { runGit } from "../git.js";
import type { ManifestFile, PathInfo } from "../../core/knowledge.js";
import { countLines, sha256 } from "../../core/hash.js";
import type { CommandPurpose, InstructionAction, InstructionCategory, InstructionClaims, InstructionCommand, InstructionFile, InstructionLint, InstructionLintId, InstructionRule, InstructionSourceKind } from "../../core/instructions.js";

/**
 * Agent instruction files (AGENTS.md, CLAUDE.md, .agents/AGENTS.md, .github/copilot-instructions.md): read from the
 * indexed commit (never from uncommitted edits), parsed into rules with provenance, claims the resolver can compare
 * (commands, forbidden paths and actions), and lint findings. Size limits are the operator's and are applied when
 * the rules are served (src/query/instructions.ts); here every file up to a hard cap is parsed in full.
 */

/** Files larger than this are not parsed at all: four times the largest per-file limit an operator may set. */
export const INSTRUCTION_HARD_CAP_BYTES = 4 * 1024 * 1024;
/** At most this many instruction files per repository are read. */
const MAX_INSTRUCTION_FILES = 500;
/** Longest rule text kept (a rule longer than this is cut, its lines still cited). */
const MAX_RULE_TEXT = 2000;
/** Folders whose instruction files belong to someone else's project (dependencies, test data). */
const FOREIGN_DIRS: ReadonlySet<string> = new Set([
  "node_modules",
  "vendor",
  "third_party",
  "third-party",
  "bower_components",
  ".git",
  ".venv",
  "venv",
  "site-packages",
  "fixtures",
  "__fixtures__",
  "testdata",
  "test-data",
  "test_data",
]);

/** Whole-repository files wherever they sit; every other instruction file applies to its own folder. */
const ROOT_SCOPED = new Set(["AGENTS.md", "CLAUDE.md", ".agents/AGENTS.md", ".github/copilot-instructions.md"]);

export function instructionScope(path: string): string {
  if (ROOT_SCOPED.has(path)) return "";
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

export function sourceKindOf(path: string): InstructionSourceKind {
  if (path === ".github/copilot-instructions.md") return "copilot_instructions";
  return path.endsWith("CLAUDE.md") ? "claude_md" : "agents_md";
}

/** Instruction files this repository's agents follow (not those of dependencies or test fixtures). */
export function isOwnInstructionFile(path: string): boolean {
  if (!isInstructionFile(path)) return false;
  const segs = path.split("/");
  return !segs.slice(0, -1).some((s) => FOREIGN_DIRS.has(s));
}

// ---------------------------------------------------------------------------------------------------------------
// Phrase patterns. They look for what a sentence asks an agent to do, not for keywords: "Do not delete failing
// tests" forbids delete_tests, "delete any failing test file" requires it, "tests are deleted nightly" is neither.

const NEG_BEFORE =
  /\b(?:do\s+not|don['’]t|dont|never|must\s+not|mustn['’]t|should\s+not|shouldn['’]t|shall\s+not|cannot|can['’]t|may\s+not|not\s+allowed\s+to|forbidden\s+to|avoid|refrain\s+from|without|no\s+one\s+may)\b|^\s*no\b/i;
/** Clauses that forbid by their shape ("… is generated and must not be edited"). */
const NEG_INHERENT =
  /\b(?:must|should|may|shall)\s+not\s+be\s+(?:edited|modified|changed|touched|updated|committed|deleted|removed|rewritten)|\b(?:must|should|shall)\s+never\s+be\s+(?:edited|modified|changed|touched|updated)|\b(?:is|are)\s+(?:read[\s-]only|off[\s-]limits|forbidden|prohibited|not\s+to\s+be\s+(?:edited|modified|changed|touched))\b/i;
const EDIT_VERBS = /\b(?:edit|edits|editing|modify|modifying|change|changing|touch|touching|write|writing|commit|update|updating|delete|remove|rename|move|rewrite|hand[\s-]?edit|alter)\b/i;

const ACTION_PATTERNS: readonly (readonly [InstructionAction, RegExp])[] = [
  ["push_protected_branch", /\bpush(?:ing|es)?\s+(?:(?:your\s+|the\s+|any\s+)?(?:changes|commits|code)\s+)?(?:directly\s+|straight\s+)?(?:to|into|onto|on)\s+(?:the\s+)?(?:main|master|trunk|develop|production|release|protected|default)\b/i],
  ["push_protected_branch", /\bcommit(?:ting)?\s+(?:directly|straight)\s+(?:to|on)\s+(?:the\s+)?(?:main|master|trunk|default|protected)\b/i],
  ["force_push", /\bforce[\s-]?push(?:ing|es|ed)?\b|\bpush\s+(?:\S+\s+){0,3}?(?:--force(?:-with-lease)?|-f)\b/i],
  ["skip_tests", /\bskip(?:ping|s)?\s+(?:the\s+|any\s+|all\s+)?(?:failing\s+|flaky\s+|broken\s+|slow\s+)?(?:unit\s+|integration\s+|e2e\s+)?(?:tests?|specs?|test\s+suites?)\b/i],
  ["skip_tests", /\bmark\s+(?:the\s+|any\s+|all\s+)?(?:failing\s+|flaky\s+)?tests?\s+as\s+(?:skipped|ignored|xfail|pending|disabled)\b/i],
  ["delete_tests", /\b(?:delete|remove|drop)\s+(?:the\s+|any\s+|all\s+)?(?:failing\s+|flaky\s+|broken\s+)?(?:unit\s+|integration\s+)?(?:tests?|test\s+(?:files?|cases?|suites?)|specs?)\b/i],
  ["disable_checks", /\b(?:disable|turn\s+off|bypass|comment\s+out|silence)\s+(?:the\s+|any\s+|all\s+)?(?:failing\s+|flaky\s+)?(?:tests?|checks?|verifiers?|verification|linters?|linting|type[\s-]?check(?:ing|s|er)?|ci|pre-commit\s+hooks?|hooks?|assertions?)\b/i],
  ["disable_checks", /--no-verify\b/i],
  ["remote_execution", /\b(?:curl|wget)\b[^|\n]{0,300}\|\s*(?:sudo\s+)?(?:ba|z|k|da|fi)?sh\b/i],
  ["remote_execution", /\b(?:execute|run|source|eval)\s+(?:the\s+)?(?:returned|downloaded|fetched|remote|resulting)\s+(?:script|code|file|commands?|installer)\b/i],
  ["remote_execution", /\b(?:ba)?sh\s+<\(\s*(?:curl|wget)\b/i],
  ["network_egress", /\b(?:curl|wget)\s+(?:-\S+\s+)*(?:https?:\/\/|this\s+url|the\s+url|[\w-]+\.[\w.-]+\/)/i],
  ["network_egress", /\bfrom\s+the\s+internet\b|\bdownload(?:s|ing)?\s+(?:\S+\s+){0,3}?from\s+(?:https?:\/\/|the\s+internet|the\s+web)/i],
  ["edit_generated", /\b(?:edit|modify|change|touch|update|hand[\s-]?edit|rewrite)\b[^.;:]{0,80}?\bgenerated\b/i],
  ["edit_generated", /\bgenerated\b[^.;:]{0,60}?\b(?:edited|modified|changed|touched)\b/i],
  ["expose_secrets", /\b(?:print|echo|log|paste|commit|share|send|upload|post|cat|copy|expose|leak|output|dump|reveal|exfiltrate)\s+(?:the\s+|any\s+|your\s+|all\s+|our\s+)?(?:\S+\s+)?(?:secrets?|credentials?|tokens?|api[\s_-]?keys?|passwords?|private\s+keys?|\.env(?:\.[\w-]+)?)(?![\w-])/i],
  ["expose_secrets", /\buse\s+(?:the\s+)?\.env(?:\.[\w-]+)?(?![\w-])|\b(?:paste|include|attach)\s+(?:\S+\s+){0,4}?(?:from|of)\s+\.env\b/i],
  ["modify_ci", /\b(?:edit|modify|change|touch|update|alter)\s+(?:the\s+)?(?:ci\b|ci\s+config(?:uration)?|(?:github\s+)?workflows?|pipelines?|\.github\/workflows)/i],
  ["add_dependency", /\badd(?:ing)?\s+(?:a\s+|any\s+|new\s+|extra\s+|more\s+|third[\s-]party\s+|runtime\s+|npm\s+|maven\s+)*dependenc(?:y|ies)\b/i],
  ["edit_migrations", /\b(?:edit|modify|change|touch|update|alter|rewrite)\s+(?:the\s+|any\s+|existing\s+)*(?:database\s+|db\s+|schema\s+|sql\s+|flyway\s+|liquibase\s+)?(?:db\/|database\/)?migrations?\b/i],
  ["unbounded_refactor", /\b(?:refactor|reformat|rewrite|restructure|clean\s+up|improve|modernize)\s+(?:all|every|everything|any|unrelated|the\s+(?:whole|entire))\b/i],
  ["unbounded_refactor", /\bimprove\s+(?:the\s+)?architecture\b|\bmake\s+all\s+(?:the\s+)?code\b/i],
];

const VERIFIER_ACTIONS: ReadonlySet<InstructionAction> = new Set(["skip_tests", "delete_tests", "disable_checks"]);
const SAFETY_ACTIONS: ReadonlySet<InstructionAction> = new Set([
  "push_protected_branch",
  "force_push",
  "skip_tests",
  "delete_tests",
  "disable_checks",
  "network_egress",
  "remote_execution",
  "expose_secrets",
]);

/** First words of shell commands worth treating a code span as a command. */
const COMMAND_WORDS = new Set([
  "npm", "npx", "yarn", "pnpm", "node", "deno", "bun", "tsc", "eslint", "prettier", "jest", "vitest", "mocha",
  "mvn", "gradle", "make", "go", "cargo", "rustc", "pytest", "python", "python3", "pip", "pip3", "poetry", "uv",
  "tox", "nox", "ruff", "black", "mypy", "flake8", "dotnet", "bundle", "rake", "rspec", "docker", "bash", "sh",
  "zsh", "curl", "wget", "git", "cd", "bazel", "sbt", "ant", "cmake", "ctest", "php", "composer", "phpunit",
  "swift", "xcodebuild", "flutter", "dart", "mix", "just", "task", "nx", "turbo", "lerna",
]);

const SHELL_FENCES = new Set(["", "sh", "bash", "shell", "console", "zsh", "shell-session", "terminal", "cmd", "powershell", "ps1", "fish"]);

function splitClauses(text: string): string[] {
  return text.split(/[.;!?](?=\s|$)|\s(?=then\s)|,\s+(?:and\s+)?then\s|\bbut\b/i).filter((c) => c.trim().length > 0);
}

function uniq<T>(xs: Iterable<T>): T[] {
  return [...new Set(xs)];
}

/** Code spans of a line of Markdown (`x`, ``x``). */
function codeSpans(text: string): string[] {
  const out: string[] = [];
  const re = /(`+)([^`]+?)\1/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push(m[2]!.trim());
  return out;
}

export function looksLikeCommand(span: string): boolean {
  const s = span.replace(/^\$\s+/, "").trim();
  if (s.length === 0 || s.length > 500) return false;
  const words = s.split(/\s+/);
  let i = 0;
  while (i < words.length && /^[A-Z_][A-Z0-9_]*=\S*$/.test(words[i]!)) i += 1;
  const first = words[i];
  if (first === undefined) return false;
  if (COMMAND_WORDS.has(first)) return words.length > 1 || ["make", "pytest", "tox", "tsc", "jest", "vitest", "mvn", "gradle", "cargo", "go"].includes(first);
  return first.startsWith("./") && (words.length > 1 || /^\.\/(?:mvnw|gradlew|[\w.-]+\.sh)$/.test(first));
}

function looksLikePath(span: string): boolean {
  if (span.length > 300 || /\s/.test(span) || looksLikeCommand(span)) return false;
  if (/^[a-z][\w+.-]*:/i.test(span) || span.startsWith("@") || span.startsWith("-") || span.includes("()")) return false;
  if (/^[\w.*{}-]*\.(?:[a-z]{1,3})$/i.test(span) && !span.includes("/") && /^\*/.test(span)) return false; // `*.ts`
  if (span.includes("/")) return /^[\w.@*{}\[\]/-]+$/.test(span);
  return /^\.?[\w-]+(?:\.[\w-]+)*\.(?:md|json|ya?ml|toml|xml|ts|tsx|js|mjs|cjs|jsx|java|kt|kts|py|go|rs|sh|gradle|properties|sql|txt|cfg|ini|lock|mod|env|production|local|development)$/i.test(
    span,
  );
}

function cleanRelPath(p: string): string {
  let s = p.trim();
  while (s.startsWith("./")) s = s.slice(2);
  return s.replace(/^\/+/, "");
}

/** `web/src/generated/` → `web/src/generated/**`; a file stays itself; a glob stays a glob. */
export function pathToGlob(p: string): string {
  const s = cleanRelPath(p);
  if (/[*?[\]{}]/.test(s)) return s;
  if (s.endsWith("/")) return `${s}**`;
  const last = s.slice(s.lastIndexOf("/") + 1);
  return last.includes(".") && !last.startsWith(".") ? s : `${s}/**`;
}

/** Classifies a command by what it runs. */
export function commandPurpose(command: string): CommandPurpose {
  const c = command.toLowerCase();
  if (/\b(?:lint|eslint|ruff|flake8|pylint|golangci-lint|checkstyle|spotless:check|stylelint|ktlint|detekt|mypy|clippy)\b|prettier\s+(?:--check|-c)\b|black\s+--check|fmt\s+--check|format:check|tsc\b[^|&;]*--noemit/.test(c)) {
    return "lint";
  }
  if (/(?<![\w-])(?:test|tests|pytest|jest|vitest|mocha|ctest|unittest|verify|check|tox|nox|rspec|phpunit)(?![\w-])/.test(c)) return "test";
  if (/^(?:npm|yarn|pnpm)\s+(?:t|tst)(?![\w-])/.test(c)) return "test";
  if (/(?<![\w-])(?:build|compile|package|install|assemble|tsc|make|bundle|webpack|ci)(?![\w-])/.test(c)) return "build";
  return "other";
}

/** What running a command amounts to, in the resolver's vocabulary. */
export function impliedActions(command: string): InstructionAction[] {
  const out = new Set<InstructionAction>();
  const c = command;
  if (/\b(?:curl|wget)\b[^|\n]*\|\s*(?:sudo\s+)?(?:ba|z|k|da|fi)?sh\b|\b(?:ba)?sh\s+<\(\s*(?:curl|wget)\b/i.test(c)) out.add("remote_execution");
  if (/(?:^|[\s;&|(])(?:curl|wget)\s/.test(c)) out.add("network_egress");
  if (/\bgit\s+push\b[^;&|]*(?:--force|\s-f\b)/.test(c)) out.add("force_push");
  if (/\bgit\s+push\s+(?:-\S+\s+)*\S+\s+(?:HEAD:)?(?:main|master|trunk)\b/.test(c)) out.add("push_protected_branch");
  if (/--no-verify\b/.test(c)) out.add("disable_checks");
  if (/\b(?:npm\s+(?:install|i|add)\s+(?:-\S+\s+)*[@\w][^\s]*|yarn\s+add|pnpm\s+(?:add|install\s+[@\w])|pip3?\s+install\s+(?:-U\s+)?(?!-r\b|-e\b|\.)[\w]|go\s+get\s+\S|cargo\s+add|poetry\s+add|uv\s+add)/.test(c)) {
    out.add("add_dependency");
  }
  return [...out].sort();
}

interface ActionHit {
  action: InstructionAction;
  negated: boolean;
}

function actionHits(text: string): ActionHit[] {
  const plain = text.replace(/`+/g, "");
  const hits: ActionHit[] = [];
  for (const clause of splitClauses(plain)) {
    for (const [action, re] of ACTION_PATTERNS) {
      const m = re.exec(clause);
      if (!m) continue;
      const before = clause.slice(0, m.index);
      const negated = NEG_BEFORE.test(before) || NEG_INHERENT.test(clause.slice(m.index)) || /\bnot\s*$/i.test(before);
      hits.push({ action, negated });
    }
  }
  return hits;
}

/** Folders named as the place a command runs: "inside `web/`", "from the `go/ratelimit` folder". */
function cwdHint(text: string): string | null {
  const m = /\b(?:inside|in|from|within|under)\s+(?:the\s+)?`([^`\s]+)`\s*(?:folder|directory|dir)?/i.exec(text);
  if (!m) return null;
  const p = cleanRelPath(m[1]!).replace(/\/+$/, "");
  return looksLikePath(m[1]!) || /^[\w.-]+$/.test(p) ? p : null;
}

function joinPath(dir: string, rel: string): string {
  const parts = dir === "" ? [] : dir.split("/");
  for (const seg of cleanRelPath(rel).replace(/\/+$/, "").split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") parts.pop();
    else parts.push(seg);
  }
  return parts.join("/");
}

function makeCommand(raw: string, scope: string, context: string): InstructionCommand {
  const command = raw.replace(/^\$\s+/, "").trim();
  let cwd = scope;
  const appliesTo: string[] = [];
  const hint = cwdHint(context);
  if (hint !== null && !command.includes(hint)) {
    cwd = joinPath(scope, hint);
    appliesTo.push(cwd);
  }
  const cd = /^cd\s+(\S+)\s*&&/.exec(command);
  if (cd) {
    cwd = joinPath(cwd, cd[1]!);
    appliesTo.push(cwd);
  }
  const pl = /\s(?:-pl|--projects)\s+(\S+)/.exec(command);
  if (pl) {
    for (const p of pl[1]!.split(",")) {
      if (p.startsWith(":") || p.length === 0) continue;
      // `-pl services/x` in services/x/AGENTS.md names the module from the root.
      const clean = cleanRelPath(p).replace(/\/+$/, "");
      appliesTo.push(scope !== "" && (clean === scope || clean.startsWith(`${scope}/`)) ? clean : joinPath(cwd, p));
    }
  }
  let purpose = commandPurpose(command);
  if (purpose === "other") {
    if (/\btests?\b/i.test(context)) purpose = "test";
    else if (/\b(?:lint|format(?:ting)?)\b/i.test(context)) purpose = "lint";
    else if (/\b(?:build|compile)\b/i.test(context)) purpose = "build";
  }
  return { purpose, command, cwd, appliesTo: uniq(appliesTo), impliedActions: impliedActions(command) };
}

/** Claims of a piece of prose (a rule, a user task): commands in code spans, forbidden paths, actions. */
export function claimsFromText(text: string, scope = ""): InstructionClaims {
  const spans = codeSpans(text);
  const commands = spans.filter(looksLikeCommand).map((s) => makeCommand(s, scope, text));
  const forbidActions = new Set<InstructionAction>();
  const requireActions = new Set<InstructionAction>();
  for (const h of actionHits(text)) (h.negated ? forbidActions : requireActions).add(h.action);
  for (const c of commands) for (const a of c.impliedActions) if (!forbidActions.has(a)) requireActions.add(a);
  const forbidPaths: string[] = [];
  for (const clause of splitClauses(text)) {
    const plain = clause.replace(/`+/g, "");
    const negated = (NEG_BEFORE.test(plain) && EDIT_VERBS.test(plain)) || NEG_INHERENT.test(plain);
    if (!negated) continue;
    const candidates = codeSpans(clause).filter(looksLikePath);
    if (candidates.length === 0) {
      // Bare paths in prose: "Do not edit src/main/generated."
      for (const m of plain.matchAll(/(?:^|\s)((?:\.{0,2}\/)?[\w.-]+\/[\w./*-]*[\w/*])(?=[\s,)]|$)/g)) candidates.push(m[1]!);
    }
    for (const c of candidates) forbidPaths.push(pathToGlob(c));
  }
  if (forbidPaths.some((p) => /(?:^|\/)generated(?:\/|$)/i.test(p)) && !requireActions.has("edit_generated")) forbidActions.add("edit_generated");
  if (forbidPaths.some((p) => /(?:^|\/)(?:db\/)?migrations?(?:\/|$)/i.test(p)) && !requireActions.has("edit_migrations")) forbidActions.add("edit_migrations");
  if (forbidPaths.some((p) => /^\.github\/workflows(?:\/|$)/.test(p)) && !requireActions.has("modify_ci")) forbidActions.add("modify_ci");
  for (const a of forbidActions) requireActions.delete(a);
  return { commands, forbidPaths: uniq(forbidPaths), forbidActions: [...forbidActions].sort(), requireActions: [...requireActions].sort() };
}

function categorize(text: string, section: string | null, claims: InstructionClaims): InstructionCategory {
  if (claims.forbidPaths.length > 0) return "forbidden_path";
  if (claims.forbidActions.length > 0) {
    return claims.forbidActions.every((a) => a === "unbounded_refactor") ? "scope" : "forbidden_action";
  }
  if (claims.commands.length > 0) return claims.commands.some((c) => c.purpose === "test") ? "test_command" : "build_command";
  if (claims.requireActions.some((a) => SAFETY_ACTIONS.has(a))) return "safety";
  if (claims.requireActions.includes("unbounded_refactor")) return "scope";
  const heading = section ?? "";
  if (/\b(?:PRs?|pull\s+requests?|commit\s+messages?|changelog)\b/i.test(text) || /\b(?:PR|pull\s+request|review|commit)s?\b/i.test(heading)) return "pr_expectation";
  if (/\b(?:secrets?|credentials?|security|passwords?|tokens?)\b/i.test(text) || /\b(?:security|safety)\b/i.test(heading)) return "safety";
  if (/\b(?:keep\s+(?:changes|diffs?|the\s+diff)\s+(?:minimal|small|focused)|minimal\s+(?:diffs?|changes?)|only\s+(?:change|modify|touch|edit)|out\s+of\s+scope|unrelated)\b/i.test(text)) return "scope";
  if (/\b(?:style|conventions?|format(?:ting)?)\b/i.test(heading) || /\b(?:code\s+style|formatting|indent(?:ation)?|naming|prefer|conventions?|camelCase|snake_case)\b/i.test(text)) return "style";
  if (/\bbuild\b/i.test(heading)) return /\btests?\b/i.test(text) ? "test_command" : "build_command";
  if (/\btests?\b/i.test(heading)) return "test_command";
  return "other";
}

// ---------------------------------------------------------------------------------------------------------------
// Markdown → blocks → rules.

interface Block {
  startLine: number;
  endLine: number;
  text: string;
  section: string | null;
  kind: "bullet" | "paragraph" | "command" | "code";
}

function blocksOf(text: string): Block[] {
  const lines = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  const blocks: Block[] = [];
  let section: string | null = null;
  let current: Block | null = null;
  const close = (): void => {
    if (current && current.text.trim().length > 0) blocks.push({ ...current, text: current.text.trim() });
    current = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const n = i + 1;
    const fence = /^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)/.exec(line);
    if (fence) {
      close();
      const marker = fence[1]!;
      const lang = fence[2]!.toLowerCase();
      const body: { n: number; text: string }[] = [];
      let j = i + 1;
      while (j < lines.length && !lines[j]!.trimStart().startsWith(marker)) {
        body.push({ n: j + 1, text: lines[j]! });
        j += 1;
      }
      if (SHELL_FENCES.has(lang)) {
        for (const b of body) {
          const t = b.text.trim().replace(/^[$>]\s+/, "");
          if (t.length === 0 || t.startsWith("#")) continue;
          blocks.push({ startLine: b.n, endLine: b.n, text: t, section, kind: "command" });
        }
      } else if (body.length > 0) {
        blocks.push({ startLine: body[0]!.n, endLine: body[body.length - 1]!.n, text: body.map((b) => b.text).join("\n").trim(), section, kind: "code" });
      }
      i = j;
      continue;
    }
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      close();
      section = heading[1]!.trim() || null;
      continue;
    }
    if (line.trim().length === 0) {
      close();
      continue;
    }
    const bullet = /^(\s*)(?:[-*+]|\d{1,3}[.)])\s+(.*)$/.exec(line);
    if (bullet) {
      close();
      current = { startLine: n, endLine: n, text: bullet[2]!, section, kind: "bullet" };
      continue;
    }
    // A line continues the block when it is indented under a bullet or the previous line did not end a sentence;
    // one-instruction-per-line files (the common style) give one rule per line.
    const prev: Block | null = current;
    const continues =
      prev !== null &&
      !/^\s*<!--/.test(line) &&
      (/^\s{2,}\S/.test(line) ? prev.kind === "bullet" || !/[.!?:]$|-->$/.test(prev.text.trimEnd()) : !/[.!?:]$|-->$/.test(prev.text.trimEnd()));
    if (prev !== null && continues) {
      prev.text += ` ${line.trim()}`;
      prev.endLine = n;
    } else {
      close();
      current = { startLine: n, endLine: n, text: line.trim(), section, kind: "paragraph" };
    }
  }
  close();
  return blocks;
}

function ruleId(path: string, start: number, end: number): string {
  return start === end ? `${path}#L${start}` : `${path}#L${start}-L${end}`;
}

function lint(path: string, line: number, ruleId: InstructionLintId, message: string, suggestion: string): InstructionLint {
  return { ruleId, path, line, message, suggestion };
}

function excerpt(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/** Parses one instruction file's text into rules and content lint (stale checks come later, with the index). */
export function parseInstructionText(path: string, text: string): { rules: InstructionRule[]; lint: InstructionLint[] } {
  const scope = instructionScope(path);
  const injections = detectInstructionLikeText(text);
  const rules: InstructionRule[] = [];
  const findings: InstructionLint[] = [];
  for (const b of blocksOf(text)) {
    const claims =
      b.kind === "command"
        ? { commands: [makeCommand(b.text, scope, `${b.section ?? ""} ${b.text}`)], forbidPaths: [], forbidActions: [], requireActions: [] as InstructionAction[] }
        : b.kind === "code"
          ? { commands: [], forbidPaths: [], forbidActions: [], requireActions: [] as InstructionAction[] }
          : claimsFromText(b.text, scope);
    if (b.kind === "command") claims.requireActions = [...claims.commands[0]!.impliedActions];
    // Commands in a section about tests are test commands even when the command itself does not say so.
    for (const c of claims.commands) {
      if (c.purpose === "other" && /\btests?\b/i.test(b.section ?? "")) c.purpose = "test";
      else if (c.purpose === "other" && /\bbuild\b/i.test(b.section ?? "")) c.purpose = "build";
    }
    const suspicious = injections.filter((m) => m.line >= b.startLine && m.line <= b.endLine);
    const category = categorize(b.text, b.section, claims);
    const rule: InstructionRule = {
      id: ruleId(path, b.startLine, b.endLine),
      text: b.text.length > MAX_RULE_TEXT ? `${b.text.slice(0, MAX_RULE_TEXT)}…` : b.text,
      category,
      section: b.section,
      startLine: b.startLine,
      endLine: b.endLine,
      claims,
      essential:
        claims.commands.length > 0 ||
        claims.forbidPaths.length > 0 ||
        claims.forbidActions.length > 0 ||
        claims.requireActions.length > 0 ||
        category === "safety" ||
        suspicious.length > 0,
    };
    if (suspicious.length > 0) rule.suspicious = suspicious;
    rules.push(rule);

    const req = new Set(claims.requireActions);
    const line = b.startLine;
    if ([...req].some((a) => VERIFIER_ACTIONS.has(a))) {
      findings.push(lint(path, line, "VERIFIER_GAMING", `"${excerpt(b.text)}" tells agents to skip, delete or disable tests or checks`, "Do not delete, skip or disable failing tests; fix the code or report the failure."));
    }
    if (req.has("unbounded_refactor")) {
      findings.push(lint(path, line, "UNBOUNDED_REFACTOR", `"${excerpt(b.text)}" may cause scope creep`, "Do not refactor or reformat code outside the requested change."));
    }
    if (req.has("expose_secrets")) {
      findings.push(lint(path, line, "SECRET_EXPOSURE", `"${excerpt(b.text)}" asks agents to use or reveal secrets or secret files`, "Never read, print or paste secrets; use test fixtures or ask for a sandbox credential."));
    }
    if (req.has("remote_execution")) {
      findings.push(lint(path, line, "REMOTE_EXECUTION", `"${excerpt(b.text)}" runs code fetched from the network`, "Pin and vendor the tool, or install it through the package manager; never pipe a download into a shell."));
    } else if (req.has("network_egress")) {
      findings.push(lint(path, line, "NETWORK_ACCESS", `"${excerpt(b.text)}" needs network access, which a sandboxed run may not have`, "Say what to do when the network is unavailable, or move the download to setup."));
    }
    if (suspicious.length > 0) {
      findings.push(
        lint(path, suspicious[0]!.line, "PROMPT_INJECTION", `instruction-like text aimed at agents (${uniq(suspicious.map((s) => s.ruleId)).join(", ")}): quoted as evidence, not followed`, "Remove the text, or rewrite it as a plain repository rule."),
      );
    }
  }
  return { rules, lint: findings };
}

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

function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
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

// ---------------------------------------------------------------------------------------------------------------
// Loading: the committed text under git, the work tree outside it.

/** An instruction file as the index walk saw it in the work tree. */
export interface WorkingInstructionFile {
  path: string;
  content: string | null;
  contentHash: string;
  sizeBytes: number;
  skipReason: string | null;
}

interface TreeEntry {
  path: string;
  mode: string;
  object: string;
  size: number;
}

async function committedInstructionFiles(root: string, commit: string): Promise<TreeEntry[]> {
  const out = (await runGit(root, ["ls-tree", "-r", "-l", "-z", "--full-tree", commit])).toString("utf8");
  const entries: TreeEntry[] = [];
  for (const rec of out.split("\0")) {
    const tab = rec.indexOf("\t");
    if (tab < 0) continue;
    const path = rec.slice(tab + 1);
    if (!isOwnInstructionFile(path)) continue;
    const [mode, type, object, size] = rec.slice(0, tab).trim().split(/\s+/);
    if (type !== "blob" || mode === undefined || object === undefined) continue;
    entries.push({ path, mode, object, size: Number(size) || 0 });
  }
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).slice(0, MAX_INSTRUCTION_FILES);
}

function baseFile(path: string): Omit<InstructionFile, "loadedFrom" | "commit" | "contentHash" | "bytes" | "lineCount" | "workingTree" | "modifiedInWorkingTree" | "notLoadedReason"> {
  return { path, scope: instructionScope(path), sourceKind: sourceKindOf(path), trusted: sourceKindOf(path) === "agents_md", rules: [], lint: [] };
}

function parsedInto(file: InstructionFile, text: string): InstructionFile {
  const parsed = parseInstructionText(file.path, text);
  return { ...file, lineCount: countLines(text), rules: parsed.rules, lint: parsed.lint };
}

/**
 * Reads the repository's instruction files: under git from `commit` (`git ls-tree` + `git cat-file`, no shell), each
 * compared with the work tree the index walk saw; outside git (or before the first commit) from the work tree.
 */
export async function loadInstructionFiles(root: string, commit: string | null, working: WorkingInstructionFile[]): Promise<InstructionFile[]> {
  const seen = new Map(working.filter((w) => isOwnInstructionFile(w.path)).map((w) => [w.path, w]));
  const files: InstructionFile[] = [];
  if (commit === null) {
    for (const w of [...seen.values()].slice(0, MAX_INSTRUCTION_FILES)) {
      const f: InstructionFile = {
        ...baseFile(w.path),
        loadedFrom: w.content === null ? "not_loaded" : "working_tree",
        commit: null,
        contentHash: w.content === null ? null : w.contentHash,
        bytes: w.sizeBytes,
        lineCount: 0,
        workingTree: "not_checked",
        modifiedInWorkingTree: false,
        notLoadedReason: w.content === null ? `not readable (${w.skipReason ?? "no text"})` : null,
      };
      files.push(w.content === null || w.sizeBytes > INSTRUCTION_HARD_CAP_BYTES ? f : parsedInto(f, w.content));
    }
    return files;
  }
  for (const e of await committedInstructionFiles(root, commit)) {
    const w = seen.get(e.path);
    seen.delete(e.path);
    const base = { ...baseFile(e.path), commit, bytes: e.size, lineCount: 0 };
    if (e.mode === "120000") {
      files.push({ ...base, loadedFrom: "not_loaded", contentHash: null, workingTree: "not_checked", modifiedInWorkingTree: false, notLoadedReason: "a symlink: not followed" });
      continue;
    }
    if (e.size > INSTRUCTION_HARD_CAP_BYTES) {
      files.push({ ...base, loadedFrom: "not_loaded", contentHash: null, workingTree: "not_checked", modifiedInWorkingTree: false, notLoadedReason: `larger than ${INSTRUCTION_HARD_CAP_BYTES} bytes: not read` });
      continue;
    }
    const blob = await runGit(root, ["cat-file", "blob", e.object]);
    const hash = sha256(blob);
    const workingTree = w === undefined ? "deleted" : w.contentHash === hash ? "unchanged" : "modified";
    const f: InstructionFile = {
      ...base,
      loadedFrom: "base_commit",
      contentHash: hash,
      bytes: blob.length,
      workingTree,
      modifiedInWorkingTree: workingTree !== "unchanged",
      notLoadedReason: null,
    };
    files.push(parsedInto(f, blob.toString("utf8")));
  }
  // In the work tree but not in the commit: reported, never loaded.
  for (const w of seen.values()) {
    files.push({
      ...baseFile(w.path),
      loadedFrom: "not_loaded",
      commit: null,
      contentHash: null,
      bytes: w.sizeBytes,
      lineCount: 0,
      workingTree: "untracked",
      modifiedInWorkingTree: true,
      notLoadedReason: "not in the indexed commit (uncommitted): instruction files are read from the commit only",
    });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
