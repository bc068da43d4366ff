import { secretFileNameReason } from "../../indexer/classify/secret-names.js";
import { instructionScope, isOwnInstructionFile } from "../../indexer/knowledge/instructions/files.js";
import { holdsCredential } from "../../policy/secret-scan.js";
import { isInstructionFile, type LabelInput } from "../../policy/labels.js";
import { normalizeRepoPath, readFileInsideRoot, resolveInsideRoot, statInsideRoot, type ReadRejection } from "../../policy/path-guard.js";
import type { FileRow } from "../../store/store.js";
import { labelInputOf, type QueryContext } from "../context.js";
import { QueryError } from "../../core/errors.js";
import { spanHash } from "./manifest.js";
import type { ContextManifest, ManifestEvidence } from "./manifest-schema.js";
import { countLines, sha256 } from "../../core/hash.js";
import type { InstructionFile } from "../../core/instructions.js";
import type { EvidenceDraft, Warning } from "../../core/evidence.js";

/**
 * Part 032 §20: before a package is used, prove it still describes the repository. The manifest comes from the
 * client, so every path in it goes through the path guard and the read policy before anything is read, and only
 * hashes are compared: no file content ever leaves this module.
 */

/** Files larger than this are not hashed (the builder never cites one). */
const MAX_CHECKED_FILE_BYTES = 64 * 1024 * 1024;
/** Evidence items the answer cites at most; the staleness report itself always covers every item. */
const MAX_EVIDENCE_OUT = 200;
/** Characters of a commit shown in messages. */
const SHORT_SHA = 12;
/** Per-folder instruction file names; every other instruction file is root-level (src/indexer/knowledge/instructions/files.ts). */
const FOLDER_INSTRUCTION_NAMES = ["AGENTS.md", "CLAUDE.md"];
const ROOT_INSTRUCTION_PATHS = [".agents/AGENTS.md", ".github/copilot-instructions.md"];

export type StaleKind = "commit_moved" | "file_changed" | "file_deleted" | "instruction_changed" | "instruction_added" | "instruction_removed";

/** One reason the package no longer matches the repository. */
export interface StaleItem {
  kind: StaleKind;
  message: string;
  /** The evidence id (`E1`) for file items. */
  id?: string;
  path?: string;
  expected?: string | null;
  actual?: string | null;
  /** file_changed only: whether the cited lines themselves differ (false: the file changed elsewhere). */
  spanChanged?: boolean;
  /** instruction_added only: where the new file was seen. */
  seenIn?: "index" | "work_tree";
}

export type NotCheckedReason = Exclude<ReadRejection, "directory" | "special_file"> | "policy" | "not_indexed" | "not_instruction_file" | "not_a_file" | "too_large" | "symlink" | "unreadable";

/** A manifest entry that was never read, and why. */
export interface NotCheckedItem {
  item: "evidence" | "instruction_source" | "scope_path";
  id?: string;
  path: string;
  reason: NotCheckedReason;
  message: string;
}

/** Facts worth knowing that do not make a package stale by themselves. */
export interface FreshnessNote {
  kind: "index_behind_head" | "index_from_dirty_tree" | "index_version_changed";
  message: string;
}

export interface FreshnessReport {
  /** True only when nothing is stale (see notChecked for what was not looked at). */
  fresh: boolean;
  contextPackageId: string;
  current: { head: string | null; indexCommit: string | null; indexVersion: string | null };
  stale: StaleItem[];
  notChecked: NotCheckedItem[];
  notes: FreshnessNote[];
  checked: { evidence: number; evidenceUnchanged: number; instructionSources: number; scopePaths: number };
}

export interface FreshnessEnv {
  root: string;
  readHead: () => Promise<string | null>;
}

export interface FreshnessResult {
  report: FreshnessReport;
  evidence: EvidenceDraft[];
  labels: Map<string, LabelInput>;
  warnings: Warning[];
  truncated: boolean;
}

/** What the work tree holds at one manifest path, decided before (and instead of) any read the policy forbids. */
type FileState =
  | { status: "present"; hash: string; text: string | null; row: FileRow | null }
  | { status: "deleted" }
  | { status: "unchecked"; reason: NotCheckedReason; message: string };

/** Everything one check collects as it goes. */
interface Collector {
  stale: StaleItem[];
  notChecked: NotCheckedItem[];
  checked: FreshnessReport["checked"];
  evidence: EvidenceDraft[];
  labels: Map<string, LabelInput>;
  evidenceCut: boolean;
}

const DELETED: FileState = { status: "deleted" };

function unchecked(reason: NotCheckedReason, message: string): FileState {
  return { status: "unchecked", reason, message };
}

function short(sha: string | null): string {
  return sha === null ? "none" : sha.slice(0, SHORT_SHA);
}

