import type { ErrorCategory } from "../core/errors.js";

/** Exit codes scripts can rely on; one per public error category. */
export const EXIT = {
  ok: 0,
  internal_error: 1,
  invalid_input: 2,
  not_found: 3,
  query_rejected: 4,
  stale_context: 5,
  index_unavailable: 6,
} as const satisfies Record<ErrorCategory | "ok", number>;

export function exitCodeFor(category: ErrorCategory): number {
  return EXIT[category];
}
