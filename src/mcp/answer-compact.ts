import type { Evidence } from "../core/evidence.js";
import type { Envelope } from "../service/envelope.js";
import type { CompactData, CompactJson } from "../service/tool.js";

/**
 * The compact answer: the envelope with each fact once. Commit and index version appear in the envelope alone;
 * path, content hash, language, module, trust label and retrieval once per file, with that file's items beneath;
 * evidence entries are folded into the data items of their file (a file no data item names keeps an entry with its
 * line ranges). `verbosity: "full"` sends the envelope as it is.
 */

export type Json = CompactJson;
export type JsonObject = CompactData;

/** Hex digits of a content hash kept in compact answers: enough to tell versions of a file apart. */
const SHORT_HASH_HEX = 12;
/** Hex digits of the commit kept in compact answers. */
const SHORT_COMMIT_HEX = 12;
/** Decimals kept on scores and weights. */
const DECIMALS = 3;

/** Per-file facts, hoisted once per file; the full answer's key → the compact key. */
const FILE_FACTS: readonly (readonly [string, string])[] = [
  ["language", "language"],
  ["module", "module"],
  ["contentHash", "hash"],
  ["trustLevel", "trust"],
];
/** Keys only the full answer carries: the score's raw parts (the compact answer keeps the score and its reasons). */
const FULL_ONLY = new Set(["scoreParts"]);

export function shortHash(hash: string): string {
  const colon = hash.indexOf(":");
  return colon >= 0 && hash.length > colon + 1 + SHORT_HASH_HEX ? hash.slice(0, colon + 1 + SHORT_HASH_HEX) : hash;
}

export function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** What the evidence says about one file: hash, trust, how it was found, the line ranges, where it was read. */
interface FileEvidence {
  hash: string;
  trust: string;
  retrieval: string[];
  ranges: [number, number][];
  workingTree: boolean;
}

function evidenceByFile(evidence: readonly Evidence[]): Map<string, FileEvidence> {
  const files = new Map<string, FileEvidence>();
  for (const e of evidence) {
    let f = files.get(e.path);
    if (!f) files.set(e.path, (f = { hash: e.contentHash, trust: e.trustLevel, retrieval: [], ranges: [], workingTree: false }));
    if (!f.retrieval.includes(e.retrieval)) f.retrieval.push(e.retrieval);
    f.ranges.push([e.startLine, e.endLine]);
    if (e.freshness === "working_tree") f.workingTree = true;
  }
  return files;
}

/** Line ranges merged and written the way an editor would: `12`, `40-52`, joined by commas. */
export function rangesText(ranges: readonly [number, number][]): string {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const [s, e] of sorted) {
    const last = merged[merged.length - 1];
    if (last && s <= last[1] + 1) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  return merged.map(([s, e]) => (s === e ? `${s}` : `${s}-${e}`)).join(",");
}

function round(n: number): number {
  return Number.isInteger(n) ? n : Math.round(n * 10 ** DECIMALS) / 10 ** DECIMALS;
}

/** An item's own fields, compacted: line pairs as one `lines` value, floats rounded, empty lists dropped. */
function compactFields(item: JsonObject, files: Map<string, FileEvidence>): JsonObject {
  const out: JsonObject = {};
  const { startLine, endLine } = item;
  for (const [k, v] of Object.entries(item)) {
    if (FULL_ONLY.has(k)) continue;
    if ((k === "startLine" || k === "endLine") && typeof startLine === "number" && typeof endLine === "number") {
      if (k === "startLine") out.lines = startLine === endLine ? startLine : `${startLine}-${endLine}`;
      continue;
    }
    if (Array.isArray(v) && v.length === 0) continue;
    out[k] = compactValue(v, files);
  }
  return out;
}

function compactValue(v: Json, files: Map<string, FileEvidence>): Json {
  if (typeof v === "number") return round(v);
  if (Array.isArray(v)) return compactArray(v, files);
  if (isObject(v)) return typeof v.path === "string" ? fileItem(compactFields(v, files), files) : compactFields(v, files);
  return v;
}

