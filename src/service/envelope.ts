import type { ErrorCategory } from "../core/errors.js";
import type { Freshness, Warning, Evidence } from "../core/evidence.js";

/** One JSON object per tool result, success or failure (DESIGN.md "Output envelope"). */
export interface Envelope {
  ok: boolean;
  tool: string;
  repoId: string | null;
  baseCommit: string | null;
  indexVersion: string | null;
  freshness: Freshness;
  warnings: Warning[];
  data: Record<string, unknown>;
  evidence: Evidence[];
  truncated: boolean;
}

export interface ErrorData {
  category: ErrorCategory;
  message: string;
  hint?: string;
  correlationId?: string;
}
