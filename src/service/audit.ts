import { createHash } from "node:crypto";
import { appendFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { Logger } from "../core/log.js";
import { redactText } from "../policy/redact.js";
import type { AuditRecord, Store } from "../store/store.js";
import type { Envelope } from "./envelope.js";

/** Run and step ids a client may send in a request's `_meta` (plain or namespaced keys). */
export interface CallMeta {
  runId?: string;
  stepId?: string;
}

const MAX_META_ID_CHARS = 200;
const PREVIEW_CHARS = 160;
/** Deeper than any tool argument goes (the transports refuse more than 64 levels; the CLI and in-process callers do not). */
const MAX_CANONICAL_DEPTH = 64;

export function callMetaFrom(meta: Record<string, unknown> | undefined): CallMeta {
  const pick = (...keys: string[]): string | undefined => {
    for (const k of keys) {
      const v = meta?.[k];
      if (typeof v === "string" && v.length > 0) return v.slice(0, MAX_META_ID_CHARS);
    }
    return undefined;
  };
  const runId = pick("runId", "io.repoctx/runId");
  const stepId = pick("stepId", "io.repoctx/stepId");
  return { ...(runId ? { runId } : {}), ...(stepId ? { stepId } : {}) };
}

/** JSON with object keys sorted, so the same arguments always hash the same. */
function canonical(value: unknown, depth = 0): string {
  // Arguments nested deeper than any tool takes are hashed as a marker: recursion stays bounded whatever arrives.
  if (depth > MAX_CANONICAL_DEPTH) return '"[nested too deep]"';
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, depth + 1)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v, depth + 1)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function queryHash(args: unknown): string {
  return `sha256:${createHash("sha256").update(canonical(args)).digest("hex")}`;
}

/** One tool call as the audit sees it. */
export interface AuditCall {
  tool: string;
  args: unknown;
  envelope: Envelope;
  latencyMs: number;
  meta: CallMeta;
  at: Date;
}

export interface AuditSink {
  record(call: AuditCall): Promise<void>;
}

/** The record a call leaves: its arguments' hash, never the arguments; a short redacted preview when the operator asks. */
function auditRecord({ tool, args, envelope, latencyMs, meta, at }: AuditCall, preview: boolean): AuditRecord {
  const a = (args ?? {}) as Record<string, unknown>;
  const mode = typeof a.mode === "string" ? a.mode : typeof a.intent === "string" ? a.intent : null;
  const error = envelope.ok ? null : (envelope.data.error as { category?: string } | undefined);
  return {
    at: at.toISOString(),
    runId: meta.runId ?? null,
    stepId: meta.stepId ?? null,
    tool,
    queryHash: queryHash(args),
    mode,
    resultCount: envelope.evidence.length,
    truncated: envelope.truncated,
    latencyMs: Math.round(latencyMs * 1000) / 1000,
    repoId: envelope.repoId,
    indexVersion: envelope.indexVersion,
    outcome: envelope.ok ? "ok" : (error?.category ?? "internal_error"),
    preview: preview ? redactText(canonical(args)).text.slice(0, PREVIEW_CHARS) : null,
  };
}

/**
 * Writes audit records one after another into the store and, when a file is given, as JSON lines appended to it. A
 * failing write is logged and never fails the call. One writer per process: worker threads hand it their records.
 */
export function auditWriter(opts: { store: Store; jsonlFile?: string; logger: Logger }): (rec: AuditRecord) => Promise<void> {
  let chain: Promise<void> = Promise.resolve();
  let folder: Promise<unknown> | null = null;
  return (rec) => {
    const write = async (): Promise<void> => {
      try {
        await opts.store.appendAudit(rec);
        if (opts.jsonlFile) {
          // The folder once: each call is one file system step less on the process's shared I/O threads.
          await (folder ??= mkdir(dirname(opts.jsonlFile), { recursive: true }).catch((err: unknown) => {
            folder = null;
            throw err;
          }));
          await appendFile(opts.jsonlFile, `${JSON.stringify(rec)}\n`, { mode: 0o600 });
        }
      } catch (err) {
        opts.logger.log("warn", "audit write failed", { tool: rec.tool, error: err instanceof Error ? err.message : String(err) });
      }
    };
    chain = chain.then(write);
    return chain;
  };
}

/**
 * Audit: one record per tool call into the store and, when a file is given, one JSON line appended to it.
 * Raw arguments are never written; the operator may enable a short redacted preview.
 */
export function createAuditSink(opts: { store: Store; jsonlFile?: string; preview: boolean; logger: Logger }): AuditSink {
  return auditSink(auditWriter(opts), opts.preview);
}

/** A sink that turns each call into its record and hands it to `write` (this thread's writer, or a worker's way to it). */
export function auditSink(write: (rec: AuditRecord) => Promise<void>, preview: boolean): AuditSink {
  return { record: (call) => write(auditRecord(call, preview)) };
}
