import { detectInstructionLikeText } from "../../policy/injection.js";
import { trustLevelFor } from "../../policy/labels.js";
import { redactText } from "../../policy/redact.js";
import { markUntrusted, untrustedNotice } from "../../policy/wrapper.js";
import type { FileRow, SymbolRow } from "../../store/store.js";
import { labelInputOf, type QueryContext } from "../context.js";
import { spanHash } from "./manifest.js";
import type { ManifestEvidence } from "./manifest-schema.js";
import type { TrustLevel } from "../../core/evidence.js";

/** A file of the index as a package reads it: its row, its text and its lines. */
export interface LoadedFile {
  row: FileRow;
  content: string;
  lines: string[];
  trustLevel: TrustLevel;
}

/** A run of lines (1-based, inclusive) and why it is in an excerpt. */
export interface Span {
  start: number;
  end: number;
}

/** Lines of a symbol shown in full before the rest of it is left to a pointer. */
export const MAX_SPAN_LINES = 120;
/** Spans this close are shown as one: a gap of a line or two costs more to mark than to show. */
const MERGE_GAP = 2;

/** Reads files of the index once per package; skipped files and files the read policy hides are null. */
export class FileReader {
  private readonly cache = new Map<string, Promise<LoadedFile | null>>();
  constructor(private readonly ctx: QueryContext) {}

  read(path: string): Promise<LoadedFile | null> {
    let f = this.cache.get(path);
    if (!f) this.cache.set(path, (f = this.load(path)));
    return f;
  }

  private async load(path: string): Promise<LoadedFile | null> {
    const row = await this.ctx.store.getFile(this.ctx.index.id, path);
    if (!row || row.skipReason !== null || row.isBinary) return null;
    if (row.isSecretSuspect && !this.ctx.policy.includeSecretSuspectFiles) return null;
    const content = await this.ctx.store.getContent(this.ctx.index.id, path);
    if (content === null) return null;
    return { row, content, lines: content.split("\n"), trustLevel: trustLevelFor(labelInputOf(row)) };
  }
}

/** Sorted, merged, clamped to the file. */
export function normalizeSpans(spans: readonly Span[], lineCount: number): Span[] {
  const sorted = spans
    .map((s) => ({ start: Math.max(1, s.start), end: Math.min(lineCount, s.end) }))
    .filter((s) => s.start <= s.end)
    .sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end + MERGE_GAP + 1) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/**
 * Lines with their numbers (`12| text`), gaps between spans marked, so the model can cite and patch by line.
 * Each span is redacted before it is numbered: a redactor sees a multi-line secret whole, not cut by prefixes.
 */
export function numberedExcerpt(lines: readonly string[], spans: readonly Span[]): string {
  const parts: string[] = [];
  let prevEnd = 0;
  for (const s of spans) {
    if (prevEnd > 0 && s.start > prevEnd + 1) parts.push(`   ⋮ (lines ${prevEnd + 1}-${s.start - 1} not shown)`);
    const shown = redactText(lines.slice(s.start - 1, s.end).join("\n")).text.split("\n");
    if (shown.length === s.end - s.start + 1) shown.forEach((l, i) => parts.push(`${s.start + i}| ${l}`));
    else parts.push(`(lines ${s.start}-${s.end}; a secret spanning several lines was redacted, so they are not numbered)`, ...shown);
    prevEnd = s.end;
  }
  return parts.join("\n");
}

/** The raw text of spans, for the detector: it reads what the file says, not our line prefixes. */
export function rawExcerpt(lines: readonly string[], spans: readonly Span[]): string {
  return spans.map((s) => lines.slice(s.start - 1, s.end).join("\n")).join("\n");
}

/** Only the first line of each span: the signature view of an excerpt. */
export function signatureSpans(spans: readonly Span[]): Span[] {
  return spans.map((s) => ({ start: s.start, end: s.start }));
}

/** The smallest symbol of the file that contains a line (the enclosing method, else the class), if any. */
export function enclosingSymbol(symbols: readonly SymbolRow[], line: number): SymbolRow | null {
  let best: SymbolRow | null = null;
  for (const s of symbols) {
    if (s.startLine <= line && line <= s.endLine && (!best || s.endLine - s.startLine < best.endLine - best.startLine)) best = s;
  }
  return best;
}

/** A symbol's span, cut to MAX_SPAN_LINES. */
export function symbolSpan(s: Pick<SymbolRow, "startLine" | "endLine">, maxLines = MAX_SPAN_LINES): Span {
  return { start: s.startLine, end: Math.min(s.endLine, s.startLine + maxLines - 1) };
}

/** Manifest evidence for the lines an excerpt shows (id assigned when the package is numbered). */
export function evidenceFor(file: LoadedFile, spans: readonly Span[], kind: ManifestEvidence["kind"], workingTree: boolean): Omit<ManifestEvidence, "id"> {
  const startLine = spans[0]?.start ?? 1;
  const endLine = spans[spans.length - 1]?.end ?? startLine;
  return {
    path: file.row.path,
    startLine,
    endLine,
    hash: file.row.contentHash,
    spanHash: spanHash(file.content, startLine, endLine),
    kind,
    ...(workingTree ? { freshness: "working_tree" as const } : {}),
  };
}

/** Trust levels whose text gets the long notice in front of its markers (prose, not code). */
const NOTICED: ReadonlySet<TrustLevel> = new Set<TrustLevel>(["repo_documentation", "repo_documentation_untrusted_instruction", "repo_instructions", "external_task_text"]);

export interface GuardedText {
  text: string;
  trustLevel: TrustLevel;
  /** Instruction-like passages found in the text before it was wrapped. */
  flaggedSpans: number;
  redacted: boolean;
}

/**
 * Repository, task or tool text as a package carries it: secrets redacted, instruction-like passages detected
 * (the block is then labelled untrusted instruction text), and the whole inside untrusted-content markers.
 */
export function guardText(shown: string, trustLevel: TrustLevel, attrs: Record<string, string>, detectOn = shown): GuardedText {
  const r = redactText(shown);
  const flagged = detectInstructionLikeText(detectOn).length;
  const trust: TrustLevel = flagged > 0 && trustLevel !== "external_task_text" ? "repo_documentation_untrusted_instruction" : trustLevel;
  // Attributes name paths, and a path may hold a secret: redacted here, where the tokens are counted.
  const shownAttrs = Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, redactText(v).text]));
  const marked = markUntrusted(r.text, { ...shownAttrs, trust });
  return { text: NOTICED.has(trust) ? `${untrustedNotice(trust)}\n${marked}` : marked, trustLevel: trust, flaggedSpans: flagged, redacted: r.redactions.length > 0 };
}
