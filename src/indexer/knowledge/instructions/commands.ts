/** Shell commands in instruction text: which code spans are commands (or paths), what a command is for, what it implies. */
import type { CommandPurpose, InstructionAction, InstructionCommand } from "../../../core/instructions.js";
import { cleanRelPath, joinPath } from "./paths.js";
import { uniq } from "./text.js";

/** First words of shell commands worth treating a code span as a command. */
const COMMAND_WORDS = new Set([
  "npm", "npx", "yarn", "pnpm", "node", "deno", "bun", "tsc", "eslint", "prettier", "jest", "vitest", "mocha",
  "mvn", "gradle", "make", "go", "cargo", "rustc", "pytest", "python", "python3", "pip", "pip3", "poetry", "uv",
  "tox", "nox", "ruff", "black", "mypy", "flake8", "dotnet", "bundle", "rake", "rspec", "docker", "bash", "sh",
  "zsh", "curl", "wget", "git", "cd", "bazel", "sbt", "ant", "cmake", "ctest", "php", "composer", "phpunit",
  "swift", "xcodebuild", "flutter", "dart", "mix", "just", "task", "nx", "turbo", "lerna",
]);

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

/** Does a code span name a repository path (a folder, a glob with a folder, a file with a known extension)? */
export function looksLikePath(span: string): boolean {
  if (span.length > 300 || /\s/.test(span) || looksLikeCommand(span)) return false;
  if (/^[a-z][\w+.-]*:/i.test(span) || span.startsWith("@") || span.startsWith("-") || span.includes("()")) return false;
  if (/^[\w.*{}-]*\.(?:[a-z]{1,3})$/i.test(span) && !span.includes("/") && /^\*/.test(span)) return false; // `*.ts`
  if (span.includes("/")) return /^[\w.@*{}\[\]/-]+$/.test(span);
  return /^\.?[\w-]+(?:\.[\w-]+)*\.(?:md|json|ya?ml|toml|xml|ts|tsx|js|mjs|cjs|jsx|java|kt|kts|py|go|rs|sh|gradle|properties|sql|txt|cfg|ini|lock|mod|env|production|local|development)$/i.test(
    span,
  );
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

/** Folders named as the place a command runs: "inside `web/`", "from the `go/ratelimit` folder". */
function cwdHint(text: string): string | null {
  const m = /\b(?:inside|in|from|within|under)\s+(?:the\s+)?`([^`\s]+)`\s*(?:folder|directory|dir)?/i.exec(text);
  if (!m) return null;
  const p = cleanRelPath(m[1]!).replace(/\/+$/, "");
  return looksLikePath(m[1]!) || /^[\w.-]+$/.test(p) ? p : null;
}

/** A command from a code span or shell block: its folder (from the file's scope, a cwd hint or `cd`), the folders it names, its purpose. */
export function makeCommand(raw: string, scope: string, context: string): InstructionCommand {
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