/** A data item of one file carries that file's facts, the evidence's folded in. */
function fileItem(item: JsonObject, files: Map<string, FileEvidence>): JsonObject {
  const path = item.path as string;
  const ev = files.get(path);
  const out: JsonObject = { path };
  for (const [full, short] of FILE_FACTS) {
    const v = item[full];
    if (v !== undefined && v !== null) out[short] = full === "contentHash" && typeof v === "string" ? shortHash(v) : v;
  }
  if (ev) {
    out.hash ??= shortHash(ev.hash);
    out.trust ??= ev.trust;
    // How it was found, unless the item says so itself (a match type, or exact lines of text).
    const saysHow = item.matchType !== undefined || (Array.isArray(item.lines) && item.lines.every((l) => Array.isArray(l)));
    if (!saysHow) out.retrieval = ev.retrieval.join("+");
    if (ev.workingTree) out.freshness = "working_tree";
  }
  for (const [k, v] of Object.entries(item)) if (!(k in out) && !FILE_FACTS.some(([full]) => full === k)) out[k] = v;
  return out;
}

const FACT_KEYS = ["path", "hash", "trust", "retrieval", "freshness", "language", "module"];

/**
 * A list of file items whose paths repeat (references, call sites) becomes one entry per file, in first-appearance
 * order, with the file's facts once and its items beneath as `hits`; a list with one item per file stays flat.
 */
function compactArray(items: Json[], files: Map<string, FileEvidence>): Json[] {
  const compacted = items.map((v) => compactValue(v, files));
  const filed = compacted.every((v) => isObject(v) && typeof v.path === "string");
  if (!filed || compacted.length < 2) return compacted;
  const byPath = new Map<string, JsonObject[]>();
  for (const v of compacted as JsonObject[]) {
    const list = byPath.get(v.path as string);
    if (list) list.push(v);
    else byPath.set(v.path as string, [v]);
  }
  if (byPath.size === compacted.length) return compacted;
  return [...byPath.values()].map((group) => {
    const head: JsonObject = {};
    for (const k of FACT_KEYS) {
      const v = group[0]![k];
      if (v !== undefined && group.every((g) => g[k] === v)) head[k] = v;
    }
    // A value every item of the file shares (its match type, its confidence) is said once, on the file.
    if (group.length > 1) {
      for (const [k, v] of Object.entries(group[0]!)) {
        if (k in head || k === "lines" || (v !== null && typeof v === "object")) continue;
        if (group.every((g) => g[k] === v)) head[k] = v;
      }
    }
    const hits = group.map((g) => Object.fromEntries(Object.entries(g).filter(([k]) => !(k in head))));
    return { ...head, hits };
  });
}

/** Every path the compacted data names as a file item. */
function pathsIn(v: Json, into: Set<string>): Set<string> {
  if (Array.isArray(v)) for (const x of v) pathsIn(x, into);
  else if (isObject(v)) {
    if (typeof v.path === "string") into.add(v.path);
    for (const x of Object.values(v)) pathsIn(x, into);
  }
  return into;
}

/** The compact form of an envelope (see the module comment); `compactData` is the tool's own step, run first. */
export function compactEnvelope(envelope: Envelope, compactData?: (data: JsonObject) => JsonObject): JsonObject {
  const files = evidenceByFile(envelope.evidence);
  const own = envelope.ok && compactData ? compactData(envelope.data as unknown as JsonObject) : (envelope.data as unknown as JsonObject);
  const data = compactFields(own, files);
  const named = pathsIn(data, new Set());
  const evidence: Json[] = [];
  for (const [path, f] of files) {
    if (named.has(path)) continue;
    evidence.push({
      path,
      hash: shortHash(f.hash),
      trust: f.trust,
      retrieval: f.retrieval.join("+"),
      lines: rangesText(f.ranges),
      ...(f.workingTree ? { freshness: "working_tree" } : {}),
    });
  }
  // The caller knows the tool it called and the repository it named; defaults (freshness of the indexed commit,
  // nothing truncated, no warnings) go unsaid. The commit is its 12-digit prefix, as git abbreviates it.
  const out: JsonObject = { ok: envelope.ok };
  if (envelope.baseCommit) out.baseCommit = envelope.baseCommit.slice(0, SHORT_COMMIT_HEX);
  if (envelope.indexVersion) out.indexVersion = envelope.indexVersion;
  if (envelope.freshness !== "base_commit") out.freshness = envelope.freshness;
  if (envelope.warnings.length > 0) out.warnings = envelope.warnings as unknown as Json;
  if (envelope.truncated) out.truncated = true;
  out.data = data;
  if (evidence.length > 0) out.evidence = evidence;
  return out;
}
