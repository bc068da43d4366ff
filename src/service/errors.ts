import { z } from "zod";
import { newCorrelationId, type Logger } from "../core/log.js";
import { projectMessage } from "../policy/projection.js";
import { QueryError } from "../core/errors.js";
import type { ErrorData } from "./envelope.js";

const MAX_ISSUES_REPORTED = 5;

/** Schema violations as the envelope's `invalid_input`, naming the offending fields but never echoing values. */
export function invalidInput(error: z.ZodError): ErrorData {
  const issues = error.issues.slice(0, MAX_ISSUES_REPORTED).map((i) => `${i.path.join(".") || "(arguments)"}: ${i.message}`);
  return { category: "invalid_input", message: `invalid arguments: ${issues.join("; ")}` };
}

/**
 * Maps anything thrown by a handler to a public error. Expected failures keep their category and message; bugs
 * become `internal_error` with a correlation id, and the original goes only to the server log.
 */
export function toErrorData(err: unknown, logger: Logger, tool: string): ErrorData {
  if (err instanceof QueryError) {
    return { category: err.category, message: projectMessage(err.message), ...(err.hint ? { hint: err.hint } : {}) };
  }
  if (err instanceof z.ZodError) return invalidInput(err);
  const correlationId = newCorrelationId();
  logger.log("error", "tool failed", {
    tool,
    correlationId,
    error: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err),
  });
  return {
    category: "internal_error",
    message: `internal error; the server log has details under correlation id ${correlationId}`,
    correlationId,
  };
}
