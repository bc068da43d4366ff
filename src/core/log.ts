import { randomUUID } from "node:crypto";

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

const LEVEL_ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** JSON lines to a writable stream (stderr by default: in stdio mode stdout belongs to JSON-RPC). */
export function createLogger(stream: NodeJS.WritableStream = process.stderr, minLevel: LogLevel = "info"): Logger {
  return {
    log(level, message, fields) {
      if (LEVEL_ORDER[level] < LEVEL_ORDER[minLevel]) return;
      stream.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`);
    },
  };
}

export const silentLogger: Logger = { log() {} };

export function newCorrelationId(): string {
  return randomUUID();
}
