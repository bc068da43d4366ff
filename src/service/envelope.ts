import type { ErrorCategory } from "../core/errors.js";
import type { Freshness, Warning, Evidence } from "../core/evidence.js";

/**
 * One JSON object per tool result, success or failure (DESIGN.md "Output envelope"). `D` is the tool's data on
 * success (`ToolData` of its definition); a failure's data is `{ error: ErrorData }`.
 */
export interface Envelope<D extends Record<string, unknown> = Record<string, unknown>> {
  ok: boolean;
  tool: string;
  repoId: string | null;
  baseCommit: string | null;
  indexVersion: string | null;
  freshness: Freshness;
  warnings: Warning[];
  data: D;
  evidence: Evidence[];
  truncated: boolean;
}

export interface ErrorData {
  category: ErrorCategory;
  message: string;
  hint?: string;
  correlationId?: string;
}
