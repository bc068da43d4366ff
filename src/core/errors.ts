/**
 * Expected failures are results, not crashes: each carries one of the public categories and an actionable,
 * safe message (no stack, no host paths outside the repository, no configuration internals).
 */
export const ERROR_CATEGORIES = [
  "invalid_input",
  "query_rejected",
  "not_found",
  "stale_context",
  "index_unavailable",
  "internal_error",
] as const;
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

export class QueryError extends Error {
  constructor(
    readonly category: Exclude<ErrorCategory, "internal_error">,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = "QueryError";
  }
}
