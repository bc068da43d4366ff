/**
 * Agent instruction files (AGENTS.md, CLAUDE.md, .agents/AGENTS.md, .github/copilot-instructions.md): read from the
 * indexed commit (never from uncommitted edits), parsed into rules with provenance, claims the resolver can compare
 * (commands, forbidden paths and actions), and lint findings. Size limits are the operator's and are applied when
 * the rules are served (src/query/instructions/limits.ts); here every file up to a hard cap is parsed in full.
 */
import { runGit } from "../../git.js";
import { countLines, sha256 } from "../../../core/hash.js";
import type { InstructionFile } from "../../../core/instructions.js";
import { instructionScope, isOwnInstructionFile, sourceKindOf } from "./files.js";
import { parseInstructionText } from "./parse.js";

/** Files larger than this are not parsed at all: four times the largest per-file limit an operator may set. */
export const INSTRUCTION_HARD_CAP_BYTES = 4 * 1024 * 1024;
/** At most this many instruction files per repository are read. */
const MAX_INSTRUCTION_FILES = 500;

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

/** Orders files by path (code-unit order). */
function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
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
  return entries.sort(byPath).slice(0, MAX_INSTRUCTION_FILES);
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
  return files.sort(byPath);
}
