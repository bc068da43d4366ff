import { detectInstructionLikeText } from "./injection.js";
import { trustLevelFor, type LabelInput } from "./labels.js";
import { redactText } from "./redact.js";
import { wrapUntrusted } from "./wrapper.js";
import type { Evidence, EvidenceDraft, IndexStamp, TrustLevel } from "../core/evidence.js";


/** The item-level warning the seed names for text that reads like instructions to an agent. */
export const INSTRUCTION_LIKE_WARNING = "contains_instruction_like_text";
/** Spans listed per item; the count says how many there were. */
const MAX_SPANS_PER_ITEM = 10;

/** Where a flagged span is: the line in the file when the item says where its text starts, else in the text. */
export interface InstructionLikeSpan {
  line: number;
  ruleId: string;
  excerpt: string;
  startColumn?: number;
  endColumn?: number;
}

export interface ProjectionOptions {
  /** The index the result comes from: its commit goes into the safe wrapper. */
  index: IndexStamp | null;
  /** Put documentation, instruction and flagged text inside the safe wrapper (MCP default; the CLI prints raw text). */
  wrapText: boolean;
}

/**
 * The safe projection, applied once to every tool result and every error text before it leaves the server:
 * secret-looking values become `[REDACTED]` (the object that held them says so and why), every object that names
 * an indexed path gets that path's trust label, text that reads like instructions to an agent is flagged with its
 * spans and downgrades its item's label, and documentation text is wrapped as untrusted evidence.
 */
export function projectEvidence(
  drafts: EvidenceDraft[],
  index: IndexStamp | null,
  labels: Map<string, LabelInput>,
  /** Paths whose returned text was flagged as instruction-like (from projectData): their evidence says so too. */
  flagged: ReadonlySet<string> = new Set(),
  /** Paths answered from the working tree: no commit holds those bytes. */
  workingTree: ReadonlySet<string> = new Set(),
): Evidence[] {
  return drafts.map((d) => ({
    ...d,
    // A file may be named after a secret: the path is redacted like any other text (after its label is looked up).
    path: redactText(d.path).text,
    ...(workingTree.has(d.path) ? { freshness: "working_tree" as const } : {}),
    commitSha: workingTree.has(d.path) ? null : (index?.baseCommit ?? null),
    indexVersion: index?.indexVersion ?? null,
    trustLevel: flagged.has(d.path) ? "repo_documentation_untrusted_instruction" : labelFor(d.path, labels),
  }));
}

function labelFor(path: string, labels: Map<string, LabelInput>): TrustLevel {
  const input = labels.get(path);
  return input ? trustLevelFor(input) : "tool_output";
}

export interface ProjectedData<T> {
  value: T;
  /** Paths (or item titles) whose returned text was flagged as instruction-like. */
  flagged: string[];
}

/** Redacts every string in a JSON-like value, labels objects naming a known path, flags and wraps text. */
export function projectData<T>(value: T, labels: Map<string, LabelInput>, options: ProjectionOptions = { index: null, wrapText: false }): ProjectedData<T> {
  const flagged: string[] = [];
  const v = project(value, { labels, options, flagged }).value as T;
  return { value: v, flagged: [...new Set(flagged)] };
}

interface Walk {
  labels: Map<string, LabelInput>;
  options: ProjectionOptions;
  flagged: string[];
}

interface Projected {
  value: unknown;
  reasons: string[];
  /** Instruction-like spans found in this subtree and not yet attached to an item with a path. */
  spans: InstructionLikeSpan[];
}

/** Text fields a tool returns from repository or task text. */
const TEXT_FIELDS = ["content", "snippet"] as const;
/** Trust levels whose text is always wrapped: prose a contributor wrote, not code. */
const WRAPPED_TRUST: ReadonlySet<string> = new Set<TrustLevel>([
  "repo_documentation",
  "repo_documentation_untrusted_instruction",
  "repo_instructions",
  "external_task_text",
]);

