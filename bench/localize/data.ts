/**
 * Public localization benchmarks as one shape: an issue's text, the repository and commit it was filed against, the
 * files its fix changed (gold) and the test files its fix changed. Two formats are read:
 * - SWE-bench Lite in the LocAgent-style copy (one JSON object a line: instance_id, repo "owner/name", base_commit,
 *   problem_statement, patch); it carries no test patch, so related-test recall is not measured on it;
 * - Multi-SWE-bench (MSWE) rows (org, repo, number, title, body, resolved_issues as a list of issues with title and
 *   body, base as an object with its sha, fix_patch, test_patch).
 * The data files are fetched by whoever runs the bench; nothing of them is kept in this repository.
 */
import { readFileSync } from "node:fs";

export interface Instance {
  id: string;
  /** `owner/name`, lowercased for comparisons with the held-out list. */
  repo: string;
  baseCommit: string;
  /** What an agent would paste: the issue's title and body (MSWE adds the resolved issues' text). */
  problem: string;
  /** Files the fix changed (any that did not exist at the base commit are dropped later, against the index). */
  gold: string[];
  /** Test files the fix's test patch changed (empty for SWE-bench Lite). */
  tests: string[];
  /** Per gold file, the base-side lines the fix changed (a line inserted counts its neighbours on the base side). */
  changedLines: Record<string, number[]>;
}

/**
 * Repositories the project keeps out of tuning, so gains can be checked for generality on them: never loaded by
 * this harness (DEVELOPERS.md, "Held out").
 */
export const HELD_OUT = new Set(["vuejs/core", "iamkun/dayjs", "grpc/grpc-go", "fasterxml/jackson-core", "pytest-dev/pytest"]);

const SHA = /^[0-9a-f]{40}$/;

/** Paths a unified diff changes (`diff --git a/X b/Y`: Y, or X for a deletion). */
export function changedFiles(patch: string): string[] {
  const out = new Set<string>();
  for (const m of patch.matchAll(/^diff --git a\/(\S+) b\/(\S+)$/gm)) out.add(m[2] === "/dev/null" ? m[1]! : m[2]!);
  return [...out];
}

/**
 * The base-side lines each file's hunks change: a removed line is itself; an added line marks the base lines on
 * either side of where it goes, so a function that only gains lines is still found.
 */
export function changedLinesOf(patch: string): Record<string, number[]> {
  const files = new Map<string, Set<number>>();
  let lines: Set<number> | null = null;
  let old = 0;
  for (const line of patch.split("\n")) {
    const file = /^diff --git a\/(\S+) b\/(\S+)$/.exec(line);
    if (file) {
      files.set(file[1]!, (lines = new Set()));
      old = 0;
      continue;
    }
    const hunk = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/.exec(line);
    if (hunk) old = Number(hunk[1]);
    else if (lines === null || old === 0) continue;
    else if (line.startsWith("-")) lines.add(old++);
    else if (line.startsWith("+")) lines.add(old - 1).add(old);
    else if (line.startsWith(" ")) old += 1;
  }
  return Object.fromEntries([...files].map(([f, l]) => [f, [...l].filter((n) => n > 0).sort((x, y) => x - y)]));
}

function fromSweLite(row: Record<string, unknown>): Instance | null {
  const repo = String(row.repo ?? "").toLowerCase();
  const baseCommit = String(row.base_commit ?? "");
  if (!repo.includes("/") || !SHA.test(baseCommit)) return null;
  return { id: String(row.instance_id), repo, baseCommit, problem: String(row.problem_statement ?? ""), gold: changedFiles(String(row.patch ?? "")), tests: [], changedLines: changedLinesOf(String(row.patch ?? "")) };
}

interface MsweIssue {
  title?: unknown;
  body?: unknown;
}

function fromMswe(row: Record<string, unknown>): Instance | null {
  const repo = `${String(row.org ?? "")}/${String(row.repo ?? "")}`.toLowerCase();
  const sha = String((row.base as { sha?: unknown } | undefined)?.sha ?? "");
  if (!SHA.test(sha)) return null;
  // The issues the pull request resolved are what an agent would be handed; the pull request's own text follows.
  const issues = Array.isArray(row.resolved_issues) ? (row.resolved_issues as MsweIssue[]) : [];
  const texts = [...issues.flatMap((i) => [String(i.title ?? ""), String(i.body ?? "")]), String(row.title ?? ""), String(row.body ?? "")];
  const problem = texts.filter((s) => s.length > 0).join("\n\n");
  return { id: String(row.instance_id), repo, baseCommit: sha, problem, gold: changedFiles(String(row.fix_patch ?? "")), tests: changedFiles(String(row.test_patch ?? "")), changedLines: changedLinesOf(String(row.fix_patch ?? "")) };
}

/** Every instance of a JSON-lines file, in either format; rows of held-out repositories are left out. */
export function loadInstances(file: string): Instance[] {
  const out: Instance[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim().length === 0) continue;
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new Error(`${file} is not JSON lines (a large-file pointer instead of the data?): ${line.slice(0, 60)}`);
    }
    const inst = "fix_patch" in row ? fromMswe(row) : fromSweLite(row);
    if (inst && inst.gold.length > 0 && !HELD_OUT.has(inst.repo)) out.push(inst);
  }
  return out;
}

/**
 * Up to `perRepo` instances of each repository, spread evenly over its instances sorted by id (deterministic);
 * `phase` (0–1) shifts where in each step the pick falls, so a second sample takes the instances between the first's.
 */
export function samplePerRepo(instances: readonly Instance[], perRepo: number, repos: ReadonlySet<string> | null, phase = 0): Instance[] {
  const byRepo = new Map<string, Instance[]>();
  for (const i of instances) if (!repos || repos.has(i.repo)) byRepo.set(i.repo, [...(byRepo.get(i.repo) ?? []), i]);
  const out: Instance[] = [];
  for (const [, list] of [...byRepo].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const sorted = [...list].sort((a, b) => (a.id < b.id ? -1 : 1));
    const step = Math.max(1, sorted.length / perRepo);
    const picked = new Set<number>();
    for (let k = 0; k < Math.min(perRepo, sorted.length); k++) picked.add(Math.min(sorted.length - 1, Math.floor((k + phase) * step)));
    for (const i of [...picked].sort((a, b) => a - b)) out.push(sorted[i]!);
  }
  return out;
}
