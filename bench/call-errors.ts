/**
 * What the in-process tool measurements run in a child process share (knowledge, context assembly): a logger that
 * keeps the exceptions the server logs under a correlation id and prints nothing, a recorder that counts every
 * envelope with ok=false by call, category and message, and a timer for single calls (so a warm-up call is timed).
 */
import { performance } from "node:perf_hooks";
import type { Envelope } from "../src/service/envelope.js";
import type { Logger } from "../src/core/log.js";

export interface CallError {
  /** The tool or resource, and the lookup's label. */
  call: string;
  category: string;
  /** The envelope's message; for an internal error, the exception the server logged (name, message, first frame). */
  message: string;
  /** Envelopes with this error (warm-up and timed passes). */
  count: number;
}

export const num = (v: unknown): number => (typeof v === "number" ? v : 0);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
/** A failed envelope's error category (its message is in the recorder's errors). */
export const errorOf = (e: Envelope): string | undefined => (e.ok ? undefined : String(obj(e.data.error).category ?? "unknown"));

/** Exceptions logged with their correlation id (an internal error's envelope carries only the id); no output. */
export function capturingLogger(): { logger: Logger; detail(correlationId: string): string | undefined } {
  const details = new Map<string, string>();
  return {
    logger: {
      log(level, _message, fields) {
        if (level !== "error" || typeof fields?.correlationId !== "string") return;
        const e = fields.error;
        if (e !== null && typeof e === "object") {
          const { name, message, stack } = e as { name?: unknown; message?: unknown; stack?: unknown };
          const frame = typeof stack === "string" ? stack.split("\n").find((l) => l.trimStart().startsWith("at "))?.trim() : undefined;
          details.set(fields.correlationId, `${String(name)}: ${String(message)}${frame ? ` (${frame})` : ""}`);
        } else details.set(fields.correlationId, String(e));
      },
    },
    detail: (id) => details.get(id),
  };
}

/**
 * A logger for the deps, and `note(call, envelope)`, which records a failed envelope (and returns the envelope
 * unchanged); `errors()` lists what was recorded.
 */
export function errorRecorder(): { logger: Logger; note(call: string, e: Envelope): Envelope; errors(): CallError[] } {
  const errors = new Map<string, CallError>();
  const captured = capturingLogger();
  return {
    logger: captured.logger,
    note(call, e) {
      if (e.ok) return e;
      const d = obj(e.data.error);
      const category = typeof d.category === "string" ? d.category : "unknown";
      const logged = typeof d.correlationId === "string" ? captured.detail(d.correlationId) : undefined;
      const message = logged ?? (typeof d.message === "string" ? d.message : JSON.stringify(e.data.error)).replace(/correlation id [0-9a-f-]+/i, "correlation id …");
      const key = `${call}\u0000${category}\u0000${message}`;
      const seen = errors.get(key);
      if (seen) seen.count += 1;
      else errors.set(key, { call, category, message, count: 1 });
      return e;
    },
    errors: () => [...errors.values()],
  };
}

/** A call and its own wall time, so a warm-up (cold) call is timed too. */
export async function timed(call: () => Promise<Envelope>): Promise<{ envelope: Envelope; ms: number }> {
  const started = performance.now();
  const envelope = await call();
  return { envelope, ms: performance.now() - started };
}