/** Text as the indexer decodes it (a BOM is dropped), so span hashes match the builder's; null when not UTF-8. */
function decodeText(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** What a path the guard would not read means for the check: a missing file is deleted, anything else unchecked. */
function refused(r: { reason: ReadRejection; message: string }): FileState {
  if (r.reason === "not_found") return DELETED;
  if (r.reason === "directory" || r.reason === "special_file") return unchecked("not_a_file", r.message);
  return unchecked(r.reason, r.message);
}

/**
 * Reads one guarded path, refusing first what the read policy hides: a secret-suspect row, a secret-named file the
 * index does not know, and bytes that changed since indexing into something that may hold a secret. Comparing a
 * client's hash with a secret file would be an oracle for its content. `requireIndexed` keeps ignored and excluded
 * files (which no query serves) out of reach.
 */
async function inspectFile(ctx: QueryContext, root: string, relPath: string, requireIndexed: boolean): Promise<FileState> {
  const hideSecrets = !ctx.policy.includeSecretSuspectFiles;
  const policy = unchecked("policy", `'${relPath}' is classified as secret-suspect and the read policy does not allow reading it`);
  const row = await ctx.store.getFile(ctx.index.id, relPath);
  if (row?.isSecretSuspect && hideSecrets) return policy;
  if (row?.skipReason === "symlink") return unchecked("symlink", `'${relPath}' is a symlink; cite its target instead`);
  const where = await statInsideRoot(root, relPath);
  if (!where.ok) return refused(where);
  if (where.realRelPath !== relPath) return unchecked("symlink", `'${relPath}' is a symlink now; cite its target instead`);
  if (!row && requireIndexed) return unchecked("not_indexed", `'${relPath}' is not in the index (ignored or excluded files are not checked)`);
  if (!row && hideSecrets && secretFileNameReason(relPath) !== null) return policy;
  const read = await readFileInsideRoot(root, relPath, MAX_CHECKED_FILE_BYTES);
  if (!read.ok) return refused(read);
  if (read.realRelPath !== relPath) return unchecked("symlink", `'${relPath}' is a symlink now; cite its target instead`);
  const bytes = read.bytes;
  const hash = sha256(bytes);
  const text = decodeText(bytes);
  if (hideSecrets && hash !== row?.contentHash && text !== null && holdsCredential(text)) {
    return unchecked("policy", `'${relPath}' changed since indexing and may now hold a secret; the read policy does not allow checking it`);
  }
  return { status: "present", hash, text, row };
}

/** What the evidence check keeps of a file once read: hashes and a line count, never the text. */
type Observed =
  | Exclude<FileState, { status: "present" }>
  | { status: "present"; hash: string; row: FileRow | null; lines: number | null; spans: Map<string, string> };

const spanKey = (e: ManifestEvidence) => `${e.startLine}-${e.endLine}`;

/** Hashes the spans the items cite while the text is at hand, so that many files are never held at once. */
function observe(state: FileState, items: ManifestEvidence[]): Observed {
  if (state.status !== "present") return state;
  const { hash, row, text } = state;
  const spans = new Map(text === null ? [] : items.map((e) => [spanKey(e), spanHash(text, e.startLine, e.endLine)]));
  return { status: "present", hash, row, lines: text === null ? null : countLines(text), spans };
}

function citeEvidence(c: Collector, e: ManifestEvidence, path: string, seen: Extract<Observed, { status: "present" }>): void {
  if (seen.lines === null || seen.row === null || e.startLine > seen.lines) return;
  if (c.evidence.length >= MAX_EVIDENCE_OUT) {
    c.evidenceCut = true;
    return;
  }
  c.evidence.push({ path, startLine: e.startLine, endLine: Math.min(e.endLine, seen.lines), contentHash: seen.hash, retrieval: "metadata" });
  c.labels.set(path, labelInputOf(seen.row));
}

function judgeEvidence(c: Collector, e: ManifestEvidence, path: string, seen: Observed): void {
  if (seen.status === "unchecked") {
    c.notChecked.push({ item: "evidence", id: e.id, path: e.path, reason: seen.reason, message: seen.message });
    return;
  }
  c.checked.evidence += 1;
  const lines = `lines ${e.startLine}-${e.endLine}`;
  if (seen.status === "deleted") {
    c.stale.push({ kind: "file_deleted", id: e.id, path, expected: e.hash, actual: null, message: `${e.id}: '${path}' no longer exists in the work tree` });
    return;
  }
  citeEvidence(c, e, path, seen);
  if (seen.hash === e.hash) {
    c.checked.evidenceUnchanged += 1;
    return;
  }
  // The same line numbers now: lines inserted above the span move it, and that is a change for whoever cites them.
  const spanChanged = seen.spans.get(spanKey(e)) !== e.spanHash;
  c.stale.push({
    kind: "file_changed",
    id: e.id,
    path,
    expected: e.hash,
    actual: seen.hash,
    spanChanged,
    message: spanChanged
      ? `${e.id}: '${path}' changed, and so did the cited ${lines}: re-read them`
      : `${e.id}: '${path}' changed outside the cited ${lines}; those lines read the same`,
  });
}

/** Each evidence file is read once, however many items cite it; the report follows the manifest's order. */
async function checkEvidence(ctx: QueryContext, root: string, manifest: ContextManifest, c: Collector): Promise<void> {
  const paths = manifest.evidence.map((e) => normalizeRepoPath(e.path));
  const byPath = new Map<string, ManifestEvidence[]>();
  manifest.evidence.forEach((e, i) => {
    const n = paths[i]!;
    if (n.ok) byPath.set(n.relPath, [...(byPath.get(n.relPath) ?? []), e]);
  });
  const seen = new Map<string, Observed>();
  for (const [path, items] of byPath) seen.set(path, observe(await inspectFile(ctx, root, path, true), items));
  manifest.evidence.forEach((e, i) => {
    const n = paths[i]!;
    if (n.ok) judgeEvidence(c, e, n.relPath, seen.get(n.relPath)!);
    else c.notChecked.push({ item: "evidence", id: e.id, path: e.path, reason: n.reason, message: n.message });
  });
}

/**
 * Instruction sources: changed in the work tree, or in the index (instructions are served from the indexed commit,
 * so a reindex changes what is in force even when the work tree matches). Returns the paths the manifest lists.
 */
async function checkInstructionSources(
  ctx: QueryContext,
  root: string,
  manifest: ContextManifest,
  indexed: Map<string, InstructionFile>,
  c: Collector,
): Promise<Set<string>> {
  const listed = new Set<string>();
  for (const s of manifest.instructionSources) {
    const n = normalizeRepoPath(s.path);
    if (!n.ok) {
      c.notChecked.push({ item: "instruction_source", path: s.path, reason: n.reason, message: n.message });
      continue;
    }
    const path = n.relPath;
    if (!isInstructionFile(path)) {
      c.notChecked.push({ item: "instruction_source", path: s.path, reason: "not_instruction_file", message: `'${path}' is not an instruction file` });
      continue;
    }
    if (listed.has(path)) continue;
    listed.add(path);
    const state = await inspectFile(ctx, root, path, false);
    if (state.status === "unchecked") {
      c.notChecked.push({ item: "instruction_source", path: s.path, reason: state.reason, message: state.message });
      continue;
    }
    c.checked.instructionSources += 1;
    const inIndex = indexed.get(path)?.contentHash ?? null;
    if (state.status === "deleted") {
      c.stale.push({ kind: "instruction_removed", path, expected: s.hash, actual: null, message: `instruction file '${path}' no longer exists in the work tree` });
    } else if (state.hash !== s.hash) {
      c.stale.push({ kind: "instruction_changed", path, expected: s.hash, actual: state.hash, message: `instruction file '${path}' changed in the work tree` });
    } else if (inIndex !== null && inIndex !== s.hash) {
      c.stale.push({ kind: "instruction_changed", path, expected: s.hash, actual: inIndex, message: `instruction file '${path}' differs in the current index, which is what instructions are served from` });
    }
  }
  return listed;
}

/**
 * Every folder whose instruction files apply to a target: the target itself (it may be a folder) and each ancestor,
 * the root ("") included; an instruction file applies when its scope is one of them (as get_instructions decides).
 */
function scopeFolders(targets: string[]): Set<string> {
  const folders = new Set<string>([""]);
  for (const t of targets) {
    const segs = t.split("/");
    for (let i = 1; i <= segs.length; i++) folders.add(segs.slice(0, i).join("/"));
  }
  return folders;
}

/** Instruction files on disk that apply to the targets; probing stops at the first folder that does not exist. */
async function workTreeInstructionFiles(root: string, targets: string[], folders: Set<string>): Promise<string[]> {
  const exists = new Map<string, boolean>([["", true]]);
  for (const t of targets) {
    const segs = t.split("/");
    for (let i = 1; i <= segs.length; i++) {
      const folder = segs.slice(0, i).join("/");
      if (!exists.has(folder)) exists.set(folder, (await resolveInsideRoot(root, folder)).ok);
      if (!exists.get(folder)) break;
    }
  }
  const candidates = [
    ...ROOT_INSTRUCTION_PATHS,
    ...[...exists].filter(([, ok]) => ok).flatMap(([f]) => FOLDER_INSTRUCTION_NAMES.map((name) => (f === "" ? name : `${f}/${name}`))),
  ].filter((p) => isOwnInstructionFile(p) && folders.has(instructionScope(p)));
  const found: string[] = [];
  for (const p of candidates) {
    if ((await statInsideRoot(root, p)).ok) found.push(p);
  }
  return found;
}

/** Instruction files in force for the manifest's scope now (in the index or on disk) that the manifest does not list. */
async function checkAddedInstructions(
  root: string,
  manifest: ContextManifest,
  indexed: Map<string, InstructionFile>,
  listed: Set<string>,
  c: Collector,
): Promise<void> {
  const targets: string[] = [];
  for (const p of manifest.scopePaths) {
    const n = normalizeRepoPath(p);
    if (n.ok) targets.push(n.relPath);
    else c.notChecked.push({ item: "scope_path", path: p, reason: n.reason, message: n.message });
  }
  c.checked.scopePaths = targets.length;
  const folders = scopeFolders(targets);
  const seen = new Map<string, "index" | "work_tree">();
  for (const f of indexed.values()) if (folders.has(f.scope)) seen.set(f.path, "index");
  for (const p of await workTreeInstructionFiles(root, targets, folders)) if (!seen.has(p)) seen.set(p, "work_tree");
  for (const [path, seenIn] of seen) {
    if (listed.has(path)) continue;
    const where = seenIn === "index" ? "the current index" : "the work tree";
    c.stale.push({ kind: "instruction_added", path, seenIn, message: `instruction file '${path}' in ${where} applies to the package's paths but is not in the manifest` });
  }
}

function notes(manifest: ContextManifest, ctx: QueryContext, head: string | null): FreshnessNote[] {
  const out: FreshnessNote[] = [];
  const { baseCommit, indexVersion, dirty } = ctx.index;
  if (baseCommit !== null && head !== null && baseCommit !== head) {
    out.push({ kind: "index_behind_head", message: `the index was built at ${short(baseCommit)} but HEAD is ${short(head)}; files were compared with the work tree` });
  }
  if (dirty) out.push({ kind: "index_from_dirty_tree", message: "the index was built from a work tree with uncommitted changes" });
  if (manifest.indexVersion !== indexVersion) {
    out.push({ kind: "index_version_changed", message: `the package was built from index ${manifest.indexVersion ?? "none"}; the server now serves ${indexVersion ?? "none"}` });
  }
  return out;
}

function resultWarnings(c: Collector): Warning[] {
  const warnings: Warning[] = [];
  if (c.notChecked.length > 0) {
    warnings.push({
      code: "freshness_incomplete",
      message: `${c.notChecked.length} manifest item(s) were not checked (see notChecked): fresh speaks only for what was checked`,
    });
  }
  if (c.evidenceCut) {
    warnings.push({ code: "evidence_truncated", message: `evidence cites the first ${MAX_EVIDENCE_OUT} checked items; the staleness report covers all of them` });
  }
  return warnings;
}

/**
 * Which parts of a context package went stale: the commit it was built at, each evidence file (and whether the
 * cited lines themselves changed), and the instruction files in force for its paths. Reads the work tree as it is
 * now; the ready index decides what the policy hides and which instruction files are served.
 */
export async function checkContextFreshness(ctx: QueryContext, env: FreshnessEnv, manifest: ContextManifest): Promise<FreshnessResult> {
  if (manifest.repoId !== ctx.index.repoId) {
    throw new QueryError("invalid_input", `the manifest is for repository '${manifest.repoId}', not '${ctx.index.repoId}'`, "check it against the server that built it");
  }
  const head = await env.readHead().catch(() => null);
  const c: Collector = {
    stale: [],
    notChecked: [],
    checked: { evidence: 0, evidenceUnchanged: 0, instructionSources: 0, scopePaths: 0 },
    evidence: [],
    labels: new Map(),
    evidenceCut: false,
  };
  await checkEvidence(ctx, env.root, manifest, c);
  const indexed = new Map((await ctx.store.listInstructionFiles(ctx.index.id)).map((f) => [f.path, f]));
  const listed = await checkInstructionSources(ctx, env.root, manifest, indexed, c);
  await checkAddedInstructions(env.root, manifest, indexed, listed, c);
  if (manifest.baseCommit !== head) {
    c.stale.unshift({
      kind: "commit_moved",
      expected: manifest.baseCommit,
      actual: head,
      message: `HEAD moved from ${short(manifest.baseCommit)} to ${short(head)}; ${c.checked.evidenceUnchanged} of ${c.checked.evidence} checked evidence item(s) are still byte-identical`,
    });
  }
  const report: FreshnessReport = {
    fresh: c.stale.length === 0,
    contextPackageId: manifest.contextPackageId,
    current: { head, indexCommit: ctx.index.baseCommit, indexVersion: ctx.index.indexVersion },
    stale: c.stale,
    notChecked: c.notChecked,
    notes: notes(manifest, ctx, head),
    checked: c.checked,
  };
  return { report, evidence: c.evidence, labels: c.labels, warnings: resultWarnings(c), truncated: c.evidenceCut };
}
