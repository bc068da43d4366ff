import { randomUUID } from "node:crypto";

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** JSON lines for programs and log collectors; one readable line per record for a person at a terminal. */
export const LOG_FORMATS = ["human", "json"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

const LEVEL_ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** The format when none is asked for: human on a terminal, JSON lines otherwise (a pipe, a file, a client). */
export function defaultLogFormat(stream: NodeJS.WritableStream): LogFormat {
  return (stream as { isTTY?: boolean }).isTTY === true ? "human" : "json";
}

/** A field's value in a human line: bare when it has no space or quote, JSON otherwise. */
function shown(v: unknown): string {
  const text = typeof v === "string" ? v : JSON.stringify(v);
  return typeof v === "string" && /^[^\s"=]+$/.test(v) ? v : typeof v === "string" ? JSON.stringify(v) : (text ?? "null");
}

/** `12:04:05 info  ready transport=stdio repoId=acme …`: the time, the level, the message, then each field. */
export function humanLine(at: Date, level: LogLevel, message: string, fields: Record<string, unknown> = {}): string {
  const time = at.toISOString().slice(11, 19);
  const rest = Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${shown(v)}`)
    .join(" ");
  return `${time} ${level.padEnd(5)} ${message}${rest ? ` ${rest}` : ""}`;
}

/** Log records to a writable stream (stderr by default: in stdio mode stdout belongs to JSON-RPC), in one format. */
export function createLogger(stream: NodeJS.WritableStream = process.stderr, minLevel: LogLevel = "info", format: LogFormat = defaultLogFormat(stream)): Logger {
  return {
    log(level, message, fields) {
      if (LEVEL_ORDER[level] < LEVEL_ORDER[minLevel]) return;
      const at = new Date();
      const line = format === "json" ? JSON.stringify({ time: at.toISOString(), level, message, ...fields }) : humanLine(at, level, message, fields);
      stream.write(`${line}\n`);
    },
  };
}

export const silentLogger: Logger = { log() {} };

export function newCorrelationId(): string {
  return randomUUID();
}
