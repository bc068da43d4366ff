/**
 * A parsed diff against the task's path rules and limits, and its one-line-per-file summary: what a judge checks
 * and what a package shows when the hunks do not fit.
 */
import { compilePathGlobs } from "../paths.js";
import type { DiffFile, DiffFileStatus, ParsedDiff } from "./diff.js";

/** Characters that would break a summary line or reorder its text when printed. */
const UNPRINTABLE = /[\u0000-\u001f\u007f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export interface ForbiddenPathRule {
  /** Matched as `compilePathGlobs` matches (a name without glob characters is that file or folder). */
  glob: string;
  /** Where the rule comes from, for the message (`AGENTS.md:12`, `task contract`). */
  source: string;
  ruleId?: string;
}

export interface DiffRules {
  forbidden: ForbiddenPathRule[];
  /** When non-empty, every touched path must match one of these. */
  allowed?: string[];
  maxFilesChanged?: number;
  maxLinesChanged?: number;
}

export type DiffViolationKind = "forbidden_path" | "outside_allowed_paths" | "too_many_files" | "too_many_lines";

export interface DiffViolation {
  kind: DiffViolationKind;
  path?: string;
  glob?: string;
  source?: string;
  ruleId?: string;
  message: string;
}

/** A path a file's change touches, and how, for the message. */
interface TouchedPath {
  path: string;
  verb: string;
}

/** Both sides of a rename or copy count: moving a file out of a forbidden folder changes that folder. */
function touchedPaths(f: DiffFile): TouchedPath[] {
  if (f.oldPath === null) return [{ path: f.path, verb: "adds" }];
  if (f.newPath === null) return [{ path: f.path, verb: "deletes" }];
  if (f.oldPath === f.newPath) return [{ path: f.path, verb: "changes" }];
  const [from, to] =
    f.status === "renamed" ? ["renames away from", "renames to"] : f.status === "copied" ? ["copies from", "copies to"] : ["changes", "changes"];
  return [
    { path: f.oldPath, verb: from },
    { path: f.newPath, verb: to },
  ];
}

/**
 * Where a diff breaks the task's path and size rules, in file order, then the size limits. Globs are matched with
 * the same `compilePathGlobs` the instruction resolver uses, so `web/src/generated/`, `api/openapi/**` and
 * `docs/openapi.yaml` mean the same thing here as in AGENTS.md. Files the parser did not keep cannot be checked:
 * that is reported as too_many_files rather than passed over.
 */
export function diffViolations(diff: ParsedDiff, rules: DiffRules): DiffViolation[] {
  const forbidden = rules.forbidden.map((rule) => ({ rule, matcher: compilePathGlobs([rule.glob]) }));
  const allowed = rules.allowed?.length ? compilePathGlobs(rules.allowed) : null;
  const out: DiffViolation[] = [];
  const seen = new Set<string>();
  const push = (v: DiffViolation): void => {
    const key = `${v.kind}\0${v.path ?? ""}\0${v.glob ?? ""}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(v);
  };
  for (const file of diff.files) {
    for (const { path, verb } of touchedPaths(file)) {
      for (const { rule, matcher } of forbidden) {
        if (!matcher.matches(path)) continue;
        push({
          kind: "forbidden_path",
          path,
          glob: rule.glob,
          source: rule.source,
          ...(rule.ruleId !== undefined ? { ruleId: rule.ruleId } : {}),
          message: `${verb} ${printablePath(path)}, which ${printablePath(rule.glob)} forbids (${printablePath(rule.source)})`,
        });
      }
      if (allowed && !allowed.matches(path)) push({ kind: "outside_allowed_paths", path, message: `${verb} ${printablePath(path)}, outside the allowed paths` });
    }
  }
  const unchecked = diff.totalFiles - diff.files.length;
  if (rules.maxFilesChanged !== undefined && diff.totalFiles > rules.maxFilesChanged) {
    push({ kind: "too_many_files", message: `${diff.totalFiles} files changed, over the limit of ${rules.maxFilesChanged}` });
  } else if (unchecked > 0) {
    push({ kind: "too_many_files", message: `${diff.totalFiles} files changed; only the first ${diff.files.length} were checked against the path rules` });
  }
  const changed = diff.totalAdded + diff.totalRemoved;
  if (rules.maxLinesChanged !== undefined && changed > rules.maxLinesChanged) {
    push({ kind: "too_many_lines", message: `${changed} lines changed (+${diff.totalAdded} −${diff.totalRemoved}), over the limit of ${rules.maxLinesChanged}` });
  }
  return out;
}

const STATUS_LETTER: Readonly<Record<DiffFileStatus, string>> = {
  added: "A",
  deleted: "D",
  modified: "M",
  renamed: "R",
  copied: "C",
  mode_changed: "M",
};

/**
 * One short line per file (`M services/x/Foo.java (+3 −1)`, `R old → new`), the cheap form of a diff for a
 * package that cannot afford its hunks. Control and bidi characters in names are escaped so a name cannot forge
 * lines or hide text.
 */
export function diffSummary(diff: ParsedDiff): string[] {
  const lines = diff.files.map((f) => {
    const names = (f.status === "renamed" || f.status === "copied") && f.oldPath !== null && f.newPath !== null
      ? `${printablePath(f.oldPath)} → ${printablePath(f.newPath)}`
      : printablePath(f.path);
    const details: string[] = [];
    if (f.added + f.removed > 0) details.push(`+${f.added} −${f.removed}`);
    if (f.binary) details.push("binary");
    if (f.oldMode !== null && f.newMode !== null && f.oldMode !== f.newMode) details.push(`mode ${f.oldMode} → ${f.newMode}`);
    return `${STATUS_LETTER[f.status]} ${names}${details.length ? ` (${details.join(", ")})` : ""}`;
  });
  const dropped = diff.totalFiles - diff.files.length;
  if (dropped > 0) lines.push(`… ${dropped} more files not shown`);
  return lines;
}

/** A path as safe text for one line of a message or summary. */
function printablePath(p: string): string {
  return p.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
