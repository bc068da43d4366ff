import type { EvidenceDraft } from "../query/context.js";
import type { IndexRow } from "../store/store.js";
import { trustLevelFor, type LabelInput, type TrustLevel } from "./labels.js";
import { redactText } from "./redact.js";

export interface Evidence extends EvidenceDraft {
  commitSha: string | null;
  indexVersion: string | null;
  trustLevel: TrustLevel;
}

/**
 * The safe projection, applied once to every tool result and every error text before it leaves the server:
 * secret-looking values become `[REDACTED]` (the object that held them says so and why), every object that names
 * an indexed path gets that path's trust label, and evidence gets commit, index version and label.
 */
export function projectEvidence(drafts: EvidenceDraft[], index: IndexRow | null, labels: Map<string, LabelInput>): Evidence[] {
  return drafts.map((d) => ({
    ...d,
    commitSha: index?.baseCommit ?? null,
    indexVersion: index?.indexVersion ?? null,
    trustLevel: labelFor(d.path, labels),
  }));
}

function labelFor(path: string, labels: Map<string, LabelInput>): TrustLevel {
  const input = labels.get(path);
  return input ? trustLevelFor(input) : "tool_output";
}

/** Redacts every string in a JSON-like value and labels objects naming a known path. Returns a new value. */
export function projectData<T>(value: T, labels: Map<string, LabelInput>): T {
  return project(value, labels).value as T;
}

interface Projected {
  value: unknown;
  reasons: string[];
}

function project(value: unknown, labels: Map<string, LabelInput>): Projected {
  if (typeof value === "string") {
    const r = redactText(value);
    return { value: r.text, reasons: r.redactions.map((x) => x.reason) };
  }
  if (Array.isArray(value)) {
    const reasons: string[] = [];
    const out = value.map((v) => {
      const p = project(v, labels);
      if (typeof v === "string") reasons.push(...p.reasons);
      return p.value;
    });
    return { value: out, reasons };
  }
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    const own: string[] = [];
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const p = project(v, labels);
      out[k] = p.value;
      if (typeof v === "string" || Array.isArray(v)) own.push(...p.reasons);
    }
    if (typeof out.path === "string" && labels.has(out.path) && out.trustLevel === undefined) {
      out.trustLevel = labelFor(out.path, labels);
    }
    if (own.length > 0) {
      const prior = Array.isArray(out.redactionReasons) ? (out.redactionReasons as string[]) : [];
      out.redacted = true;
      out.redactionReasons = [...new Set([...prior, ...own])].sort();
    }
    return { value: out, reasons: [] };
  }
  return { value, reasons: [] };
}

/** Error text reaches the model too: it is redacted like any result. */
export function projectMessage(message: string): string {
  return redactText(message).text;
}
