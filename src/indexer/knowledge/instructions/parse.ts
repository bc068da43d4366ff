/** Parsing an instruction file: Markdown into blocks, blocks into rules with claims and a category, and content lint. */
import { detectInstructionLikeText } from "../../../policy/injection.js";
import type { InstructionAction, InstructionCategory, InstructionClaims, InstructionLint, InstructionLintId, InstructionRule } from "../../../core/instructions.js";
import { claimsFromText } from "./claims.js";
import { makeCommand } from "./commands.js";
import { instructionScope } from "./files.js";
import { excerpt, uniq } from "./text.js";

/** Longest rule text kept (a rule longer than this is cut, its lines still cited). */
const MAX_RULE_TEXT = 2000;

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

const SHELL_FENCES = new Set(["", "sh", "bash", "shell", "console", "zsh", "shell-session", "terminal", "cmd", "powershell", "ps1", "fish"]);

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

/** A lint finding at a line of an instruction file. */
export function lint(path: string, line: number, ruleId: InstructionLintId, message: string, suggestion: string): InstructionLint {
  return { ruleId, path, line, message, suggestion };
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