function spansIn(text: string, firstLine: number | null): InstructionLikeSpan[] {
  return detectInstructionLikeText(text).map((m) => {
    const extra = m as { startColumn?: number; endColumn?: number };
    return {
      line: firstLine === null ? m.line : firstLine + m.line - 1,
      ruleId: m.ruleId,
      excerpt: m.excerpt,
      ...(typeof extra.startColumn === "number" ? { startColumn: extra.startColumn } : {}),
      ...(typeof extra.endColumn === "number" ? { endColumn: extra.endColumn } : {}),
    };
  });
}

function project(value: unknown, walk: Walk): Projected {
  if (typeof value === "string") {
    const r = redactText(value);
    return { value: r.text, reasons: r.redactions.map((x) => x.reason), spans: [] };
  }
  if (Array.isArray(value)) {
    const reasons: string[] = [];
    const spans: InstructionLikeSpan[] = [];
    const out = value.map((v) => {
      const p = project(v, walk);
      if (typeof v === "string") reasons.push(...p.reasons);
      spans.push(...p.spans);
      return p.value;
    });
    return { value: out, reasons, spans };
  }
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    const own: string[] = [];
    const spans: InstructionLikeSpan[] = [];
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const p = project(v, walk);
      out[k] = p.value;
      if (typeof v === "string" || Array.isArray(v)) own.push(...p.reasons);
      spans.push(...p.spans);
    }
    const firstLine = typeof out.startLine === "number" ? out.startLine : null;
    const ownText = TEXT_FIELDS.filter((f) => typeof out[f] === "string");
    const ownSpans = new Map(ownText.map((f) => [f, spansIn(out[f] as string, firstLine)]));
    for (const s of ownSpans.values()) spans.push(...s);
    const named = typeof out.path === "string" && walk.labels.has(out.path);
    if (named && out.trustLevel === undefined) out.trustLevel = labelFor(out.path as string, walk.labels);
    if (own.length > 0) {
      const prior = Array.isArray(out.redactionReasons) ? (out.redactionReasons as string[]) : [];
      out.redacted = true;
      out.redactionReasons = [...new Set([...prior, ...own])].sort();
    }
    const isItem = named || out.trustLevel === "external_task_text";
    if (isItem && spans.length > 0) {
      // Evidence, never authority: the item is labelled as untrusted instruction-like text, with where it is.
      if (out.trustLevel !== "external_task_text") out.trustLevel = "repo_documentation_untrusted_instruction";
      const prior = Array.isArray(out.warnings) ? (out.warnings as unknown[]) : [];
      if (!prior.includes(INSTRUCTION_LIKE_WARNING)) out.warnings = [...prior, INSTRUCTION_LIKE_WARNING];
      out.instructionLikeSpans = spans.slice(0, MAX_SPANS_PER_ITEM);
      if (spans.length > MAX_SPANS_PER_ITEM) out.instructionLikeSpanCount = spans.length;
      walk.flagged.push(typeof out.path === "string" ? out.path : String(out.id ?? out.title ?? "task"));
    }
    if (walk.options.wrapText) {
      const trust = typeof out.trustLevel === "string" ? out.trustLevel : null;
      for (const f of ownText) {
        const flaggedHere = (ownSpans.get(f)?.length ?? 0) > 0;
        const wrap = flaggedHere || (f === "content" && trust !== null && WRAPPED_TRUST.has(trust));
        if (!wrap) continue;
        out[f] = wrapUntrusted(out[f] as string, {
          source: typeof out.path === "string" ? out.path : null,
          trustLevel: flaggedHere && trust !== "external_task_text" ? "repo_documentation_untrusted_instruction" : (trust ?? "tool_output"),
          commit: walk.options.index?.baseCommit ?? null,
          startLine: firstLine,
          endLine: typeof out.endLine === "number" ? out.endLine : null,
        });
      }
    }
    return { value: out, reasons: [], spans: isItem ? [] : spans };
  }
  return { value, reasons: [], spans: [] };
}

/** Error text reaches the model too: it is redacted like any result. */
export function projectMessage(message: string): string {
  return redactText(message).text;
}
